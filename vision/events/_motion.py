"""Shot motion from ball tracks: who moves when, where a shot starts and ends, lags, frozen balls.

Theory of operation. A ball moves where its speed over a short window (two samples
either side, so sensor noise of a ball at rest does not read as motion) exceeds a
threshold; a long gap between samples with almost no displacement is a rest (real
trackers keep only the first and last sample of a rest). A shot starts when the first
ball (the cue ball) starts moving and ends when the last ball stops. A lag is two cue
balls struck at about the same time, neither by the other, before the red moves.
Frozen balls are read off rest positions: two centres ``2R`` apart, a centre ``R``
from a cushion nose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from numpy.typing import ArrayLike, NDArray

from referee import Ball, BallContact, Cushion, Event
from vision._types import BallTrack

__all__ = ["frozen_cushions", "frozen_pairs", "is_lag", "moving_mask", "shot_span"]

B1 = NDArray[np.bool_]
F64 = NDArray[np.float64]

#: Default speed (mm/s) above which a ball counts as moving.
MOVING_MM_S = 30.0
#: No two lag balls touch this soon (s) after the first starts.
_LAG_CLEAR_S = 0.3
#: A ball has stopped once it stays this close (mm) to where it rests ...
_SETTLED_MM = 2.0
#: ... the median of its samples in the last this many seconds of its track.
_END_S = 0.3


def moving_mask(track: BallTrack, speed_mm_s: float = MOVING_MM_S) -> B1:
    """Where the ball moves: (n,) True at samples whose windowed speed > ``speed_mm_s``.

    The speed at sample i is the displacement across a window of about 0.2 s (at
    least two samples either side) over its duration; runs of fewer than three moving
    samples are noise and dropped. Non-finite samples count as not moving.
    """
    n = len(track)
    if n < 2:
        return np.zeros(n, dtype=bool)
    dt = float(np.median(np.diff(track.t_s)))
    half = max(2, round(0.1 / max(dt, 1e-6)))
    idx = np.arange(n)
    lo, hi = np.clip(idx - half, 0, n - 1), np.clip(idx + half, 0, n - 1)
    disp = np.linalg.norm(track.xy_mm[hi] - track.xy_mm[lo], axis=1)
    speed = disp / np.maximum(track.t_s[hi] - track.t_s[lo], 1e-9)
    raw = np.nan_to_num(speed, nan=0.0) > speed_mm_s
    return _drop_short_runs(raw, 3)


def _drop_short_runs(mask: B1, min_len: int) -> B1:
    out = mask.copy()
    edges = np.diff(np.r_[0, mask.astype(np.int8), 0])
    for a, b in zip(np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0], strict=True):
        if b - a < min_len:
            out[a:b] = False
    return out


def _moves(track: BallTrack, speed_mm_s: float) -> tuple[float, float] | None:
    """Start and end time of the ball's motion (None if it never moves).

    The start is refined to the last sample before the ball left its rest position by
    more than 4 mm (the speed window smears it by up to 0.1 s); the end to the first
    sample after which the ball stays within ``_SETTLED_MM`` of where its track ends (a
    ball crawling a few mm back off a cushion passes the speed test while it moves).
    """
    hits = np.nonzero(moving_mask(track, speed_mm_s))[0]
    if not len(hits):
        return None
    first, last = int(hits[0]), int(hits[-1])
    before = track.xy_mm[max(first - 5, 0) : first + 1]
    rest = np.nanmedian(before, axis=0)
    away = np.linalg.norm(track.xy_mm[first:] - rest, axis=1) > 4.0
    start = first + int(np.argmax(away)) if away.any() else first
    end = max(min(last + 1, len(track) - 1), _settled(track))
    return float(track.t_s[max(start - 1, 0)]), float(track.t_s[end])


def _settled(track: BallTrack) -> int:
    """The first sample after which the seen ball stays near where its track ends; 0: none.

    Where it ends: the median of its seen samples in the track's last ``_END_S``. Near:
    a running median of five seen samples within ``_SETTLED_MM``, or within three times
    the end samples' own scatter when they are noisier (raw measurements, not a
    tracker's rest mean).
    """
    idx = np.flatnonzero(track.seen & np.isfinite(track.xy_mm[:, 0]))
    if len(idx) < 5:
        return 0
    xy, t_s = track.xy_mm[idx], track.t_s[idx]
    tail = xy[t_s >= t_s[-1] - _END_S]
    end = np.median(tail, axis=0)
    near_mm = max(_SETTLED_MM, 3.0 * float(np.median(np.linalg.norm(tail - end, axis=1))))
    smooth = np.median(sliding_window_view(xy, 5, axis=0), axis=-1)  # sample k + 2's
    off = np.flatnonzero(np.linalg.norm(smooth - end, axis=1) > near_mm)
    return int(idx[min(int(off[-1]) + 3, len(idx) - 1)]) if len(off) else 0


def shot_span(
    tracks: Mapping[Ball, BallTrack], speed_mm_s: float = MOVING_MM_S
) -> tuple[float, float, Ball] | None:
    """``(start_s, end_s, cue_ball)`` of the shot, or None if no ball moves.

    ``start_s`` is the last still sample of the first ball to move (the cue ball),
    ``end_s`` the first sample from which every ball stays within 2 mm of where it
    rests (and at least the first still one after the last ball stopped).
    """
    spans = {ball: _moves(t, speed_mm_s) for ball, t in tracks.items()}
    moved = {ball: span for ball, span in spans.items() if span is not None}
    if not moved:
        return None
    cue = min(moved, key=lambda b: moved[b][0])
    return moved[cue][0], max(span[1] for span in moved.values()), cue


def is_lag(
    tracks: Mapping[Ball, BallTrack],
    within_s: float = 0.5,
    speed_mm_s: float = MOVING_MM_S,
    object_ball: Ball = Ball.RED,
    radius_mm: float = 30.75,
    table_mm: tuple[float, float] | None = None,
    events: Sequence[Event] = (),
) -> bool:
    """True for a lag: two balls set off within ``within_s`` and the object ball stays.

    The first two balls to move must be two balls other than ``object_ball``, set off
    within ``within_s`` of each other, and not by each other: their centres stay more
    than ``2 * radius_mm`` + 30 mm apart from the first start until just after the
    second (a stroke that sends the cue ball into the other ball brings them to 2R at
    the second start). The object ball may move later: a lag ball that touches the red
    loses the lag, which the referee decides from the events.

    With ``table_mm`` (length, width) the two must also start where a lag starts
    [rules.md §2]: both behind the string of one end (a quarter of the length from
    its cushion, with a ball's width to spare; calibration cannot tell the head end
    from the foot end of a table filmed turned round), one on each side of the long
    axis, and both set off away from that end.

    ``events``: the motion's events; a contact of the two within 0.3 s of the first
    start makes it a stroke (lag balls run the table side by side; a cue ball too fast to
    be seen until it struck a ball looks, held at its rest, like a second lag ball).
    """
    starts = {}
    for ball, track in tracks.items():
        span = _moves(track, speed_mm_s)
        if span is not None:
            starts[ball] = span[0]
    if len(starts) < 2:
        return False
    (a, ta), (b, tb), *_ = sorted(starts.items(), key=lambda kv: kv[1])
    if object_ball in (a, b) or tb - ta > within_s:
        return False
    if any(isinstance(e, BallContact) and set(e.balls) == {a, b} and e.t_s - ta < _LAG_CLEAR_S
           for e in events):  # fmt: skip
        return False
    t = np.linspace(ta, tb + 0.1, 25)
    gap = np.linalg.norm(_positions_at(tracks[a], t) - _positions_at(tracks[b], t), axis=1)
    if not np.nanmin(gap) > 2.0 * radius_mm + 30.0:
        return False
    if table_mm is None:
        return True
    return _lag_places(tracks[a], tracks[b], (ta, tb), table_mm, radius_mm)


def _lag_places(
    first: BallTrack,
    second: BallTrack,
    starts_s: tuple[float, float],
    table_mm: tuple[float, float],
    radius_mm: float,
) -> bool:
    """Both balls start behind one end's string, one each side, and head for the other end."""
    length, width = table_mm
    string = 0.25 * length + 2.0 * radius_mm
    # Each ball at its start and 0.3 s on: (2, 2) rows of x, y.
    (a0, a1), (b0, b1) = (
        _positions_at(tr, np.array([t, t + 0.3]))
        for tr, t in ((first, starts_s[0]), (second, starts_s[1]))
    )
    dx = (float(a1[0] - a0[0]), float(b1[0] - b0[0]))
    head = a0[0] < string and b0[0] < string and min(dx) > 0.0
    foot = a0[0] > length - string and b0[0] > length - string and max(dx) < 0.0
    sides = (a0[1] - 0.5 * width) * (b0[1] - 0.5 * width) < 0.0
    return bool((head or foot) and sides)


