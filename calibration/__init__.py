"""Table geometry and the camera model (issue 4).

The camera model (:class:`Camera`) maps table millimetres to pixels and back, with
OpenCV lens distortion and parallax for points above the cloth (ball centres).
"""

from calibration._camera import (
    CAMERA_FORMAT,
    CalibrationError,
    Camera,
    Distortion,
    Intrinsics,
    Pose,
    check_shape,
    to_cv_points,
)

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
