"""The ``auto`` detector: the colour detector, and the network only where it is unsure.

:class:`AutoDetector` runs the colour detector first and the network only on the few
balls the colour detector is unsure of: a ball it did not find (searched around where
the ball was last seen, moved on by its last velocity; the network's ball is added
unless it still lies where it rested: under the arm, the tracker holds it anyway),
or a ball it found with a low score (the network confirms it: the score is raised,
the colour centre kept). At most one small crop per ball and frame, so ``auto`` costs
a few milliseconds more than ``color`` on the frames that need it and nothing on the
others; every ``rescan_every`` frames, while a ball was never seen (or not for long),
one scan of the whole table, and one when a ball last seen slow has been missing for
two frames (struck from rest into a streak too faint for colour and already out of
its window), or one last seen fast (it may have turned at a kiss). A ball missing for
fewer than ``_FAINT_FRAMES`` frames is looked for in a faint streak of its colour that
leads from where it was last seen (:mod:`vision.detect._faint_streak`: at 30 fps a
ball struck at 6-8 m/s is too faint for the colour detector and the network alike);
that search needs no network. If the network fails mid-match, ``auto`` carries on
with the colour detector alone (and says so in ``notes``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from referee import Ball
from vision._types import Detections
from vision.detect._ball_network import Peak, ort_errors
from vision.detect._blob_balls import Found
from vision.detect._colour_detector import ColourDetector
from vision.detect._detector import DetectorCapabilities, Pixels
from vision.detect._faint_streak import MAX_STEP_RADII, faint_streak
from vision.detect._inference import InferenceDevice
from vision.detect._learned_detector import MIN_PEAK, LearnedDetector
from vision.detect._network_crops import CLASSES

__all__ = ["AutoDetector"]

F64 = NDArray[np.float64]

_UNSURE_SCORE = 0.5  # colour score below which auto asks the network
_MEMORY_FRAMES = 20  # a ball unseen longer than this is not searched by the network
_MOVING_PX = 1.0  # last step, px per frame: below it the ball was at rest
_MAX_REACH_RADII = 9.0
_STRUCK_GROWTH = 4.0  # radii a frame the window round a ball gone from rest grows
_STRUCK_SCAN_AGE = 2  # a ball gone from rest this many frames: the whole table is scanned
_FAST_RADII = 2.0  # a ball lost at this many radii a frame is scanned for too
_FAINT_FRAMES = 3  # a ball missing for fewer frames is looked for in a faint streak

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
        found = self._faint(image_bgr, found)
        self._remember(found)
        return found

    def _lost(self, found: Detections) -> bool:
        """True when the whole table is to be scanned for the missing balls.

        A ball in play never seen (or not for long) when no full scan was made lately;
        or a ball last seen slow, gone for ``_STRUCK_SCAN_AGE`` frames (struck too hard
        for its window: a blurred streak far from where it stood).
        """
        missing = [b for b in self.balls if b in CLASSES and b not in found.ball]
        if any(self._struck_away(self.memory.get(b)) for b in missing):
            return True
        if (self.frames - 1) % self.rescan_every:
            return False
        return any(b not in self.memory or self.memory[b].age >= _MEMORY_FRAMES for b in missing)

    def _struck_away(self, seen: _Seen | None) -> bool:
        """A ball last seen slow (under half a radius a frame) or fast, now unseen a while.

        Slow: struck from rest, too hard for its window. Fast (``_FAST_RADII`` a frame
        or more, as a faint streak is): it may have turned at a kiss or a cushion far
        from where it was heading (tuning pt0029: the white at 7 m/s, 30 fps, kissed
        the yellow between two frames). Exactly ``_STRUCK_SCAN_AGE`` frames: one scan
        per disappearance.
        """
        if seen is None or seen.age != _STRUCK_SCAN_AGE or self.learned is None:
            return False
        speed, r = float(np.hypot(*seen.velocity_px)), self._radius(seen.uv_px)
        return speed < 0.5 * r or speed >= _FAST_RADII * r

    def _radius(self, uv_px: F64) -> float:
        return float(self.learned.radius_px(uv_px[None])[0]) if self.learned else 10.0

    def _scan(self, image_bgr: Pixels, found: Detections) -> Detections:
        """The network over the whole table, for the lost balls only (every N frames)."""
        assert self.learned is not None
        t0 = time.perf_counter()
        try:
            peaks = self.learned.model.peaks([self.learned.whole_roi(image_bgr)], MIN_PEAK)[0]
        except ort_errors() as exc:
            self.learned = None
            self.notes.append(f"learned detector dropped after an error ({exc}); colour only")
            return found
        self.scans += 1
        self.model_ms += 1000.0 * (time.perf_counter() - t0)
        lost = [b for b in self.balls if b in CLASSES and b not in found.ball]
        asks: list[_Ask] = [(b, np.zeros(2), np.inf, None, None) for b in lost]
        return _merge(found, asks, [peaks] * len(lost), self.learned)

    def _faint(self, image_bgr: Pixels, found: Detections) -> Detections:
        """A ball missing for under ``_FAINT_FRAMES`` frames, in a faint streak if it is one.

        (:mod:`vision.detect._faint_streak`: too fast for colour and network alike.)
        """
        extra: list[Found] = []
        for ball in self.balls:
            seen = self.memory.get(ball)
            if ball in found.ball or seen is None or seen.age >= _FAINT_FRAMES:
                continue
            r = self.colour.radius_at(seen.uv_px)
            reach = (seen.age + 1) * MAX_STEP_RADII * r
            others = np.array([*found.uv_px, *(f.uv_px for f in extra)]).reshape(-1, 2)
            streak = faint_streak(
                self.colour.model, image_bgr, ball, (seen.uv_px, r, reach), others
            )
            if streak is not None:
                extra.append(streak)
        if not extra:
            return found
        return Detections(
            np.array([*found.uv_px, *(f.uv_px for f in extra)]),
            (*found.ball, *(f.ball for f in extra)),
            np.array([*found.score, *(f.score for f in extra)]),
            np.array([*found.radius_px, *(f.radius_px for f in extra)]),
            np.array([*found.streak_px, *(f.streak_px for f in extra)]),
        )

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
            r = self._radius(centre)
            speed = float(np.hypot(*seen.velocity_px))
            still = seen.uv_px if speed < _MOVING_PX else None
            # A ball gone from rest (or from a crawl) may have been struck: it may
            # already be several radii away.
            grow = _STRUCK_GROWTH if speed < 0.5 * r else 0.5
            reach = min(2.0 * r + 1.5 * speed * gap + grow * r * gap, _MAX_REACH_RADII * r)
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