def _positions_at(track: BallTrack, t_s: F64) -> F64:
    ok = np.all(np.isfinite(track.xy_mm), axis=1)
    t, xy = track.t_s[ok], track.xy_mm[ok]
    return np.column_stack((np.interp(t_s, t, xy[:, 0]), np.interp(t_s, t, xy[:, 1])))


def frozen_pairs(
    positions_mm: Mapping[Ball, ArrayLike], radius_mm: float, tol_mm: float = 1.0
) -> list[tuple[Ball, Ball]]:
    """Pairs of balls at rest touching: centres within ``2R + tol_mm`` (sorted pairs)."""
    out = []
    for a, b in combinations(sorted(positions_mm), 2):
        d = float(np.linalg.norm(np.asarray(positions_mm[a]) - np.asarray(positions_mm[b])))
        if d <= 2.0 * radius_mm + tol_mm:
            out.append((a, b))
    return out


def frozen_cushions(
    positions_mm: Mapping[Ball, ArrayLike],
    size_mm: Sequence[float],
    radius_mm: float,
    tol_mm: float = 1.0,
) -> list[tuple[Ball, Cushion]]:
    """Balls at rest against a cushion: centre within ``R + tol_mm`` of its nose.

    ``size_mm`` is ``(length_mm, width_mm)`` of the playing surface.
    """
    length, width = float(size_mm[0]), float(size_mm[1])
    out = []
    for ball in sorted(positions_mm):
        x, y = (float(v) for v in np.asarray(positions_mm[ball], dtype=np.float64))
        gaps = {
            Cushion.HEAD: x,
            Cushion.FOOT: length - x,
            Cushion.LEFT: y,
            Cushion.RIGHT: width - y,
        }
        out += [(ball, c) for c, g in gaps.items() if g <= radius_mm + tol_mm]
    return out
