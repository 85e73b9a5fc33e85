"""Where the table and its balls appear in the image: the surface outline, a ball's size.

Both come from the calibration's projection at ball-centre height (``radius_mm`` above
the cloth), lens distortion included; the detectors use them to know where balls may
be and how big each must look there.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration

__all__ = ["ball_radius_px", "surface_polygon_px"]

F64 = NDArray[np.float64]


def surface_polygon_px(calibration: Calibration, outset_mm: float = 0.0, n: int = 60) -> F64:
    """The playing surface outline (4 n, 2) ``uv_px`` at ball-centre height.

    The outline is the cushion-nose rectangle grown by ``outset_mm``, sampled densely so
    that lens distortion bends it as it bends the cushions.
    """
    g = calibration.geometry
    lo, hi_x, hi_y = -outset_mm, g.length_mm + outset_mm, g.width_mm + outset_mm
    t = np.linspace(0.0, 1.0, n, endpoint=False)
    xs = np.concatenate(
        [lo + t * (hi_x - lo), np.full(n, hi_x), hi_x - t * (hi_x - lo), np.full(n, lo)]
    )
    ys = np.concatenate(
        [np.full(n, lo), lo + t * (hi_y - lo), np.full(n, hi_y), hi_y - t * (hi_y - lo)]
    )
    return calibration.mm_to_px(np.c_[xs, ys], g.radius_mm)


def ball_radius_px(calibration: Calibration, uv_px: F64) -> F64:
    """Apparent radius (n,) in pixels of a ball centred at image points ``uv_px`` (n, 2).

    The mean distance from the centre's image to the images of the four points one
    radius away on the ball's equator; NaN where the point is off the table plane.
    """
    r = calibration.geometry.radius_mm
    xy = calibration.px_to_mm(uv_px, r)
    centre = calibration.mm_to_px(xy, r)
    total = np.zeros(len(xy))
    for dx, dy in ((r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r)):
        edge = calibration.mm_to_px(xy + np.array([dx, dy]), r)
        total += np.hypot(*(edge - centre).T)
    out: F64 = total / 4.0
    return out
