"""Online shot segmentation: when does a stroke start, when have all balls stopped.

Theory of operation: every frame the tracker gives each ball's centre (table mm). A
ball *moves* when its centre is more than ``move_mm`` from where it was ``window_s``
ago (about 20 mm/s with the defaults: far above the ~0.5 mm jitter of a ball at rest,
far below any stroke). A shot *opens* when some ball has moved in ``confirm_frames``
frames in a row (one noisy frame opens nothing) and *closes* when no ball has moved for
``rest_s``. Only the open/close decisions are made
here; the exact start time and the cue ball come from the tracks afterwards
(:func:`vision.shot_span`).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from referee import Ball

__all__ = ["SegmentSettings", "Segmenter", "Transition"]

XY = tuple[float, float]


@dataclass(frozen=True, slots=True, kw_only=True)
class SegmentSettings:
    """Thresholds of the segmenter (mm and seconds, table frame)."""

    move_mm: float = 4.0
    window_s: float = 0.2
    rest_s: float = 0.6
    pre_s: float = 0.4
    max_shot_s: float = 60.0
    confirm_frames: int = 2


class Transition(StrEnum):
    """What a frame changed."""

    NONE = "none"
    OPENED = "opened"
    CLOSED = "closed"


class Segmenter:
    """Feed ball positions frame by frame; reports when a shot opens and closes."""

    def __init__(self, settings: SegmentSettings | None = None) -> None:
        self.settings = settings or SegmentSettings()
        self._history: deque[tuple[float, Mapping[Ball, XY]]] = deque()
        self.open_s: float | None = None  # first frame that moved, while a shot is open
        self.last_move_s: float | None = None
        self._streak = 0  # consecutive frames with motion
        self._first_move_s = 0.0

    @property
    def is_open(self) -> bool:
        """True while a shot is in progress."""
        return self.open_s is not None

    def update(self, t_s: float, xy_mm: Mapping[Ball, XY]) -> Transition:
        """One frame: ``xy_mm`` by ball (NaN or absent while never seen)."""
        moving = self._moving(t_s, xy_mm)
        self._history.append((t_s, dict(xy_mm)))
        while self._history and self._history[0][0] < t_s - 2 * self.settings.window_s:
            self._history.popleft()
        if moving:
            self.last_move_s = t_s
            self._first_move_s = t_s if self._streak == 0 else self._first_move_s
        self._streak = self._streak + 1 if moving else 0
        if self.open_s is None:
            if self._streak >= self.settings.confirm_frames:
                self.open_s = self._first_move_s
                return Transition.OPENED
            return Transition.NONE
        assert self.last_move_s is not None
        too_long = t_s - self.open_s > self.settings.max_shot_s
        if t_s - self.last_move_s >= self.settings.rest_s or too_long:
            self.open_s = None
            return Transition.CLOSED
        return Transition.NONE

    def _moving(self, t_s: float, xy_mm: Mapping[Ball, XY]) -> bool:
        then = self._at(t_s - self.settings.window_s)
        if then is None:
            return False
        for ball, (x, y) in xy_mm.items():
            old = then.get(ball)
            if old is None or math.isnan(x) or math.isnan(old[0]):
                continue
            if math.hypot(x - old[0], y - old[1]) > self.settings.move_mm:
                return True
        return False

    def _at(self, t_s: float) -> Mapping[Ball, XY] | None:
        """The newest remembered positions at or before ``t_s``."""
        best = None
        for t, xy in self._history:
            if t > t_s + 1e-9:
                break
            best = xy
        return best
