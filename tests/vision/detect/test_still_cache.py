"""Reusing the refinement of a ball at rest: only while its pixels stay the same."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision._types import U8
from vision.detect._still_cache import RepeatCache, StillCache

BOX = (10, 10, 30, 30)


def _ball(u: float, v: float, seed: int) -> U8:
    """A 80 x 80 cloth with a white ball of radius 18 px at (u, v), sub-pixel, noisy."""
    yy, xx = np.mgrid[0:80, 0:80].astype(np.float64)
    cover = np.clip(18.5 - np.hypot(xx - u, yy - v), 0.0, 1.0)[..., None]
    cloth, white = np.array([150.0, 90.0, 20.0]), np.array([235.0, 235.0, 235.0])
    noise = np.random.default_rng(seed).normal(0.0, 3.0, (80, 80, 3))
    return np.clip(cloth + cover * (white - cloth) + noise, 0, 255).astype(np.uint8)


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 0.1


def _mean(mean: float, new: float, n: int) -> float:
    return (mean * n + new) / (n + 1)


def test_reused_only_after_settling_and_while_unchanged() -> None:
    cache: StillCache[float] = StillCache(_same, _mean)
    for seed in range(3):  # three refinements agreeing settle the result
        assert cache.get(BOX, _ball(40.0, 40.0, seed)) is None
        cache.put(BOX, _ball(40.0, 40.0, seed), 40.0 + 0.01 * seed)
    assert cache.get(BOX, _ball(40.0, 40.0, 9)) == 40.01  # new noise, same ball: the mean
    assert cache.get(BOX, _ball(41.0, 40.0, 9)) is None  # a struck ball moves a pixel
    assert cache.get((11, 10, 31, 30), _ball(40.0, 40.0, 9)) is None  # another box


def test_a_rolling_ball_never_settles() -> None:
    cache: StillCache[float] = StillCache(_same, _mean)
    for i in range(10):
        u = 40.0 + 0.15 * i  # rolling out at 0.15 px a frame
        assert cache.get(BOX, _ball(u, 40.0, i)) is None
        cache.put(BOX, _ball(u, 40.0, i), u)


def test_block_means_average_the_noise_out() -> None:
    still = [cv2.absdiff(_ball(40, 40, 0), _ball(40, 40, s)).max() for s in range(1, 4)]
    assert min(still) > 5  # the raw pixels differ by noise alone
    cache: StillCache[float] = StillCache(_same, _mean)
    for _ in range(3):
        cache.put(BOX, _ball(40.0, 40.0, 0), 40.0)
    reused = [cache.get(BOX, _ball(40.0, 40.0, s)) for s in range(1, 4)]
    assert reused == [40.0, 40.0, 40.0]


def test_every_fourth_frame_is_refined_again_and_averaged_in() -> None:
    cache: StillCache[float] = StillCache(_same, _mean)
    for value in (40.0, 40.03, 40.06):
        cache.put(BOX, _ball(40.0, 40.0, 0), value)
    got = [cache.get(BOX, _ball(40.0, 40.0, s)) for s in range(1, 5)]
    assert got == [pytest.approx(40.03)] * 3 + [None]  # the fourth asks for a refinement
    cache.put(BOX, _ball(40.0, 40.0, 5), 40.07)
    assert cache.get(BOX, _ball(40.0, 40.0, 6)) == pytest.approx(40.04)


def test_repeat_cache_gives_a_result_back_only_for_the_same_bytes() -> None:
    cache: RepeatCache[float] = RepeatCache(max_entries=2)
    image = _ball(40.0, 40.0, 0)
    key = (image.tobytes(), b"blob")
    assert cache.get(BOX, key) is None
    cache.put(BOX, key, 40.0)
    assert cache.get(BOX, (image.tobytes(), b"blob")) == 40.0  # equal bytes, another object
    changed = image.copy()
    changed[40, 40, 0] ^= 1  # one bit of one pixel
    assert cache.get(BOX, (changed.tobytes(), b"blob")) is None
    assert cache.get((11, 10, 31, 30), key) is None  # another box
    cache.put((1, 1, 2, 2), key, 1.0)
    cache.put((3, 3, 4, 4), key, 2.0)  # two entries kept: the oldest goes
    assert cache.get(BOX, key) is None
    assert cache.hits == 1
