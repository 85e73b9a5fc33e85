"""The learned ball detector and the ``auto`` detector that calls it only where needed.

:class:`LearnedDetector` runs the shipped network (:mod:`vision.detect._ball_network`) on
crops where every ball is ``BALL_PX`` pixels in radius: around each predicted centre
in guided mode, or over the whole table (one big crop, slow: tens of ms at 1080p).

:class:`AutoDetector` runs the colour detector first and the network only on the few
balls the colour detector is unsure of: a ball it did not find (searched around where
the ball was last seen, moved on by its last velocity; the network's ball is added
unless it still lies where it rested: under the arm, the tracker holds it anyway),
or a ball it found with a low score (the network confirms it: the score is raised,
the colour centre kept). At most one small crop per ball and frame, so ``auto`` costs
a few milliseconds more than ``color`` on the frames that need it and nothing on the
others; every ``rescan_every`` frames, while a ball was never seen (or not for long),
one scan of the whole table. If the network fails mid-match, ``auto`` carries on with the colour
detector alone (and says so in ``notes``).

:func:`make_detector` builds any of ``color``, ``onnx`` and ``auto``; a missing or
corrupt model file gives the colour detector and a one-line warning, never a crash.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration
from referee import Ball
from vision._types import U8, Detections, VisionError
from vision.detect._ball_network import MODEL_PATH, BallModel, ModelError, Peak, ort_errors
from vision.detect._colour_detector import ColourDetector
from vision.detect._colour_model import colour_classes
from vision.detect._detector import Detector, DetectorCapabilities, Pixels
from vision.detect._inference import InferenceDevice
from vision.detect._network_crops import BALL_PX, CLASSES, Roi, cut_roi, roi_size
from vision.detect._table_image import ball_radius_px, surface_polygon_px

__all__ = [
    "AutoDetector",
    "DetectorKind",
    "LearnedDetector",
    "load_or_fallback",
    "make_detector",
]

F64 = NDArray[np.float64]
DetectorKind = str  # "color" | "onnx" | "auto"
KINDS = ("color", "onnx", "auto")

_MIN_PEAK = 0.4  # network score to report a ball
_UNSURE_SCORE = 0.5  # colour score below which auto asks the network
_MEMORY_FRAMES = 20  # a ball unseen longer than this is not searched by the network
_MOVING_PX = 1.0  # last step, px per frame: below it the ball was at rest
_MAX_REACH_RADII = 9.0


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
        found = self.model.peaks(rois, _MIN_PEAK) if rois else []
        out: list[list[Peak]] = [[] for _ in near]
        for i, group in zip(np.flatnonzero(ok), found, strict=True):
            out[i] = [p for p in group if math.dist(p.uv_px, near[i]) <= reach[i]]
        return out

    def _whole(self, image_bgr: Pixels) -> list[Peak]:
        return self.model.peaks([self.whole_roi(image_bgr)], _MIN_PEAK)[0]

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


#: (ball, centre px, reach px, index of the unsure colour detection or None, where the
#: ball rested if it was at rest when last seen, else None)
_Ask = tuple[Ball, F64, float, int | None, F64 | None]


@dataclass(slots=True)
class _Seen:
    uv_px: F64
    velocity_px: F64  # per frame
    age: int  # frames since seen


@dataclass(slots=True)
class AutoDetector:
    """Colour detector first; the network only where it is unsure (module docstring).

    ``calls``, ``model_ms`` count the network's use; ``notes`` says if it was dropped.
    """

    colour: ColourDetector
    learned: LearnedDetector | None
    balls: tuple[Ball, ...]
    memory: dict[Ball, _Seen] = field(default_factory=dict)
    rescan_every: int = 30
    calls: int = 0
    scans: int = 0
    frames: int = 0
    model_ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: ``detect`` takes a :class:`YuvImage` and a guide (see :class:`ColourDetector`).
    capabilities: ClassVar[DetectorCapabilities] = DetectorCapabilities(
        reads_planes=True, guided=True
    )

    @property
    def device(self) -> InferenceDevice | None:
        """Where the network runs; None once it was dropped (colour alone)."""
        return self.learned.device if self.learned is not None else None

    def detect(
        self, image_bgr: Pixels, near_px: F64 | None = None, reach_px: F64 | None = None
    ) -> Detections:
        """As :meth:`ColourDetector.detect`, with the unsure balls checked by the network."""
        found = self.colour.detect(image_bgr, near_px, reach_px)
        self.frames += 1
        asks = self._unsure(found)
        if asks and self.learned is not None:
            found = self._ask(image_bgr, found, asks)
        if self.learned is not None and self._lost(found):
            found = self._scan(image_bgr, found)
        self._remember(found)
        return found

    def _lost(self, found: Detections) -> bool:
        """A ball in play never seen (or not for long), and no full scan lately."""
        if (self.frames - 1) % self.rescan_every:
            return False
        return any(
            b in CLASSES and b not in found.ball
            and (b not in self.memory or self.memory[b].age >= _MEMORY_FRAMES)
            for b in self.balls
        )  # fmt: skip

    def _scan(self, image_bgr: Pixels, found: Detections) -> Detections:
        """The network over the whole table, for the lost balls only (every N frames)."""
        assert self.learned is not None
        t0 = time.perf_counter()
        try:
            peaks = self.learned.model.peaks([self.learned.whole_roi(image_bgr)], _MIN_PEAK)[0]
        except ort_errors() as exc:
            self.learned = None
            self.notes.append(f"learned detector dropped after an error ({exc}); colour only")
            return found
        self.scans += 1
        self.model_ms += 1000.0 * (time.perf_counter() - t0)
        lost = [b for b in self.balls if b in CLASSES and b not in found.ball]
        asks: list[_Ask] = [(b, np.zeros(2), np.inf, None, None) for b in lost]
        return _merge(found, asks, [peaks] * len(lost), self.learned)

    def _unsure(self, found: Detections) -> list[_Ask]:
        """(ball, centre, reach, colour detection index or None) for each unsure ball."""
        asks: list[_Ask] = []
        for ball in self.balls:
            if ball not in CLASSES:
                continue
            idx = [i for i, b in enumerate(found.ball) if b == ball]
            if idx:
                i = idx[int(np.argmax(found.score[idx]))]
                r = float(found.radius_px[i])
                streak = float(np.hypot(*found.streak_px[i]))  # reach covers the streak
                if found.score[i] < _UNSURE_SCORE:
                    asks.append((ball, found.uv_px[i], 1.5 * r + streak, i, None))
                continue
            seen = self.memory.get(ball)
            if seen is None or seen.age >= _MEMORY_FRAMES:
                continue
            gap = seen.age + 1
            centre = seen.uv_px + seen.velocity_px * gap
            r = float(self.learned.radius_px(centre[None])[0]) if self.learned else 10.0
            speed = float(np.hypot(*seen.velocity_px))
            reach = min(2.0 * r + 1.5 * speed * gap + 0.5 * r * gap, _MAX_REACH_RADII * r)
            still = seen.uv_px if float(np.hypot(*seen.velocity_px)) < _MOVING_PX else None
            asks.append((ball, centre, reach, None, still))
        return asks

    def _ask(self, image_bgr: Pixels, found: Detections, asks: list[_Ask]) -> Detections:
        assert self.learned is not None
        near = np.array([a[1] for a in asks])
        reach = np.array([a[2] for a in asks])
        t0 = time.perf_counter()
        try:
            peaks = self.learned.search(image_bgr, near, reach)
        except ort_errors() as exc:  # onnxruntime failed mid-match: carry on without it
            self.learned = None
            self.notes.append(f"learned detector dropped after an error ({exc}); colour only")
            return found
        self.calls += 1
        self.model_ms += 1000.0 * (time.perf_counter() - t0)
        return _merge(found, asks, peaks, self.learned)

    def _remember(self, found: Detections) -> None:
        for ball in self.balls:
            idx = [i for i, b in enumerate(found.ball) if b == ball]
            seen = self.memory.get(ball)
            if not idx:
                if seen is not None:
                    seen.age += 1
                continue
            uv = found.uv_px[idx[int(np.argmax(found.score[idx]))]]
            if seen is None or seen.age > 3:
                self.memory[ball] = _Seen(uv.copy(), np.zeros(2), 0)
            else:
                self.memory[ball] = _Seen(uv.copy(), (uv - seen.uv_px) / (seen.age + 1), 0)


def _merge(
    found: Detections,
    asks: list[_Ask],
    peaks: list[list[Peak]],
    learned: LearnedDetector,
) -> Detections:
    """Colour detections with the network's answers for the unsure balls."""
    uv, names = list(found.uv_px), list(found.ball)
    score, radius, streak = list(found.score), list(found.radius_px), list(found.streak_px)
    for (ball, _, _, index, still), group in zip(asks, peaks, strict=True):
        taken = [u for u, b in zip(uv, names, strict=True) if b != ball]
        best = next(
            (p for p in group if _same(p.ball, ball) and learned.on_table(p.uv_px)
             and all(math.dist(p.uv_px, u) > learned.radius_px(p.uv_px[None])[0] for u in taken)),
            None,
        )  # fmt: skip
        if best is None:
            continue
        r = float(learned.radius_px(best.uv_px[None])[0])
        if still is not None and math.dist(best.uv_px, still) < 0.5 * r:
            # Still where it rested, under the arm or the cue: the tracker holds it
            # there, and a centre on a half-hidden ball adds only jitter (a false stroke).
            continue
        if index is None:
            uv.append(best.uv_px)
            names.append(ball)
            score.append(best.score)
            radius.append(r)
            streak.append(best.streak_px)
        elif math.dist(best.uv_px, uv[index]) <= 0.5 * radius[index]:
            # The network agrees: the colour centre is kept (on a visible ball it is
            # the more precise one, ~0.01 against ~0.05 radii), its score raised.
            score[index] = max(score[index], best.score)
    if not names:
        return Detections.empty()
    return Detections(np.array(uv), tuple(names), np.array(score), np.array(radius),
                      np.array(streak))  # fmt: skip


def _same(a: Ball, b: Ball) -> bool:
    """Same ball for the network: the ivory balls (white, dotted) are one class to it."""
    ivory = (Ball.WHITE, Ball.DOTTED)
    return a == b or (a in ivory and b in ivory)


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
