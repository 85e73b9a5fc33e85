"""Reusing the refinement of a ball at rest: only while its pixels stay the same."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision._types import U8
from vision.detect._still_cache import _BLOCK_TOL, RepeatCache, StillCache, _blocks

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


def test_a_well_averaged_ball_is_refined_again_one_frame_in_sixteen() -> None:
    cache: StillCache[float] = StillCache(_same, _mean)
    asked = []
    for frame in range(80):
        image = _ball(40.0, 40.0, frame)
        if cache.get(BOX, image) is None:
            asked.append(frame)
            cache.put(BOX, image, 40.0 + 0.01 * (frame % 3))
    # three to settle, then one in four until the mean holds eight, then one in sixteen
    assert asked == [0, 1, 2, 6, 10, 14, 18, 22, 38, 54, 70]


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


def _settled(cache: StillCache[float]) -> None:
    for seed in range(3):
        cache.put(BOX, _ball(40.0, 40.0, seed), 40.0)


def _with_block(image: U8, row: int, col: int, levels: float) -> U8:
    """``image`` with one 4 x 4 block brightened by ``levels`` (an encoder's re-quantising)."""
    out = image.astype(np.float64)
    out[row * 4 : row * 4 + 4, col * 4 : col * 4 + 4] += levels
    return np.clip(out, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(("row", "col"), [(10, 10), (5, 10), (10, 15), (14, 6)])
def test_a_block_of_noise_beyond_the_tolerance_is_no_movement(row: int, col: int) -> None:
    """One block 18 levels brighter, on the ball, its rim or the cloth: reused."""
    cache: StillCache[float] = StillCache(_same, _mean)
    _settled(cache)
    noisy = _with_block(_ball(40.0, 40.0, 7), row, col, 18.0)
    change = cv2.absdiff(_blocks(noisy), _blocks(_ball(40.0, 40.0, 0))).max()
    assert change > _BLOCK_TOL  # the block test alone refined it again
    assert cache.get(BOX, noisy) == 40.0


@pytest.mark.parametrize("angle_deg", [0.0, 30.0, 45.0, 90.0, 200.0])
def test_a_small_movement_is_seen_even_under_the_noise_tolerance(angle_deg: float) -> None:
    """A ball moved 0.2-0.3 px changes its rim blocks 13-20 levels: refined again."""
    cache: StillCache[float] = StillCache(_same, _mean)
    _settled(cache)
    for step in (0.2, 0.3, 0.5):
        a = math.radians(angle_deg)
        moved = _ball(40.0 + step * math.cos(a), 40.0 + step * math.sin(a), 7)
        change = cv2.absdiff(_blocks(moved), _blocks(_ball(40.0, 40.0, 0))).max()
        if change > _BLOCK_TOL:  # what the block test alone would also refine
            assert cache.get(BOX, moved) is None, step


def test_a_change_beyond_the_noise_tolerance_is_refined_again() -> None:
    cache: StillCache[float] = StillCache(_same, _mean)
    _settled(cache)
    assert cache.get(BOX, _with_block(_ball(40.0, 40.0, 7), 2, 3, 30.0)) is None


def test_a_flat_box_has_no_movement_to_measure_and_is_refined_again() -> None:
    cache: StillCache[float] = StillCache(_same, _mean)
    flat = np.full((80, 80, 3), 120, np.uint8)
    for _ in range(3):
        cache.put(BOX, flat, 1.0)
    assert cache.get(BOX, flat) == 1.0
    assert cache.get(BOX, _with_block(flat, 3, 3, 18.0)) is None
