"""Build the referee's :class:`referee.Shot` from a shot's tracks and events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from referee import Ball, OffTable, Pin, Pocketed, Shot, TimedXY
from vision._types import BallTrack, ScoredEvent

__all__ = ["build_shot", "rest_position"]

_REST_S = 0.3  # averaging window of a position at rest


def rest_position(track: BallTrack, t0_s: float, t1_s: float) -> tuple[float, float] | None:
    """Median centre (table mm) of the seen samples in [t0_s, t1_s]; else nearest seen."""
    seen = track.seen & np.isfinite(track.xy_mm[:, 0])
    if not seen.any():
        return None
    inside = seen & (track.t_s >= t0_s) & (track.t_s <= t1_s)
    if inside.any():
        x, y = np.median(track.xy_mm[inside], axis=0)
        return (round(float(x), 2), round(float(y), 2))
    idx = np.flatnonzero(seen)
    near = idx[np.argmin(np.abs(track.t_s[idx] - 0.5 * (t0_s + t1_s)))]
    return (round(float(track.xy_mm[near, 0]), 2), round(float(track.xy_mm[near, 1]), 2))


def _end_position(track: BallTrack, end_s: float) -> tuple[float, float] | None:
    """Where the ball rests: the last ``_REST_S`` of its track, from ``end_s`` on.

    The shot ends once every ball stays within 2 mm of its rest (a ball crawling back
    off a cushion may still be 2 mm short then: :func:`vision.shot_span`); the track
    runs on until the shot closed (some tenths of a second later), and its last part is
    the rest itself.
    """
    t0_s = max(end_s, float(track.t_s[-1]) - _REST_S) if len(track) else end_s
    return rest_position(track, t0_s, t0_s + _REST_S)


def _path(track: BallTrack, t0_s: float, t1_s: float, step_s: float) -> tuple[TimedXY, ...]:
    ok = np.isfinite(track.xy_mm[:, 0])
    if ok.sum() < 2:
        return ()
    t = track.t_s[ok]
    ts = np.arange(max(t0_s, t[0]), min(t1_s, t[-1]) + 1e-9, step_s)
    x = np.interp(ts, t, track.xy_mm[ok, 0])
    y = np.interp(ts, t, track.xy_mm[ok, 1])
    return tuple(
        (round(float(a), 4), round(float(b), 2), round(float(c), 2))
        for a, b, c in zip(ts, x, y, strict=True)
    )


def build_shot(
    index: int,
    cue_ball: Ball,
    span_s: tuple[float, float],
    tracks: Mapping[Ball, BallTrack],
    scored: Sequence[ScoredEvent],
    *,
    pins: frozenset[Pin] | None = None,
    doubt: str | None = None,
    path_step_s: float = 1 / 15,
) -> Shot:
    """The referee's view of one stroke from [start_s, end_s] of ``tracks``.

    Start positions: ball centres at rest just before the stroke; end positions:
    where the balls came to rest (:func:`_end_position`; balls that left the table or
    dropped are left out);
    paths sampled every ``path_step_s`` for the zone rules.
    """
    start_s, end_s = span_s
    gone = {s.event.ball for s in scored if isinstance(s.event, OffTable | Pocketed)}
    starts, ends, paths = {}, {}, {}
    for ball, track in tracks.items():
        if (xy := rest_position(track, start_s - _REST_S, start_s)) is not None:
            starts[ball] = xy
        if ball not in gone and (xy := _end_position(track, end_s)) is not None:
            ends[ball] = xy
        if path := _path(track, start_s, end_s, path_step_s):
            paths[ball] = path
    return Shot(
        index=index, cue_ball=cue_ball, events=tuple(s.event for s in scored),
        start_s=round(start_s, 4), end_s=round(end_s, 4), start_positions_mm=starts,
        end_positions_mm=ends, paths_mm=paths, pins_standing=pins, doubt=doubt,
    )  # fmt: skip
