"""The camera model: a lens (:mod:`calibration._lens`) at a pose (:mod:`calibration._pose`).

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

The lens (:class:`Intrinsics`, :class:`Distortion`) lives in :mod:`calibration._lens`,
the pose and the frame change in :mod:`calibration._pose`, the error and the argument
checks in :mod:`calibration._errors`; this module re-exports them so that the rest of
the package imports the camera model from one place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from calibration._errors import CalibrationError, check_shape
from calibration._lens import Distortion, Intrinsics
from calibration._pose import Pose, rodrigues, to_cv_points

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
        return rodrigues(rot), -rot @ self.pose.centre_cv()

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
