"""A cushion touched by a ball struck from rest before the camera saw it move.

A cue ball struck a hand's width from a cushion may reach it within one frame of the
stroke: its first moving sample is already on the way back, so the cushion finder has
no approach to fit. A ball set off from rest runs straight from its resting centre
until its first contact, so the straight path of its first moving samples, traced
back, must pass through that centre. When it does not, but passes through the
centre's image in a cushion (traced back to the nose and on, with the normal speed it
had before the bounce), the ball came off that cushion. The time is where the
traced-back path reaches the nose.

Thresholds were tuned on the tuning part of the independent set only
(``bench/independent_events.py``; ``docs/independent-events.md``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, BallContact, Cushion, CushionContact
from vision._types import ScoredEvent
from vision.events._cushion_after_kiss import cushion_contact_near
from vision.events._cushion_contacts import NORMALS, Tolerances, normal_gap
from vision.events._path_fit import PathFit, Samples
from vision.events._ways_back import RESTITUTIONS, WayBack, back_miss, ways_back

__all__ = ["cushions_after_strokes", "kissed"]

F64 = NDArray[np.float64]

#: Slowest first path (mm/s) read as a stroke: slower, the way back is too uncertain.
_STRUCK_MM_S = 200.0


#: A path traced back over an unseen stretch may miss the rest by this share of the way.
_UNSEEN_SLACK = 0.15
#: A way through more noses that misses the rest this many times less than the way
#: taken makes its other noses doubtful contacts (a cue ball struck a few cm from a
#: cushion: the way that skips that cushion passes within a few mm of the rest too).
_MORE_NOSES = 3.0
#: Confidence of such a contact (below the extractor's doubt threshold).
_RIVAL = 0.3
#: The fastest a ball leaves its rest (mm/s): faster than any stroke of the game.
_MAX_STRUCK_MM_S = 10000.0
#: The least share of its speed a ball keeps in a bounce (a hard, square hit).
_BOUNCE_KEEPS = 0.6


def cushions_after_strokes(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Cushion contacts of balls set off from rest, hidden before their first moving frame."""
    out: list[ScoredEvent] = []
    for ball, s in samples.items():
        for i in _rests_before_moving(s, tol):
            if kissed(found, ball, float(s.t_s[i]), float(s.t_s[i + 1])):
                continue  # set off by a ball: the ball contact's finders decide
            if _unseen_from(s, i, tol) is not None:
                out += _unseen_cushions(s, i, ball, [*found, *out], geometry, tol)
                continue
            hit = _came_off(s, i, geometry, tol)
            if hit is not None and not cushion_contact_near([*found, *out], ball, hit[1], hit[0]):
                t_s, cushion, miss_mm = hit
                ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, t_err_s=0.5 * tol.dt_s)
                why = (f"its first path, traced back through the {cushion} cushion, passes "
                       f"{miss_mm:.1f} mm from its resting centre")  # fmt: skip
                out.append(ScoredEvent(ev, 0.7, why))
    return out


def _unseen_from(s: Samples, i: int, tol: Tolerances) -> int | None:
    """The last sample before an unseen stretch of 3 frames or more, or None.

    The stretch must start within 3 samples of the rest at ``i``, before the ball went
    30 mm.
    """
    for k in range(i, min(i + 3, len(s) - 1)):
        if s.t_s[k + 1] - s.t_s[k] >= 3 * tol.dt_s:
            return k if float(np.linalg.norm(s.xy_mm[k] - s.xy_mm[i])) <= 30.0 else None
    return None


