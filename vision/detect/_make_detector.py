"""Building a detector by kind: ``color``, ``onnx`` or ``auto``.

:func:`make_detector` builds any of ``color``, ``onnx`` and ``auto``; a missing or
corrupt model file gives the colour detector and a one-line warning, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from calibration import Calibration
from referee import Ball
from vision._types import U8, VisionError
from vision.detect._auto_detector import AutoDetector
from vision.detect._ball_network import MODEL_PATH, BallModel, ModelError
from vision.detect._colour_detector import ColourDetector
from vision.detect._colour_model import colour_classes
from vision.detect._detector import Detector
from vision.detect._learned_detector import LearnedDetector

__all__ = ["KINDS", "DetectorKind", "load_or_fallback", "make_detector"]

DetectorKind = str  # "color" | "onnx" | "auto"
KINDS = ("color", "onnx", "auto")


def load_or_fallback(
    calibration: Calibration,
    first_frame_bgr: U8,
    balls: tuple[Ball, ...],
    *,
    auto: bool = True,
    model_path: Path = MODEL_PATH,
    threads: int = 1,
) -> tuple[Detector, str | None]:
    """The ``auto`` (or ``onnx``) detector, or the colour one and a one-line warning.

    The warning is also given when the network runs on the CPU although CUDA was
    asked for (``CAROM_ONNX_DEVICE=cuda``, or onnxruntime-gpu without a usable GPU).

    Raises:
        VisionError: The colour detector cannot be built (wrong frame size, no table).
    """
    colour = ColourDetector.learn(calibration, first_frame_bgr, balls=balls)
    try:
        model = BallModel(model_path, threads)
    except ModelError as exc:
        return colour, f"warning: {exc}; using the colour detector"
    learned = LearnedDetector.learn(model, calibration, balls)
    note = model.device.note
    warning = f"warning: {note}" if note is not None else None
    return (AutoDetector(colour, learned, balls) if auto else learned), warning


def make_detector(
    kind: DetectorKind,
    calibration: Calibration,
    first_frame_bgr: U8,
    balls: tuple[Ball, ...],
    *,
    warn: Callable[[str], None] | None = None,
    model_path: Path = MODEL_PATH,
) -> Detector:
    """The detector ``kind`` (``color``, ``onnx``, ``auto``) for one camera.

    A missing or corrupt model gives the colour detector; ``warn`` gets the one line
    (and the line that the network runs on the CPU though CUDA was asked for). Where
    the network runs: the detector's ``device``, or :func:`inference_device`.

    Raises:
        VisionError: Unknown ``kind``, a bad ``CAROM_ONNX_DEVICE``, or the colour
            detector cannot be built.
    """
    if kind not in KINDS:
        raise VisionError(f"detector: unknown kind {kind!r}; use one of {', '.join(KINDS)}")
    balls = colour_classes(balls)  # the 7-pin whites are one class: the tracker names them
    if kind == "color":
        return ColourDetector.learn(calibration, first_frame_bgr, balls=balls)
    detector, warning = load_or_fallback(
        calibration, first_frame_bgr, balls, auto=kind == "auto", model_path=model_path
    )
    if warning is not None and warn is not None:
        warn(warning)
    return detector
