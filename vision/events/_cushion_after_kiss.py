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
it) and pressed into it keeps the one contact the cushion finder gave it.

Struck into a corner, a ball may touch both of its cushions between two samples: the
path after then fits the velocity reflected at both (at right angles, each turns round
only its own part of the velocity, so in either order), each cushion timed where the
straight path from the kiss reaches it (tuning pt0262: the yellow kissed 15 ms before
the head cushion and 21 ms before the right, one sample between the kiss and the
corner, both cushions missed before). A sample that falls between the two cushions
lies on neither way in nor way out: such a corner is not found here.

A contact doubted only because one of its balls was hidden at it (an arm over it, its
blob merged with the striker's) still tells how the ball was struck: its paths on
either side give the kick, and the bounce, not the contact, is the cushion's evidence
(tuning pt0235: the red, unseen in the frame it was struck, reached the head cushion at
6.4 m/s 36 ms later, one seen sample between; lost before).

When the path after fits no bounce, the kick alone may tell
(:mod:`vision.events._pushed_into_cushion`).

Thresholds were tuned on the tuning part of the independent set only
(``bench/independent_events.py``; ``docs/independent-events.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, BallContact, Cushion, CushionContact
from vision._types import ScoredEvent
from vision.events._ball_contacts import CUSHION_E
from vision.events._cushion_contacts import NORMALS, Tolerances, normal_gap
from vision.events._kick import Hit, Kick, kick_at, sure_kisses
from vision.events._path_fit import PathFit, Samples
from vision.events._pushed_into_cushion import pushed_in, pushed_on

__all__ = ["cushion_contact_near", "cushions_after_kisses"]

F64 = NDArray[np.float64]
Wall = tuple[Cushion, F64]  # a cushion and its normal into the table
_WALLS: tuple[tuple[Wall, ...], ...] = (
    *(((c, np.array(n)),) for c, n in NORMALS.items()),
    *(((a, np.array(NORMALS[a])), (b, np.array(NORMALS[b])))
      for a in (Cushion.HEAD, Cushion.FOOT) for b in (Cushion.LEFT, Cushion.RIGHT)),
)  # fmt: skip


def cushions_after_kisses(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Cushion contacts hidden between a ball contact in ``found`` and the next sample."""
    out: list[ScoredEvent] = []
    for t_s, ball, other in sure_kisses(found, hidden_too=True):
        kick = kick_at(samples, ball, other, t_s, geometry, tol)
        if kick is None:
            continue
        t_next = _next_kiss_s(found, ball, t_s)
        hi = samples[ball].index_before(t_next) if t_next < np.inf else len(samples[ball]) - 1
        hits, why = _hits(samples[ball], kick, (hi, t_next), geometry, tol)
        for t_c, cushion, confidence in hits:
            if not cushion_contact_near([*found, *out], ball, cushion, t_c):
                ev = CushionContact(t_s=t_c, ball=ball, cushion=cushion, t_err_s=0.004)
                out.append(ScoredEvent(ev, confidence, why.format(cushion=cushion)))
    return out


def _hits(
    s: Samples, kick: Kick, until: tuple[int, float], geometry: TableGeometry, tol: Tolerances
) -> tuple[list[Hit], str]:
    """The cushion contacts after ``kick`` (a bounce, else a push) and their evidence.

    ``until``: the last sample before the ball's next kiss, and that kiss's time. The
    evidence is a template of ``{cushion}``; the report reads the lines back into its
    languages (``carom/report/_evidence.py``).
    """
    path_after = "path after the ball contact fits a bounce"
    bounced = _bounce(s, kick, until[0], geometry, tol)
    if len(bounced) == 2:
        corner = f"the {bounced[0][1]} and {bounced[1][1]} cushions"
        return bounced, f"{path_after} in the corner of {corner}, not a straight run"
    if bounced:
        return bounced, f"{path_after} off the {{cushion}} cushion, not a straight run"
    there = "a few mm away: there within the frame"
    if (hit := pushed_in(s, kick, until, geometry, tol)) is not None:
        return [hit], f"struck from rest towards the {{cushion}} cushion {there}"
    if (hit := pushed_on(s, kick, until, geometry, tol)) is not None:
        return [hit], f"kicked on towards the {{cushion}} cushion {there}"
    return [], ""


def _next_kiss_s(found: Sequence[ScoredEvent], ball: Ball, t_s: float) -> float:
    """When ``ball`` next meets a ball after ``t_s`` (inf: never)."""
    later = [e.event.t_s for e in found
             if isinstance(e.event, BallContact) and ball in e.event.balls
             and e.event.t_s > t_s + 1e-6]  # fmt: skip
    return min(later, default=np.inf)


def _reflect(v: F64, normals: list[F64]) -> F64:
    """``v`` reflected at each of ``normals`` in turn."""
    for normal in normals:
        v = v - (1.0 + CUSHION_E) * float(v @ normal) * normal
    return v


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
        landed = landed + (_reflect(u, [n]) - u) * (post.t_lo_s - t_c)
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
