"""A cushion touched between a ball contact and the next frame.

A ball struck near a cushion may reach it a few milliseconds after the ball contact:
no sample lies between the two contacts, so the cushion's V is cut off by the ball
contact and the cushion finder (which fits the path on each side of the touch) sees
nothing. Physics still tells: the ball contact changes the ball's velocity only
along the line of centres, so its velocity after is ``v0 + lambda * a`` (``v0`` its
velocity before, ``a`` the unit line of centres towards it, ``lambda >= 0``). If the
path measured after the contact does not fit that, but fits it reflected at a
cushion it was heading for (normal speed turned round, restitution ``CUSHION_E``),
and the straight path from the contact point reaches that cushion before the first
sample of the measured path, and from there, reflected, arrives where that sample
is, the ball touched the cushion in between. The time is where that straight path
reaches the nose. A ball already on that cushion at the ball contact (running along
it) and pressed into it keeps the one contact the cushion finder gave it. A ball at
rest 4-30 mm from a cushion and struck towards it is there within the frame, even
when what follows (a second kiss) fits neither path: it touched it. So is a moving
ball whose velocity after the kick (its own plus the kick's along the line of centres)
takes it to a cushion 4-30 mm away within the frame (tuning pt0079: the red, rolling
at 350 mm/s 9 mm from the right cushion, kissed into it at 650 mm/s and back into the
white 27 ms after the first kiss, one sample at the nose between). Struck into a
corner, a ball may touch both of its cushions before the next sample: the path after
then fits the velocity reflected at both, in the order the straight path reaches them
(tuning pt0262: the yellow kissed 15 ms before the head cushion and 21 ms before the
right, one sample between the kiss and the corner, both cushions missed before).

Thresholds were tuned on the tuning part of the independent set only
(``bench/independent_events.py``; ``docs/independent-events.md``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, BallContact, Cushion, CushionContact
from vision._types import ScoredEvent
from vision.events._ball_contacts import CUSHION_E, reflect_at_noses
from vision.events._cushion_contacts import NORMALS, Tolerances, normal_gap
from vision.events._path_fit import PathFit, Samples

__all__ = ["Kick", "cushion_contact_near", "cushions_after_kisses", "kick_at", "sure_kisses"]

F64 = NDArray[np.float64]

#: A ball at most this far (mm) from a cushion, struck into it, may be said to touch
#: it from the kick alone (tuning pt0230: the yellow at rest 22 mm from the foot
#: cushion, struck at 6 m/s, on it 6 ms later; 20 mm before).
_REACH_MM = 30.0
#: Share of the striker's speed along the line of centres a ball at rest is given:
#: (1 + e) / 2 for equal balls, e about 0.93, less a margin for the fit.
_KICK_SHARE = 0.9


@dataclass(frozen=True, slots=True)
class Kick:
    """One ball at one ball contact: where it was, how it moved, which way it was struck."""

    ball: Ball
    t_s: float
    xy_mm: F64
    v0_mm_s: F64
    axis: F64  # unit line of centres, from the other ball towards this one
    v_other_mm_s: F64  # the other ball's velocity before


def cushions_after_kisses(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Cushion contacts hidden between a ball contact in ``found`` and the next sample."""
    out: list[ScoredEvent] = []
    for t_s, ball, other in sure_kisses(found):
        kick = kick_at(samples, ball, other, t_s, geometry, tol)
        if kick is None:
            continue
        t_next = _next_kiss_s(found, ball, t_s)
        hi = samples[ball].index_before(t_next) if t_next < np.inf else len(samples[ball]) - 1
        hits, why = _hits(samples[ball], kick, (hi, t_next), geometry, tol)
        out.extend(_event(ball, hit, why) for hit in hits
                   if not cushion_contact_near([*found, *out], ball, hit[1], hit[0]))  # fmt: skip
    return out


def _hits(
    s: Samples, kick: Kick, until: tuple[int, float], geometry: TableGeometry, tol: Tolerances
) -> tuple[list[Hit], str]:
    """The cushion contacts after ``kick`` (a bounce, else a push) and their evidence.

    ``until``: the last sample before the ball's next kiss, and that kiss's time. The
    report reads the evidence lines back into its languages (``carom/report/_evidence.py``).
    """
    bounced = _bounce(s, kick, until[0], geometry, tol)
    if len(bounced) == 2:
        return bounced, (
            "path after the ball contact fits a bounce in the corner of the "
            f"{bounced[0][1]} and {bounced[1][1]} cushions, not a straight run"
        )
    if bounced:
        return (
            bounced,
            "path after the ball contact fits a bounce off the {} cushion, not a straight run",
        )
    if (hit := _pushed_in(s, kick, until, geometry, tol)) is not None:
        return [
            hit
        ], "struck from rest towards the {} cushion a few mm away: there within the frame"
    if (hit := _pushed_on(kick, until[1], geometry, tol)) is not None:
        return [hit], "kicked on towards the {} cushion a few mm away: there within the frame"
    return [], ""


