"""Shot motion: moving masks, shot start/end and cue ball, lags, frozen balls."""

from __future__ import annotations

import numpy as np

from referee import Ball, Cushion
from synth import scenario
from vision._types import BallTrack
from vision.events._motion import frozen_cushions, frozen_pairs, is_lag, moving_mask, shot_span


def _sim_tracks(name: str, fps: float = 30.0) -> tuple[object, dict[Ball, BallTrack]]:
    sim = scenario(name).simulate()
    t = np.arange(-0.5, sim.duration_s + 1.0, 1.0 / fps)
    pos = sim.positions_mm(np.clip(t, 0.0, None))
    rng = np.random.default_rng(0)
    tracks = {
        b: BallTrack.from_samples(t, xy + rng.normal(0, 1.0, xy.shape)) for b, xy in pos.items()
    }
    return sim, tracks


def test_moving_mask_ignores_noise_of_a_ball_at_rest() -> None:
    t = np.arange(0.0, 2.0, 1 / 30)
    rng = np.random.default_rng(1)
    x = np.where(t < 1.0, 500.0, 500.0 + 800.0 * (t - 1.0))
    track = BallTrack.from_samples(
        t, np.c_[x, np.full(len(t), 300.0)] + rng.normal(0, 1.0, (len(t), 2))
    )
    mask = moving_mask(track)
    assert not mask[t < 0.9].any()
    assert mask[t > 1.1].all()


def test_shot_span_finds_the_cue_ball_and_the_end() -> None:
    sim, tracks = _sim_tracks("3c-point")
    span = shot_span(tracks)
    assert span is not None
    start, end, cue = span
    assert cue == scenario("3c-point").stroke.cue_ball
    assert -0.05 <= start <= 0.05
    # Stopped means below 30 mm/s: the last crawl to rest takes about half a second.
    assert sim.duration_s - 1.0 < end <= sim.duration_s + 0.2  # type: ignore[attr-defined]


def test_shot_span_of_still_balls_is_none() -> None:
    t = np.arange(0.0, 1.0, 1 / 30)
    still = BallTrack.from_samples(t, np.tile([500.0, 300.0], (len(t), 1)))
    assert shot_span({Ball.WHITE: still}) is None


def _rolling(
    t: np.ndarray, start_s: float, p0: tuple[float, float], v: tuple[float, float]
) -> BallTrack:
    dt = np.clip(t - start_s, 0.0, 1.5)[:, None]
    return BallTrack.from_samples(t, np.asarray(p0) + dt * np.asarray(v))


def test_lag_is_two_cue_balls_struck_together_before_the_red() -> None:
    t = np.arange(0.0, 3.0, 1 / 30)
    red = _rolling(t, 99.0, (2000.0, 700.0), (0.0, 0.0))
    lag = {
        Ball.WHITE: _rolling(t, 0.5, (300.0, 400.0), (800.0, 0.0)),
        Ball.YELLOW: _rolling(t, 0.7, (300.0, 1000.0), (800.0, 0.0)),
        Ball.RED: red,
    }
    assert is_lag(lag)
    one = {**lag, Ball.YELLOW: _rolling(t, 99.0, (300.0, 1000.0), (0.0, 0.0))}
    assert not is_lag(one)
    late = {**lag, Ball.YELLOW: _rolling(t, 2.0, (300.0, 1000.0), (800.0, 0.0))}
    assert not is_lag(late)
    # The red may move later (a lag ball touched it: the referee calls that a fault),
    # but a red among the first two balls to move makes it a stroke.
    red_hit = {**lag, Ball.RED: _rolling(t, 1.0, (2000.0, 700.0), (100.0, 0.0))}
    assert is_lag(red_hit)
    red_first = {**lag, Ball.RED: _rolling(t, 0.6, (2000.0, 700.0), (100.0, 0.0))}
    assert not is_lag(red_first)


def test_frozen_pairs_and_cushions() -> None:
    r = 30.75
    positions = {
        Ball.WHITE: (1000.0, 500.0),
        Ball.RED: (1000.0 + 2 * r + 0.5, 500.0),
        Ball.YELLOW: (2000.0, r + 0.3),
    }
    assert frozen_pairs(positions, r, tol_mm=1.0) == [(Ball.RED, Ball.WHITE)]  # sorted
    assert frozen_pairs(positions, r, tol_mm=0.2) == []
    assert frozen_cushions(positions, (2840.0, 1420.0), r) == [(Ball.YELLOW, Cushion.LEFT)]


def test_a_lag_starts_behind_one_ends_string_one_ball_each_side() -> None:
    t = np.arange(0.0, 3.0, 1 / 60)
    table = (2840.0, 1420.0)
    red = _rolling(t, 99.0, (2130.0, 710.0), (0.0, 0.0))
    head = {
        Ball.WHITE: _rolling(t, 0.5, (600.0, 400.0), (800.0, 0.0)),
        Ball.YELLOW: _rolling(t, 0.6, (600.0, 1000.0), (800.0, 0.0)),
        Ball.RED: red,
    }
    assert is_lag(head, table_mm=table)
    # Filmed turned round, calibration puts the lag at the foot end: still a lag.
    foot = {Ball.WHITE: _rolling(t, 0.5, (2240.0, 400.0), (-800.0, 0.0)),
            Ball.YELLOW: _rolling(t, 0.6, (2240.0, 1000.0), (-800.0, 0.0)),
            Ball.RED: _rolling(t, 99.0, (700.0, 710.0), (0.0, 0.0))}  # fmt: skip
    assert is_lag(foot, table_mm=table)
    # Two balls struck at once in mid-table, or both on one side, or towards the
    # near cushion: strokes (a fast stroke into a close pair looks like this).
    mid = {**head, Ball.WHITE: _rolling(t, 0.5, (1400.0, 400.0), (800.0, 0.0)),
           Ball.YELLOW: _rolling(t, 0.6, (1400.0, 1000.0), (800.0, 0.0))}  # fmt: skip
    assert is_lag(mid) and not is_lag(mid, table_mm=table)
    one_side = {**head, Ball.YELLOW: _rolling(t, 0.6, (600.0, 600.0), (800.0, 0.0))}
    assert not is_lag(one_side, table_mm=table)
    back = {**head, Ball.YELLOW: _rolling(t, 0.6, (600.0, 1000.0), (-300.0, 0.0))}
    assert not is_lag(back, table_mm=table)