def _unseen_cushions(
    s: Samples,
    i: int,
    ball: Ball,
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """The cushions of a ball unseen from its rest until well after the stroke.

    A cue ball too fast to be seen (a long blurred streak) may touch one to three
    cushions before it is first seen: its first path, traced back through the cushion
    it came off (and the ones before), must pass through its resting centre. The
    times are along that way from the last still frame to the first seen one, the
    ball slowing evenly (:func:`_timed`); ``t_err_s`` is a tenth of the unseen time.
    """
    k = _unseen_from(s, i, tol)
    post = None if k is None else s.fit_after(k + 1, 3)
    if post is None or post.n < 3:
        return []
    # At the first leg's speed the ball left when it was last seen still or just after;
    # a ball slows on its way, so the estimate may fall up to a third earlier.
    t_rest, t_seen = float(s.t_s[i]), post.t_lo_s
    window = (t_rest - (t_seen - t_rest) / 3.0, t_rest + 2.0 * tol.dt_s)
    # It left after its last still frame: half a frame after it when it vanished at once.
    t_left = float(s.t_s[k]) + (0.5 * tol.dt_s if k == i else 0.0)
    way, rival = _unseen_way(post, (s.xy_mm[i], t_left), window, geometry)
    if way is None:
        return []
    legs = _timed(way, (s.xy_mm[k], t_left), post)
    out: list[ScoredEvent] = []
    t_err = max(0.5 * tol.dt_s, 0.1 * (t_seen - t_left))
    for t_s, cushion in legs:
        if cushion_contact_near([*found, *out], ball, cushion, t_s):
            continue
        ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, t_err_s=t_err)
        why = f"unseen from its rest; its first path traced back through {len(legs)} cushion(s)"
        out.append(ScoredEvent(ev, 0.6, why))
    if rival is not None:
        for t_s, cushion in _timed(rival, (s.xy_mm[k], t_left), post):
            if cushion_contact_near([*found, *out], ball, cushion, t_s, max(t_err, 0.05)):
                continue
            doubt = (f"unseen {t_seen - t_left:.2f} s from its rest; a way through "
                     f"{len(rival.bounces)} cushions fits too, this one among them")  # fmt: skip
            ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, t_err_s=t_err, doubt=doubt)
            out.append(ScoredEvent(ev, _RIVAL, doubt))
    return out


def _plausible_pace(way: WayBack, left: tuple[F64, float], post: PathFit) -> bool:
    """True if a ball can have run ``way`` from ``left`` to ``post``'s first sample.

    Its mean speed must be at least nine tenths of the speed it was seen at (it slowed,
    it did not speed up; a tenth for the noise of the speed seen), and it must have
    left its rest at ``_MAX_STRUCK_MM_S`` or less: slowing evenly, or running at an
    even speed on each leg and losing a share of it in each bounce (a hard bounce takes
    up to 40 %). Slowing evenly to the speed seen after the bounces asked for 11 m/s of
    a white that left at 7.5 m/s and lost a third in its bounce just before it was
    seen (pt0035).
    """
    along, span = _along(way, left, post)
    v_end = float(np.linalg.norm(post.velocity(post.t_lo_s)))
    mean = float(along[-1]) / span
    if not 0.9 * v_end <= mean:
        return False
    if 2.0 * mean - v_end <= _MAX_STRUCK_MM_S:
        return True
    legs = np.diff(np.r_[0.0, along])
    keeps = _bounce_keeps(legs, span, v_end)
    return keeps is not None and v_end / keeps ** (len(legs) - 1) <= _MAX_STRUCK_MM_S


def _left_by(
    way: WayBack, left: tuple[F64, float], post: PathFit, window_s: tuple[float, float]
) -> tuple[F64, float]:
    """``left`` (its rest, when it left it), later if the way asks and the window allows.

    Unseen at the stroke (under the cue), a ball may have left its rest up to the end
    of ``window_s``: as late as its mean speed on the way needs to be the speed it was
    seen at (it slowed on the way; tuning pt0070 at 30 fps: last seen still a frame
    before its stroke, seen again three frames on at 5.2 m/s: left half a frame after
    its last still sample, it ran the way at 4.5 m/s).
    """
    along, _ = _along(way, left, post)
    v_end = float(np.linalg.norm(post.velocity(post.t_lo_s)))
    t_need = post.t_lo_s - float(along[-1]) / max(v_end, 1e-9)
    return left[0], max(left[1], min(t_need, window_s[1], post.t_lo_s - 1e-3))


def _bounce_keeps(legs_mm: F64, span_s: float, v_end: float) -> float | None:
    """The share of its speed a ball kept in each bounce to run ``legs_mm`` in ``span_s``.

    Each leg at an even speed, the last at ``v_end``; None if even ``_BOUNCE_KEEPS``
    is not enough (the way is too long for the time).
    """
    n = len(legs_mm) - 1

    def took(keep: float) -> float:
        return float(sum(d * keep ** (n - j) for j, d in enumerate(legs_mm.tolist()))) / v_end

    lo, hi = _BOUNCE_KEEPS, 1.0
    if took(lo) > span_s:
        return None
    for _ in range(30):  # took() grows with the share kept
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if took(mid) < span_s else (lo, mid)
    return lo


