"""The learned ball detector: the shipped network on crops of a calibrated camera.

:class:`LearnedDetector` runs the shipped network (:mod:`vision.detect._ball_network`) on
crops where every ball is ``BALL_PX`` pixels in radius: around each predicted centre
in guided mode, or over the whole table (one big crop, slow: tens of ms at 1080p).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration
from referee import Ball
from vision._types import Detections
from vision.detect._ball_network import BallModel, Peak
from vision.detect._detector import DetectorCapabilities, Pixels
from vision.detect._inference import InferenceDevice
from vision.detect._network_crops import BALL_PX, Roi, cut_roi, roi_size
from vision.detect._table_image import ball_radius_px, surface_polygon_px

__all__ = ["MIN_PEAK", "LearnedDetector"]

F64 = NDArray[np.float64]

#: The network's score to report a ball.
MIN_PEAK = 0.4


@dataclass(frozen=True, slots=True)
class LearnedDetector:
    """The network as a detector for one calibrated camera.

    Attributes:
        model: The onnxruntime session.
        calibration: The camera and table.
        balls: The balls in play (classes the network does not know are never reported).
        surface_px: (n, 2) the cushion-nose outline at ball height grown by a radius.
    """

    model: BallModel
    calibration: Calibration
    balls: tuple[Ball, ...]
    surface_px: F64
    #: ``detect`` takes a guide; it is given BGR frames.
    capabilities: ClassVar[DetectorCapabilities] = DetectorCapabilities(guided=True)

    @classmethod
    def learn(
        cls, model: BallModel, calibration: Calibration, balls: tuple[Ball, ...]
    ) -> LearnedDetector:
        """The detector for ``calibration`` (no frame is needed: the net knows colours)."""
        outline = surface_polygon_px(calibration, calibration.geometry.radius_mm)
        return cls(model, calibration, balls, outline[np.all(np.isfinite(outline), axis=1)])

    @property
    def device(self) -> InferenceDevice:
        """Where the network runs (CUDA or the CPU)."""
        return self.model.device

    def radius_px(self, uv_px: F64) -> F64:
        """Apparent ball radius (k,) at image points (k, 2); the table centre's if off it."""
        r = ball_radius_px(self.calibration, uv_px)
        return np.where(np.isfinite(r), r, np.nanmedian(r) if np.isfinite(r).any() else 10.0)

    def detect(
        self, image_bgr: Pixels, near_px: F64 | None = None, reach_px: F64 | None = None
    ) -> Detections:
        """Balls in a frame (h, w, 3) BGR: near predictions (k, 2) within reach (k,), or all."""
        if near_px is None:
            return self._pack(self._whole(image_bgr))
        near = np.asarray(near_px, np.float64).reshape(-1, 2)
        reach = np.broadcast_to(np.asarray(reach_px, np.float64), (len(near),))
        peaks = self.search(image_bgr, near, reach)
        return self._pack([p for group in peaks for p in group])

    def search(self, image_bgr: Pixels, near: F64, reach: F64) -> list[list[Peak]]:
        """Per prediction (k, 2) with reach (k,): the peaks within reach, best first."""
        ok = np.all(np.isfinite(near), axis=1) & np.isfinite(reach)
        radius = self.radius_px(np.where(ok[:, None], near, 0.0))
        rois = [
            cut_roi(image_bgr, c, float(r), roi_size(float(d), float(r)))
            for c, r, d in zip(near[ok], radius[ok], reach[ok], strict=True)
        ]
        found = self.model.peaks(rois, MIN_PEAK) if rois else []
        out: list[list[Peak]] = [[] for _ in near]
        for i, group in zip(np.flatnonzero(ok), found, strict=True):
            out[i] = [p for p in group if math.dist(p.uv_px, near[i]) <= reach[i]]
        return out

    def _whole(self, image_bgr: Pixels) -> list[Peak]:
        return self.model.peaks([self.whole_roi(image_bgr)], MIN_PEAK)[0]

    def whole_roi(self, image_bgr: Pixels) -> Roi:
        """One crop over the table's bounding box at the table centre's scale."""
        lo, hi = self.surface_px.min(axis=0), self.surface_px.max(axis=0)
        centre = (lo + hi) / 2.0
        r = float(self.radius_px(centre[None])[0])
        side = float(max(hi - lo))
        size = int(16 * math.ceil(side / r * BALL_PX / 16.0))
        return cut_roi(image_bgr, centre, r, size)

    def on_table(self, uv_px: F64) -> bool:
        """True when the point (2,) lies on the playing surface (grown by a radius)."""
        import cv2

        poly = self.surface_px.astype(np.float32).reshape(-1, 1, 2)
        return bool(cv2.pointPolygonTest(poly, (float(uv_px[0]), float(uv_px[1])), False) >= 0)

    def _pack(self, peaks: list[Peak]) -> Detections:
        """Peaks of the balls in play on the table, as detections (best first per class)."""
        keep = [p for p in map(self._as_ball, peaks) if p is not None and self.on_table(p.uv_px)]
        keep.sort(key=lambda p: (str(p.ball), -p.score))
        # Overlapping windows see a ball twice: keep the best of peaks within 3 px.
        keep = [
            p for i, p in enumerate(keep)
            if not any(q.ball == p.ball and math.dist(q.uv_px, p.uv_px) < 3.0 for q in keep[:i])
        ]  # fmt: skip
        if not keep:
            return Detections.empty()
        uv = np.array([p.uv_px for p in keep])
        return Detections(uv, tuple(p.ball for p in keep), np.array([p.score for p in keep]),
                          self.radius_px(uv), np.array([p.streak_px for p in keep]))  # fmt: skip

    def _as_ball(self, peak: Peak) -> Peak | None:
        """The peak named as a ball in play (ivory -> the game's white), or None."""
        if peak.ball in self.balls:
            return peak
        ivory = (Ball.WHITE, Ball.DOTTED)
        if peak.ball in ivory:
            other = next((b for b in ivory if b in self.balls), None)
            return Peak(other, peak.uv_px, peak.score, peak.streak_px) if other else None
        return None
