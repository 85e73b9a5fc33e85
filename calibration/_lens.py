"""The lens: pinhole intrinsics and OpenCV's five-coefficient distortion.

Pixels and distortion follow OpenCV (see :mod:`calibration._camera`): the centre of
the top-left pixel is (0, 0), ``u`` right, ``v`` down; :meth:`Distortion.apply` works
on normalized image coordinates (camera-frame ``x / z, y / z``) and
:meth:`Distortion.remove` inverts it by Newton's method (NaN where it has no inverse).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._errors import check_range

__all__ = ["Distortion", "Intrinsics"]

F64 = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Intrinsics:
    """Image size in pixels and the pinhole matrix entries in pixels."""

    width_px: int
    height_px: int
    fx_px: float
    fy_px: float
    cx_px: float
    cy_px: float

    def __post_init__(self) -> None:
        check_range("width_px", self.width_px, 16, 8192)
        check_range("height_px", self.height_px, 16, 8192)
        for name in ("fx_px", "fy_px"):
            check_range(name, getattr(self, name), 0.05 * self.width_px, 50.0 * self.width_px)
        check_range("cx_px", self.cx_px, 0.0, self.width_px - 1.0)
        check_range("cy_px", self.cy_px, 0.0, self.height_px - 1.0)

    @classmethod
    def from_fov(cls, width_px: int, height_px: int, hfov_deg: float) -> Intrinsics:
        """Square pixels, principal point at the image centre, horizontal field of view."""
        check_range("hfov_deg", hfov_deg, 10.0, 150.0)
        f_px = (width_px / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
        return cls(width_px, height_px, f_px, f_px, (width_px - 1) / 2.0, (height_px - 1) / 2.0)

    def matrix(self) -> F64:
        """The 3x3 camera matrix K."""
        return np.array(
            [[self.fx_px, 0.0, self.cx_px], [0.0, self.fy_px, self.cy_px], [0.0, 0.0, 1.0]]
        )


@dataclass(frozen=True, slots=True)
class Distortion:
    """OpenCV radial (k1, k2, k3) and tangential (p1, p2) coefficients, unitless."""

    k1: float = 0.0
    k2: float = 0.0
    p1: float = 0.0
    p2: float = 0.0
    k3: float = 0.0

    def __post_init__(self) -> None:
        for name in ("k1", "k2", "k3"):
            check_range(name, getattr(self, name), -1.0, 1.0)
        for name in ("p1", "p2"):
            check_range(name, getattr(self, name), -0.1, 0.1)

    def coeffs(self) -> F64:
        """The OpenCV vector (k1, k2, p1, p2, k3), shape (5,)."""
        return np.array([self.k1, self.k2, self.p1, self.p2, self.k3])

    def fold_radius(self) -> float:
        """Undistorted radius where the radial model stops growing (inf if never).

        Past it ``r * (1 + k1 r^2 + k2 r^4 + k3 r^6)`` folds back: the model is no lens
        there, so points beyond it are not projected (NaN) and pixels there not inverted.
        """
        return _fold_radius(self.k1, self.k2, self.k3)

    def apply(self, xy: F64) -> F64:
        """Distort normalized image points (n, 2) -> (n, 2)."""
        x, y = xy[:, 0], xy[:, 1]
        r2 = x * x + y * y
        radial = 1.0 + r2 * (self.k1 + r2 * (self.k2 + r2 * self.k3))
        xd = x * radial + 2.0 * self.p1 * x * y + self.p2 * (r2 + 2.0 * x * x)
        yd = y * radial + self.p1 * (r2 + 2.0 * y * y) + 2.0 * self.p2 * x * y
        return np.stack([xd, yd], axis=1)

    def _jacobian(self, xy: F64) -> tuple[F64, F64, F64, F64]:
        x, y = xy[:, 0], xy[:, 1]
        r2 = x * x + y * y
        radial = 1.0 + r2 * (self.k1 + r2 * (self.k2 + r2 * self.k3))
        slope = 2.0 * (self.k1 + r2 * (2.0 * self.k2 + 3.0 * self.k3 * r2))
        dxx = radial + x * x * slope + 2.0 * self.p1 * y + 6.0 * self.p2 * x
        dxy = x * y * slope + 2.0 * self.p1 * x + 2.0 * self.p2 * y
        dyy = radial + y * y * slope + 6.0 * self.p1 * y + 2.0 * self.p2 * x
        return dxx, dxy, dxy, dyy

    def remove(self, xy_d: F64, iterations: int = 30) -> F64:
        """Undistort normalized points (n, 2); NaN where the lens model has no inverse.

        OpenCV's fixed-point iteration gives the start, Newton's method polishes it to
        machine precision (OpenCV alone stops near 1e-6 with strong distortion).
        """
        if not self.coeffs().any():
            return xy_d.copy()
        start = cv2.undistortPoints(
            np.ascontiguousarray(xy_d).reshape(-1, 1, 2), np.eye(3), self.coeffs(),
            criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-12),
        )  # fmt: skip
        xy = np.asarray(start, dtype=np.float64).reshape(-1, 2)
        with np.errstate(invalid="ignore", over="ignore"):
            off = ~(np.abs(self.apply(xy) - xy_d).max(axis=1, initial=0.0) < 1e-3)
        if off.any():  # OpenCV ran off (a nearly flat lens edge): the radial root
            xy[off] = self._radial_start(xy_d[off])
        for _ in range(iterations):
            err = self.apply(xy) - xy_d
            a, b, c, d = self._jacobian(xy)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                det = a * d - b * c
                step = np.stack([d * err[:, 0] - b * err[:, 1], a * err[:, 1] - c * err[:, 0]], 1)
                step /= det[:, None]
            xy = xy - step
            if not np.nanmax(np.abs(step), initial=0.0) > 1e-15:
                break
        with np.errstate(invalid="ignore", over="ignore"):
            bad = ~(np.abs(self.apply(xy) - xy_d).max(axis=1, initial=0.0) < 1e-9)
            bad |= ~(np.hypot(xy[:, 0], xy[:, 1]) < self.fold_radius())
        xy[bad] = np.nan
        return xy

    def _radial_start(self, xy_d: F64) -> F64:
        """A start for Newton's method where OpenCV's is off: the radial part's own root.

        Each point is moved along its ray to the radius the radial part alone maps to its
        distorted radius (bisection; the tangential part is small). Found where OpenCV's
        fixed-point iteration had run off across a nearly flat stretch of a strong lens
        (k1 -0.26, k3 0.011: 30 Newton steps from there did not come back).
        """
        r_d = np.hypot(xy_d[:, 0], xy_d[:, 1])

        def radial(r: F64) -> F64:
            s = r * r
            out: F64 = r * (1.0 + s * (self.k1 + s * (self.k2 + s * self.k3)))
            return out

        top = min(self.fold_radius(), 10.0)
        lo, hi = np.zeros_like(r_d), np.full_like(r_d, top)
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            low = radial(mid) < r_d
            lo, hi = np.where(low, mid, lo), np.where(low, hi, mid)
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.where(r_d > 0.0, 0.5 * (lo + hi) / r_d, 1.0)
        scale[~(radial(np.full(1, top)) >= r_d)] = np.nan  # past the fold: no inverse
        out: F64 = xy_d * scale[:, None]
        return out


@functools.lru_cache(maxsize=64)
def _fold_radius(k1: float, k2: float, k3: float) -> float:
    """:meth:`Distortion.fold_radius`, kept: a camera fit asks it for the same lens often."""
    # d/dr of the radial map: 1 + 3 k1 s + 5 k2 s^2 + 7 k3 s^3 with s = r^2.
    poly = np.array([7.0 * k3, 5.0 * k2, 3.0 * k1, 1.0])
    poly[np.abs(poly) < 1e-12] = 0.0  # negligible terms would overflow the solver
    roots = np.roots(poly)
    real = roots[(np.abs(roots.imag) < 1e-12) & (roots.real > 0.0)].real
    return float(np.sqrt(real.min())) if len(real) else math.inf
