"""Where the annotated video's rings go: the apparent ball radius over the image."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration

__all__ = ["radius_grid"]

F64 = NDArray[np.float64]


def radius_grid(calib: Calibration, nu: int = 17, nv: int = 10) -> F64:
    """Apparent ball radius (nv, nu) in calibration pixels over a grid of the image.

    The camera model unprojects iteratively (ms per call), so it runs once here, not
    per ball and frame; the radius changes by a pixel or so across a table image.
    """
    (cw, ch), g = calib.image_size_px, calib.geometry
    uu, vv = np.meshgrid(np.linspace(0, cw - 1, nu), np.linspace(0, ch - 1, nv))
    at = np.c_[uu.ravel(), vv.ravel()]
    xy = calib.px_to_mm(at, g.radius_mm)
    edge = calib.mm_to_px(xy + np.array([[g.radius_mm, 0.0]]), g.radius_mm)
    r = np.hypot(*(edge - at).T).reshape(nv, nu)
    fallback = 0.012 * ch  # a ray that misses the table plane (far off the table)
    out: F64 = np.where(np.isfinite(r) & (r > 1.0), r, fallback)
    return out
