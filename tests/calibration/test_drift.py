"""Drift: a bumped camera is noticed, a still one is not, noise does not fool it."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from calibration import Calibration, CalibrationError, Camera, DriftCheck, TableGeometry
from referee import Ball
from synth import Renderer, RenderSettings, Scene, TableLook

# A pinhole camera over a green cloth, turned a little (the report tests use another).
CAL = Calibration(
    TableGeometry(),
    Camera.overhead(width_px=640, height_px=360, hfov_deg=68.0, height_mm=2800.0,
                    tilt_deg=-8.0, yaw_deg=-3.0),
    "2026-11-29",
)  # fmt: skip


class NoBalls:
    """A motion source with an empty table."""

    def positions_mm(self, t_s: np.ndarray) -> Mapping[Ball, np.ndarray]:
        return {}


@cache
def rendered_frame() -> np.ndarray:
    scene = Scene(look=TableLook.with_cloth("green"))
    renderer = Renderer(CAL.camera, scene, RenderSettings.clean())
    image: np.ndarray = next(iter(renderer.frames(NoBalls(), 1))).image
    image.flags.writeable = False
    return image


def shifted(image: np.ndarray, du: float, dv: float) -> np.ndarray:
    h, w = image.shape[:2]
    m = np.array([[1.0, 0.0, du], [0.0, 1.0, dv]])
    out: np.ndarray = cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return out


def noisy(image: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0.0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def check() -> DriftCheck:
    return DriftCheck(rendered_frame(), CAL)


def test_still_frame_has_not_moved(check: DriftCheck) -> None:
    result = check.check(rendered_frame())
    assert not result.moved and result.shift_px < 0.1 and result.reason == ""


def test_five_pixel_roll_is_detected(check: DriftCheck) -> None:
    result = check.check(np.roll(rendered_frame(), 5, axis=1))
    assert result.moved
    assert result.shift_uv_px == pytest.approx((5.0, 0.0), abs=0.3)
    assert re.match(r"camera moved: the table moved [45]\.\d px in the picture \(\+", result.reason)
    assert "re-run carom calibrate" in result.reason


@pytest.mark.parametrize(("du", "dv"), [(3.0, -4.0), (-5.0, 0.0), (0.0, 5.0)])
def test_subpixel_warp_with_noise_is_measured(check: DriftCheck, du: float, dv: float) -> None:
    result = check.check(noisy(shifted(rendered_frame(), du, dv), 6.0, seed=1))
    assert result.moved
    assert result.shift_uv_px == pytest.approx((du, dv), abs=0.4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_noise_and_a_small_shake_are_not_a_move(check: DriftCheck, seed: int) -> None:
    result = check.check(noisy(shifted(rendered_frame(), 1.0, 0.5), 8.0, seed))
    assert not result.moved and result.shift_px < 1.6


def test_a_dark_frame_is_another_picture(check: DriftCheck) -> None:
    result = check.check(np.zeros_like(rendered_frame()))
    assert result.moved and "cloth looks different" in result.reason


def test_it_is_cheap(check: DriftCheck) -> None:
    frame = np.roll(rendered_frame(), 2, axis=0)
    check.check(frame)
    start = time.perf_counter()
    for _ in range(10):
        check.check(frame)
    assert (time.perf_counter() - start) / 10 < 0.02  # a few ms; generous for slow CI


def test_arguments_are_checked() -> None:
    with pytest.raises(CalibrationError, match="threshold_px must be"):
        DriftCheck(rendered_frame(), CAL, threshold_px=0.0)
    with pytest.raises(CalibrationError, match=r"expected \(360, 640, 3\) uint8"):
        DriftCheck(rendered_frame()[:100], CAL)


SAMPLES = Path(__file__).parents[2] / "sample_videos"


def test_balls_rolling_on_a_still_table_are_not_a_move() -> None:
    # The three-cushion sample: the camera never moves, the balls and the arm do. Before
    # the cloth was masked out the check read shifts of up to 560 px between shots here.
    truth = json.loads((SAMPLES / "three_cushion_match.json").read_text())
    calib = Calibration(TableGeometry(), Camera.from_dict(truth["camera"]), "2026-11-30")
    with av.open(str(SAMPLES / "three_cushion_match.mp4")) as container:
        frames = [f.to_ndarray(format="bgr24") for i, f in enumerate(container.decode(video=0))
                  if i == 30 or i % 90 == 0]  # fmt: skip
    check = DriftCheck(frames[1], calib)
    shifts = [check.check(frame).shift_px for frame in frames]
    assert len(shifts) >= 10 and max(shifts) < 2.5
