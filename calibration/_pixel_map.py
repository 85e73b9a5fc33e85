"""Fast pixel <-> table maps at one height, sampled on a grid and interpolated.

The exact mappings (``Calibration.px_to_mm``: Newton on the lens model, then the ray
meets the plane; ``Calibration.mm_to_px``: the full projection) cost 0.1-1 ms a call,
far over a per-frame tracking budget for three balls. Both are smooth, so a grid and
bilinear interpolation are within 0.1 mm (an 8 px grid; 0.06 mm on the strongest
sample lens) and a hundredth of a pixel (a 20 mm grid); points off the grid, or next
to the lens fold (a NaN corner), are mapped exactly.

Both work at a height ``z_mm`` above the cloth: ``geometry.radius_mm`` for ball
centres, which corrects the parallax of a ball seen from above (over a centimetre near
the cushions from 2.5 m up). Both use plain floats per point: with three balls numpy's
per-call overhead would cost more than the arithmetic.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError
from calibration._file import Calibration

__all__ = ["MmToPx", "PxToMm"]

F64 = NDArray[np.float64]


class PxToMm:
    """Image pixels -> table mm at one height, sampled on a grid and interpolated.

    Args:
        calibration: The camera and table.
        z_mm: Height of the plane (ball centres: ``geometry.radius_mm``).
        step_px: Grid step; 0 calls ``px_to_mm`` for every point instead.
    """

    def __init__(self, calibration: Calibration, z_mm: float, step_px: int = 8) -> None:
        _check_map(z_mm, step_px, "step_px", whole=True)
        self._calibration, self._z_mm, self._step = calibration, z_mm, step_px
        w, h = calibration.image_size_px
        self._u0 = self._v0 = -2.0 * step_px
        self._nu = self._nv = 0
        self._grid: list[list[tuple[float, float]]] = []
        if step_px > 0:
            us = np.arange(self._u0, w + 3 * step_px, step_px, dtype=np.float64)
            vs = np.arange(self._v0, h + 3 * step_px, step_px, dtype=np.float64)
            uu, vv = np.meshgrid(us, vs)
            flat = calibration.px_to_mm(np.c_[uu.ravel(), vv.ravel()], z_mm)
            rows = flat.reshape(len(vs), len(us), 2).tolist()
            self._grid = [[(float(x), float(y)) for x, y in row] for row in rows]
            self._nu, self._nv = len(us), len(vs)

    def point(self, u: float, v: float) -> tuple[float, float, float, float, float, float]:
        """One pixel -> (x, y) mm and d(x, y)/d(u, v) as (xu, xv, yu, yv); NaN off the plane."""
        if not self._step:
            return self._exact(u, v)
        if not (math.isfinite(u) and math.isfinite(v)):
            return (math.nan,) * 6  # no pixel: no place (as a point off the plane)
        fu, fv = (u - self._u0) / self._step, (v - self._v0) / self._step
        iu, iv = math.floor(fu), math.floor(fv)
        if not (0 <= iu < self._nu - 1 and 0 <= iv < self._nv - 1):
            return self._exact(u, v)
        a, b = fu - iu, fv - iv
        row0, row1 = self._grid[iv], self._grid[iv + 1]
        (x00, y00), (x01, y01) = row0[iu], row0[iu + 1]
        (x10, y10), (x11, y11) = row1[iu], row1[iu + 1]
        xt, yt = x00 + (x01 - x00) * a, y00 + (y01 - y00) * a
        xb, yb = x10 + (x11 - x10) * a, y10 + (y11 - y10) * a
        x, y = xt + (xb - xt) * b, yt + (yb - yt) * b
        if x != x or y != y:  # NaN corner: next to the lens fold
            return self._exact(u, v)
        k = 1.0 / self._step
        xu = ((x01 - x00) * (1 - b) + (x11 - x10) * b) * k
        yu = ((y01 - y00) * (1 - b) + (y11 - y10) * b) * k
        return x, y, xu, (xb - xt) * k, yu, (yb - yt) * k

    def _exact(self, u: float, v: float) -> tuple[float, float, float, float, float, float]:
        pts = np.array([[u, v], [u + 1, v], [u - 1, v], [u, v + 1], [u, v - 1]])
        (x, y), (x1, y1), (x2, y2), (x3, y3), (x4, y4) = self._calibration.px_to_mm(
            pts, self._z_mm
        ).tolist()
        return x, y, (x1 - x2) / 2, (x3 - x4) / 2, (y1 - y2) / 2, (y3 - y4) / 2

    def __call__(self, uv_px: F64) -> F64:
        """Pixels (n, 2) -> table mm (n, 2)."""
        uv = np.asarray(uv_px, np.float64).reshape(-1, 2).tolist()
        pts = [self.point(u, v)[:2] for u, v in uv]
        return np.array(pts, dtype=np.float64).reshape(-1, 2)


class MmToPx:
    """Table mm at one height -> image pixels, sampled on a grid and interpolated.

    The exact projection (lens distortion included) costs a few hundred microseconds
    even for three points. Bilinear interpolation on a ``step_mm`` grid is within a
    hundredth of a pixel of it on any real lens, and points off the grid (a ball
    flying off the table) are projected exactly.
    """

    def __init__(self, calibration: Calibration, z_mm: float, step_mm: float = 20.0) -> None:
        _check_map(z_mm, step_mm, "step_mm", whole=False)
        if step_mm == 0:
            raise CalibrationError("MmToPx: step_mm must be more than 0")
        g = calibration.geometry
        self._calibration, self._z_mm, self._step = calibration, z_mm, step_mm
        self._x0 = self._y0 = -10.0 * step_mm
        xs = np.arange(self._x0, g.length_mm + 11 * step_mm, step_mm)
        ys = np.arange(self._y0, g.width_mm + 11 * step_mm, step_mm)
        xx, yy = np.meshgrid(xs, ys)
        flat = calibration.mm_to_px(np.c_[xx.ravel(), yy.ravel()], z_mm)
        self._grid: F64 = flat.reshape(len(ys), len(xs), 2)
        self._nx, self._ny = len(xs), len(ys)

    def points(self, xy_mm: F64) -> F64:
        """Points (k, 2) table mm -> (k, 2) ``uv_px`` (NaN for a NaN point)."""
        xy = np.asarray(xy_mm, dtype=np.float64)
        if xy.ndim != 2 or xy.shape[1] != 2:
            raise CalibrationError(f"xy_mm: expected (k, 2), got {xy.shape}")
        out = np.empty_like(xy)
        for i, (x, y) in enumerate(xy.tolist()):
            if not (math.isfinite(x) and math.isfinite(y)):
                out[i] = math.nan
                continue
            fx, fy = (x - self._x0) / self._step, (y - self._y0) / self._step
            ix, iy = int(np.floor(fx)), int(np.floor(fy))
            if not (0 <= ix < self._nx - 1 and 0 <= iy < self._ny - 1):
                out[i] = self._calibration.mm_to_px(np.array([[x, y]]), self._z_mm)[0]
                continue
            a, b = fx - ix, fy - iy
            q = self._grid[iy : iy + 2, ix : ix + 2]
            top = q[0, 0] + (q[0, 1] - q[0, 0]) * a
            bottom = q[1, 0] + (q[1, 1] - q[1, 0]) * a
            out[i] = top + (bottom - top) * b
        return out


def _check_map(z_mm: float, step: float, name: str, *, whole: bool) -> None:
    """A finite height and a grid step of 0 or more (whole pixels for ``step_px``)."""
    if not math.isfinite(z_mm):
        raise CalibrationError(f"z_mm: expected a finite height above the cloth, got {z_mm}")
    kind = int if whole else (int, float)
    if isinstance(step, bool) or not isinstance(step, kind) or not step >= 0:
        what = "a whole number of pixels" if whole else "a length in mm"
        raise CalibrationError(f"{name}: expected {what}, 0 or more, got {step!r}")
