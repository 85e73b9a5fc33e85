"""One frame in, a calibration, its report and overlay out: ``calibrate_frame``, ``save_result``."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import (
    Calibration,
    CalibrationError,
    CalibrationMethod,
    CalibrationResult,
    Camera,
    TableGeometry,
    calibrate_frame,
    load_calibration,
    save_result,
)
from referee import MATCH_TABLE, Discipline
from tests.calibration.test_fit import make_camera, render, surface_errors_mm

CAMERA = make_camera(2.8, 8.0, -0.15)
WHEN = "2026-01-02T03:04:05+00:00"


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    return render(CAMERA, "blue")


@pytest.fixture(scope="module")
def auto(frame: np.ndarray) -> CalibrationResult:
    return calibrate_frame(frame, MATCH_TABLE, created=WHEN)


def _marked(camera: Camera, index: list[int]) -> tuple[list[list[float]], list[list[float]]]:
    """The true pixels of the four cloth corners and of diamonds ``index`` (rows i, u, v)."""
    geometry = TableGeometry()
    corners = camera.project(np.c_[geometry.corners_mm(), np.zeros(4)])
    diamonds = camera.project(geometry.diamonds_xyz_mm()[index])
    rows = [[float(i), float(u), float(v)] for i, (u, v) in zip(index, diamonds, strict=True)]
    return corners.tolist(), rows


def test_automatic_fit_reports_the_edges_and_draws_the_overlay(
    frame: np.ndarray, auto: CalibrationResult
) -> None:
    calib = auto.calibration
    assert calib.method is CalibrationMethod.AUTO and calib.created == WHEN
    assert calib.image_size_px == (frame.shape[1], frame.shape[0])
    assert auto.report.overall.n > 100  # the cloth-edge points the fit used
    assert calib.residuals["n_points"] == auto.report.overall.n
    assert auto.overlay_bgr.shape == frame.shape and not np.array_equal(auto.overlay_bgr, frame)
    err = surface_errors_mm(CAMERA, calib.camera)
    assert float(np.sqrt(np.mean(err**2))) < 2.0


def test_marked_corners_and_diamonds_are_the_reported_points(frame: np.ndarray) -> None:
    corners, diamonds = _marked(CAMERA, [2, 6, 11, 15, 19, 22])
    result = calibrate_frame(frame, MATCH_TABLE, corners=corners, diamonds=diamonds)
    assert result.calibration.method is CalibrationMethod.MANUAL
    assert result.calibration.residuals["n_points"] == 10
    assert len(result.report.groups) == 3  # corners, cushions, centre
    assert abs(result.calibration.camera.pose.height_mm / CAMERA.pose.height_mm - 1.0) < 0.05


def test_a_fixed_lens_is_a_checkerboard_calibration(frame: np.ndarray) -> None:
    corners, _ = _marked(CAMERA, [])
    lens = (CAMERA.intrinsics, CAMERA.distortion, 0.04)
    result = calibrate_frame(frame, MATCH_TABLE, corners=corners, lens=lens)
    calib = result.calibration
    assert calib.method is CalibrationMethod.CHECKERBOARD
    assert calib.residuals["lens_rms_px"] == 0.04
    assert calib.camera.intrinsics == CAMERA.intrinsics


def test_diamonds_need_corners(frame: np.ndarray) -> None:
    with pytest.raises(CalibrationError, match="--diamonds needs --corners"):
        calibrate_frame(frame, MATCH_TABLE, diamonds=[[2.0, 100.0, 100.0]])


def test_the_seven_pin_game_has_pockets(frame: np.ndarray) -> None:
    corners, _ = _marked(CAMERA, [])
    result = calibrate_frame(frame, MATCH_TABLE, corners=corners, discipline=Discipline.PIN_CAROM_7)
    assert result.calibration.geometry.pockets


def test_save_result_writes_the_file_and_the_overlay(
    tmp_path: Path, auto: CalibrationResult
) -> None:
    out, overlay = tmp_path / "cal.json", tmp_path / "images" / "cal_overlay.png"
    save_result(auto, out, overlay)
    loaded: Calibration = load_calibration(out, expect_size_px=auto.calibration.image_size_px)
    assert loaded.residuals == auto.calibration.residuals
    image = cv2.imread(str(overlay))
    assert image is not None and np.array_equal(image, auto.overlay_bgr)


def test_an_unwritable_overlay_is_a_calibration_error(
    tmp_path: Path, auto: CalibrationResult
) -> None:
    taken = tmp_path / "overlay.png"
    taken.mkdir()  # a folder where the image should go
    with pytest.raises(CalibrationError, match="cannot write the overlay"):
        save_result(auto, tmp_path / "cal.json", taken)
