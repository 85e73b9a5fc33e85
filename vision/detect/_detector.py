"""The :class:`Detector` protocol: what the pipeline asks of a ball detector.

A detector finds the balls in one frame. Beyond that it declares, once, what it can
do (:class:`DetectorCapabilities`), and the pipeline feeds it accordingly: the
decoder's planes or a BGR array, and predicted windows or a whole-frame search. The
pipeline never probes a detector for what it can do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol

import numpy as np
from numpy.typing import NDArray

from vision._types import U8, Detections, VisionError
from vision.frames import YuvImage

__all__ = ["Detector", "DetectorCapabilities", "Pixels", "check_pixels"]

F64 = NDArray[np.float64]
#: A frame as a detector reads it: BGR (h, w, 3), or planes converted where sliced.
Pixels = U8 | YuvImage


@dataclass(frozen=True, slots=True, kw_only=True)
class DetectorCapabilities:
    """What a detector can do beyond searching a whole BGR frame.

    Attributes:
        reads_planes: ``detect`` takes a :class:`~vision.frames.YuvImage` and converts
            only the pixels it looks at; otherwise it is given a BGR array.
        guided: ``detect`` uses ``near_px`` and ``reach_px`` (search only windows round
            predicted centres); otherwise it is always called without them.
    """

    reads_planes: bool = False
    guided: bool = False


class Detector(Protocol):
    """Anything that finds balls in a frame, and says what it can do."""

    #: Declared by the class: the pipeline feeds the detector by it.
    capabilities: ClassVar[DetectorCapabilities]

    def detect(
        self, image_bgr: Pixels, near_px: F64 | None = None, reach_px: F64 | None = None
    ) -> Detections:
        """Balls in one frame (h, w, 3), best score first per class.

        ``image_bgr`` is a BGR array, or a :class:`~vision.frames.YuvImage` when
        ``capabilities.reads_planes``. ``near_px`` (k, 2) predicted centres and
        ``reach_px`` (k,) how far each ball may be from them, only when
        ``capabilities.guided``; None: search the whole table.
        """
        ...


def check_pixels(image_bgr: object, size_px: tuple[int, int]) -> None:
    """Refuse a frame a detector of this camera (``size_px``: width, height) cannot read.

    Raises:
        VisionError: Not an array or planes, another size, or not 8-bit (a 16-bit
            frame would be a raw OpenCV error, a float one found no ball at all).
    """
    w, h = size_px
    if not isinstance(image_bgr, np.ndarray | YuvImage):
        raise VisionError(f"detector: expected a ({h}, {w}, 3) uint8 frame, got "
                          f"{type(image_bgr).__name__}")  # fmt: skip
    if image_bgr.shape != (h, w, 3):
        raise VisionError(f"detector: frame is {image_bgr.shape}, expected ({h}, {w}, 3)")
    if isinstance(image_bgr, np.ndarray) and image_bgr.dtype != np.uint8:
        raise VisionError(f"detector: frame is {image_bgr.dtype}, expected uint8 (8-bit BGR; "
                          "scale a deeper frame down to 0..255)")  # fmt: skip
