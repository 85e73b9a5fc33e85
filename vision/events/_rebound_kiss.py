"""A second kiss of the same two balls: the struck ball came back off a cushion.

Theory of operation. A ball struck near a cushion (at rest a few mm from it, or
driven into it) bounces off it within the frame and may run straight back into the
ball that struck it: two contacts of the same pair a few milliseconds apart, with a
cushion between, and no sample in between. The ball contact finder sees one valley of
the gap, one contact.

Physics tells the second one from the striker. A single contact changes each ball's
velocity only along the line of centres, by ``J = (1 + e) / 2`` times the closing
speed, so (equal masses, ``e <= 1``) the striker's speed along the line of centres
after the contact is at least the struck ball's before it: it never comes back. When
the striker's path after does come back along the line of centres, beyond what its
spin can do in that time (sliding friction, ``_SPIN_MM_S2``) and the fit's noise,
something pushed it back; with the struck ball found bouncing off a cushion right
after the contact (:mod:`vision.events._cushion_after_kiss` or the cushion finder),
the struck ball, reflected there, meets the striker again. The second contact's time
is where the two modelled paths (the single contact's velocities, the struck ball's
reflected at the cushion) come ``2R`` apart; it is kept only when that is before the
striker's first sample after. A modelled time has a doubt: ``t_err_s`` is a third of
the time between the two contacts, and the confidence is ``_CONFIDENCE``, so the
referee asks for review when the second contact decides the call.

Set on the tuning part of the independent set only (``docs/independent-events.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, BallContact, CushionContact
from vision._types import ScoredEvent
from vision.events._cushion_contacts import NORMALS, Tolerances
from vision.events._kick import kick_at, sure_kisses
from vision.events._path_fit import Samples

__all__ = ["kisses_after_rebounds"]

F64 = NDArray[np.float64]

#: How fast spin can turn a ball round after a contact (mm/s^2): sliding friction, ~0.2 g.
_SPIN_MM_S2 = 2000.0
#: Confidence of a second contact read off the striker's rebound.
_CONFIDENCE = 0.6
#: The second contact comes at least this long after the struck ball's bounce (s).
_AFTER_BOUNCE_S = 0.001
#: The struck ball's cushion must come within this many frames after the first contact.
_CUSHION_FRAMES = 1.5


@dataclass(frozen=True, slots=True)
class _Pair:
    """The two balls at the first contact: the struck ball's velocity, the line of centres."""

    striker: Ball
    struck: Ball
    t_s: float
    v_b: F64  # the struck ball's velocity before
    axis: F64  # unit, from the striker towards the struck ball


