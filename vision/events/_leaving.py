"""Balls leaving the table: off over a rail, or into a pocket, from one ball's samples.

A ball whose samples leave the playing area, or that vanishes at speed well before the
recording ends, went somewhere: into the nearest pocket when it vanished close to one,
else off the table (sure near a rail, doubtful in the middle of the cloth).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, OffTable, Pocketed
from vision._types import ScoredEvent
from vision.events._cushion_contacts import NORMALS, Tolerances, normal_gap
from vision.events._path_fit import Samples

__all__ = ["leaving_events"]

F64 = NDArray[np.float64]


def leaving_events(
    s: Samples, ball: Ball, geometry: TableGeometry, t_end_s: float, tol: Tolerances
) -> list[ScoredEvent]:
    """OffTable / Pocketed when the ball vanishes at speed or leaves the playing area.

    ``t_end_s`` is the end of the recording: a ball whose last sample is well before it
    while it was still moving has gone somewhere.
    """
    if len(s) < 3:
        return []
    r, length, width = geometry.radius_mm, geometry.length_mm, geometry.width_mm
    x, y = s.xy_mm[:, 0], s.xy_mm[:, 1]
    outside = np.nonzero((x < -r) | (x > length + r) | (y < -r) | (y > width + r))[0]
    if len(outside):
        i = int(outside[0])
        off = OffTable(t_s=float(s.t_s[i]), ball=ball, t_err_s=s.dt_s)
        return [ScoredEvent(off, 0.9, "centre left the playing area")]
    last = len(s) - 1  # the last seen sample
    fit = s.fit_before(last)
    speed = float(np.linalg.norm(fit.velocity(s.t_s[last]))) if fit else 0.0
    if t_end_s - s.t_s[last] < 5.0 * s.dt_s or speed < max(100.0, tol.speed_mm_s):
        return []
    t_gone = float(s.t_s[last] + 0.5 * s.dt_s)
    return _gone(s.xy_mm[last], ball, geometry, t_gone, speed, s.dt_s)


def _gone(
    xy: F64, ball: Ball, geometry: TableGeometry, t_s: float, speed: float, dt_s: float
) -> list[ScoredEvent]:
    pockets = geometry.pockets_mm()
    if pockets:
        dist = {p: float(np.hypot(*(xy - np.array(c)))) for p, c in pockets.items()}
        pocket = min(dist, key=dist.__getitem__)
        if dist[pocket] < 4.0 * geometry.radius_mm + speed * dt_s:
            ev = Pocketed(t_s=t_s, ball=ball, pocket=pocket, t_err_s=dt_s)
            return [ScoredEvent(ev, 0.9, f"vanished {dist[pocket]:.0f} mm from the pocket")]
    gaps = [float(normal_gap(xy[None, :], c, geometry)[0]) for c in NORMALS]
    near_rail = min(gaps) < 3.0 * geometry.radius_mm + speed * dt_s
    confidence = 0.8 if near_rail else 0.3
    doubt = None if near_rail else "vanished away from the rails"
    off = OffTable(t_s=t_s, ball=ball, doubt=doubt, t_err_s=dt_s)
    return [
        ScoredEvent(
            off, confidence, f"vanished at {speed:.0f} mm/s, {min(gaps):.0f} mm from a rail"
        )
    ]
