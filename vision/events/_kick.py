"""A ball at a ball contact: where it was, how it moved, which way it was struck.

:func:`kick_at` reads both balls' paths before a contact found (``sure_kisses``): a
ball's centre and velocity there, the other's velocity, and the line of centres where
they touched. The finders of cushions touched right after a kiss
(:mod:`vision.events._cushion_after_kiss`, :mod:`vision.events._pushed_into_cushion`)
and of a second kiss after a rebound (:mod:`vision.events._rebound_kiss`) start from
it. Equal balls exchange the normal part of their relative velocity times
``(1 + e) / 2``; ``KICK_SHARE`` is that share less a margin for the fit.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import DOUBT_ENGLISH, Ball, BallContact, Cushion
from vision._types import ScoredEvent
from vision.events._ball_contacts import reflect_at_noses
from vision.events._cushion_contacts import Tolerances
from vision.events._path_fit import Samples

__all__ = ["KICK_SHARE", "Hit", "Kick", "kick_at", "sure_kisses"]

F64 = NDArray[np.float64]
#: A cushion contact read off a kick: its time (s), the cushion, the confidence.
Hit = tuple[float, Cushion, float]

#: Share of the closing speed along the line of centres a struck ball is given:
#: (1 + e) / 2 for equal balls, e about 0.93, less a margin for the fit.
KICK_SHARE = 0.9


@dataclass(frozen=True, slots=True)
class Kick:
    """One ball at one ball contact: where it was, how it moved, which way it was struck."""

    ball: Ball
    t_s: float
    xy_mm: F64
    v0_mm_s: F64
    axis: F64  # unit line of centres, from the other ball towards this one
    v_other_mm_s: F64  # the other ball's velocity before


#: The doubt of a contact in or next to a stretch where one of its balls was not seen.
_HIDDEN = DOUBT_ENGLISH["hidden"]


def sure_kisses(
    found: Sequence[ScoredEvent], *, hidden_too: bool = False
) -> Iterator[tuple[float, Ball, Ball]]:
    """``(t_s, ball, other)`` for each ball of each ball contact of confidence 0.5 or more.

    ``hidden_too``: and of each contact doubted only because a ball was hidden at it (its
    paths on either side still tell how each ball was struck).
    """
    for scored in found:
        kiss = scored.event
        hidden = hidden_too and isinstance(kiss, BallContact) and kiss.doubt == _HIDDEN
        if isinstance(kiss, BallContact) and (scored.confidence >= 0.5 or hidden):
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
