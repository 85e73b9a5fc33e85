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
from calibration._drift import DriftCheck, DriftResult
from calibration._errors import CalibrationFailed
from calibration._file import (
    CALIBRATION_FORMAT,
    CALIBRATION_LIMITS,
    Calibration,
    CalibrationMethod,
    load_calibration,
    save_calibration,
)
from calibration._frame_fit import FrameFit, frame_fit, tolerance_px
from calibration._geometry import (
    CUSHIONS,
    PIN_SPACING_MM,
    PYRAMID_TABLE,
    TABLE_FORMAT,
    TableGeometry,
)
from calibration._outcome import (
    Outcome,
    SideResiduals,
    confidence_of,
    outcome_of,
    side_residuals,
)
from calibration._pixel_map import MmToPx, PxToMm
from calibration._report import GroupResiduals, QualityReport, draw_overlay, quality_report

__all__ = [
    "CALIBRATION_FORMAT",
    "CALIBRATION_LIMITS",
    "CAMERA_FORMAT",
    "CUSHIONS",
    "PIN_SPACING_MM",
    "PYRAMID_TABLE",
    "TABLE_FORMAT",
    "Calibration",
    "CalibrationError",
    "CalibrationFailed",
    "CalibrationMethod",
    "Camera",
    "Distortion",
    "DriftCheck",
    "DriftResult",
    "FrameFit",
    "GroupResiduals",
    "Intrinsics",
    "MmToPx",
    "Outcome",
    "Pose",
    "PxToMm",
    "QualityReport",
    "SideResiduals",
    "TableGeometry",
    "check_shape",
    "confidence_of",
    "draw_overlay",
    "load_calibration",
    "outcome_of",
    "quality_report",
    "save_calibration",
    "side_residuals",
    "to_cv_points",
    "tolerance_px",
]
from calibration._calibrate import (
    CalibrationResult,
    Lens,
    calibrate_frame,
    save_result,
    with_diamond_offset,
)
from calibration._checkerboard import find_checkerboard, fit_lens_from_checkerboards
from calibration._detect import TableEdges, cloth_mask, detect_table
from calibration._empty_table import EmptyTable, EmptyTableBuilder, empty_table
from calibration._fit import Fit, fit_camera, fit_edges
from calibration._manual import fit_from_points

__all__ += [
    "EmptyTable",
    "EmptyTableBuilder",
    "Fit",
    "TableEdges",
    "cloth_mask",
    "detect_table",
    "empty_table",
    "find_checkerboard",
    "fit_camera",
    "fit_edges",
    "fit_from_points",
    "fit_lens_from_checkerboards",
    "frame_fit",
]
__all__ += ["CalibrationResult", "Lens", "calibrate_frame", "save_result", "with_diamond_offset"]