def kisses_after_rebounds(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Second contacts of a pair in ``found`` whose struck ball came back off a cushion."""
    out: list[ScoredEvent] = []
    for t_s, striker, struck in sure_kisses(found):
        pair = _pair(samples, striker, struck, t_s, geometry, tol)
        if pair is None or _pair_again(found, pair, tol.dt_s):
            continue
        hi = _striker_until(samples[striker], found, pair)
        for cushion in _cushions_after(found, pair, tol.dt_s):
            event = _second_contact(samples, pair, hi, cushion, (geometry, tol))
            if event is not None:
                out.append(event)
                break
    return out


def _pair(
    samples: Mapping[Ball, Samples],
    striker: Ball,
    struck: Ball,
    t_s: float,
    geometry: TableGeometry,
    tol: Tolerances,
) -> _Pair | None:
    """Both balls at the contact, the striker closing in (``None``: not so, or unknown)."""
    kick = kick_at(samples, struck, striker, t_s, geometry, tol) if struck in samples else None
    if kick is None:
        return None
    if float((kick.v_other_mm_s - kick.v0_mm_s) @ kick.axis) < 4.0 * tol.speed_mm_s:
        return None  # not closing in along the line of centres: not the striker
    return _Pair(striker, struck, t_s, kick.v0_mm_s, kick.axis)


def _pair_again(found: Sequence[ScoredEvent], pair: _Pair, dt_s: float) -> bool:
    """True if ``found`` already has a second contact of the pair within two frames."""
    balls = {pair.striker, pair.struck}
    return any(
        isinstance(e.event, BallContact)
        and set(e.event.balls) == balls
        and 1e-6 < e.event.t_s - pair.t_s <= 2.0 * dt_s
        for e in found
    )


def _cushions_after(found: Sequence[ScoredEvent], pair: _Pair, dt_s: float) -> list[CushionContact]:
    """The struck ball's cushion contacts just after the first contact."""
    return [
        e.event
        for e in found
        if isinstance(e.event, CushionContact)
        and e.event.ball == pair.struck
        and 0.0 <= e.event.t_s - pair.t_s <= _CUSHION_FRAMES * dt_s
    ]


def _striker_until(s: Samples, found: Sequence[ScoredEvent], pair: _Pair) -> int:
    """The striker's last sample before its next event (a cushion, a third ball).

    Its path after the contact is read up to there only, or a bounce of its own would
    look like being pushed back.
    """
    later = [
        e.event.t_s
        for e in found
        if e.event.t_s > pair.t_s + 1e-6
        and (
            (isinstance(e.event, CushionContact) and e.event.ball == pair.striker)
            or (isinstance(e.event, BallContact) and pair.striker in e.event.balls
                and pair.struck not in e.event.balls)
        )
    ]  # fmt: skip
    return s.index_before(min(later)) if later else len(s) - 1


def _second_contact(
    samples: Mapping[Ball, Samples],
    pair: _Pair,
    hi: int,
    cushion: CushionContact,
    setting: tuple[TableGeometry, Tolerances],
) -> ScoredEvent | None:
    """The second contact, if the striker came back and the paths after meet.

    ``hi``: the striker's last sample to read (:func:`_striker_until`).
    """
    geometry, tol = setting
    normal = np.array(NORMALS[cushion.cushion], dtype=np.float64)
    if float(pair.axis @ normal) > -0.2:
        return None  # the contact did not drive the struck ball into that cushion
    s = samples[pair.striker]
    # Three samples before the striker's next event: a two-sample chord is too noisy
    # to call a rebound (and its own next bounce may come earlier than found).
    post = s.fit_after(s.index_before(pair.t_s) + 1, 3, hi_max=hi)
    if post is None or post.n < 3:
        return None
    back = float(post.velocity(post.t_lo_s) @ pair.axis)  # the striker's, after
    floor = float(pair.v_b @ pair.axis)  # what one contact leaves it at least
    allow = 2.0 * tol.speed_for(post.n) + _SPIN_MM_S2 * (post.t_hi_s - pair.t_s)
    if back >= floor - allow:
        return None
    t_min = cushion.t_s - max(cushion.t_err_s, 0.25 * tol.dt_s)
    t2 = _met_again(samples, pair, (t_min, hi), tol, geometry.radius_mm)
    if t2 is None:
        return None
    # It follows the bounce that sent the struck ball back, whose own time is a guess.
    t2 = max(t2, cushion.t_s + _AFTER_BOUNCE_S)
    t_err = max((t2 - pair.t_s) / 3.0, 0.25 * tol.dt_s)
    ev = BallContact(t_s=t2, balls=(pair.striker, pair.struck), t_err_s=t_err)
    why = (
        f"{pair.striker} came back along the line of centres ({back:.0f} mm/s after): "
        f"{pair.struck} returned off the {cushion.cushion} cushion into it"
    )
    return ScoredEvent(ev, _CONFIDENCE, why)


def _met_again(
    samples: Mapping[Ball, Samples],
    pair: _Pair,
    bounds: tuple[float, int],
    tol: Tolerances,
    radius_mm: float,
) -> float | None:
    """When the two balls' paths after the second contact, traced back, are ``2R`` apart.

    The paths are fitted from a sample after the first contact where the two are
    parting (the second contact may come after a sample or two that still close in,
    and a fit across it may point anywhere: the next sample is tried); the time must
    lie after ``t_min_s`` (the cushion, within its error). ``bounds``: ``t_min_s`` and
    the striker's last sample to read.
    """
    t_min_s, hi = bounds
    a, b = samples[pair.striker], samples[pair.struck]
    first = a.index_before(pair.t_s) + 1
    for k in range(first, min(first + 3, hi)):
        t_k = float(a.t_s[k])
        fit_a = a.fit_after(k, 2, hi_max=hi)
        fit_b = b.fit_after(b.index_before(t_k), 2)
        if fit_a is None or fit_b is None or fit_a.n < 2 or fit_b.n < 2:
            return None
        d = fit_b.at(np.array([t_k]))[0] - fit_a.at(np.array([t_k]))[0]
        w = fit_b.velocity(t_k) - fit_a.velocity(t_k)
        if float(d @ w) <= 0.0:
            continue  # still closing in: the second contact is later
        t2 = _back_to_touch(d, w, t_k, radius_mm, tol.touch_mm)
        if t2 is not None and max(t_min_s, pair.t_s) - 1e-6 <= t2 < t_k:
            return t2
    return None


def _back_to_touch(d: F64, w: F64, t_k: float, radius_mm: float, near_mm: float) -> float | None:
    """The latest time before ``t_k`` at which ``|d - w (t_k - t)| = 2R``.

    Where the paths traced back never come that close, where they come closest, if
    within ``near_mm`` of touching (the fits' error); ``None`` if overlapping at ``t_k``.
    """
    two_r = 2.0 * radius_mm
    qa, qb, qc = float(w @ w), -2.0 * float(d @ w), float(d @ d) - two_r * two_r
    if qa < 1e-9 or qc < 0.0:
        return None
    disc = qb * qb - 4.0 * qa * qc
    if disc >= 0.0:
        return t_k - float((-qb - np.sqrt(disc)) / (2.0 * qa))
    tau = float(d @ w) / qa  # closest approach
    closest = float(np.linalg.norm(d - w * tau))
    return t_k - tau if closest - two_r <= near_mm else None
