"""The pipeline description every front end builds from (source, calibration, vision, match).

:class:`Pipeline` says what to watch and how; :class:`VisionPipeline` builds the
analyser for one camera from it.
"""

from carom.pipeline._calibrate import (
    CAMERA_WAIT_S,
    WIZARD_URL,
    best_calibration,
    camera_calibration_path,
    doubtful_line,
    failed_line,
    fit_calibration,
    how_to_mark,
    save_overlay,
)
from carom.pipeline._calibration_check import (
    CalibrationFile,
    CalibrationOrigin,
    check_calibration_fits,
)
from carom.pipeline._spec import Pipeline, check_calibration_table
from carom.pipeline._table_size import (
    SCALE_RANGE,
    SMALL_BALL_PX,
    SMALL_BALL_SCALE_RANGE,
    TableSizeDoubt,
    scale_range,
    table_size_doubt,
    table_size_line,
)
from carom.pipeline._vision import VisionPipeline, balls_on_table

__all__ = [
    "CAMERA_WAIT_S",
    "SCALE_RANGE",
    "SMALL_BALL_PX",
    "SMALL_BALL_SCALE_RANGE",
    "WIZARD_URL",
    "CalibrationFile",
    "CalibrationOrigin",
    "Pipeline",
    "TableSizeDoubt",
    "VisionPipeline",
    "balls_on_table",
    "best_calibration",
    "camera_calibration_path",
    "check_calibration_fits",
    "check_calibration_table",
    "doubtful_line",
    "failed_line",
    "fit_calibration",
    "how_to_mark",
    "save_overlay",
    "scale_range",
    "table_size_doubt",
    "table_size_line",
]
