"""Cushions a moving ball touched while it was unseen between two seen paths.

A ball hidden in mid-flight (under an arm, behind a player, a blurred streak the
detector lost) for a few frames may touch one or two cushions meanwhile: the cushion
finder sees no approach and no way back to fit. A ball between two contacts runs
straight: its path after the gap, traced back through the nose it came off (and the
one before that), must lead to where it was last seen, coming in the way it was
going then. When the straight path cannot join the two but such a traced path does,
the ball touched those cushions. The times follow from a speed falling evenly across
the gap, from the speed last seen to the speed seen again (``t_err_s`` a tenth of the
gap).

When no traced path joins them (a ball curving on its spin, a rebound angle the traced
restitutions do not cover) but the ball went towards a cushion before the gap and away
from it after, only that cushion (or a ball, and the ball contacts' finders decide
those) can have turned it. The contact is then *guessed*: it carries a ``doubt``, the
time where the two paths reach the nose, and ``t_err_s`` half the gap, so the referee
holds the shot for review where the call hangs on it instead of calling it without a
cushion the ball must have touched. A camera that drops frames (a machine too busy to
read them all) leaves such gaps too.

Thresholds were set on the tuning part of the independent set only
(``bench/independent_events.py``; ``docs/independent-events.md``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, Cushion, CushionContact
from vision._types import ScoredEvent
from vision.events._cushion_after_kiss import cushion_contact_near
from vision.events._cushion_after_stroke import kissed
from vision.events._cushion_contacts import NORMALS, Tolerances, normal_gap
from vision.events._path_fit import PathFit, Samples
from vision.events._ways_back import back_miss, ways_back

__all__ = ["cushions_in_gaps"]

F64 = NDArray[np.float64]

#: Shortest unseen stretch looked at, in frames (shorter ones the cushion finder spans).
_GAP_FRAMES = 3.0

#: Slowest path (mm/s) either side of the gap: slower, the way across is too uncertain.
_MOVING_MM_S = 150.0

#: The traced path may miss the last seen centre by this share of the way across.
_SLACK = 0.08

#: ... and come in turned by at most this many degrees from the way the ball went.
_TURN_DEG = 12.0

#: The way across, over the distance the speeds seen cover in the gap, within these.
_PACE = (0.6, 1.4)

#: Slowest speed (mm/s) off a cushion, along its normal, that the tracing undoes: a ball
#: running along a cushion leaves it slower, and its way back is the straight one.
_OFF_MM_S = 100.0

#: A hypothesis with cushions must fit this many times better than the straight one.
_BETTER = 3.0

#: Slowest speed (mm/s) towards a cushion before the gap and away from it after that
#: makes the contact guessed when no traced path joins: slower, a curve can turn it.
_TURNED_MM_S = 100.0

#: Confidence of a guessed contact (below the extractor's doubt threshold).
_GUESSED = 0.3


def cushions_in_gaps(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Cushion contacts of balls unseen in mid-flight (see the module docstring)."""
    out: list[ScoredEvent] = []
    for ball, s in samples.items():
        for k in _gaps(s, tol):
            t_a, t_b = float(s.t_s[k]), float(s.t_s[k + 1])
            if kissed(found, ball, t_a, t_b):
                continue  # a ball contact in the gap: its finders decide
            pre, post = s.fit_before(k, 3), s.fit_after(k + 1, 3)
            legs = _gap_legs(pre, post, geometry)
            if not legs:
                out += _guessed(ball, pre, post, [*found, *out], geometry)
                continue
            t_err = max(0.5 * tol.dt_s, 0.1 * (t_b - t_a))
            for t_s, cushion in legs:
                if cushion_contact_near([*found, *out], ball, cushion, t_s):
                    continue
                ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, t_err_s=t_err)
                why = (f"unseen {t_b - t_a:.2f} s in mid-flight; its path after, traced back "
                       f"through {len(legs)} cushion(s), leads to where it was seen")  # fmt: skip
                out.append(ScoredEvent(ev, 0.6, why))
    return out


def _guessed(
    ball: Ball,
    pre: PathFit | None,
    post: PathFit | None,
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
) -> list[ScoredEvent]:
    """The cushions ``ball`` went towards before the gap and away from after it (guesses).

    The time: halfway between when the path before reaches the nose and when the path
    after left it, each at its speed along the normal, kept within the gap. Both must
    fall within the gap (give or take half of it) and a gap's length of each other.
    """
    if pre is None or post is None or pre.n < 3 or post.n < 3:
        return []
    t_a, t_b = pre.t_hi_s, post.t_lo_s
    a, va = pre.at(t_a)[0], pre.velocity(t_a)
    b, vb = post.at(t_b)[0], post.velocity(t_b)
    out = []
    for cushion, normal in NORMALS.items():
        n = np.array(normal)
        towards, away = -float(va @ n), float(vb @ n)
        if min(towards, away) < _TURNED_MM_S:
            continue
        reach_s = t_a + float(normal_gap(a[None, :], cushion, geometry)[0]) / towards
        left_s = t_b - float(normal_gap(b[None, :], cushion, geometry)[0]) / away
        if not _within_gap((reach_s, left_s), (t_a, t_b)):
            continue  # it turned too far from the nose: a curve, not a cushion
        t_s = min(max(0.5 * (reach_s + left_s), t_a), t_b)
        if any(cushion_contact_near(found, ball, c, t_s, within_s=t_b - t_a) for c in NORMALS):
            continue  # a contact in the gap already explains a turn
        doubt = (f"unseen {t_b - t_a:.2f} s; went towards the {cushion} cushion and came "
                 "away from it: the contact guessed")  # fmt: skip
        ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, doubt=doubt,
                            t_err_s=0.5 * (t_b - t_a))  # fmt: skip
        out.append(ScoredEvent(ev, _GUESSED, doubt))
    return out


