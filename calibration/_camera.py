"""The camera model: pinhole intrinsics, OpenCV lens distortion and a pose over the table.

Theory of operation. Points live in the table frame: x from the head cushion to the
foot cushion, y from the left cushion to the right one, z up from the cloth, all in
mm (a ball centre sits at z = R = 30.75 mm). With z up that frame is left-handed, so
the camera works in the right-handed frame ``(x, y, -z)`` (z pointing down); the
OpenCV extrinsics (:meth:`Camera.rvec_tvec`) act on points written that way
(:func:`to_cv_points`). A camera with yaw, tilt and roll all zero looks straight down
and shows the head->foot axis going right and the left->right axis going down in the
image, as a broadcast overhead view does.

Orientation: world-to-camera rotation ``R = Rz(roll) @ Rx(tilt) @ Rz(yaw)``; yaw turns
the table in the picture, tilt swings the optical axis towards image-down, roll turns
the picture about the optical axis. Pixels: OpenCV convention, the centre of the
top-left pixel is (0, 0); ``u`` goes right, ``v`` down.

Distortion is OpenCV's five-coefficient model (k1, k2, p1, p2, k3); :meth:`project`
equals ``cv2.projectPoints`` and :meth:`unproject` inverts it by Newton's method,
then intersects the viewing ray with the plane ``z = z_mm``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from referee import CaromError

__all__ = [
    "CAMERA_FORMAT",
    "CalibrationError",
    "Camera",
    "Distortion",
    "Intrinsics",
    "Pose",
    "check_shape",
    "to_cv_points",
]

CAMERA_FORMAT = "carom-camera/1"
F64 = NDArray[np.float64]


class CalibrationError(CaromError):
    """A camera model or table geometry value is invalid; the message names it."""


def check_shape(name: str, array: Any, cols: int) -> F64:
    """Return ``array`` as float64 of shape (n, cols), or raise naming expected vs got."""
    out = np.asarray(array, dtype=np.float64)
    if out.ndim != 2 or out.shape[1] != cols:
        raise CalibrationError(f"{name}: expected (n, {cols}), got {out.shape}")
    return out


def _check_range(name: str, value: float, lo: float, hi: float) -> None:
    if not (math.isfinite(value) and lo <= value <= hi):
        raise CalibrationError(f"{name} must be {lo:g}..{hi:g}, got {value!r}")


def to_cv_points(xyz_mm: F64) -> F64:
    """Table points (n, 3) x, y, z-up in mm -> OpenCV object points (n, 3) x, y, -z."""
    out = check_shape("xyz_mm", xyz_mm, 3).copy()
    out[:, 2] *= -1.0
    return out


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
        _check_range("width_px", self.width_px, 16, 8192)
        _check_range("height_px", self.height_px, 16, 8192)
        for name in ("fx_px", "fy_px"):
            _check_range(name, getattr(self, name), 0.05 * self.width_px, 50.0 * self.width_px)
        _check_range("cx_px", self.cx_px, 0.0, self.width_px - 1.0)
        _check_range("cy_px", self.cy_px, 0.0, self.height_px - 1.0)

    @classmethod
    def from_fov(cls, width_px: int, height_px: int, hfov_deg: float) -> Intrinsics:
        """Square pixels, principal point at the image centre, horizontal field of view."""
        _check_range("hfov_deg", hfov_deg, 10.0, 150.0)
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
            _check_range(name, getattr(self, name), -1.0, 1.0)
        for name in ("p1", "p2"):
            _check_range(name, getattr(self, name), -0.1, 0.1)

    def coeffs(self) -> F64:
        """The OpenCV vector (k1, k2, p1, p2, k3), shape (5,)."""
        return np.array([self.k1, self.k2, self.p1, self.p2, self.k3])

    def fold_radius(self) -> float:
        """Undistorted radius where the radial model stops growing (inf if never).

        Past it ``r * (1 + k1 r^2 + k2 r^4 + k3 r^6)`` folds back: the model is no lens
        there, so points beyond it are not projected (NaN) and pixels there not inverted.
        """
        # d/dr of the radial map: 1 + 3 k1 s + 5 k2 s^2 + 7 k3 s^3 with s = r^2.
        poly = np.array([7.0 * self.k3, 5.0 * self.k2, 3.0 * self.k1, 1.0])
        poly[np.abs(poly) < 1e-12] = 0.0  # negligible terms would overflow the solver
        roots = np.roots(poly)
        real = roots[(np.abs(roots.imag) < 1e-12) & (roots.real > 0.0)].real
        return float(np.sqrt(real.min())) if len(real) else math.inf

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


@dataclass(frozen=True, slots=True)
class Pose:
    """Camera centre in table mm (height above the cloth) and orientation in degrees."""

    x_mm: float
    y_mm: float
    height_mm: float
    yaw_deg: float = 0.0
    tilt_deg: float = 0.0
    roll_deg: float = 0.0

    def __post_init__(self) -> None:
        _check_range("x_mm", self.x_mm, -20000.0, 20000.0)
        _check_range("y_mm", self.y_mm, -20000.0, 20000.0)
        _check_range("height_mm", self.height_mm, 300.0, 10000.0)
        _check_range("yaw_deg", self.yaw_deg, -180.0, 180.0)
        _check_range("tilt_deg", self.tilt_deg, -60.0, 60.0)
        _check_range("roll_deg", self.roll_deg, -180.0, 180.0)

    def rotation(self) -> F64:
        """World-to-camera rotation (3, 3), world written as (x, y, -z)."""
        yaw, tilt, roll = (math.radians(a) for a in (self.yaw_deg, self.tilt_deg, self.roll_deg))
        return _rz(roll) @ _rx(tilt) @ _rz(yaw)

    def centre_cv(self) -> F64:
        """Camera centre (3,) in the OpenCV world frame (x, y, -z)."""
        return np.array([self.x_mm, self.y_mm, -self.height_mm])


def _rz(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _rx(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


@dataclass(frozen=True, slots=True)
class Camera:
    """A calibrated camera over the table: maps table mm to pixels and back."""

    intrinsics: Intrinsics
    distortion: Distortion
    pose: Pose

    @classmethod
    def overhead(
        cls,
        *,
        width_px: int = 1280,
        height_px: int = 720,
        hfov_deg: float = 70.0,
        height_mm: float = 2600.0,
        aim_mm: tuple[float, float] = (1420.0, 710.0),
        yaw_deg: float = 0.0,
        tilt_deg: float = 0.0,
        roll_deg: float = 0.0,
        distortion: Distortion | None = None,
    ) -> Camera:
        """A camera ``height_mm`` above the cloth whose optical axis meets it at ``aim_mm``.

        Args:
            width_px: Image width in pixels.
            height_px: Image height in pixels.
            hfov_deg: Horizontal field of view of the undistorted pinhole, degrees.
            height_mm: Camera centre above the cloth, mm (a club mount: 2200-3500).
            aim_mm: Table point (x_mm, y_mm) on the optical axis: the table centre plus
                any offset of the mount.
            yaw_deg: Turn of the table in the picture (90: head->foot axis goes down).
            tilt_deg: Angle of the optical axis from the vertical.
            roll_deg: Turn of the picture about the optical axis.
            distortion: Lens distortion; none by default.
        """
        intrinsics = Intrinsics.from_fov(width_px, height_px, hfov_deg)
        rot = Pose(0.0, 0.0, height_mm, yaw_deg, tilt_deg, roll_deg).rotation()
        axis = rot.T @ np.array([0.0, 0.0, 1.0])  # optical axis in (x, y, -z)
        centre = np.array([aim_mm[0], aim_mm[1], 0.0]) - axis * (height_mm / axis[2])
        pose = Pose(float(centre[0]), float(centre[1]), height_mm, yaw_deg, tilt_deg, roll_deg)
        return cls(intrinsics, distortion or Distortion(), pose)

    @property
    def size_px(self) -> tuple[int, int]:
        """Image (width, height) in pixels."""
        return self.intrinsics.width_px, self.intrinsics.height_px

    @property
    def position_mm(self) -> F64:
        """Camera centre (3,) in the table frame (x, y, z up), mm."""
        return np.array([self.pose.x_mm, self.pose.y_mm, self.pose.height_mm])

    def rvec_tvec(self) -> tuple[F64, F64]:
        """OpenCV extrinsics (Rodrigues vector (3,), translation (3,) mm) for cv points."""
        rot = self.pose.rotation()
        return _rodrigues(rot), -rot @ self.pose.centre_cv()

    def to_camera(self, xyz_mm: F64) -> F64:
        """Table points (n, 3) mm -> camera frame (n, 3) mm (x right, y down, z forward)."""
        pts = to_cv_points(xyz_mm)
        return (pts - self.pose.centre_cv()) @ self.pose.rotation().T

    def project(self, xyz_mm: F64) -> F64:
        """Table points (n, 3) mm -> pixels (n, 2) ``uv_px``.

        NaN for points behind the camera or beyond the lens model's fold radius.
        """
        cam = self.to_camera(xyz_mm)
        with np.errstate(divide="ignore", invalid="ignore"):
            xy = cam[:, :2] / cam[:, 2:3]
        xy[cam[:, 2] <= 0.0] = np.nan
        with np.errstate(invalid="ignore"):
            xy[~(np.hypot(xy[:, 0], xy[:, 1]) < self.distortion.fold_radius())] = np.nan
        return self._to_pixels(self.distortion.apply(xy))

    def _to_pixels(self, xy: F64) -> F64:
        k = self.intrinsics
        return np.stack([k.fx_px * xy[:, 0] + k.cx_px, k.fy_px * xy[:, 1] + k.cy_px], axis=1)

    def normalized(self, uv_px: F64) -> F64:
        """Pixels (n, 2) -> undistorted normalized image coordinates (n, 2); NaN if none."""
        uv = check_shape("uv_px", uv_px, 2)
        k = self.intrinsics
        xy_d = np.stack([(uv[:, 0] - k.cx_px) / k.fx_px, (uv[:, 1] - k.cy_px) / k.fy_px], 1)
        return self.distortion.remove(xy_d)

    def rays(self, uv_px: F64) -> F64:
        """Unit viewing directions (n, 3) in the table frame (z up) through pixels (n, 2)."""
        xy = self.normalized(uv_px)
        cam = np.concatenate([xy, np.ones((len(xy), 1))], axis=1)
        world = cam @ self.pose.rotation()  # R.T @ each row
        world[:, 2] *= -1.0
        out: F64 = world / np.linalg.norm(world, axis=1, keepdims=True)
        return out

    def unproject(self, uv_px: F64, z_mm: float | F64 = 0.0) -> F64:
        """Pixels (n, 2) -> table points (n, 3) mm on the plane(s) ``z = z_mm``.

        ``z_mm`` is a scalar or shape (n,); NaN where the ray misses the plane.
        """
        dirs = self.rays(uv_px)
        z = np.broadcast_to(np.asarray(z_mm, dtype=np.float64), (len(dirs),))
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (z - self.pose.height_mm) / dirs[:, 2]
        s[~(s > 0.0)] = np.nan
        return self.position_mm + dirs * s[:, None]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description; ``opencv`` holds derived values for OpenCV users."""
        rvec, tvec = self.rvec_tvec()
        k = self.intrinsics
        return {
            "format": CAMERA_FORMAT,
            "image_size_px": [k.width_px, k.height_px],
            "intrinsics": {"fx_px": k.fx_px, "fy_px": k.fy_px, "cx_px": k.cx_px, "cy_px": k.cy_px},
            "distortion": asdict(self.distortion),
            "pose": asdict(self.pose),
            "opencv": {
                "object_points": "table (x, y, -z) mm",
                "camera_matrix": k.matrix().tolist(),
                "dist_coeffs": self.distortion.coeffs().tolist(),
                "rvec": rvec.tolist(),
                "tvec_mm": tvec.tolist(),
            },
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "camera") -> Camera:
        """Build from :meth:`to_dict` output; errors name the field ("camera.pose.x_mm")."""
        obj = _obj(data, where, {"format", "image_size_px", "intrinsics", "distortion", "pose"})
        if obj["format"] != CAMERA_FORMAT:
            raise CalibrationError(f"{where}.format: expected {CAMERA_FORMAT!r}")
        size = obj["image_size_px"]
        if not (isinstance(size, list) and len(size) == 2 and all(type(v) is int for v in size)):
            raise CalibrationError(f"{where}.image_size_px: expected [width, height] integers")
        at = f"{where}.intrinsics"
        intr = _numbers(obj["intrinsics"], at, {"fx_px", "fy_px", "cx_px", "cy_px"}, set())
        intrinsics = _build(at, lambda: Intrinsics(size[0], size[1], **intr))
        at = f"{where}.distortion"
        dist = _numbers(obj["distortion"], at, set(), {"k1", "k2", "p1", "p2", "k3"})
        distortion = _build(at, lambda: Distortion(**dist))
        at = f"{where}.pose"
        angles = {"yaw_deg", "tilt_deg", "roll_deg"}
        pose = _numbers(obj["pose"], at, {"x_mm", "y_mm", "height_mm"}, angles)
        return cls(intrinsics, distortion, _build(at, lambda: Pose(**pose)))


