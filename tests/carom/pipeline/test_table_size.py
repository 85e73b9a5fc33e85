"""The table's size checked against the balls: the line analyze and calibrate give.

Real pixels: the bundled clip's first second, a match table, calibrated as the match
table, as 2100 x 1050 and as 3300 x 1650; the seven-pins clip's pyramid (68 mm balls)
calibrated as a match table; rendered tables at 640x360, where the balls are small.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration import calibrate_frame
from carom.pipeline import (
    SCALE_RANGE,
    SMALL_BALL_PX,
    SMALL_BALL_SCALE_RANGE,
    scale_range,
    table_size_line,
)
from referee import Table
from synth import calibration_scene
from vision import ball_scale, read_frame

CLIP = Path(__file__).resolve().parents[3] / "examples" / "one_shot.mp4"


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    return [read_frame(str(CLIP), idx) for idx in (30, 20, 10)]


def _line(frames: list[np.ndarray], table: Table) -> str | None:
    calib = calibrate_frame(frames[0], table).calibration
    return table_size_line(calib, frames, "--table")


def test_the_right_size_says_nothing(frames: list[np.ndarray]) -> None:
    assert _line(frames, Table()) is None


def test_a_smaller_size_names_the_likely_one_and_the_presets_near_it(
    frames: list[np.ndarray],
) -> None:
    line = _line(frames, Table(length_mm=2100.0, width_mm=1050.0))
    assert line is not None
    assert line.startswith("table size doubtful: the balls look 0.7")
    assert "a 2100x1050 mm table" in line and "(9 ball images)" in line
    length = float(line.split("with 61.5 mm balls the table is about ")[1].split("x")[0])
    assert length == pytest.approx(2840.0, rel=0.03)
    assert "(match: 2840x1420" in line and "pyramid" not in line  # 68 mm balls
    assert "check its size (--table)" in line


def test_a_larger_size_says_the_balls_look_bigger(frames: list[np.ndarray]) -> None:
    line = _line(frames, Table(length_mm=3300.0, width_mm=1650.0))
    assert line is not None
    ratio = float(line.split("the balls look ")[1].split(" times")[0])
    assert ratio == pytest.approx(3300.0 / 2840.0, abs=0.03)
    assert ratio > SCALE_RANGE[1]


def test_frames_without_the_table_say_nothing(frames: list[np.ndarray]) -> None:
    calib = calibrate_frame(frames[0], Table(length_mm=2100.0, width_mm=1050.0)).calibration
    grey = np.full_like(frames[0], 128)
    assert table_size_line(calib, [grey], "--table") is None


def test_a_pyramid_taken_for_a_match_table_names_the_pyramid() -> None:
    """68 mm balls on a 3550 mm table, given as the match table (61.5 mm balls): the
    size implied with the match table's balls is no named size, with the pyramid's
    balls it is the pyramid."""
    clip = CLIP.parents[1] / "sample_videos" / "seven_pins_match.mp4"
    frames = [read_frame(str(clip), idx) for idx in (30, 20, 10)]
    line = _line(frames, Table())
    assert line is not None
    assert "with 61.5 mm balls the table is about 3" in line
    assert "(pyramid: 3550x1775)" in line
    pyramid = Table(length_mm=3550.0, width_mm=1775.0, ball_diameter_mm=68.0)
    assert _line(frames, pyramid) is None


@pytest.mark.parametrize(("category", "seed"), [("far", 3), ("far", 2)])
def test_small_balls_read_small_and_the_right_size_says_nothing(category: str, seed: int) -> None:
    """Rendered at 640x360 (balls of 3.5-5 px radius): their blurred edges read the
    balls 0.88 small on the right table (under 0.9: a false "doubtful" before); under
    ``SMALL_BALL_PX`` the range starts at 0.85, and 2100 for 2840 is still said."""
    scene = calibration_scene(category, seed, (640, 360))
    calib = calibrate_frame(scene.image_bgr, scene.table).calibration
    scale = ball_scale(calib, [scene.image_bgr])
    assert scale is not None and scale.radius_px < SMALL_BALL_PX
    assert SMALL_BALL_SCALE_RANGE[0] < scale.ratio < SCALE_RANGE[0]
    assert table_size_line(calib, [scene.image_bgr], "--table") is None
    t = scene.table
    small = Table(length_mm=t.length_mm * 0.74, width_mm=t.width_mm * 0.74)
    wrong = calibrate_frame(scene.image_bgr, small).calibration
    assert table_size_line(wrong, [scene.image_bgr], "--table") is not None


def test_the_range_is_wider_below_only_for_small_balls() -> None:
    assert scale_range(SMALL_BALL_PX - 0.1) == SMALL_BALL_SCALE_RANGE
    assert scale_range(SMALL_BALL_PX) == SCALE_RANGE
    assert (
        SMALL_BALL_SCALE_RANGE[0] < SCALE_RANGE[0] and SMALL_BALL_SCALE_RANGE[1] == SCALE_RANGE[1]
    )