def sure_kisses(found: Sequence[ScoredEvent]) -> Iterator[tuple[float, Ball, Ball]]:
    """``(t_s, ball, other)`` for each ball of each ball contact of confidence 0.5 or more."""
    for scored in found:
        kiss = scored.event
        if isinstance(kiss, BallContact) and scored.confidence >= 0.5:
            for ball in kiss.balls:
                yield kiss.t_s, ball, kiss.other(ball)


def _state(
    s: Samples, t_s: float, geometry: TableGeometry, tol: Tolerances
) -> tuple[F64, F64] | None:
    """A ball's centre and velocity at ``t_s`` from its path before (zero if it stood)."""
    fit = s.fit_before(s.index_before(t_s))
    if fit is None or t_s - fit.t_hi_s > 2.5 * tol.dt_s:
        return None
    v = fit.velocity(fit.t_hi_s)
    if fit.n < 2 or float(np.linalg.norm(v)) < tol.speed_mm_s:
        return fit.at(fit.t_hi_s)[0], np.zeros(2)
    return reflect_at_noses(fit.at(np.array([t_s])), geometry)[0], v


def kick_at(
    samples: Mapping[Ball, Samples],
    ball: Ball,
    other: Ball,
    t_s: float,
    geometry: TableGeometry,
    tol: Tolerances,
) -> Kick | None:
    """``ball`` at its contact with ``other`` at ``t_s`` (``None``: a path unknown)."""
    mine = _state(samples[ball], t_s, geometry, tol)
    theirs = _state(samples[other], t_s, geometry, tol) if other in samples else None
    if mine is None or theirs is None:
        return None
    tau = _touch_s(mine, theirs, 2.0 * geometry.radius_mm, (2.5 * tol.dt_s, 0.5 * tol.dt_s))
    xy = mine[0] + mine[1] * tau
    line = xy - (theirs[0] + theirs[1] * tau)
    length = float(np.linalg.norm(line))
    if length < 1e-6:
        return None
    return Kick(ball, t_s + tau, xy, mine[1], line / length, theirs[1])


def _touch_s(
    mine: tuple[F64, F64], theirs: tuple[F64, F64], two_r: float, within_s: tuple[float, float]
) -> float:
    """Seconds from the contact's time to the balls' touch (0: as timed).

    Each ball is ``(xy_mm, v_mm_s)`` at the contact's time. With one at rest and the
    other running straight at it, the touch is where that path first comes within two
    radii, if that is at most ``within_s[0]`` before the time or ``within_s[1]`` after
    it: a contact timed a few ms late puts the striker past it, and the line of
    centres there sends the kick astray (tuning pt0029 at 30 fps: 7 ms late, the yellow
    sent 40 degrees off its way, its cushion 8 mm away then timed after the sample that
    shows it back off it). Much later is a striker's path too slow, not a contact timed
    early: one just set off from rest, fitted over its rest and one moved sample (tuning
    pt0233: a touch 19 ms after the contact put the red's cushion, 7 ms after it,
    before the kick).
    """
    rel_xy, rel_v = mine[0] - theirs[0], mine[1] - theirs[1]
    if np.any(mine[1]) == np.any(theirs[1]):
        return 0.0  # both moving, or neither: as timed
    a, b = float(rel_v @ rel_v), float(rel_xy @ rel_v)
    disc = b * b - a * (float(rel_xy @ rel_xy) - two_r * two_r)
    if disc < 0.0:
        return 0.0  # the path passes wide: nothing better known
    tau = (-b - float(np.sqrt(disc))) / a
    return tau if -within_s[0] <= tau <= within_s[1] else 0.0


def _next_kiss_s(found: Sequence[ScoredEvent], ball: Ball, t_s: float) -> float:
    """When ``ball`` next meets a ball after ``t_s`` (inf: never)."""
    later = [e.event.t_s for e in found
             if isinstance(e.event, BallContact) and ball in e.event.balls
             and e.event.t_s > t_s + 1e-6]  # fmt: skip
    return min(later, default=np.inf)


def _reflect(v: F64, normals: F64 | list[F64]) -> F64:
    """``v`` reflected at each of ``normals`` (one normal, or several in turn)."""
    for normal in normals if isinstance(normals, list) else [normals]:
        v = v - (1.0 + CUSHION_E) * float(v @ normal) * normal
    return v


