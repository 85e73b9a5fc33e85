"""Online shot segmentation: when does a stroke start, when have all balls stopped.

Theory of operation: every frame the tracker gives each ball's centre (table mm). A
ball *moves* when its centre is more than ``move_mm`` from where it was ``window_s``
ago (about 20 mm/s with the defaults: far above the ~0.5 mm jitter of a ball at rest,
far below any stroke). A shot *opens* when some ball has moved in ``confirm_frames``
frames in a row (one noisy frame opens nothing) and *closes* when no ball has moved for
``rest_s``. Only the open/close decisions are made
here; the exact start time and the cue ball come from the tracks afterwards
(:func:`vision.shot_span`).

A shot closes on a speed threshold, so its last balls may still creep: a ball below
``move_mm`` in ``window_s`` (20 mm/s with live mode's settings) rolls on for up to a
few tenths of a second and a few millimetres when the cloth's rolling resistance is
low (the renderer's: about 0.05 m/s^2). :class:`StopWatch` tells when they have
really stopped, for a verdict that must not be given before (live mode): as soon as
the tracker holds every ball at rest (strong evidence: a fitted speed under 5 mm/s
with every measurement of its still window close together, ``vision.track``; a ball
unseen for a while, pocketed or hidden, no longer counts), or after ``max_wait_s``
(weak evidence). Either way it lists the gaps the creep closed
since the shot closed (a ball that came to touch another ball or a cushion it was
clearly apart from then): a contact the closed shot may not hold, so its verdict
needs a person's review.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from referee import Ball, Cushion

__all__ = ["SegmentSettings", "Segmenter", "StopCall", "StopSettings", "StopWatch", "Transition"]

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


@dataclass(frozen=True, slots=True, kw_only=True)
class StopSettings:
    """When a closed shot's balls count as stopped (mm and seconds, table frame).

    ``max_wait_s``: the longest wait for every ball at rest (0.6 s, the rest of
    ``carom analyze``'s segmenter). ``gone_s``: a ball unseen this long (pocketed,
    off the table, hidden) no longer holds the call: nothing about it can be told.
    A gap between two balls, or a ball and a cushion nose, both seen, *closed* after
    the shot did when it came down to ``touch_mm`` or less (the noise of a tracked
    ball included) from at least ``approach_mm`` more.
    """

    max_wait_s: float = 0.6
    gone_s: float = 0.2
    touch_mm: float = 1.0
    approach_mm: float = 0.5

    def __post_init__(self) -> None:
        if not (0.0 <= self.max_wait_s <= 5.0 and 0.0 <= self.gone_s <= 5.0):
            raise ValueError(
                f"stop settings: max_wait_s {self.max_wait_s} and gone_s {self.gone_s} "
                "must be 0..5 s"
            )
        if not (0.0 < self.touch_mm <= 10.0 and 0.0 < self.approach_mm <= 10.0):
            raise ValueError(
                f"stop settings: touch_mm {self.touch_mm} and approach_mm {self.approach_mm} "
                "must be in (0, 10] mm"
            )


@dataclass(frozen=True, slots=True)
class StopCall:
    """The balls have stopped at ``t_s``: ``strong`` when every ball was seen at rest.

    ``closed_gaps``: what the balls reached after the shot closed ("red-white",
    "yellow-left"): contacts the closed shot may not hold.
    """

    t_s: float
    strong: bool
    closed_gaps: tuple[str, ...]


Flags = Mapping[Ball, bool]


class StopWatch:
    """After a shot closed at ``t_s`` with the balls at ``xy_mm``: tells when they stopped.

    Args:
        t_s: the time the shot closed (s).
        xy_mm: every ball's centre then (NaN: not on the table).
        seen: which balls were measured then (None: all); the others' positions are
            the tracker's predictions.
        table_mm: (length, width) of the playing surface, cushion nose to nose.
        radius_mm: the ball radius.
        settings: the waits and the contact gap.
    """

    def __init__(
        self,
        t_s: float,
        xy_mm: Mapping[Ball, XY],
        seen: Flags | None = None,
        *,
        table_mm: tuple[float, float],
        radius_mm: float,
        settings: StopSettings | None = None,
    ) -> None:
        self.settings = settings or StopSettings()
        self.closed_s = t_s
        self._table, self._radius = table_mm, radius_mm
        self._last_seen = {b: t_s for b in xy_mm if seen is None or seen.get(b, False)}
        self._then = self._gaps(xy_mm, seen)
        self._least = dict(self._then)

    def update(
        self, t_s: float, xy_mm: Mapping[Ball, XY], at_rest: Flags, seen: Flags | None = None
    ) -> StopCall | None:
        """One frame: positions, the tracker's at-rest flags, which balls were measured.

        A call once every ball on the table is at rest or gone (unseen ``gone_s``), or
        ``max_wait_s`` after the close; None before.
        """
        self.see(t_s, xy_mm, seen)
        gone_s = self.settings.gone_s
        strong = all(
            math.isnan(x)
            or at_rest.get(b, False)
            or t_s - self._last_seen.get(b, self.closed_s) >= gone_s
            for b, (x, _) in xy_mm.items()
        )
        if not strong and t_s - self.closed_s < self.settings.max_wait_s:
            return None
        return StopCall(t_s, strong, self.closed_gaps())

    def see(self, t_s: float, xy_mm: Mapping[Ball, XY], seen: Flags | None = None) -> None:
        """Note the balls at ``xy_mm`` (the narrowest gaps since the close are kept)."""
        for b in xy_mm:
            if seen is None or seen.get(b, False):
                self._last_seen[b] = t_s
        for name, gap in self._gaps(xy_mm, seen).items():
            self._least[name] = min(gap, self._least.get(name, gap))

    def closed_gaps(self) -> tuple[str, ...]:
        """The gaps that came down to contact since the shot closed."""
        s = self.settings
        return tuple(
            name
            for name, least in self._least.items()
            if least <= s.touch_mm and self._then.get(name, math.inf) - least >= s.approach_mm
        )

    def _gaps(self, xy_mm: Mapping[Ball, XY], seen: Flags | None) -> dict[str, float]:
        """Surface gaps (mm) of every pair of measured balls and of each to each cushion."""
        r, (length, width) = self._radius, self._table
        balls = sorted(
            (b, p)
            for b, p in xy_mm.items()
            if not math.isnan(p[0]) and (seen is None or seen.get(b, False))
        )
        gaps: dict[str, float] = {}
        for i, (a, pa) in enumerate(balls):
            for b, pb in balls[i + 1 :]:
                gaps[f"{a}-{b}"] = math.hypot(pa[0] - pb[0], pa[1] - pb[1]) - 2 * r
            x, y = pa
            noses = {Cushion.HEAD: x, Cushion.FOOT: length - x, Cushion.LEFT: y,
                     Cushion.RIGHT: width - y}  # fmt: skip
            for cushion, d in noses.items():
                gaps[f"{a}-{cushion}"] = d - r
        return gaps
