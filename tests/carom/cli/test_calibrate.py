"""``carom calibrate`` as an installer runs it: real files, real frames, clear errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import Camera, TableGeometry, load_calibration
from tests.calibration.test_checkerboard import HARD, PATTERN, SQUARE_MM, boards
from tests.calibration.test_fit import render, surface_errors_mm
from tests.carom.cli.test_score import _carom, _one_line_error

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


def test_calibrate_a_sample_video_writes_file_overlay_and_report(tmp_path: Path) -> None:
    out = tmp_path / "cal.json"
    done = _carom("calibrate", str(SAMPLE), "--out", str(out), "--frame", "30")
    assert done.returncode == 0, done.stderr
    assert "verdict:" in done.stdout and "rms mm" in done.stdout
    calib = load_calibration(out, expect_size_px=(1280, 720))
    overlay = cv2.imread(str(tmp_path / "cal_overlay.png"))
    assert overlay is not None and overlay.shape == (720, 1280, 3)
    # The fitted camera puts the table centre where the true camera does.
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    true_cam = Camera.from_dict(truth["camera"])
    centre = np.array([[1420.0, 710.0, 30.75]])
    err_px = np.hypot(*(calib.camera.project(centre) - true_cam.project(centre)).T)
    assert float(err_px[0]) < 3.0


def test_marked_corners_fit_when_given(tmp_path: Path) -> None:
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    cam = Camera.from_dict(truth["camera"])
    corners = cam.project(
        np.array([[0, 0, 37], [2840, 0, 37], [2840, 1420, 37], [0, 1420, 37]], float)
    )
    text = ";".join(f"{u:.2f},{v:.2f}" for u, v in corners)
    out = tmp_path / "manual.json"
    done = _carom("calibrate", str(SAMPLE), "--out", str(out), "--corners", text)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["method"] == "manual"


def test_a_frame_without_a_table_is_a_clear_error(tmp_path: Path) -> None:
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((360, 640, 3), 128, np.uint8))
    line = _one_line_error(_carom("calibrate", str(grey), "--out", str(tmp_path / "x.json")))
    assert "no table found" in line
    assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["calibrate", "/no/such.mp4"], "no such file"),
        (["calibrate", str(SAMPLE), "--table", "big"], "--table: expected a preset"),
        (["calibrate", str(SAMPLE), "--corners", "1,2;3"], "--corners: expected 4 points"),
        (["calibrate", str(SAMPLE), "--diamonds", "3:1"], "--diamonds: expected 'i:u,v"),
        (["calibrate", str(SAMPLE), "--diamonds", "3:1,2"], "--diamonds needs --corners"),
        (["calibrate", str(SAMPLE), "--checkerboard", "/no/such/*.png"], "no pictures"),
        (["calibrate", str(SAMPLE), "--checkerboard", "x", "--pattern", "9by6"], "--pattern:"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], needle: str) -> None:
    assert needle in _one_line_error(_carom(*args))


def test_interactive_without_a_display_says_what_to_do(tmp_path: Path) -> None:
    headless = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    line = _one_line_error(_carom("calibrate", str(SAMPLE), "--interactive", env=headless))
    assert "--corners" in line


def test_marked_diamonds_join_the_corners(tmp_path: Path) -> None:
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    cam = Camera.from_dict(truth["camera"])
    geometry = TableGeometry()
    corners = cam.project(np.c_[geometry.corners_mm(), np.zeros(4)])
    index = [2, 6, 11, 15, 19, 22]
    diamonds = np.c_[index, cam.project(geometry.diamonds_xyz_mm()[index])]
    out = tmp_path / "manual.json"
    done = _carom(
        "calibrate", str(SAMPLE), "--out", str(out),
        "--corners", ";".join(f"{u:.2f},{v:.2f}" for u, v in corners),
        "--diamonds", ";".join(f"{i:.0f}:{u:.2f},{v:.2f}" for i, u, v in diamonds),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    calib = load_calibration(out, expect_size_px=(1280, 720))
    assert calib.method == "manual"
    assert calib.residuals["n_points"] == 10  # 4 corners and 6 diamonds in the report
    # The sample's lens bends slightly (k1 = -0.06): fitted from the diamonds.
    assert abs(calib.camera.pose.height_mm / cam.pose.height_mm - 1.0) < 0.01


def test_a_lens_from_checkerboard_pictures(tmp_path: Path) -> None:
    boards_dir = tmp_path / "boards"
    boards_dir.mkdir()
    for i, image in enumerate(boards(HARD)):
        cv2.imwrite(str(boards_dir / f"board{i}.png"), image)
    frame = tmp_path / "table.png"
    cv2.imwrite(str(frame), render(HARD, "blue"))
    out = tmp_path / "cal.json"
    done = _carom(
        "calibrate", str(frame), "--out", str(out), "--checkerboard", str(boards_dir),
        "--pattern", f"{PATTERN[0]}x{PATTERN[1]}", "--square-mm", str(SQUARE_MM),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "lens from checkerboards" in done.stdout
    calib = load_calibration(out, expect_size_px=HARD.size_px)
    assert calib.method == "checkerboard"
    assert calib.residuals["lens_rms_px"] < 0.1
    assert abs(calib.camera.distortion.k1 - HARD.distortion.k1) < 0.01
    err = surface_errors_mm(HARD, calib.camera)
    assert np.sqrt(np.mean(err**2)) < 1.5
