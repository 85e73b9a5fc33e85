"""A shot's trajectories from vision's tracks: every frame of the shot, every ball.

The shot's frames are those of its tracks from the shot's ``start_s`` to its
``end_s`` (the still samples that bound the motion, so the first and last positions
are the balls at rest). Frame numbers the tracker skipped (a live capture drops the
oldest frame when processing falls behind) are put back between the frames around
them, with times and positions interpolated linearly and the flag ``interpolated``;
a ball's position is interpolated only between two known positions, else it is
``None``. Positions the tracker predicted keep its flags (``vision.TrackFlag``).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from carom.trajectories._files import MM_DIGITS, T_DIGITS
from carom.trajectories._model import FLAG_NAMES, BallPath, ShotTrack, Trajectories
from referee import Table

if TYPE_CHECKING:  # the arrays are vision's; this module needs no numpy of its own
    import numpy as np
    from numpy.typing import NDArray

    from vision import AnalyzedShot, BallTrack

__all__ = ["shot_track", "trajectories_of"]

_INTERPOLATED = FLAG_NAMES["interpolated"]
#: Half the shot log's time resolution (it rounds ``start_s`` and ``end_s`` to 0.1 ms).
_SPAN_TOL_S = 1e-4

Sample = tuple[float, float, float, int]  # t_s, x_mm, y_mm (NaN: unknown), flags
Key = tuple[int, float]  # frame_idx (-1: none), t_s


@dataclass(frozen=True, slots=True)
class _Window:
    """One ball's samples inside the shot: (m,) arrays."""

    t_s: NDArray[np.float64]
    xy_mm: NDArray[np.float64]
    frame_idx: NDArray[np.int64]
    flags: NDArray[np.uint8]

    @classmethod
    def of(cls, track: BallTrack, lo_s: float, hi_s: float) -> _Window:
        keep = (track.t_s >= lo_s) & (track.t_s <= hi_s)
        return cls(track.t_s[keep], track.xy_mm[keep], track.frame_idx[keep], track.flags[keep])

    def samples(self) -> dict[Key, Sample]:
        """By frame (or by time where there is no frame number)."""
        columns = (self.t_s.tolist(), self.xy_mm.tolist(), self.frame_idx.tolist(),
                   self.flags.tolist())  # fmt: skip
        return {_key(f, t): (t, x, y, flags) for t, (x, y), f, flags in zip(*columns, strict=True)}


def _key(frame_idx: int, t_s: float) -> Key:
    return (frame_idx, 0.0) if frame_idx >= 0 else (-1, round(t_s, T_DIGITS))


def _mm(values: NDArray[np.float64]) -> tuple[float | None, ...]:
    """Rounded to the files' 0.01 mm; NaN becomes None."""
    return tuple(None if v != v else v for v in values.round(MM_DIGITS).tolist())


def _shared_frames(windows: list[_Window]) -> bool:
    """Every ball has the same numbered frames, none skipped (the tracker's usual case)."""
    first = windows[0].frame_idx
    consecutive = bool((first >= 0).all() and (first[1:] - first[:-1] == 1).all())
    return consecutive and all(
        w.frame_idx.shape == first.shape and bool((w.frame_idx == first).all()) for w in windows[1:]
    )


def _timeline(windows: Iterable[dict[Key, Sample]]) -> list[tuple[Key, float]]:
    """Every frame any ball has, in time order, with the skipped frame numbers put back."""
    times: dict[Key, float] = {}
    for window in windows:
        for key, sample in window.items():
            times.setdefault(key, sample[0])
    frames = sorted(times.items(), key=lambda kv: kv[1])
    out: list[tuple[Key, float]] = []
    for (key, t), after in itertools.zip_longest(frames, frames[1:]):
        out.append((key, t))
        if after is None or key[0] < 0 or after[0][0] < 0:
            continue
        gap = after[0][0] - key[0]
        for k in range(1, gap):  # frames the tracker never saw
            out.append(((key[0] + k, 0.0), t + (after[1] - t) * k / gap))
    return out


def _between(own: list[Sample], t_s: float) -> tuple[float, float] | None:
    """The ball's position at ``t_s`` interpolated between its samples around it."""
    i = bisect.bisect_left([s[0] for s in own], t_s)
    if i == 0 or i == len(own):
        return None
    (t0, x0, y0, _), (t1, x1, y1, _) = own[i - 1], own[i]
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        return None
    w = (t_s - t0) / (t1 - t0)
    return (x0 + w * (x1 - x0), y0 + w * (y1 - y0))


def _ball_path(timeline: list[tuple[Key, float]], window: dict[Key, Sample]) -> BallPath:
    own = sorted(window.values())
    xs: list[float | None] = []
    ys: list[float | None] = []
    flags: list[int] = []
    for key, t in timeline:
        sample = window.get(key)
        if sample is not None:
            xy: tuple[float, float] | None = sample[1:3] if math.isfinite(sample[1]) else None
            flag = sample[3]
        else:
            xy, flag = _between(own, t), _INTERPOLATED
        xs.append(None if xy is None else round(xy[0], MM_DIGITS))
        ys.append(None if xy is None else round(xy[1], MM_DIGITS))
        flags.append(flag)
    return BallPath(tuple(xs), tuple(ys), tuple(flags))


def shot_track(index: int, analyzed: AnalyzedShot) -> ShotTrack:
    """The trajectories of one analysed shot, numbered ``index`` as in the shot log."""
    shot = analyzed.shot
    lo = -math.inf if shot.start_s is None else shot.start_s - _SPAN_TOL_S
    hi = math.inf if shot.end_s is None else shot.end_s + _SPAN_TOL_S
    windows = {ball: _Window.of(track, lo, hi) for ball, track in analyzed.tracks.items()}
    if windows and _shared_frames(list(windows.values())):  # fast: nothing to fill in
        first = next(iter(windows.values()))
        frame_idx: tuple[int | None, ...] = tuple(first.frame_idx.tolist())
        t_s = tuple(first.t_s.round(T_DIGITS).tolist())
        balls = {b: BallPath(_mm(w.xy_mm[:, 0]), _mm(w.xy_mm[:, 1]), tuple(w.flags.tolist()))
                 for b, w in windows.items()}  # fmt: skip
    else:
        samples = {ball: w.samples() for ball, w in windows.items()}
        timeline = _timeline(samples.values())
        frame_idx = tuple(None if key[0] < 0 else key[0] for key, _ in timeline)
        t_s = tuple(round(t, T_DIGITS) for _, t in timeline)
        balls = {ball: _ball_path(timeline, w) for ball, w in samples.items()}
    return ShotTrack(index=index, cue_ball=shot.cue_ball, start_s=shot.start_s,
                     end_s=shot.end_s, frame_idx=frame_idx, t_s=t_s, balls=balls)  # fmt: skip


def trajectories_of(table: Table, shots: Iterable[tuple[int, AnalyzedShot]]) -> Trajectories:
    """The trajectories of ``(shot-log index, analysed shot)`` pairs on ``table``."""
    return Trajectories(table=table, shots=tuple(shot_track(i, a) for i, a in shots))
