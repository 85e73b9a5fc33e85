"""The balls' apparent size against the calibration's: the table's size checked.

Real pixels: the bundled clip's first second (a match table) calibrated as the match
table it is and as a 2100 x 1050 table, the real broadcast frames, and discs drawn with
OpenCV whose radius is known.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import Calibration, calibrate_frame
from referee import Table
from vision import read_frame
from vision.detect import apparent_radius_px, ball_scale

ROOT = Path(__file__).resolve().parents[3]
CLIP = ROOT / "examples" / "one_shot.mp4"
REAL = ROOT.parent / "shared" / "realdata" / "broadcast_frames"


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    """Frames 30, 20 and 10 of the bundled clip: three balls at rest on a match table."""
    return [read_frame(str(CLIP), idx) for idx in (30, 20, 10)]


def _fit(frame: np.ndarray, table: Table) -> Calibration:
    return calibrate_frame(frame, table).calibration


@pytest.mark.parametrize("radius_px", [6.0, 11.5, 20.0])
def test_a_drawn_disc_is_read_at_its_radius(radius_px: float) -> None:
    centre = (100.3, 99.6)
    # Sub-pixel centre and radius (4 fractional bits), anti-aliased: OpenCV's filled
    # disc comes out about half a pixel wider than asked, so its truth is its area's.
    where = (round(centre[0] * 16), round(centre[1] * 16))
    alpha = np.zeros((200, 200), np.uint8)
    cv2.circle(alpha, where, round(radius_px * 16), 255, -1, cv2.LINE_AA, shift=4)
    true_px = float(np.sqrt(alpha.sum() / 255.0 / np.pi))
    image = np.full((200, 200, 3), (40, 110, 30), np.uint8)  # green cloth
    cv2.circle(image, where, round(radius_px * 16), (235, 235, 235), -1, cv2.LINE_AA, shift=4)
    image = cv2.GaussianBlur(image, (0, 0), 0.8)  # the optics
    # The expected radius only says where to look: 20 % off, the edge is still found.
    seen = apparent_radius_px(image, np.array(centre), radius_px * 1.2)
    assert seen == pytest.approx(true_px, abs=0.1)


def test_a_ball_the_colour_of_the_cloth_is_not_read() -> None:
    image = np.full((100, 100, 3), (40, 110, 30), np.uint8)
    cv2.circle(image, (50, 50), 10, (44, 112, 33), -1)
    assert apparent_radius_px(image, np.array([50.0, 50.0]), 10.0) is None


def test_with_the_right_table_the_balls_are_the_calibration_s_size(
    frames: list[np.ndarray],
) -> None:
    scale = ball_scale(_fit(frames[0], Table()), frames)
    assert scale is not None
    assert scale.balls >= 6
    assert scale.ratio == pytest.approx(1.0, abs=0.03)


def test_with_a_smaller_table_given_the_balls_look_smaller_by_the_tables_ratio(
    frames: list[np.ndarray],
) -> None:
    # 2100 x 1050 for a 2840 x 1420 table: the calibration puts the camera closer, so
    # it expects the balls 2840 / 2100 times bigger than they are.
    scale = ball_scale(_fit(frames[0], Table(length_mm=2100.0, width_mm=1050.0)), frames)
    assert scale is not None
    assert scale.ratio == pytest.approx(2100.0 / 2840.0, abs=0.03)


def test_an_empty_table_gives_no_scale(frames: list[np.ndarray]) -> None:
    calib = _fit(frames[0], Table())
    cloth = cv2.medianBlur(frames[0], 31)  # the balls blurred into the cloth
    assert ball_scale(calib, [cloth]) is None
    assert ball_scale(calib, []) is None


@pytest.mark.skipif(not REAL.is_dir(), reason="real broadcast frames not present")
def test_real_broadcast_frames_give_the_match_tables_size() -> None:
    images = [cv2.imread(str(p)) for p in sorted(REAL.glob("*.jpg"))[::6]]
    scale = ball_scale(_fit(images[0], Table()), images)
    assert scale is not None
    assert scale.balls >= 9
    assert scale.ratio == pytest.approx(1.0, abs=0.05)
