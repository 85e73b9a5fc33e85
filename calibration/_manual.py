"""The manual path: a camera from the four corners a person marked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError, check_shape
from calibration._detect import TableEdges
from calibration._fit import (
    Fit,
    _image_right_deg,
    _Problem,
    _problems,
    _start,
    _summary,
    _to_camera,
)

__all__ = ["fit_from_points"]

F64 = NDArray[np.float64]


def fit_from_points(
    image_size_px: tuple[int, int],
    marked: Mapping[str, Sequence[Sequence[float]]],
    *,
    length_mm: float = 2840.0,
    width_mm: float = 1420.0,
    hfov_deg: float = 60.0,
) -> Fit:
    """Fit a camera (no lens distortion) to corners a person marked.

    Args:
        image_size_px: Frame (width, height) in pixels.
        marked: ``{"corners": 4 points [u, v] px}``, the playing-surface corners where
            the cloth meets the cushions, clockwise in the image from any corner.
        length_mm: Playing-surface length, mm.
        width_mm: Playing-surface width, mm.
        hfov_deg: Horizontal field of view tried first; a grid of 30..110 degrees
            follows and the smallest corner error wins (ties: this one, for a camera
            looking straight down, where the corners cannot tell the focal length).

    Returns:
        The fitted camera; residuals are the corner reprojection errors in pixels.

    Raises:
        CalibrationError: Not four corners, or no plausible camera through them.
    """
    if "corners" not in marked:
        raise CalibrationError("marked: expected a 'corners' list of 4 [u, v] points")
    corners = check_shape("marked.corners", marked["corners"], 2)
    if corners.shape != (4, 2):
        raise CalibrationError(f"marked.corners: expected (4, 2), got {corners.shape}")
    # Each side becomes a two-point edge: its two corners.
    sides = tuple(np.array([corners[i], corners[(i + 1) % 4]]) for i in range(4))
    edges = TableEdges(image_size_px, corners, sides, np.zeros(3), 0.0)  # type: ignore[arg-type]
    best: tuple[float, F64, _Problem] | None = None
    for prob in _problems(edges, length_mm, width_mm, 0.0, 1):
        for hfov in (hfov_deg, *np.arange(30.0, 111.0, 2.5)):
            start = _start(prob, corners, float(hfov), 0.0)
            if start is None:
                continue
            try:
                cam = _to_camera(start, prob)
            except CalibrationError:
                continue  # an implausible pose (tilted past 60 degrees)
            err = cam.project(np.c_[np.array([s[0] for s in prob.sides_mm]), np.zeros(4)])
            cost = float(np.sqrt(np.nanmean(np.sum((err - corners) ** 2, axis=1))))
            key = round(cost, 2) + 1e-3 * _image_right_deg(start, prob)
            if best is None or key < best[0]:
                best = (key, start, prob)
    if best is None:
        raise CalibrationError("marked.corners: no camera sees a table through these points")
    return _summary(best[1], best[2])
