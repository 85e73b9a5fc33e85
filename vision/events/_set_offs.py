"""Ball contacts read off a ball that was set off from rest: who struck it, and when.

A ball at rest starts moving only when something strikes it: the cue (the shot's cue
ball) or another ball. A struck ball leaves along the line of centres, so where it
started and the direction it took name the striker's centre at the contact: ``2R``
behind the resting centre, against the direction of travel. The pair-wise finder
(:mod:`vision.events._ball_contacts`) looks for valleys of the sampled gap between
two balls; in a cluster (a cushion a few ms before the kiss, the resting ball hidden
for a frame, a third ball close by) the sampled gap may show no valley near the
contact at all. Here every set-off that no found contact explains is traced back:
its time is where the ball's first fitted path leaves the resting centre (traced back
through a cushion nose when the ball was first seen coming back from a cushion a few
cm away), and the striker is the ball whose path before (reflected at a nose when it
bounced just before) lies at that point then; a striker last seen at rest (the
stroke and the contact in one frame, or a cue ball too fast to be seen until after
it struck) is placed there by its path after, traced back; a striker itself set off
from rest in the frame before, with one sample on its way, on the ray from its rest
through that sample (:func:`_just_set_off`). When no path lies there and only one
ball was unseen at the time, that ball is named with a doubt. A struck ball whose way
out turns within its first frame (a third ball or a cushion a few mm on) is traced by
its first step alone, timed at its last still sample with half a frame of error.

Each such contact names the ball it set off (``ScoredEvent.struck``):
:func:`cue_ball_behind` takes the striker of a first mover that was set off for the
shot's cue ball.

Thresholds were tuned on the tuning part of the independent set only
(``bench/independent_events.py``; ``docs/independent-events.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, BallContact, Event
from vision._types import ScoredEvent
from vision.events._ball_contacts import CUSHION_E, reflect_at_noses
from vision.events._cushion_contacts import Tolerances
from vision.events._path_fit import PathFit, Samples

__all__ = ["cue_ball_behind", "cue_ball_doubt", "kisses_behind_set_offs"]

F64 = NDArray[np.float64]

#: A found contact of the ball this close in time already explains its set-off.
_EXPLAINED_S = 0.05
#: A striker unseen from its rest until this many frames after the contact is traced.
_UNSEEN_FRAMES = 6
#: A ball at rest seen this far (mm) away a frame later, then turned or stopped short
#: (another ball or a cushion a few mm on), was set off in that frame (:func:`_set_offs`).
_JUMP_MM = 10.0
#: No struck ball runs faster than this (mm/s): the hardest break is about 12 m/s.
_FASTEST_MM_S = 15000.0


def kisses_behind_set_offs(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Ball contacts behind set-offs from rest that no event in ``found`` explains."""
    out: list[ScoredEvent] = []
    for ball, s in samples.items():
        for t_s, rest_xy, heading, jump in _set_offs(s, geometry, tol):
            if _explained(found, ball, t_s) or _explained(out, ball, t_s):
                continue
            strike_xy = rest_xy - 2.0 * geometry.radius_mm * heading
            striker = _striker(samples, ball, t_s, strike_xy, geometry, tol)
            if striker is not None:
                out.append(_event(ball, striker, t_s, tol, jump=jump))
            elif (
                not jump
                and _on_bed(strike_xy, geometry)
                and (unseen := _unseen_striker(samples, ball, t_s, strike_xy))
            ):
                out.append(_unseen_event(ball, unseen, t_s, tol))
    return out


def _unseen_striker(
    samples: Mapping[Ball, Samples], ball: Ball, t_s: float, strike_xy: F64
) -> Ball | None:
    """The one ball that can have struck ``ball`` at ``t_s`` while nobody saw it, if one.

    A ball unseen across ``t_s`` (its samples either side are further apart than two
    frames) that was seen at rest before and was somewhere else after, and whose way
    from one to the other through ``strike_xy`` a ball can run in that time. A cue
    ball too fast to be seen (a long blurred streak) until well after its first
    contact leaves only this.
    """
    found = []
    for other, s in samples.items():
        i = s.index_before(t_s)
        if other == ball or i < 0 or i + 1 >= len(s) or s.t_s[i + 1] - s.t_s[i] < 2.0 * s.dt_s:
            continue
        before, after = s.xy_mm[i], s.xy_mm[i + 1]
        way_mm = float(np.linalg.norm(strike_xy - before) + np.linalg.norm(after - strike_xy))
        moved = float(np.linalg.norm(after - before)) > 20.0
        if moved and way_mm < _FASTEST_MM_S * float(s.t_s[i + 1] - s.t_s[i]):
            found.append(other)
    return found[0] if len(found) == 1 else None


