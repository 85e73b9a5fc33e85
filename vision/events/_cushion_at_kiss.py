"""A cushion reached in the frame of a ball contact by a ball that then stays at it.

A ball heading for a cushion a few mm away when it meets another ball may reach the
cushion in the same frame and stay there: it rests against the nose, or runs on along
it. Neither side of the two contacts leaves a path to fit: the cushion finder's fits
may not span the ball contact, and a ball that stays at the nose neither bounces off
it (``vision.events._cushion_after_kiss``) nor had crossed its line by the ball
contact (``vision.events._cushion_before_kiss``). Tuning pt0311 (50 fps): the white
runs into the right cushion at 600 mm/s, 4.8 mm from it at its last sample, and meets
the red 0.8 ms after the cushion; from the next sample on it lies at the nose.

A ball touched the cushion when all of these hold: its path before the ball contact
heads for the cushion at a clear normal speed, near enough to reach it within
``_REACH_FRAMES`` frames; it was not at the nose already (the cushion finder's case);
its next ``_AT_NOSE`` samples, up to its next ball contact, all lie within touch of
the nose. The time is where its path before reaches the nose; a quarter frame at
least as ``t_err_s``, and no less than the distance to the ball contact's time, since
which came first is not seen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from calibration import TableGeometry
from referee import Ball, Cushion, CushionContact
from vision._types import ScoredEvent
from vision.events._cushion_after_kiss import cushion_contact_near
from vision.events._cushion_contacts import NORMALS, Tolerances, normal_gap
from vision.events._kick import sure_kisses
from vision.events._path_fit import Samples

__all__ = ["cushions_at_kisses"]

#: The path before must reach the nose within this many frames of its last sample.
_REACH_FRAMES = 1.5
#: Samples after the ball contact that must all lie at the nose.
_AT_NOSE = 3


def cushions_at_kisses(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Cushions reached in a ball contact's frame by a ball that stays at them."""
    out: list[ScoredEvent] = []
    kisses = sorted({(t_s, ball) for t_s, ball, _ in sure_kisses(found)})
    for t_s, ball in kisses:
        later = [t for t, b in kisses if b == ball and t > t_s]
        hit = _stays_at(samples[ball], t_s, min(later, default=np.inf), geometry, tol)
        if hit is None:
            continue
        t_c, cushion, v_in = hit
        if cushion_contact_near([*found, *out], ball, cushion, t_c, 0.1):
            continue
        ev = CushionContact(
            t_s=t_c, ball=ball, cushion=cushion, t_err_s=max(0.25 * tol.dt_s, abs(t_c - t_s))
        )
        why = (f"heading for the {cushion} cushion at {v_in:.0f} mm/s at a ball contact, "
               "at its nose from the next sample on")  # fmt: skip
        out.append(ScoredEvent(ev, 0.6, why))
    return out


def _stays_at(
    s: Samples, t_kiss: float, t_next: float, geometry: TableGeometry, tol: Tolerances
) -> tuple[float, Cushion, float] | None:
    """(time it reached the nose, the cushion, its normal speed in) or None."""
    i = s.index_before(t_kiss)
    fit = s.fit_before(i)
    after = s.xy_mm[i + 1 : i + 1 + _AT_NOSE]
    if fit is None or fit.n < 2 or len(after) < _AT_NOSE or t_kiss - s.t_s[i] > 1.5 * tol.dt_s:
        return None
    if s.t_s[i + _AT_NOSE] >= t_next or not np.all(s.seen[i + 1 : i + 1 + _AT_NOSE]):
        return None
    v = fit.velocity(fit.t_hi_s)
    for cushion, normal in NORMALS.items():
        v_in = -float(v @ np.array(normal))
        gap = float(normal_gap(s.xy_mm[i : i + 1], cushion, geometry)[0])
        if v_in < 4.0 * tol.speed_mm_s or gap <= tol.touch_mm:
            continue
        if gap > v_in * _REACH_FRAMES * tol.dt_s:
            continue
        if np.all(normal_gap(after, cushion, geometry) <= tol.touch_mm):
            return float(s.t_s[i]) + gap / v_in, cushion, v_in
    return None
