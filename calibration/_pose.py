"""Where the camera stands and how it is turned, in the table frame.

:class:`Pose` holds the camera centre and angles; :func:`to_cv_points` writes table
points for OpenCV; :func:`rodrigues` turns the rotation into OpenCV's vector.

The frames and angles are described in :mod:`calibration._camera`: table mm with z up,
the camera working in ``(x, y, -z)``; ``R = Rz(roll) @ Rx(tilt) @ Rz(yaw)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._errors import check_range, check_shape

__all__ = ["Pose", "rodrigues", "to_cv_points"]

F64 = NDArray[np.float64]


def to_cv_points(xyz_mm: F64) -> F64:
    """Table points (n, 3) x, y, z-up in mm -> OpenCV object points (n, 3) x, y, -z."""
    out = check_shape("xyz_mm", xyz_mm, 3).copy()
    out[:, 2] *= -1.0
    return out


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
        check_range("x_mm", self.x_mm, -20000.0, 20000.0)
        check_range("y_mm", self.y_mm, -20000.0, 20000.0)
        check_range("height_mm", self.height_mm, 300.0, 10000.0)
        check_range("yaw_deg", self.yaw_deg, -180.0, 180.0)
        check_range("tilt_deg", self.tilt_deg, -60.0, 60.0)
        check_range("roll_deg", self.roll_deg, -180.0, 180.0)

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


def rodrigues(rot: F64) -> F64:
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