def _gaps(s: Samples, tol: Tolerances) -> list[int]:
    """Last sample before each unseen stretch of a moving ball (not a rest)."""
    steps = np.diff(s.t_s)
    return [int(k) for k in np.nonzero(steps >= _GAP_FRAMES * tol.dt_s)[0] if not s.rest[k]]


def _gap_legs(
    pre: PathFit | None, post: PathFit | None, geometry: TableGeometry
) -> list[tuple[float, Cushion]]:
    """The cushions (earlier first, with their times) that join ``pre`` to ``post``."""
    if pre is None or post is None or pre.n < 3 or post.n < 3:
        return []
    t_a, t_b = pre.t_hi_s, post.t_lo_s
    a, va = pre.at(t_a)[0], pre.velocity(t_a)
    b, vb = post.at(t_b)[0], post.velocity(t_b)
    speeds = sorted((float(np.linalg.norm(va)), float(np.linalg.norm(vb))))
    if speeds[0] < _MOVING_MM_S:
        return []
    straight = _fit_share([a, b], va, vb)
    best: tuple[float, list[F64], list[Cushion]] = (min(_SLACK, straight / _BETTER), [], [])
    for back in ways_back(b, vb, t_b, geometry, min_off_mm_s=_OFF_MM_S):
        noses = [at for _, _, at in back.bounces]
        share = _fit_share([a, *noses, b], va, back.v_first_mm_s)
        if share < best[0]:
            best = (share, noses, [c for _, c, _ in back.bounces])
    _, noses, cushions = best
    if not cushions:
        return []
    way = [a, *noses, b]
    run = np.cumsum([float(np.linalg.norm(q - p)) for p, q in itertools.pairwise(way)])
    times = _times(run, (t_a, t_b), va, vb)
    return [(t, c) for t, c in zip(times, cushions, strict=True)] if times else []


def _within_gap(times_s: tuple[float, float], span_s: tuple[float, float]) -> bool:
    """True if both ``times_s`` lie in ``span_s``, widened by half its length each side.

    And within its length of each other.
    """
    gap_s = span_s[1] - span_s[0]
    lo, hi = span_s[0] - 0.5 * gap_s, span_s[1] + 0.5 * gap_s
    return all(lo <= t <= hi for t in times_s) and abs(times_s[0] - times_s[1]) <= gap_s


def _times(run_mm: F64, span_s: tuple[float, float], va: F64, vb: F64) -> list[float]:
    """When the ball was at each nose (``run_mm``: the way to each, then its whole length).

    The speed is taken to fall evenly in time from the speed last seen to the speed seen
    again (the bounces' losses spread over the gap), the way run scaled to the distance
    that speed covers in the gap. [] if the way is not one the speeds can run in the
    gap's time (within ``_PACE``).
    """
    t_a, t_b = span_s
    gap_s = max(t_b - t_a, 1e-9)
    u, w = float(np.linalg.norm(va)), float(np.linalg.norm(vb))
    covered = 0.5 * (u + w) * gap_s
    if not _PACE[0] <= float(run_mm[-1]) / covered <= _PACE[1]:
        return []
    decel = (u - w) / gap_s
    out = []
    for d in run_mm[:-1] * covered / float(run_mm[-1]):
        if abs(decel) < 1e-6:
            out.append(t_a + float(d) / u)
            continue
        out.append(t_a + (u - float(np.sqrt(max(u * u - 2.0 * decel * d, 0.0)))) / decel)
    return out


def _fit_share(way: list[F64], va: F64, v_first: F64) -> float:
    """How badly a way from the last seen centre fits, as a share of its length.

    The last seen centre's distance from the traced first leg (inf if it lies ahead),
    over the way's length; inf if the leg comes in turned more than ``_TURN_DEG`` from
    the last seen velocity ``va``.
    """
    cos = float(va @ v_first) / max(float(np.linalg.norm(va) * np.linalg.norm(v_first)), 1e-9)
    if cos < np.cos(np.radians(_TURN_DEG)):
        return float("inf")
    length = sum(float(np.linalg.norm(q - p)) for p, q in itertools.pairwise(way))
    return back_miss(way[1], v_first, way[0]) / max(length, 1.0)
