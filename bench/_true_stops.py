"""When each shot's last ball really stopped, from a rendered clip's truth file.

The truth file (``carom-synth-truth/1``, written by ``carom synth``) holds every ball's
true centre at every frame, in table mm rounded to 0.01 mm. A ball has stopped once its
centre no longer changes; the simulator's balls decelerate uniformly at the end of a
roll (rolling resistance), so the distance still to go falls as the square of the time
left, ``d(t) = a (T - t)^2 / 2``, and the last few frames before a ball's stop give the
stop ``T`` between two frames: ``sqrt(d)`` is a straight line in time that reaches 0 at
``T``. A shot's true stop is the latest of its balls'.

Used by ``bench/live_latency.py``; the simulator's own stop times (the shot log's
``end_s``) agree within a frame on the samples, tested in
``tests/carom/live/loop/test_latency_truth.py``.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["TrueStop", "ball_paths", "load_truth", "remaining_mm", "true_stops"]

_STILL_MM = 0.011  # rounding of the truth (0.01 mm) and a hair: not a move
_FIT_FRAMES = 4  # frames before the stop fitted with sqrt(d) linear in time
_SETTLED_S = 0.3  # every ball still this long: the shot is over (balls set up by hand later)


@dataclass(frozen=True, slots=True)
class TrueStop:
    """One shot's true stop: time (video s), the ball that stopped last, its frame."""

    t_s: float
    ball: str
    last_moving_frame: int


def ball_paths(truth: dict[str, Any]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Frame times (n,) and each ball's centre (n, 2) mm (NaN while off the table)."""
    frames = truth["frames"]
    t = np.array([f["t_s"] for f in frames], dtype=np.float64)
    names = sorted({b for f in frames for b in f["balls"]})
    paths = {}
    for name in names:
        xy = np.full((len(frames), 2), np.nan)
        for i, f in enumerate(frames):
            ball = f["balls"].get(name)
            if ball is not None:
                xy[i] = ball["xy_mm"]
        paths[name] = xy
    return t, paths


def _stop_of(t: np.ndarray, xy: np.ndarray, lo: int, hi: int) -> tuple[float, int] | None:
    """The stop of one ball within frames ``lo..hi-1`` (None: it never moved there)."""
    seg = xy[lo:hi]
    ok = np.isfinite(seg[:, 0])
    if ok.sum() < 2:
        return None
    final = seg[np.flatnonzero(ok)[-1]]
    dist = np.hypot(*(seg - final).T)
    moving = np.flatnonzero(ok & (dist > _STILL_MM))
    if moving.size == 0:
        return None
    k = int(moving[-1])  # the last frame still short of the final place
    return _refine(t[lo:hi], dist, k), lo + k


def _refine(t: np.ndarray, dist: np.ndarray, k: int) -> float:
    """The stop after frame k: sqrt(distance to go) is linear in time.

    Frame k+1 is within the truth's rounding of the final place, so the ball may still
    creep those last hundredths of a millimetre after it (at the gentlest deceleration
    seen, 0.04 m/s^2, for up to about 25 ms): the stop is looked for up to 2.5 frames on.
    """
    j = np.arange(max(0, k - _FIT_FRAMES + 1), k + 1)
    j = j[np.isfinite(dist[j])]
    dt = float(t[k + 1] - t[k]) if k + 1 < len(t) else float(t[k] - t[k - 1])
    upper = float(t[k]) + 2.5 * dt
    if j.size >= 2:
        slope, intercept = np.polyfit(t[j], np.sqrt(dist[j]), 1)
        if slope < 0:
            return float(np.clip(-intercept / slope, t[k], upper))
    return float(t[k]) + dt


def _settled(t: np.ndarray, paths: dict[str, np.ndarray], lo: int, hi: int) -> int:
    """The first frame after ``lo`` from which every ball stays still ``_SETTLED_S``.

    Between shots the balls are put back by hand (a jump in the truth): the shot ends
    before that, when everything has been still a while.
    """
    moved = np.zeros(hi - lo, dtype=bool)
    for xy in paths.values():
        step = np.hypot(*np.diff(xy[lo:hi], axis=0).T)
        moved[1:] |= np.nan_to_num(step, nan=0.0) > _STILL_MM
    last = lo
    for i in range(1, hi - lo):
        if moved[i]:
            last = lo + i
        elif t[lo + i] - t[last] >= _SETTLED_S and last > lo:
            return lo + i
    return hi


def true_stops(truth: dict[str, Any], starts_s: list[float]) -> list[TrueStop]:
    """Each shot's true stop; shot ``i`` starts at ``starts_s[i]`` (its stroke, video s)."""
    t, paths = ball_paths(truth)
    bounds = [*starts_s, math.inf]
    out = []
    for a, b in itertools.pairwise(bounds):
        lo = int(np.searchsorted(t, a))
        hi = _settled(t, paths, lo, int(np.searchsorted(t, b)))
        best: TrueStop | None = None
        for name, xy in paths.items():
            found = _stop_of(t, xy, lo, hi)
            if found is not None and (best is None or found[0] > best.t_s):
                best = TrueStop(found[0], name, found[1])
        if best is None:
            raise ValueError(f"no ball moved between {a:.2f} s and {b:.2f} s of the truth")
        out.append(best)
    return out


def remaining_mm(truth: dict[str, Any], t_s: float, until_s: float) -> float:
    """How far (mm) the farthest ball still had to go at ``t_s``, to its place at ``until_s``."""
    t, paths = ball_paths(truth)
    i = int(np.clip(np.searchsorted(t, t_s, side="right") - 1, 0, len(t) - 1))
    j = int(np.clip(np.searchsorted(t, until_s, side="right") - 1, 0, len(t) - 1))
    worst = 0.0
    for xy in paths.values():
        if np.isfinite(xy[i, 0]) and np.isfinite(xy[j, 0]):
            worst = max(worst, float(np.hypot(*(xy[j] - xy[i]))))
    return worst


def load_truth(clip: Path) -> dict[str, Any]:
    """The truth file beside ``clip`` (``NAME.json``)."""
    data: dict[str, Any] = json.loads(clip.with_suffix(".json").read_text(encoding="utf-8"))
    return data
