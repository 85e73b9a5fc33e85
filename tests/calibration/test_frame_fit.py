"""A calibration checked against a real frame: the renderer's own camera fits, a wrong lens not.

Real OpenCV on the real pixels of the bundled clips (frame 30, as ``carom analyze``).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration import Calibration, CalibrationError, Distortion, frame_fit, tolerance_px
from tests.sample_truth import SAMPLES, sample_truth
from vision import read_frame

CLIPS = ("three_cushion_match", "hard_three_cushion", "five_pins_match", "balkline_47_2",
         "seven_pins_match")  # fmt: skip


def _frame(name: str) -> np.ndarray:
    return np.asarray(read_frame(str(SAMPLES / f"{name}.mp4"), 30), dtype=np.uint8)


def _with_lens(calib: Calibration, k1: float) -> Calibration:
    return Calibration(calib.geometry, replace(calib.camera, distortion=Distortion(k1=k1)),
                       calib.created)  # fmt: skip


@pytest.mark.parametrize("name", CLIPS)
def test_the_clips_own_calibration_fits_and_a_wrong_lens_does_not(name: str) -> None:
    _, calib = sample_truth(name)
    image = _frame(name)
    good = frame_fit(calib, image)
    assert good.fits, good
    assert good.worst_px < 3.5
    bad = frame_fit(_with_lens(calib, 0.5), image)  # the lens of issue 19's report
    assert not bad.fits
    assert bad.worst_px > 5 * bad.tolerance_px


def test_the_issue_lens_k1_0_5_for_minus_0_057_is_caught() -> None:
    _, calib = sample_truth("three_cushion_match")  # k1 -0.06, k2 0.01
    image = _frame("three_cushion_match")
    near = Calibration(calib.geometry, replace(calib.camera, distortion=Distortion(k1=-0.057,
                       k2=0.01)), calib.created)  # fmt: skip
    assert frame_fit(near, image).fits
    fit = frame_fit(_with_lens(near, 0.5), image)
    assert not fit.fits
    assert fit.worst_side in ("left", "right")  # the short cushions, at the picture's edges


def test_the_tolerance_grows_with_the_picture() -> None:
    assert tolerance_px((1280, 720)) == pytest.approx(5.87, abs=0.01)
    assert tolerance_px((1920, 1080)) == pytest.approx(8.81, abs=0.01)
    assert tolerance_px((320, 240)) == 4.0


def test_a_frame_of_another_size_is_refused_not_compared() -> None:
    """A library user comparing a 720p calibration with a 1080p frame got a misfit figure."""
    _, calib = sample_truth("three_cushion_match")
    bigger = cv2.resize(_frame("three_cushion_match"), (1920, 1080))
    with pytest.raises(CalibrationError, match=r"a 1920x1080 frame, but the calibration was "
                       r"fitted to 1280x720 pictures; give a frame of the camera"):  # fmt: skip
        frame_fit(calib, bigger)
    with pytest.raises(CalibrationError, match=r"an array of shape \(1, 720, 1280, 3\), but"):
        frame_fit(calib, _frame("three_cushion_match")[None])  # a batch of one, not a frame
