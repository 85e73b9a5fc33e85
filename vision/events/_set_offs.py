"""Ball contacts read off a ball that was set off from rest: who struck it, and when.

A ball at rest starts moving only when something strikes it: the cue (the shot's cue
ball) or another ball. A struck ball leaves along the line of centres, so where it
started and the direction it took name the striker's centre at the contact: ``2R``
behind the resting centre, against the direction of travel. The pair-wise finder
(:mod:`vision.events._ball_contacts`) looks for valleys of the sampled gap between
two balls; in a cluster (a cushion a few ms before the kiss, the resting ball hidden
for a frame, a third ball close by) the sampled gap may show no valley near the
contact at all. Here every set-off that no found contact explains is traced back:
its time is where the ball's first fitted path leaves the resting centre, and the
striker is the ball whose path before (reflected at a cushion nose when it bounced
just before) lies at that point then.

Thresholds were tuned on the tuning part of the independent set only
(``bench/independent_events.py``; ``docs/independent-events.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, BallContact
from vision._types import ScoredEvent
from vision.events._ball_contacts import reflect_at_noses
from vision.events._cushion_contacts import Tolerances
from vision.events._path_fit import Samples

__all__ = ["kisses_behind_set_offs"]

F64 = NDArray[np.float64]

#: A found contact of the ball this close in time already explains its set-off.
_EXPLAINED_S = 0.05


def kisses_behind_set_offs(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Ball contacts behind set-offs from rest that no event in ``found`` explains."""
    out: list[ScoredEvent] = []
    for ball, s in samples.items():
        for t_s, rest_xy, heading in _set_offs(s, tol):
            if _explained(found, ball, t_s) or _explained(out, ball, t_s):
                continue
            strike_xy = rest_xy - 2.0 * geometry.radius_mm * heading
            striker = _striker(samples, ball, t_s, strike_xy, geometry, tol)
            if striker is not None:
                out.append(_event(ball, striker, t_s, tol))
    return out


def _set_offs(s: Samples, tol: Tolerances) -> list[tuple[float, F64, F64]]:
    """``(t_s, rest_xy_mm, heading)`` of each start from rest of one ball.

    Still: four samples within noise of the last (or a rest gap before it); then two
    samples each clearly farther away. The time is where the straight fit of the first
    samples on the way comes closest to the resting centre.
    """
    out = []
    still_mm, away_mm = max(1.0, 3.0 * tol.noise_mm), max(3.0, 6.0 * tol.noise_mm)
    for i in range(1, len(s) - 3):
        rest = s.xy_mm[i]
        before = s.xy_mm[max(i - 3, 0) : i]
        if not (s.rests_after(i - 1) or (i >= 3 and _within(before, rest, still_mm))):
            continue
        d1, d2 = (float(np.linalg.norm(s.xy_mm[i + k] - rest)) for k in (1, 2))
        if d1 < away_mm or d2 < d1 + away_mm:
            continue
        post = s.fit_after(i + 1, 3)
        if post is None or post.n < 2:
            continue
        v = post.velocity(post.t_lo_s)
        speed = float(np.linalg.norm(v))
        if speed < 4.0 * tol.speed_mm_s:
            continue
        t_s = float(post.t_lo_s - ((post.at(post.t_lo_s)[0] - rest) @ v) / speed**2)
        if s.t_s[i] - 0.5 * tol.dt_s <= t_s < s.t_s[i + 1]:
            out.append((max(t_s, float(s.t_s[i])), rest, v / speed))
    return out


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
        place = _place_at(s, t_s, geometry, tol)
        if place is None:
            continue
        xy, speed = place
        miss = float(np.linalg.norm(xy - strike_xy))
        # Extrapolated up to a frame (and maybe across a cushion) the path is good to a
        # fraction of the distance covered in a frame.
        allow = max(8.0, 4.0 * tol.noise_mm + 0.3 * speed * tol.dt_s)
        if miss < allow and (best is None or miss < best[1]):
            best = (other, miss)
    return best


def _place_at(
    s: Samples, t_s: float, geometry: TableGeometry, tol: Tolerances
) -> tuple[F64, float] | None:
    """Where a moving ball was at ``t_s`` and its speed (mm/s); None if it stood.

    Its path before, extrapolated (and reflected at a nose); for a ball that itself
    set off within the same frame (three balls in a row), the chord between its
    samples around ``t_s``.
    """
    i = s.index_before(t_s)
    fit = s.fit_before(i)
    if fit is None or t_s - fit.t_hi_s > 2.5 * tol.dt_s:
        return None
    speed = float(np.linalg.norm(fit.velocity(fit.t_hi_s)))
    if fit.n >= 2 and speed > tol.speed_mm_s:
        return reflect_at_noses(fit.at(np.array([t_s])), geometry)[0], speed
    if i + 1 >= len(s) or s.t_s[i + 1] - s.t_s[i] > 1.5 * tol.dt_s:
        return None
    step = float(np.linalg.norm(s.xy_mm[i + 1] - s.xy_mm[i]))
    if step < max(3.0, 6.0 * tol.noise_mm):
        return None
    return s.at(np.array([t_s]))[0], step / float(s.t_s[i + 1] - s.t_s[i])


def _event(ball: Ball, striker: tuple[Ball, float], t_s: float, tol: Tolerances) -> ScoredEvent:
    other, miss = striker
    balls = (other, ball) if other < ball else (ball, other)
    confidence = 0.8 if miss < max(4.0, 4.0 * tol.noise_mm) else 0.6
    ev = BallContact(t_s=t_s, balls=balls, t_err_s=0.25 * tol.dt_s)
    why = f"{ball} set off from rest; {other}'s path {miss:.1f} mm from the striking point"
    return ScoredEvent(ev, confidence, why)
