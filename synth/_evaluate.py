"""Score what vision found against a clip's exact truth (``carom-synth-truth/1``).

Used by the accuracy tests and ``bench/vision_accuracy.py``: events matched by kind,
balls and cushion within ``tol_s``; positions compared frame by frame, split into
balls at rest and in motion (truth speed above ``moving_mm_s``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from referee import BallContact, CushionContact, Event, PinDown, parse_event

__all__ = ["EventScore", "PositionScore", "compare_events", "compare_positions", "truth_events"]


def truth_events(truth: Mapping[str, Any]) -> list[Event]:
    """The truth file's events as referee events."""
    return [parse_event(e, f"events[{i}]") for i, e in enumerate(truth["events"])]


def _key(e: Event) -> tuple[Any, ...]:
    match e:
        case BallContact(balls=(a, b)):
            return ("ball", frozenset((a, b)))
        case CushionContact(ball=ball, cushion=cushion):
            return ("cushion", ball, cushion)
        case PinDown(pin=pin):
            return ("pin", pin)
    return (type(e).__name__, getattr(e, "ball", None))


def _kind(e: Event) -> str:
    return str(_key(e)[0])


@dataclass(slots=True)
class EventScore:
    """Matched events, misses and false alarms, per kind ("ball", "cushion", ...).

    A found event that matches no true one counts against precision, unless it
    carries a ``doubt``: then it is ``flagged`` (it can only make the referee ask
    for review, never change a call silently) and reported apart.
    """

    matched: dict[str, int] = field(default_factory=dict)
    truth: dict[str, int] = field(default_factory=dict)
    found: dict[str, int] = field(default_factory=dict)
    dt_s: dict[str, list[float]] = field(default_factory=dict)
    misses: list[Event] = field(default_factory=list)
    extras: list[Event] = field(default_factory=list)
    flagged: list[Event] = field(default_factory=list)  # doubtful and not true: for review

    def recall(self, kind: str) -> float:
        """Share of true events of ``kind`` found (1.0 when there were none)."""
        return self.matched.get(kind, 0) / self.truth[kind] if self.truth.get(kind) else 1.0

    def precision(self, kind: str) -> float:
        """Share of found events of ``kind`` that are true (1.0 when none found)."""
        return self.matched.get(kind, 0) / self.found[kind] if self.found.get(kind) else 1.0

    def add(self, other: EventScore) -> None:
        """Accumulate another clip's score."""
        for mine, theirs in ((self.matched, other.matched), (self.truth, other.truth),
                             (self.found, other.found)):  # fmt: skip
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
        for k, dts in other.dt_s.items():
            self.dt_s.setdefault(k, []).extend(dts)
        self.misses += other.misses
        self.extras += other.extras
        self.flagged += other.flagged


def compare_events(
    truth: Sequence[Event], found: Sequence[Event], tol_s: float = 0.05
) -> EventScore:
    """Match each true event to the nearest unused found event with the same key."""
    score = EventScore()
    used: set[int] = set()
    for e in truth:
        k = _kind(e)
        score.truth[k] = score.truth.get(k, 0) + 1
        best, best_dt = None, tol_s
        for i, f in enumerate(found):
            if i not in used and _key(f) == _key(e) and abs(f.t_s - e.t_s) <= best_dt:
                best, best_dt = i, abs(f.t_s - e.t_s)
        if best is None:
            score.misses.append(e)
            continue
        used.add(best)
        score.matched[k] = score.matched.get(k, 0) + 1
        score.dt_s.setdefault(k, []).append(found[best].t_s - e.t_s)
    for i, f in enumerate(found):
        if i not in used and f.doubt is not None:
            score.flagged.append(f)  # unconfirmed, marked doubtful: it can only cause a review
            continue
        score.found[_kind(f)] = score.found.get(_kind(f), 0) + 1
        if i not in used:
            score.extras.append(f)
    return score


@dataclass(frozen=True, slots=True)
class PositionScore:
    """Position errors (mm) of balls at rest and in motion, seen frames only."""

    rest_mm: np.ndarray
    moving_mm: np.ndarray

    def summary(self) -> dict[str, float]:
        """Median and worst at rest, median and 95th percentile in motion."""
        r, m = self.rest_mm, self.moving_mm
        return {
            "rest_median_mm": float(np.median(r)) if len(r) else float("nan"),
            "rest_max_mm": float(np.max(r)) if len(r) else float("nan"),
            "moving_median_mm": float(np.median(m)) if len(m) else float("nan"),
            "moving_p95_mm": float(np.percentile(m, 95)) if len(m) else float("nan"),
        }


def compare_positions(
    truth: Mapping[str, Any],
    tracked: Mapping[int, Mapping[str, tuple[float, float]]],
    moving_mm_s: float = 20.0,
) -> PositionScore:
    """``tracked``: frame_idx -> ball name -> (x_mm, y_mm) of balls vision saw."""
    frames = truth["frames"]
    rest: list[float] = []
    moving: list[float] = []
    for i, fr in enumerate(frames):
        seen = tracked.get(fr["frame_idx"], {})
        for name, b in fr["balls"].items():
            if b is None or b.get("covered") or name not in seen:
                continue
            err = float(np.hypot(*(np.subtract(seen[name], b["xy_mm"]))))
            (moving if _speed(frames, i, name) > moving_mm_s else rest).append(err)
    return PositionScore(np.asarray(rest), np.asarray(moving))


def _speed(frames: Sequence[Mapping[str, Any]], i: int, name: str) -> float:
    j = i + 1 if i + 1 < len(frames) else i - 1
    a, b = frames[i]["balls"].get(name), frames[j]["balls"].get(name)
    if a is None or b is None:
        return 0.0
    dt = abs(frames[j]["t_s"] - frames[i]["t_s"]) or 1.0
    return float(np.hypot(*np.subtract(a["xy_mm"], b["xy_mm"]))) / dt