def _along(way: WayBack, left: tuple[F64, float], post: PathFit) -> tuple[F64, float]:
    """Distances (mm) along ``way`` from ``left`` to each nose and to ``post``; its time."""
    start, t0 = left
    t1 = post.t_lo_s
    points = [start, *(b[2] for b in way.bounces), post.at(t1)[0]]
    dist = np.cumsum([float(np.linalg.norm(q - p)) for p, q in itertools.pairwise(points)])
    return dist, max(t1 - t0, 1e-6)


def _timed(way: WayBack, left: tuple[F64, float], post: PathFit) -> list[tuple[float, Cushion]]:
    """When the ball reached each nose of ``way`` on its way from ``left`` to ``post``.

    ``left``: where and when it set off. It covered the way's length in the time to its
    first seen sample and arrived at the speed seen then: slowing evenly (cloth
    friction; cushions take a little more), each nose's time is where its distance
    along the way falls. A way that would need the ball to speed up is timed at its
    mean speed.
    """
    t0 = left[1]
    along, span = _along(way, left, post)
    total = float(along[-1])
    v_end = float(np.linalg.norm(post.velocity(post.t_lo_s)))
    slowing = max(2.0 * (total - v_end * span) / span**2, 0.0)  # mm/s^2
    v0 = total / span + 0.5 * slowing * span
    out = []
    for d, (_, cushion, _) in zip(along[:-1].tolist(), way.bounces, strict=True):
        if slowing > 0.0:
            t = (v0 - math.sqrt(max(v0 * v0 - 2.0 * slowing * d, 0.0))) / slowing
        else:
            t = d / v0
        out.append((t0 + t, cushion))
    return out


def _unseen_way(
    post: PathFit,
    left: tuple[F64, float],
    window_s: tuple[float, float],
    geometry: TableGeometry,
) -> tuple[WayBack | None, WayBack | None]:
    """The way through one to three cushions a path came since it left ``rest``, and a rival.

    None if none fits. Traced back from its first seen path to the nose its backward
    ray meets first, then (the speed before over each restitution tried) on to
    ``rest``, or to the nose before that (and the one before that) and on to ``rest``.
    Unseen for a long way, spin and the cushion's friction turn each leg by a few
    degrees: a way fits if it passes within ``_UNSEEN_SLACK`` of ``rest`` relative to
    the way back, if at the speed of its first leg it left ``rest`` within ``window_s``
    (a ball not seen at rest was already moving), and if a ball can have run it from
    ``left`` (its rest and when it left it) to its first seen sample
    (:func:`_plausible_pace`). Of the ways through the fewest noses that fit, the
    closest is taken; the rival is the closest through more noses that misses the rest
    ``_MORE_NOSES`` times less, if any.
    """
    rest, t_s = left[0], post.t_lo_s
    # The best way through each number of noses; the fewest noses that fit win. Each
    # nose more is one more restitution to bend the way with: through enough noses
    # some way passes through any rest (on the tuning part, preferring the closest way
    # whatever its noses found a third more cushions but made up three times as many).
    best: dict[int, tuple[float, WayBack]] = {}
    for way in ways_back(post.at(t_s)[0], post.velocity(t_s), t_s, geometry, max_noses=3):
        t_first, _, at_first = way.bounces[0]
        if not _left_within(rest, (t_first, at_first, way.v_first_mm_s), window_s):
            continue
        length = float(np.linalg.norm(rest - at_first)) + sum(
            float(np.linalg.norm(q[2] - p[2])) for p, q in itertools.pairwise(way.bounces)
        )
        share = back_miss(at_first, way.v_first_mm_s, rest) / max(length, 1.0)
        n = len(way.bounces)
        if share > _UNSEEN_SLACK or not _plausible_pace(
            way, _left_by(way, left, post, window_s), post
        ):
            continue
        if share < best.get(n, (math.inf,))[0]:
            best[n] = (share, way)
    if not best:
        return None, None
    chosen = best[min(best)]
    rivals = [b for n, b in best.items() if n > min(best) and b[0] * _MORE_NOSES < chosen[0]]
    return chosen[1], min(rivals, key=lambda b: b[0])[1] if rivals else None