Hit = tuple[float, Cushion, float]  # (t_s, cushion, confidence)
Wall = tuple[Cushion, F64]  # a cushion and its normal into the table
_WALLS: tuple[tuple[Wall, ...], ...] = (
    *(((c, np.array(n)),) for c, n in NORMALS.items()),
    *(((a, np.array(NORMALS[a])), (b, np.array(NORMALS[b])))
      for a in (Cushion.HEAD, Cushion.FOOT) for b in (Cushion.LEFT, Cushion.RIGHT)),
)  # fmt: skip


def _bounce(s: Samples, kick: Kick, hi: int, geometry: TableGeometry, tol: Tolerances) -> list[Hit]:
    """The touches between the kick and the samples after: one cushion, or a corner's two.

    The path after starts at the first sample after the kick, or at the one after it (the
    first on the way in), or at the one after that: the tracker's filter lags a sudden
    turn, and its first sample after the bounce may lie 10-13 mm back along the way in
    (tuning pt0064: the white struck 92 mm from a cushion at 6 m/s, seen once 13 mm
    from it). One cushion is tried before a corner's two.
    """
    first = s.index_before(kick.t_s) + 1
    for j in (first, first + 1, first + 2):
        post = s.fit_after(j, 3, hi_max=hi)
        if post is None or post.n < 2 or (j > first and s.t_s[first] >= post.t_lo_s):
            continue
        for walls in _WALLS:
            hits = _through(s, kick, post, (first, j), walls, geometry, tol)
            if hits:
                return hits
    return []


def _pushed_in(
    s: Samples, kick: Kick, until: tuple[int, float], geometry: TableGeometry, tol: Tolerances
) -> tuple[float, Cushion, float] | None:
    """A ball at rest a few mm from a cushion, struck towards it, touches it.

    A struck ball at rest leaves along the line of centres; pointed into a cushion
    ``_REACH_MM`` away at most, it is there within the frame, whatever else (a second
    kiss, the arm) then hides the bounce. Nearer than ``touch_mm`` the cushion finders
    (``_driven_into_cushion``) decide. Its speed is the one the kick gave it, or its
    path's after if faster (the bounce itself slows the path after: tuning pt0338, 13
    mm from the foot cushion, seen after the bounce at half the kick's speed); when it
    met another ball before its next sample (``until``: the last sample before that
    kiss, and its time), the kick's alone (tuning pt0302: struck 5 mm from the right
    cushion, on it 4.8 ms later, into the red 7.8 ms after that), and the cushion must
    come before that kiss.
    """
    if np.any(kick.v0_mm_s):
        return None
    hi, t_next = until
    first = s.index_before(kick.t_s) + 1
    post = s.fit_after(first, 3, hi_max=hi)
    kicked = _KICK_SHARE * max(0.0, float(kick.v_other_mm_s @ kick.axis))
    if post is not None and post.n >= 2:  # at least the kick's: the bounce slows it
        speed = max(float(np.linalg.norm(post.velocity(post.t_lo_s))), kicked)
    elif hi < first:  # the next kiss before its next sample
        speed = kicked
    else:
        return None
    if speed < 4.0 * tol.speed_mm_s:
        return None  # hardly moved: a graze
    for cushion, normal in NORMALS.items():
        inward = -float(kick.axis @ np.array(normal))
        gap = float(normal_gap(kick.xy_mm[None, :], cushion, geometry)[0])
        if inward < 0.3 or not tol.touch_mm <= gap <= _REACH_MM:
            continue
        t_c = kick.t_s + gap / (speed * inward)
        if t_c - kick.t_s <= tol.dt_s and t_c < t_next:
            return t_c, cushion, 0.65
    return None


def _pushed_on(kick: Kick, t_next: float, geometry: TableGeometry, tol: Tolerances) -> Hit | None:
    """A moving ball that the kick sends into a cushion a few mm away touches it.

    Equal balls exchange the normal part of their relative velocity, times (1 + e) / 2:
    the ball goes on at its own velocity plus that along the line of centres (less a
    margin, ``_KICK_SHARE``). When that reaches a cushion ``touch_mm`` to ``_REACH_MM``
    away within the frame, and before the ball's next kiss (``t_next``), it touched it.
    A ball at rest is :func:`_pushed_in`'s.
    """
    if not np.any(kick.v0_mm_s):
        return None
    rel = float((kick.v_other_mm_s - kick.v0_mm_s) @ kick.axis)
    u = kick.v0_mm_s + _KICK_SHARE * max(0.0, rel) * kick.axis
    speed = float(np.linalg.norm(u))
    if speed < 4.0 * tol.speed_mm_s:
        return None
    for cushion, normal in NORMALS.items():
        u_in = -float(u @ np.array(normal))
        gap = float(normal_gap(kick.xy_mm[None, :], cushion, geometry)[0])
        if u_in < 0.3 * speed or not tol.touch_mm <= gap <= _REACH_MM:
            continue
        t_c = kick.t_s + gap / u_in
        if t_c - kick.t_s <= tol.dt_s and t_c < t_next:
            return t_c, cushion, 0.6
    return None


