"""The pipeline's calibration step when no calibration file is given: fit one from frames."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from calibration import (
    Calibration,
    CalibrationError,
    CalibrationResult,
    calibrate_frame,
    save_result,
)
from referee import CaromError, Discipline, Table
from vision import open_source

__all__ = ["fit_calibration"]


def fit_calibration(
    source: str, table: Table, discipline: Discipline, out: Path, frame_30: Any | None = None
) -> Calibration:
    """Fit the camera to ``table`` from a few frames of ``source``; save it in ``out``.

    The fit tries a few frames a second or more apart (the first frame of a clip is
    often smeared by the encoder, a player may stand in front of a cushion) and keeps
    the first with a "good" report, else the one with the smallest error.
    ``frame_30`` (BGR, h x w x 3): frame 30, when the caller has already decoded it
    (the video is then opened a second time only if that frame is not good).
    """
    best: CalibrationResult | None = None
    error: CaromError | None = None
    for frame in _calibration_frames(source, frame_30):
        try:
            result = calibrate_frame(frame, table, discipline=discipline)
        except CaromError as exc:
            error = exc
            continue
        if best is None or result.report.overall.rms_mm < best.report.overall.rms_mm:
            best = result
        if result.report.verdict == "good":
            break
    if best is None:
        raise CalibrationError(
            f"{source}: {error}; calibrate by hand (carom calibrate VIDEO --corners ...) "
            "and pass --calibration FILE"
        )
    out.mkdir(parents=True, exist_ok=True)
    save_result(best, out / "calibration.json", out / "calibration_overlay.png")
    return best.calibration


def _calibration_frames(source: str, frame_30: Any | None = None) -> Iterator[Any]:
    """Frames 30, 60, 120, 240 and 0 of ``source`` (those it has), decoded once.

    With ``frame_30`` given, that one comes first and the video is opened only if
    the caller asks for more.
    """
    wanted: tuple[int, ...] = (30, 60, 120, 240)
    if frame_30 is not None:
        yield frame_30
        wanted = wanted[1:]
    frames = open_source(source)
    first = None
    try:
        for frame in frames:
            first = frame.image_bgr if first is None else first
            if frame.frame_idx in wanted:
                yield frame.image_bgr
            if frame.frame_idx >= wanted[-1]:
                break
    finally:
        frames.close()
    if first is not None:
        yield first