def _unseen_event(ball: Ball, other: Ball, t_s: float, tol: Tolerances) -> ScoredEvent:
    """Doubtful (confidence 0.45): the referee asks for review where it decides the call."""
    balls = (other, ball) if other < ball else (ball, other)
    ev = BallContact(t_s=t_s, balls=balls, t_err_s=0.5 * tol.dt_s)
    why = (
        f"{ball} set off from rest; {other}, unseen then, is the only ball that can have struck it"
    )
    return ScoredEvent(ev, 0.45, why, struck=ball)


def _set_offs(
    s: Samples, geometry: TableGeometry, tol: Tolerances
) -> list[tuple[float, F64, F64, float]]:
    """``(t_s, rest_xy_mm, heading, jump_mm)`` of each start from rest of one ball.

    Still: four samples within noise of the last (or a rest gap before it); then two
    samples each clearly farther away. The time is where the straight fit of the first
    samples on the way comes closest to the resting centre. ``jump_mm`` is 0 but for a
    start cut short: a ball seen ``_JUMP_MM`` or more away one sample on, and no
    farther the next (another ball or a cushion a few mm on stopped or turned it);
    its heading is that first step, its time its last still sample.
    """
    out = []
    # Two noisy centres of a ball at rest lie sqrt(2) sigma apart per axis: 4.5 sigma is
    # about 3.2 times that (a rest missed once in a hundred samples, not once in ten).
    still_mm, away_mm = max(1.0, 4.5 * tol.noise_mm), max(3.0, 6.0 * tol.noise_mm)
    for i in range(1, len(s) - 3):
        rest = s.xy_mm[i]
        before = s.xy_mm[max(i - 3, 0) : i]
        if not (s.rests_after(i - 1) or (i >= 3 and _within(before, rest, still_mm))):
            continue
        d1, d2 = (float(np.linalg.norm(s.xy_mm[i + k] - rest)) for k in (1, 2))
        if d1 >= _JUMP_MM and d1 - away_mm <= d2 < d1 + away_mm:
            out.append((float(s.t_s[i]), rest, (s.xy_mm[i + 1] - rest) / d1, d1))
        if d1 < away_mm or d2 < d1 + away_mm:
            continue
        start = _start(s, i, geometry, tol, 3) or _start(s, i, geometry, tol, 2)
        if start is not None:
            out.append((start[0], rest, start[1], 0.0))
    return out


def _start(
    s: Samples, i: int, geometry: TableGeometry, tol: Tolerances, k: int
) -> tuple[float, F64] | None:
    """When and which way the ball at rest at sample ``i`` left, from ``k`` samples after.

    Two samples when three do not pass the rest: the third may come after a cushion a
    few cm on (tuning pt0373: the red struck towards the head cushion 60 mm away).
    """
    rest = s.xy_mm[i]
    post = s.fit_after(i + 1, k)
    if post is None or post.n < 2:
        return None
    v = post.velocity(post.t_lo_s)
    speed = float(np.linalg.norm(v))
    if speed < 4.0 * tol.speed_mm_s:
        return None
    t_s = float(post.t_lo_s - ((post.at(post.t_lo_s)[0] - rest) @ v) / speed**2)
    heading = v / speed
    miss = float(np.linalg.norm(post.at(t_s)[0] - rest))
    if miss > _near_mm(speed, tol) or not _on_bed(
        rest - 2.0 * geometry.radius_mm * heading, geometry
    ):
        folded = _via_nose(post, rest, (float(s.t_s[i]), post.t_lo_s), geometry, tol)
        t_s, heading = folded if folded is not None else (t_s, heading)
    if not s.t_s[i] - 0.5 * tol.dt_s <= t_s < s.t_s[i + 1]:
        return None
    return max(t_s, float(s.t_s[i])), heading


def _on_bed(xy: F64, geometry: TableGeometry, slack_mm: float = 5.0) -> bool:
    """True if a ball's centre can be at ``xy`` (within ``slack_mm`` of the noses)."""
    r = geometry.radius_mm - slack_mm
    return bool(r <= xy[0] <= geometry.length_mm - r and r <= xy[1] <= geometry.width_mm - r)


def _near_mm(speed_mm_s: float, tol: Tolerances) -> float:
    """How far a path traced back may pass from the resting centre it left."""
    return max(6.0, 6.0 * tol.noise_mm + 0.1 * speed_mm_s * tol.dt_s)


