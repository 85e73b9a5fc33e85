"""Regions of interest for the learned ball detector: crops at a fixed ball size.

The model sees every ball at the same apparent radius, ``BALL_PX`` pixels, whatever
the camera: a crop of the frame around a point is resized by ``BALL_PX / radius_px``
(area averaging when shrinking, so no aliasing). The crop is cut on whole pixels and
its mapping back to the frame is exact: crop pixel ``c`` (pixel centres at integers)
is frame pixel ``origin + (c + 0.5) * step - 0.5``. Training (``train/``) and inference
(:mod:`vision.detect._learned_detector`) cut crops with this one function, so they cannot disagree.

The network's outputs are cells of ``STRIDE`` crop pixels; a centre at crop pixel
``c`` lies in cell ``floor((c + 0.5) / STRIDE)`` with offset ``(c + 0.5) / STRIDE -
cell`` in 0..1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from referee import Ball
from vision.detect._detector import Pixels

__all__ = ["BALL_PX", "CLASSES", "STRIDE", "Roi", "cut_roi", "roi_size"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]

#: Apparent ball radius in crop pixels.
BALL_PX = 6.0
#: Crop pixels per output cell.
STRIDE = 4
#: Output class channels, in order. The 7-pin whites look like ``white``.
CLASSES: tuple[Ball, ...] = (Ball.WHITE, Ball.DOTTED, Ball.YELLOW, Ball.RED)


@dataclass(frozen=True, slots=True)
class Roi:
    """A crop: ``image`` (n, n, 3) uint8 BGR; frame pixel = origin + (c + 0.5) * step - 0.5.

    ``origin_px`` (2,) is the frame pixel (u, v) of the crop's top-left corner edge,
    ``step_px`` frame pixels per crop pixel (``radius_px / BALL_PX``).
    """

    image: U8
    origin_px: F64
    step_px: float

    def to_frame(self, c_px: F64) -> F64:
        """Crop points (k, 2) (u, v) -> frame pixels (k, 2)."""
        out: F64 = self.origin_px + (np.asarray(c_px, np.float64) + 0.5) * self.step_px - 0.5
        return out

    def to_crop(self, uv_px: F64) -> F64:
        """Frame pixels (k, 2) -> crop points (k, 2)."""
        out: F64 = (np.asarray(uv_px, np.float64) + 0.5 - self.origin_px) / self.step_px - 0.5
        return out


def roi_size(reach_px: float, radius_px: float, lo: int = 48, hi: int = 128) -> int:
    """Crop side (multiple of 16) that holds a ball within ``reach_px`` of the centre.

    The crop covers the reach plus three ball radii each side, at ``BALL_PX`` per radius.
    """
    side = 2.0 * (reach_px / radius_px + 3.0) * BALL_PX
    return int(min(max(16 * math.ceil(side / 16.0), lo), hi))


def cut_roi(image_bgr: Pixels, centre_px: F64, radius_px: float, size: int) -> Roi:
    """The ``size`` x ``size`` crop centred near ``centre_px`` (2,) at ``BALL_PX`` per radius.

    Parts beyond the frame are filled by replicating its border.
    """
    h, w = image_bgr.shape[:2]
    span = max(1, round(size * radius_px / BALL_PX))  # frame pixels the crop covers
    step = span / size
    x0 = round(float(centre_px[0]) + 0.5 - span / 2.0)
    y0 = round(float(centre_px[1]) + 0.5 - span / 2.0)
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x0 + span, w), min(y0 + span, h)
    crop: U8
    if cx1 <= cx0 or cy1 <= cy0:
        crop = np.zeros((span, span, 3), np.uint8)
    else:
        crop = image_bgr[cy0:cy1, cx0:cx1]
        if (cx0, cy0, cx1, cy1) != (x0, y0, x0 + span, y0 + span):
            pads = (cy0 - y0, y0 + span - cy1, cx0 - x0, x0 + span - cx1)
            crop = np.asarray(cv2.copyMakeBorder(crop, *pads, cv2.BORDER_REPLICATE), np.uint8)
    shrink = cv2.INTER_AREA if span > size else cv2.INTER_LINEAR
    small = np.asarray(cv2.resize(crop, (size, size), interpolation=shrink), np.uint8)
    return Roi(small, np.array([x0, y0], np.float64), step)