def _left_within(rest: F64, leg: tuple[float, F64, F64], window_s: tuple[float, float]) -> bool:
    """True if a first leg left ``rest`` within ``window_s`` at its speed.

    ``leg``: the time it reached the nose, the centre there and its velocity.
    """
    t_nose, at_nose, v = leg
    t_left = t_nose - float(np.linalg.norm(at_nose - rest)) / max(float(np.linalg.norm(v)), 1.0)
    return window_s[0] <= t_left <= window_s[1]


def _rests_before_moving(s: Samples, tol: Tolerances) -> list[int]:
    """Last still sample of each rest that is followed by clear motion."""
    still_mm, away_mm = max(1.0, 3.0 * tol.noise_mm), max(3.0, 6.0 * tol.noise_mm)
    out = []
    for i in range(1, len(s) - 3):
        rest = s.xy_mm[i]
        before = s.xy_mm[max(i - 3, 0) : i]
        settled = s.rests_after(i - 1) or (
            i >= 3 and bool(np.all(np.linalg.norm(before - rest, axis=1) < still_mm))
        )
        if settled and float(np.linalg.norm(s.xy_mm[i + 1] - rest)) > away_mm:
            out.append(i)
    return out


def kissed(found: Sequence[ScoredEvent], ball: Ball, lo_s: float, hi_s: float) -> bool:
    return any(
        isinstance(e.event, BallContact)
        and ball in e.event.balls
        and lo_s - 0.05 <= e.event.t_s <= hi_s + 0.05
        for e in found
    )


def _line_miss(fit: PathFit, xy: F64) -> tuple[float, bool]:
    """Distance (mm) of ``xy`` from the fit's line, and whether it lies behind the start."""
    start = fit.at(fit.t_lo_s)[0]
    v = fit.velocity(fit.t_lo_s)
    d = v / max(float(np.linalg.norm(v)), 1e-9)
    rel = xy - start
    return abs(float(rel[0] * d[1] - rel[1] * d[0])), float(rel @ d) < 0.0


def _off_cushion(
    post: PathFit, rest: F64, wall: tuple[Cushion, F64], geometry: TableGeometry, allow: float
) -> tuple[float, Cushion, float] | None:
    """The touch of one cushion if the path, traced back through it, starts at ``rest``.

    Traced back to the nose, then on with the normal speed it had before the bounce
    (the speed after over the restitution, 0.6-1.0: the best of them), the path must
    pass within ``allow`` (and 8 % of the way back) of the resting centre.
    """
    cushion, n = wall
    v = post.velocity(post.t_lo_s)
    v_out = float(v @ n)
    if v_out <= 0.0:
        return None
    start = post.at(post.t_lo_s)[0]
    t_c = post.t_lo_s - float(normal_gap(start[None, :], cushion, geometry)[0]) / v_out
    at_nose = start + v * (t_c - post.t_lo_s)
    miss = min(back_miss(at_nose, v - v_out * n - (v_out / e) * n, rest) for e in RESTITUTIONS)
    # Spin and the cushion's friction turn the way off a plain reflection by a few
    # degrees, so the miss may grow with the way back.
    way_mm = float(np.linalg.norm(rest - at_nose))
    return (float(t_c), cushion, miss) if miss <= allow + 0.08 * way_mm else None


def _came_off(
    s: Samples, i: int, geometry: TableGeometry, tol: Tolerances
) -> tuple[float, Cushion, float] | None:
    """``(t_s, cushion, miss_mm)`` when the first path came off a cushion, else None."""
    rest = s.xy_mm[i]
    for j in (i + 1, i + 2):
        post = s.fit_after(j, 3)
        fast = post is not None and np.linalg.norm(post.velocity(post.t_lo_s)) >= _STRUCK_MM_S
        if post is None or post.n < 3 or not fast:
            continue
        straight, behind = _line_miss(post, rest)
        allow = max(4.0, 4.0 * tol.noise_mm)
        if behind and straight < 3.0 * allow:
            return None  # it runs straight from its rest: no cushion first
        for cushion, normal in NORMALS.items():
            hit = _off_cushion(post, rest, (cushion, np.array(normal)), geometry, allow)
            if hit is None or not s.t_s[i] < hit[0] <= post.t_lo_s:
                continue
            if j == i + 1 or s.t_s[i + 1] < hit[0]:
                return hit
    return None