def _via_nose(
    post: PathFit, rest: F64, span_s: tuple[float, float], geometry: TableGeometry, tol: Tolerances
) -> tuple[float, F64] | None:
    """When and which way a ball left ``rest`` if it bounced off a cushion before it was seen.

    A ball at rest a few cm from a cushion, struck towards it, is first seen coming
    back: its straight path after does not pass its resting centre. Traced back and
    folded at the nose (its normal speed divided by the cushion's restitution), it does.
    None when the folded path misses too.
    """
    t = np.linspace(span_s[0], span_s[1], 97)
    straight = post.at(t)
    path = reflect_at_noses(straight, geometry, 1.0 / CUSHION_E)  # traced back: unfolded
    before_bounce = np.any(path != straight, axis=1)
    miss = np.where(before_bounce, np.linalg.norm(path - rest, axis=1), np.inf)
    k = int(np.argmin(miss))
    if (
        miss[k] > _near_mm(float(np.linalg.norm(post.velocity(post.t_lo_s))), tol)
        or k == len(t) - 1
    ):
        return None
    step = path[k + 1] - path[k]
    return float(t[k]), step / max(float(np.linalg.norm(step)), 1e-9)


def _within(xy: F64, centre: F64, mm: float) -> bool:
    return bool(np.all(np.linalg.norm(xy - centre, axis=1) < mm))


def _explained(found: Sequence[ScoredEvent], ball: Ball, t_s: float) -> bool:
    return any(
        isinstance(e.event, BallContact)
        and ball in e.event.balls
        and abs(e.event.t_s - t_s) < _EXPLAINED_S
        for e in found
    )


def _striker(
    samples: Mapping[Ball, Samples],
    ball: Ball,
    t_s: float,
    strike_xy: F64,
    geometry: TableGeometry,
    tol: Tolerances,
) -> tuple[Ball, float] | None:
    """The ball (and its miss distance, mm) whose path was at ``strike_xy`` at ``t_s``."""
    best: tuple[Ball, float] | None = None
    for other, s in samples.items():
        if other == ball:
            continue
        for place in (_place_at(s, t_s, geometry, tol), _just_set_off(s, t_s, strike_xy, tol)):
            if place is None:
                continue
            xy, speed = place
            miss = float(np.linalg.norm(xy - strike_xy))
            # Extrapolated up to a frame (and maybe across a cushion) the path is good to
            # a fraction of the distance covered in a frame.
            allow = max(8.0, 4.0 * tol.noise_mm + 0.3 * speed * tol.dt_s)
            if miss < allow and (best is None or miss < best[1]):
                best = (other, miss)
    return best


def _just_set_off(
    s: Samples, t_s: float, strike_xy: F64, tol: Tolerances
) -> tuple[F64, float] | None:
    """Where a ball set off from rest in the frame before ``t_s`` was nearest ``strike_xy``.

    Still at sample ``i - 1``, moved at ``i`` (at or before ``t_s``): it ran on the ray
    from its rest through sample ``i``, at a speed its samples do not give (a fit over
    the rest and one moved sample is far too slow). The point of the ray nearest
    ``strike_xy``, and the speed that takes the ball there at ``t_s``; None unless that
    point lies ahead of sample ``i``, at a speed a ball can have, and with the start
    after sample ``i - 1`` (tuning pt0373: the white struck by the yellow at rest 30 mm
    from the red, the red struck 7 ms later, the white's one sample between 13 mm out).
    """
    i = s.index_before(t_s)
    if i < 2 or s.t_s[i] - s.t_s[i - 1] > 1.5 * tol.dt_s or t_s - s.t_s[i] > tol.dt_s:
        return None
    rest, first = s.xy_mm[i - 1], s.xy_mm[i]
    away = float(np.linalg.norm(first - rest))
    still = s.rests_after(i - 2) or _step_mm(s, i - 2) < max(1.0, 4.5 * tol.noise_mm)
    if not still or away < max(3.0, 6.0 * tol.noise_mm):
        return None
    ray = (first - rest) / away
    along = float((strike_xy - rest) @ ray)
    late_s = float(t_s - s.t_s[i])
    if along <= away or late_s <= 0.0:
        return None
    speed = (along - away) / late_s
    start_s = float(s.t_s[i]) - away / speed
    if speed > _FASTEST_MM_S or start_s < s.t_s[i - 1] - 0.25 * tol.dt_s:
        return None
    return rest + along * ray, speed


