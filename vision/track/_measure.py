"""Detections in pixels -> the tracker's measurements in table mm, with their noise.

A detection's centre is mapped to the ball-centre plane (:class:`calibration.PxToMm`:
the parallax of a ball seen from above is corrected there). Its noise is the
detector's pixel noise through the map's Jacobian, plus its blur streak, mapped to mm,
as noise along the streak (``STREAK_SIGMA`` of its half-length).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calibration import PxToMm
from referee import Ball
from vision._types import Detections
from vision.track._ball_filter import STREAK_SIGMA, XY, Cov2

__all__ = ["Measurement", "measure"]


@dataclass(frozen=True, slots=True)
class Measurement:
    """One detection in table mm: centre, noise covariance (xx, xy, yy) mm^2, class, score."""

    xy_mm: XY
    noise_mm2: Cov2
    label: Ball
    score: float
    blur_mm: float = 0.0  # half-length of the blur streak


def measure(
    det: Detections,
    to_mm: PxToMm,
    bounds_mm: tuple[float, float, float, float],
    margin_mm: float,
    sigma_px: float,
) -> list[Measurement]:
    """Detections -> table mm with noise; detections off the table are dropped.

    ``bounds_mm`` (x_min, y_min, x_max, y_max) where a ball centre can be, and
    ``margin_mm`` beyond them for calibration error; ``sigma_px`` the detector's
    centre noise.
    """
    out: list[Measurement] = []
    x0, y0, x1, y1 = bounds_mm
    m = margin_mm
    var = sigma_px**2
    rows = zip(
        det.uv_px.tolist(), det.streak_px.tolist(), det.ball, det.score.tolist(), strict=True
    )
    for (u, v), (su, sv), label, score in rows:
        x, y, xu, xv, yu, yv = to_mm.point(u, v)
        if not (x0 - m < x < x1 + m and y0 - m < y < y1 + m):
            continue  # also NaN: the ray missed the plane
        # J J^T sigma^2, plus the streak (mapped to mm) as noise along it.
        sx, sy = (xu * su + xv * sv) * STREAK_SIGMA, (yu * su + yv * sv) * STREAK_SIGMA
        noise = (
            var * (xu * xu + xv * xv) + sx * sx,
            var * (xu * yu + xv * yv) + sx * sy,
            var * (yu * yu + yv * yv) + sy * sy,
        )
        blur = math.hypot(sx, sy) / STREAK_SIGMA
        out.append(Measurement((x, y), noise, label, float(score), blur))
    return out