def _rodrigues(rot: F64) -> F64:
    """Rotation matrix -> Rodrigues vector, exact for tiny angles too.

    ``cv2.Rodrigues`` returns zero below about 1e-5 rad, which moves a point 2.5 m away
    by a few hundredths of a millimetre: too coarse for the extrinsics we export.
    """
    half = 0.5 * np.array([rot[2, 1] - rot[1, 2], rot[0, 2] - rot[2, 0], rot[1, 0] - rot[0, 1]])
    sin, cos = float(np.linalg.norm(half)), (float(np.trace(rot)) - 1.0) / 2.0
    if cos > 0.0:  # under 90 degrees: the axis from the antisymmetric part is exact
        angle = math.atan2(sin, cos)
        return half * (angle / sin if sin > 0.0 else 1.0)
    rvec, _ = cv2.Rodrigues(rot)
    return np.asarray(rvec, dtype=np.float64).reshape(3)


def _obj(data: Any, where: str, required: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CalibrationError(f"{where}: expected an object, got {type(data).__name__}")
    missing = sorted(required - set(data))
    if missing:
        raise CalibrationError(f"{where}.{missing[0]}: missing")
    return data


def _numbers(data: Any, where: str, required: set[str], optional: set[str]) -> dict[str, float]:
    obj = _obj(data, where, required)
    extra = sorted(set(obj) - required - optional)
    if extra:
        raise CalibrationError(f"{where}.{extra[0]}: unknown field")
    for key, value in obj.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CalibrationError(f"{where}.{key}: expected a number, got {value!r}")
    return {k: float(v) for k, v in obj.items()}


T = TypeVar("T")


def _build(where: str, make: Callable[[], T]) -> T:
    try:
        return make()
    except CalibrationError as exc:
        raise CalibrationError(f"{where}: {exc}") from None