def _place_at(
    s: Samples, t_s: float, geometry: TableGeometry, tol: Tolerances
) -> tuple[F64, float] | None:
    """Where a moving ball was at ``t_s`` and its speed (mm/s); None if it stood.

    Its path before, extrapolated (and reflected at a nose); for a ball last seen at
    rest, its path after traced back (:func:`_struck_then`), else (three balls in a
    row set off within one frame) the chord between its samples around ``t_s``.
    """
    i = s.index_before(t_s)
    fit = s.fit_before(i)
    if fit is None:
        return None
    speed = float(np.linalg.norm(fit.velocity(fit.t_hi_s)))
    recent = t_s - fit.t_hi_s <= 2.5 * tol.dt_s
    if fit.n >= 2 and speed > tol.speed_mm_s:
        if not recent:
            return None
        return reflect_at_noses(fit.at(np.array([t_s])), geometry)[0], speed
    if (struck := _struck_then(s, i, t_s, tol)) is not None:
        return struck
    if not recent or i + 1 >= len(s) or s.t_s[i + 1] - s.t_s[i] > 1.5 * tol.dt_s:
        return None
    step = float(np.linalg.norm(s.xy_mm[i + 1] - s.xy_mm[i]))
    if step < max(3.0, 6.0 * tol.noise_mm):
        return None
    return s.at(np.array([t_s]))[0], step / float(s.t_s[i + 1] - s.t_s[i])


def _struck_then(s: Samples, i: int, t_s: float, tol: Tolerances) -> tuple[F64, float] | None:
    """A striker last seen at rest at sample ``i``, next seen after ``t_s``.

    Its stroke and its first contact fell between two samples (a cue ball a few mm
    from the ball it strikes), or it was too fast to be seen at all (a blurred streak)
    until after the contact. Both balls leave the contact point at ``t_s``: its path
    after, traced back to ``t_s``, gives its centre then. None unless that path is a
    clear run and starts within ``_UNSEEN_FRAMES`` frames.
    """
    if i < 0 or i + 1 >= len(s) or s.t_s[i + 1] - t_s > _UNSEEN_FRAMES * tol.dt_s:
        return None
    if not s.rests_after(i) and i >= 1 and _step_mm(s, i - 1) > max(1.0, 3.0 * tol.noise_mm):
        return None  # it was moving before: its path before says where it was
    post = s.fit_after(i + 1, 2)  # two samples: least likely to span a bounce
    if post is None or post.n < 2:
        return None
    speed = float(np.linalg.norm(post.velocity(post.t_lo_s)))
    if speed < 4.0 * tol.speed_mm_s:
        return None
    return post.at(t_s)[0], speed


def _step_mm(s: Samples, i: int) -> float:
    return float(np.linalg.norm(s.xy_mm[i + 1] - s.xy_mm[i]))


def _event(
    ball: Ball, striker: tuple[Ball, float], t_s: float, tol: Tolerances, jump: float = 0.0
) -> ScoredEvent:
    other, miss = striker
    balls = (other, ball) if other < ball else (ball, other)
    confidence = 0.8 if miss < max(4.0, 4.0 * tol.noise_mm) else 0.6
    ev = BallContact(t_s=t_s, balls=balls, t_err_s=(0.5 if jump else 0.25) * tol.dt_s)
    why = f"{ball} set off from rest; {other}'s path {miss:.1f} mm from the striking point"
    if jump:
        why += f"; it went {jump:.0f} mm in a frame and turned: timed at its last still sample"
    return ScoredEvent(ev, confidence, why, struck=ball)


def cue_ball_behind(
    first: Ball, start_s: float, scored: Sequence[ScoredEvent], within_s: float = 0.1
) -> Ball:
    """The cue ball of a shot whose first ball seen to move is ``first`` (at ``start_s``).

    A first mover that a found contact set off from rest (``ScoredEvent.struck``) within
    ``within_s`` of its start was not struck by the cue: the ball that struck it was
    moving before, unseen (a cue ball too fast to be seen, a blurred streak, until
    after the contact), and is the cue ball, traced back through a chain of set-offs.
    """
    cue, seen = first, {first}
    while True:
        striker = next(
            (other for e in scored if e.struck == cue and abs(e.event.t_s - start_s) < within_s
             for other in _others(e.event, cue)),
            None,
        )  # fmt: skip
        if striker is None or striker in seen:
            return cue
        cue = striker
        seen.add(cue)


def cue_ball_doubt(
    first: Ball, start_s: float, scored: Sequence[ScoredEvent], within_s: float = 0.1
) -> str | None:
    """Why the cue ball named by :func:`cue_ball_behind` is in doubt, or None.

    When it is not ``first`` and a contact it was named through carries a doubt (only
    an unseen ball can have struck), the video did not establish which ball was
    played: the shot is to be reviewed.
    """
    named = cue_ball_behind(first, start_s, scored, within_s)
    weak = any(
        e.struck is not None and e.event.doubt is not None and abs(e.event.t_s - start_s) < within_s
        for e in scored
    )
    if named == first or not weak:
        return None
    return f"cue ball not seen at the stroke: the {named} named from a doubtful contact"


def _others(event: Event, ball: Ball) -> tuple[Ball, ...]:
    if isinstance(event, BallContact):
        return tuple(b for b in event.balls if b != ball)
    return ()
