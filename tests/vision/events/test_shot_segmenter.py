"""The online segmenter, the placement rule and the shot builder on made-up tracks."""

from __future__ import annotations

import numpy as np
import pytest

from referee import Ball, BallContact, OffTable
from vision import build_shot, is_placement, rest_position
from vision._types import BallTrack, ScoredEvent
from vision.events._shot_segmenter import Segmenter, SegmentSettings, Transition

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
FPS = 60.0


def _feed(seg: Segmenter, t: np.ndarray, xy: dict[Ball, np.ndarray]) -> list[tuple[float, str]]:
    out = []
    for i, ti in enumerate(t):
        tr = seg.update(float(ti), {b: (float(p[i, 0]), float(p[i, 1])) for b, p in xy.items()})
        if tr is not Transition.NONE:
            out.append((float(ti), str(tr)))
    return out


def _still(n: int, x: float, y: float, noise: float = 0.3, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.c_[np.full(n, x), np.full(n, y)] + rng.normal(0, noise, (n, 2))


def test_a_stroke_opens_and_closes_once() -> None:
    t = np.arange(0, 6, 1 / FPS)
    white = _still(len(t), 500, 500)
    moving = (t >= 1.0) & (t < 3.0)
    white[moving, 0] += np.cumsum(np.where(moving, 1500 / FPS * (3.0 - t) / 2, 0))[moving]
    white[t >= 3.0, 0] = white[moving][-1, 0]
    seen = _feed(Segmenter(), t, {W: white, Y: _still(len(t), 900, 300, seed=1)})
    assert [k for _, k in seen] == ["opened", "closed"]
    assert 1.0 <= seen[0][0] <= 1.1
    assert 3.0 + 0.6 - 0.05 <= seen[1][0] <= 3.0 + 0.6 + 0.25


def test_jitter_of_resting_balls_opens_nothing() -> None:
    t = np.arange(0, 10, 1 / FPS)
    seen = _feed(Segmenter(), t, {b: _still(len(t), 300 + 400 * i, 700, 0.8, i)
                                  for i, b in enumerate((W, Y, R))})  # fmt: skip
    assert seen == []


def test_nan_positions_are_ignored() -> None:
    t = np.arange(0, 2, 1 / FPS)
    white = _still(len(t), 500, 500)
    white[30:40] = np.nan
    assert _feed(Segmenter(), t, {W: white}) == []


def test_a_shot_longer_than_the_limit_is_closed() -> None:
    t = np.arange(0, 5, 1 / FPS)
    white = np.c_[100 + 300 * t, np.full(len(t), 400.0)]
    seen = _feed(Segmenter(SegmentSettings(max_shot_s=2.0)), t, {W: white})
    assert [k for _, k in seen][:2] == ["opened", "closed"]


def _track(t: np.ndarray, xy: np.ndarray, seen: np.ndarray | None = None) -> BallTrack:
    s = np.ones(len(t), bool) if seen is None else seen
    return BallTrack(t, xy, s, np.arange(len(t)))


def test_balls_put_down_by_hand_are_a_placement_not_a_stroke() -> None:
    t = np.arange(0, 2, 1 / FPS)
    xy = _still(len(t), 400, 400, 0.2)
    xy[60:] += [900, 300]  # carried under the hand: gone, then elsewhere
    seen = np.ones(len(t), bool)
    seen[45:60] = False
    assert is_placement({W: _track(t, xy, seen)}, 30.75)


def test_a_rolling_ball_is_not_a_placement() -> None:
    t = np.arange(0, 2, 1 / FPS)
    xy = np.c_[400 + 400 * t, np.full(len(t), 400.0)]
    assert not is_placement({W: _track(t, xy)}, 30.75)


def test_build_shot_rest_positions_and_paths() -> None:
    t = np.arange(0, 4, 1 / FPS)
    white = np.c_[np.clip(500 + 800 * (t - 1), 500, 1300), np.full(len(t), 400.0)]
    red = _still(len(t), 2000, 700, 0.2)
    yellow = _still(len(t), 1000, 1000, 0.2)
    tracks = {W: _track(t, white), R: _track(t, red), Y: _track(t, yellow)}
    off = ScoredEvent(OffTable(t_s=2.5, ball=Y), 0.9, "vanished over the rail")
    hit = ScoredEvent(BallContact(t_s=1.5, balls=(W, R)), 1.0, "test")
    shot = build_shot(3, W, (1.0, 2.0), tracks, [hit, off], path_step_s=0.25)
    assert shot.index == 3 and shot.cue_ball is W
    assert shot.start_positions_mm[W] == pytest.approx((500.0, 400.0), abs=0.5)
    assert shot.end_positions_mm[W] == pytest.approx((1300.0, 400.0), abs=0.5)
    assert Y not in shot.end_positions_mm  # it left the table
    assert shot.start_positions_mm[R] == pytest.approx((2000.0, 700.0), abs=0.3)
    assert [round(p[0], 2) for p in shot.paths_mm[W]] == [1.0, 1.25, 1.5, 1.75, 2.0]
    assert shot.paths_mm[W][2][1] == pytest.approx(900.0, abs=0.5)
    assert shot.events == (hit.event, off.event)


def test_rest_position_without_samples_in_the_window_takes_the_nearest_seen() -> None:
    t = np.arange(0, 1, 0.1)
    xy = np.c_[np.arange(10.0), np.zeros(10)]
    seen = np.zeros(10, bool)
    seen[2] = True
    assert rest_position(_track(t, xy, seen), 0.8, 0.9) == (2.0, 0.0)
    assert rest_position(_track(t, xy, np.zeros(10, bool)), 0.0, 1.0) is None
