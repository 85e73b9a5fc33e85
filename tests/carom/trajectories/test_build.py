"""A shot's trajectories from vision's tracks: its frames, the flags, frames put back.

Tracks are built by hand here (the sample clips' real tracks are checked in
``tests/carom/analyze/test_trajectories.py``): a ball rolling at constant speed, a
stretch the tracker predicted, frames a live capture dropped.
"""

from __future__ import annotations

import math

import numpy as np

from carom.trajectories import shot_track
from referee import Ball, Shot
from vision import AnalyzedShot, BallTrack, TrackFlag

FPS = 60.0
P, OCC, INTERP = int(TrackFlag.PREDICTED), int(TrackFlag.OCCLUDED), int(TrackFlag.INTERPOLATED)


def _rolling(frames: list[int], flags: dict[int, int] | None = None) -> BallTrack:
    """A ball at 600 mm/s along x from (500, 700) at frame 0, sampled at ``frames``."""
    f = np.array(frames)
    t = f / FPS
    xy = np.stack([500.0 + 600.0 * t, np.full(len(t), 700.0)], axis=1)
    bits = np.array([(flags or {}).get(k, 0) for k in frames], dtype=np.uint8)
    return BallTrack(t, xy, (bits & P) == 0, f, bits)


def _still(frames: list[int], xy: tuple[float, float] = (1500.0, 300.0)) -> BallTrack:
    f = np.array(frames)
    return BallTrack(f / FPS, np.tile(xy, (len(f), 1)), np.ones(len(f), bool), f)


def _shot(tracks: dict[Ball, BallTrack], start_s: float, end_s: float) -> AnalyzedShot:
    shot = Shot(index=5, cue_ball=Ball.WHITE, start_s=round(start_s, 4), end_s=round(end_s, 4))
    return AnalyzedShot(shot=shot, scored=(), tracks=tracks)


def test_the_shots_frames_from_start_to_end_with_the_trackers_flags() -> None:
    frames = list(range(0, 120))
    flags = {40: P | OCC, 41: P | OCC, 42: P}
    shot = _shot({Ball.WHITE: _rolling(frames, flags), Ball.RED: _still(frames)},
                 start_s=30 / FPS, end_s=90 / FPS)  # fmt: skip
    track = shot_track(2, shot)
    assert track.index == 2 and track.cue_ball is Ball.WHITE
    assert track.frame_idx == tuple(range(30, 91))  # both ends included (rounded times)
    assert track.t_s == tuple(round(f / FPS, 6) for f in range(30, 91))
    white = track.balls[Ball.WHITE]
    assert [white.flags[track.frame_idx.index(k)] for k in (39, 40, 41, 42, 43)] == [0, 3, 3, 1, 0]
    assert white.x_mm[0] == round(500.0 + 600.0 * 30 / FPS, 2) and white.y_mm[0] == 700.0
    assert set(track.balls[Ball.RED].flags) == {0}


def test_frames_a_live_capture_dropped_are_put_back_interpolated() -> None:
    frames = [k for k in range(0, 100) if k % 7 != 3]  # every 7th frame dropped
    tracks = {Ball.WHITE: _rolling(frames), Ball.RED: _still(frames)}
    track = shot_track(0, _shot(tracks, 8 / FPS, 78 / FPS))  # bounds: analysed frames
    assert track.frame_idx == tuple(range(8, 79))
    white = track.balls[Ball.WHITE]
    for k, f in enumerate(track.frame_idx):
        assert f is not None
        assert math.isclose(track.t_s[k], f / FPS, abs_tol=1e-6)
        x = white.x_mm[k]
        assert x is not None and math.isclose(x, 500.0 + 600.0 * f / FPS, abs_tol=0.01)
        assert white.flags[k] == (INTERP if f % 7 == 3 else 0)
        assert track.balls[Ball.RED].flags[k] == white.flags[k]


def test_no_position_is_invented_next_to_an_unknown_one() -> None:
    frames = [0, 1, 2, 4, 5]
    ball = _rolling(frames, {2: P | OCC})
    xy = ball.xy_mm.copy()
    xy[2] = np.nan  # the tracker had no position in frame 2
    tracks = {Ball.WHITE: BallTrack(ball.t_s, xy, ball.seen, ball.frame_idx, ball.flags)}
    white = shot_track(0, _shot(tracks, 0.0, 5 / FPS)).balls[Ball.WHITE]
    assert white.x_mm[2] is None and white.flags[2] == P | OCC
    assert white.x_mm[3] is None and white.flags[3] == INTERP  # frame 3: between 2 and 4


def test_samples_without_frame_numbers_are_kept_by_time() -> None:
    track = BallTrack.from_samples([0.0, 0.5, 1.0, 1.5], [(1, 2), (3, 4), (5, 6), (7, 8)])
    out = shot_track(0, _shot({Ball.RED: track}, 0.5, 1.0))
    assert out.frame_idx == (None, None) and out.t_s == (0.5, 1.0)
    assert out.balls[Ball.RED].x_mm == (3.0, 5.0)
    empty = shot_track(0, _shot({Ball.RED: track}, 3.0, 4.0))
    assert len(empty) == 0 and len(empty.balls[Ball.RED]) == 0
