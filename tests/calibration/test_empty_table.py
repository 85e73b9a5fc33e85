"""The empty table from many frames: a player moving over a rail is gone from the median."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration import (
    CalibrationError,
    EmptyTableBuilder,
    Outcome,
    calibrate_frame,
    empty_table,
)
from calibration._empty_table import MOVE_GROW, MOVE_LEVEL, _moved, _rank_value
from referee import MATCH_TABLE, Cushion
from synth import CameraSettings, Renderer, RenderSettings, Scene, TableLook

W, H = 960, 540


class NoBalls:
    """A motion source with an empty table."""

    def positions_mm(self, t_s: np.ndarray) -> dict[object, np.ndarray]:
        return {}


@cache
def clean_table() -> np.ndarray:
    """The empty table (540, 960, 3) rendered with a tilted, slightly bent camera."""
    camera = CameraSettings(width_px=W, height_px=H, height_m=2.8, tilt_deg=8.0, k1=-0.15)
    scene = Scene(look=TableLook.with_cloth("green"))
    renderer = Renderer(camera.camera(MATCH_TABLE), scene, RenderSettings(seed=1, players=False))
    with np.errstate(invalid="ignore"):  # the renderer's rays that miss every surface
        image: np.ndarray = next(iter(renderer.frames(NoBalls(), 1))).image
    image.flags.writeable = False
    return image


def with_player(image: np.ndarray, x_px: int) -> np.ndarray:
    """``image`` with a dark body over the near long cushion at ``x_px`` and a cue."""
    out = image.copy()
    body = np.array([[x_px - 120, H], [x_px + 120, H], [x_px + 90, 380], [x_px - 90, 380]])
    cv2.fillPoly(out, [body.astype(np.int32)], (40, 45, 60))
    cv2.line(out, (x_px, 420), (x_px + 150, 250), (30, 90, 160), 8)
    return out


def walking_player(n: int = 32) -> list[tuple[float, np.ndarray]]:
    """``n`` frames 0.25 s apart; the player walks 30 px a frame along the cushion."""
    return [(0.25 * i, with_player(clean_table(), 100 + 30 * i)) for i in range(n)]


def test_a_player_walking_along_a_rail_is_gone_from_the_median() -> None:
    frames = walking_player()
    empty = empty_table(frames)
    clean = clean_table().astype(np.int16)
    assert np.abs(empty.image_bgr.astype(np.int16) - clean).max() <= 2
    assert empty.n_frames == empty.n_used == 32
    # One frame: the body hides a third of the near cushion's edge; the median: none.
    one = calibrate_frame(frames[10][1], MATCH_TABLE).report
    both = calibrate_frame(empty.image_bgr, MATCH_TABLE).report
    near = [s.cushion for s in both.sides].index(Cushion.RIGHT)
    assert one.sides[near].coverage < 0.8
    assert min(s.coverage for s in both.sides) >= 0.9
    assert both.verdict is Outcome.GOOD


def test_a_ball_rolling_through_is_masked_as_moving_and_gone() -> None:
    clean = clean_table()
    frames = []
    for i in range(12):
        image = clean.copy()
        cv2.circle(image, (200 + 50 * i, 250), 9, (240, 240, 240), -1)
        frames.append((0.25 * i, image))
    builder = EmptyTableBuilder()
    for t_s, image in frames:
        assert builder.offer(image, t_s)
    assert 0.0 < builder.last_moving_share < 0.01  # a ball: the view stays clear
    assert builder.clear_s == pytest.approx(3.0)
    empty = builder.build()
    assert np.abs(empty.image_bgr.astype(np.int16) - clean).max() <= 2
    # Built once: the frames' moving parts were filled in; the same table again, and
    # no more frames taken.
    assert builder.build() is empty
    with pytest.raises(CalibrationError, match="start a new builder"):
        builder.offer(clean, 5.0)
    assert all(image.max() < 255 for _, image in frames)  # the caller's frames untouched


def test_frames_handed_over_are_kept_uncopied_and_give_the_same_table() -> None:
    clean = clean_table()
    frames = []
    for i in range(12):
        image = clean.copy()
        cv2.circle(image, (200 + 50 * i, 250), 9, (240, 240, 240), -1)
        frames.append(image)
    copied, kept = EmptyTableBuilder(), EmptyTableBuilder()
    for i, image in enumerate(frames):
        copied.offer(image.copy(), 0.25 * i)
        assert kept.offer(image, 0.25 * i, handed_over=True)
    assert np.array_equal(kept.build().image_bgr, copied.build().image_bgr)
    # Building filled the moving parts of the very arrays handed over.
    assert any(image.max() == 255 for image in frames)


def test_frames_are_taken_every_quarter_second_until_enough_clear_seconds() -> None:
    builder = EmptyTableBuilder(every_s=0.25, span_s=2.0)
    image = clean_table()
    taken = [builder.offer(image, i / 30.0) for i in range(90)]  # 3 s at 30 fps
    assert sum(taken) == 12  # 0, 0.25 ... 2.75 s
    assert builder.done and builder.clear_s >= 2.0


def test_a_busy_frame_is_left_out_whole() -> None:
    clean = clean_table()
    frames = [(0.25 * i, clean) for i in range(9)]
    frames[4] = (1.0, np.full_like(clean, 20))  # someone in front of the lens
    empty = empty_table(frames)
    assert empty.n_used < empty.n_frames
    assert np.abs(empty.image_bgr.astype(np.int16) - clean).max() <= 2


def test_bad_frames_and_settings_name_the_problem() -> None:
    builder = EmptyTableBuilder()
    with pytest.raises(CalibrationError, match="no frames"):
        builder.build()
    builder.offer(clean_table(), 0.0)
    with pytest.raises(CalibrationError, match="expected"):
        builder.offer(np.zeros((10, 10, 3), np.uint8), 1.0)
    with pytest.raises(CalibrationError, match="every_s"):
        EmptyTableBuilder(every_s=0.0)
    with pytest.raises(CalibrationError, match="max_frames"):
        EmptyTableBuilder(max_frames=1)


@given(st.lists(st.tuples(st.integers(0, 639), st.integers(0, 359), st.integers(0, 60)),
                max_size=6))  # fmt: skip
def test_what_moved_is_widened_as_a_dilation_of_the_whole_picture(
    blobs: list[tuple[int, int, int]],
) -> None:
    """Widened only around what changed, exactly as the whole picture's dilation would be
    (blobs anywhere, at the edges too, or none)."""
    before = np.full((360, 640), 90, np.uint8)
    after = before.copy()
    for x, y, r in blobs:
        cv2.circle(after, (x, y), r, 200, -1)
    mask = (cv2.absdiff(before, after) > MOVE_LEVEL).astype(np.uint8)
    grow = max(round(MOVE_GROW * 640), 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
    assert np.array_equal(_moved(before, after), cv2.dilate(mask, kernel).astype(bool))


@given(
    st.integers(1, 7),
    st.integers(3, 9),
    st.integers(0, 2**32 - 1),
    st.floats(0.0, 1.0),
)
def test_the_rank_shared_out_to_threads_is_the_sorted_value(
    height: int, n: int, seed: int, where: float
) -> None:
    """Any height (one row, fewer rows than threads, odd), any count, any rank: the
    value of that rank in each pixel's sorted values."""
    rng = np.random.default_rng(seed)
    frames = [rng.integers(0, 256, (height, 5, 3), dtype=np.uint8) for _ in range(n)]
    rank = min(int(where * n), n - 1)
    want = np.sort(np.stack(frames), axis=0)[rank]
    assert np.array_equal(_rank_value(frames, rank), want)