def _through(
    s: Samples,
    kick: Kick,
    post: PathFit,
    span: tuple[int, int],
    walls: tuple[Wall, ...],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[Hit]:
    """The touches of ``walls`` (one cushion or a corner's two), in time order, or [].

    They are kept if the path after fits a bounce at them and not a straight run. A
    corner's cushions are at right angles: each turns round only its own component of
    the velocity, so the two reflections give the same velocity in either order, and
    each cushion is reached when the straight path from the contact reaches it.
    """
    first, j = span
    v1, speed = post.velocity(post.t_lo_s), tol.speed_for(post.n)
    fit = _bounce_fit(kick, v1, [n for _, n in walls], speed)
    if fit is None:
        return []
    u, r_wall, r_none = fit  # u: the velocity the ball contact gave
    # From the contact point, or from a sample on the way in when there is one.
    t0, xy0 = (kick.t_s, kick.xy_mm) if j == first else (float(s.t_s[first]), s.xy_mm[first])
    landed = xy0 + u * (post.t_lo_s - t0)
    hits: list[Hit] = []
    for cushion, n in walls:
        u_in = -float(u @ n)
        if u_in < 2.0 * speed or normal_gap(kick.xy_mm[None, :], cushion, geometry)[0] < (
            0.5 * tol.touch_mm
        ):
            return []  # not heading there, or already on it (running along it): found before
        t_c = t0 + max(float(normal_gap(xy0[None, :], cushion, geometry)[0]), 0.0) / u_in
        if not kick.t_s - 1e-6 <= t_c < post.t_lo_s:
            return []
        landed = landed + (_reflect(u, n) - u) * (post.t_lo_s - t_c)
        hits.append((t_c, cushion, 0.75 if r_wall < 0.25 * r_none else 0.6))
    off_mm = float(np.linalg.norm(landed - post.at(post.t_lo_s)[0]))
    # The bounce model's velocity error (r_wall) carries into the landing point.
    allow = 4.0 * tol.noise_mm + 0.15 * float(np.linalg.norm(v1)) * tol.dt_s
    if off_mm > max(6.0, allow + r_wall * (post.t_lo_s - t0)):
        return []
    return sorted(hits)


def _bounce_fit(
    kick: Kick, v1: F64, normals: list[F64], speed: float
) -> tuple[F64, float, float] | None:
    """The kick's velocity, and the misfits (mm/s) of a bounce at ``normals`` and of none.

    The path after's velocity ``v1`` is compared with the kick's reflected at ``normals``
    and with it straight on; None when the bounce does not fit (``speed``: the least
    speed read as real from the path after).

    The bounce must explain the path much better than a straight run; spin makes a real
    cushion's bounce differ from the plain reflection by up to a third.
    """
    straight = max(0.0, float((v1 - kick.v0_mm_s) @ kick.axis))
    r_none = float(np.linalg.norm(v1 - kick.v0_mm_s - straight * kick.axis))
    ra, rv0 = _reflect(kick.axis, normals), _reflect(kick.v0_mm_s, normals)
    lam = max(0.0, float((v1 - rv0) @ ra) / float(ra @ ra))
    r_wall = float(np.linalg.norm(v1 - rv0 - lam * ra))
    if r_wall > 0.5 * r_none or r_wall > max(0.4 * float(np.linalg.norm(v1)), 2 * speed):
        return None
    return kick.v0_mm_s + lam * kick.axis, r_wall, r_none


def cushion_contact_near(
    found: Sequence[ScoredEvent],
    ball: Ball,
    cushion: Cushion,
    t_s: float,
    within_s: float = 0.05,
) -> bool:
    """True if ``found`` holds a contact of ``ball`` with ``cushion`` within ``within_s``."""
    return any(
        isinstance(e.event, CushionContact)
        and e.event.ball == ball
        and e.event.cushion == cushion
        and abs(e.event.t_s - t_s) < within_s
        for e in found
    )


def _event(ball: Ball, hit: Hit, why: str) -> ScoredEvent:
    t_s, cushion, confidence = hit
    ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, t_err_s=0.004)
    return ScoredEvent(ev, confidence, why.format(cushion))
