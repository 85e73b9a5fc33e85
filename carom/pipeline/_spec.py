"""One description of how a video becomes a judged match, the same for every front end.

``carom analyze``, ``carom live``, ``carom serve``, the accuracy checks (through
analyze) and the batch runner describe their work as a :class:`Pipeline`: the frame
source, the match set-up (a match file with the flags over it), the calibration (a
file, or fitted from the source) and the detector. From it come the referee's
:class:`referee.MatchConfig` and the :class:`VisionPipeline` that builds the analyser;
no front end fills another's options to get them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration import Calibration, CalibrationError, load_calibration
from carom.match import MatchFile
from carom.pipeline._calibrate import fit_calibration
from carom.pipeline._vision import VisionPipeline
from referee import MatchConfig, Table
from vision import DETECTOR_KINDS, AnalyzerSettings, VisionError

__all__ = ["Pipeline", "check_calibration_table"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Pipeline:
    """Source -> calibration -> detector, tracker, segmenter -> match.

    ``source``: a video file, a camera index or a stream address (as
    :func:`vision.open_source` takes it). ``calibration``: the calibration file;
    ``None`` fits one from the source's frames. ``detector``: ``color``, ``onnx`` or
    ``auto`` (docs/detector.md). ``settings``: the analyser's (live mode's own rest
    and window, say), ``None`` for the defaults.
    """

    source: str
    match: MatchFile
    calibration: Path | None = None
    detector: str = "auto"
    settings: AnalyzerSettings | None = None

    def __post_init__(self) -> None:
        if self.detector not in DETECTOR_KINDS:  # before a calibration is fitted for it
            kinds = ", ".join(DETECTOR_KINDS)
            raise VisionError(f"detector: unknown kind {self.detector!r}; use one of {kinds}")

    def config(self) -> MatchConfig:
        """The referee's set-up; a camera names the shooter (``follow_cue_ball`` on).

        Raises :class:`referee.RulesError` on a rule of the set-up.
        """
        return self.match.config(camera=True)

    def vision(self) -> VisionPipeline:
        """What the analyser is built from (:meth:`VisionPipeline.build`)."""
        return VisionPipeline.for_match(self.config(), self.detector, self.settings)

    def calibrate(
        self,
        size_px: tuple[int, int],
        out: Path,
        frame_30: Any | None = None,
        *,
        say: Callable[[str], None] | None = None,
    ) -> Calibration:
        """The calibration file (checked against ``size_px``), or one fitted from the source.

        A good or doubtful fit is saved to ``out/calibration.json`` with its overlay
        (``calibration_overlay.png``); ``frame_30``: frame 30 if the caller already
        decoded it; ``say`` hears one line for a doubtful fit (and the wait for a clear
        view from a camera). Raises :class:`calibration.CalibrationFailed` when the fit
        failed (the message gives the commands to mark the corners), and
        :class:`calibration.CalibrationError` for a bad calibration file.
        """
        config = self.config()
        if self.calibration is not None:
            calib = load_calibration(self.calibration, expect_size_px=size_px)
            check_calibration_table(calib, config.table, self.calibration)
            return calib
        return fit_calibration(self.source, config.table, config.discipline, out, frame_30, say=say)


def check_calibration_table(
    calib: Calibration,
    table: Table,
    path: Path,
    what: str = "--calibration",
    *,
    set_by: str = "--table, the match file or the default",
    # "give --table {size}" alone kept a size the calibration's balls had already doubted.
    fix: str = (
        "give --table {size} if that is the table, or calibrate again with its true size "
        "(carom calibrate --table LENGTHxWIDTH)"
    ),
) -> None:
    """A calibration file must be of the match's table: its size maps every position.

    ``what`` names the file in the line (the option that gave it, or how it was found);
    ``set_by`` says where the match's table came from, ``fix`` the way out (``{size}``:
    the calibration's table, ``LENGTHxWIDTH``).

    Raises:
        CalibrationError: made for a table of another size (one line: both sizes and
            the way out). Positions would be mapped onto the calibration's table while
            the referee judges on the match's (a ball 2400 mm along a 2100 mm table).
    """
    made = calib.geometry.table
    if abs(made.length_mm - table.length_mm) <= 1.0 and abs(made.width_mm - table.width_mm) <= 1.0:
        return
    size = f"{made.length_mm:g}x{made.width_mm:g}"
    raise CalibrationError(
        f"{what} {path}: made for a {size} mm table, but the match is set up for "
        f"{table.length_mm:g}x{table.width_mm:g} ({set_by}); {fix.format(size=size)}"
    )
