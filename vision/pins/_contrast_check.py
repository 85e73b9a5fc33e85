"""Pins (five-pins, the 7-pin game): is each pin still standing on its spot?

Theory of operation. Seen from above, a standing pin is a small bright disc (its top) at
its spot; a knocked pin lies elsewhere and leaves the cloth bare. For each spot the
check compares the brightest smoothed lightness within a few pixels of the spot's image
(a pin's top is a little off its foot through parallax) with the median lightness of a
ring of cloth around it, and asks the bright pixels to be round and centred: a knocked
pin often lies across its own spot, a bright bar. :meth:`PinCheck.learn` measures that
contrast on a frame with the pins standing and sets the threshold at half of it (never
below a floor that cloth noise does not reach). A spot hidden by a ball cannot be
judged: pass the frame's detections and such pins are left out of the answer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Calibration
from referee import Pin
from vision._types import U8, Detections, VisionError
from vision.detect import Pixels, ball_radius_px

__all__ = ["PinCheck"]

F64 = NDArray[np.float64]
_MIN_CONTRAST = 20.0  # Lab lightness units (0..255): cloth noise and chalk stay below
_MAX_SHAPE = 0.4  # elongation - 1 plus centre offset in reach radii: above, a lying pin
_PIN_TOP_MM = 40.0  # height at which the pin's top is looked for (parallax)


def _lightness(image_bgr: U8) -> NDArray[np.float32]:
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2Lab)
    return np.asarray(cv2.blur(lab[..., 0], (3, 3)), dtype=np.float32)


def _light_patch(image_bgr: Pixels, ui: int, vi: int, half: int) -> NDArray[np.float32]:
    """Smoothed lightness (2 half + 1, 2 half + 1) around pixel (ui, vi), inside the image.

    Only the patch and a one-pixel margin for the 3 x 3 blur are converted: the same
    values as converting the whole frame (where the margin meets the frame's edge, the
    blur reflects there in both cases), for a few hundred pixels instead of a frame.
    """
    h, w = image_bgr.shape[:2]
    y0, x0 = max(vi - half - 1, 0), max(ui - half - 1, 0)
    sub = image_bgr[y0 : min(vi + half + 2, h), x0 : min(ui + half + 2, w)]
    light = _lightness(np.ascontiguousarray(sub))
    return light[vi - half - y0 : vi + half + 1 - y0, ui - half - x0 : ui + half + 1 - x0]


@dataclass(frozen=True, slots=True)
class PinCheck:
    """Standing-pin check for one calibrated camera.

    Attributes:
        spots_px: Per pin, the image (u, v) of its top.
        reach_px: Search radius around each spot, px.
        ring_px: (inner, outer) radius of the cloth ring, px.
        threshold: Lightness contrast above which a pin stands.
        ball_radius_px: Apparent ball radius at the pins, px.
    """

    spots_px: Mapping[Pin, tuple[float, float]]
    reach_px: int
    ring_px: tuple[int, int]
    threshold: float
    ball_radius_px: float

    @classmethod
    def learn(
        cls, calibration: Calibration, frame_bgr: U8, pins: Mapping[Pin, tuple[float, float]]
    ) -> PinCheck:
        """Learn from a frame (h, w, 3) BGR with the pins standing at ``pins`` (name -> mm).

        Raises:
            VisionError: No pins given.
        """
        if not pins:
            raise VisionError("pin check: no pins given; use geometry.pins_mm(discipline)")
        xy = np.array([pins[p] for p in pins], dtype=np.float64)
        top = calibration.mm_to_px(xy, _PIN_TOP_MM)
        r_ball = float(np.nanmedian(ball_radius_px(calibration, top)))
        reach = max(2, round(0.25 * r_ball))
        spots = {p: (float(u), float(v)) for p, (u, v) in zip(pins, top, strict=True)}
        draft = cls(spots, reach, (reach + 2, reach + 6), _MIN_CONTRAST, r_ball)
        seen = [c for c in draft.contrast(frame_bgr).values() if c > _MIN_CONTRAST]
        threshold = max(_MIN_CONTRAST, 0.5 * float(np.median(seen))) if seen else _MIN_CONTRAST
        return cls(spots, reach, draft.ring_px, threshold, r_ball)

    def contrast(self, image_bgr: Pixels) -> dict[Pin, float]:
        """Per pin, the brightest lightness near the spot minus the ring's median."""
        return {pin: self._measure(image_bgr, u, v)[0] for pin, (u, v) in self.spots_px.items()}

    def _measure(self, image_bgr: Pixels, u: float, v: float) -> tuple[float, float]:
        """(contrast, shape) of the bright thing at a spot; NaN off the image.

        ``shape`` is 0 for a small round blob centred on the spot and grows with its
        elongation and its offset (in reach radii): a pin lying near its spot is a bar.
        """
        outer = self.ring_px[1]
        h, w = image_bgr.shape[:2]
        ui, vi = round(u), round(v)
        if not (outer <= ui < w - outer and outer <= vi < h - outer):
            return math.nan, math.nan
        patch = _light_patch(image_bgr, ui, vi, outer)
        vv, uu = np.mgrid[-outer : outer + 1, -outer : outer + 1]
        dist = np.hypot(uu + ui - u, vv + vi - v)
        base = float(np.median(patch[(dist >= self.ring_px[0]) & (dist <= outer)]))
        contrast = float(patch[dist <= self.reach_px].max()) - base
        bright = (patch - base > 0.5 * max(contrast, _MIN_CONTRAST)) & (dist < self.ring_px[0])
        if bright.sum() < 2:
            return contrast, math.inf
        pts = np.c_[uu[bright] + ui - u, vv[bright] + vi - v]
        offset = float(np.hypot(*pts.mean(axis=0))) / self.reach_px
        l2, l1 = np.linalg.eigvalsh(np.cov(pts.T) + 0.25 * np.eye(2))
        return contrast, max(math.sqrt(l1 / l2) - 1.0, 0.0) + offset

    def check(self, image_bgr: Pixels, detections: Detections | None = None) -> dict[Pin, bool]:
        """Per pin, True if standing; pins hidden by a detected ball are left out.

        Only the patches around the spots are converted to lightness, not the frame.
        """
        out = {}
        for pin, (u, v) in self.spots_px.items():
            if detections is not None and self._hidden(pin, detections):
                continue
            contrast, shape = self._measure(image_bgr, u, v)
            out[pin] = bool(contrast > self.threshold and shape < _MAX_SHAPE)
        return out

    def _hidden(self, pin: Pin, detections: Detections) -> bool:
        if len(detections) == 0:
            return False
        gap = np.hypot(*(detections.uv_px - np.array(self.spots_px[pin])).T)
        reach = detections.radius_px + self.ring_px[1] + np.hypot(*detections.streak_px.T)
        return bool(np.any(gap < reach))
