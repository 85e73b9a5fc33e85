"""``carom calibrate`` as an installer runs it: real files, real frames, clear errors."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import Camera, TableGeometry, load_calibration
from tests.calibration.test_checkerboard import HARD, PATTERN, SQUARE_MM, boards
from tests.calibration.test_fit import render, surface_errors_mm
from tests.carom.cli._in_process import carom_in_process
from tests.carom.cli._no_table import floor, half_table, write_clip
from tests.carom.cli.test_score import _carom, _one_line_error

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


def test_calibrate_a_sample_video_writes_file_overlay_and_report(tmp_path: Path) -> None:
    out = tmp_path / "cal.json"
    done = _carom("calibrate", str(SAMPLE), "--out", str(out), "--frame", "30")
    assert done.returncode == 0, done.stderr  # good
    assert "verdict: good (confidence" in done.stdout and "rms mm" in done.stdout
    assert done.stderr == ""
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
    # Four corners fit any lens: their residual says nothing, the fit is at best doubtful
    # (the README's table.jpg reported 0.5 mm and good while 21 mm off).
    assert done.returncode == 3, done.stderr
    assert "verdict: doubtful: corners only: 4 marked points fit any lens" in done.stdout
    assert done.stderr.strip().endswith("if they do not, mark diamonds too (--diamonds "
                                        "'i:u,v;j:u,v', docs/calibration.md), or give the "
                                        "lens (--checkerboard pictures of a printed board, "
                                        "docs/calibration.md)")  # fmt: skip
    saved = json.loads(out.read_text())
    assert saved["method"] == "manual" and saved["residuals"]["confidence"] <= 0.5


def test_a_table_size_the_balls_deny_is_written_and_exits_3(tmp_path: Path) -> None:
    """The sample's match table calibrated as 2100 x 1050: the outline fits (a good
    fit), but the balls look 0.74 times the size that table gives them."""
    out = tmp_path / "cal.json"
    done = _carom("calibrate", str(SAMPLE), "--out", str(out), "--frame", "30",
                  "--table", "2100x1050")  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert "verdict: good" in done.stdout and out.is_file()
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("carom: table size doubtful: the balls look 0.7"), line
    assert "(match: 2840x1420" in line and "(--table, then calibrate again)" in line


def failed_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one stderr line of a failed calibration (exit status 4), no traceback."""
    assert done.returncode == 4, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("picture", "needle"),
    [
        (lambda: np.full((360, 640, 3), 128, np.uint8), "no table found"),
        (floor, "calibration failed: "),
        (half_table, "calibration failed"),
    ],
    ids=["grey", "floor", "half out of the picture"],
)
def test_a_frame_without_a_whole_table_fails_with_the_way_out(
    tmp_path: Path, picture: Callable[[], np.ndarray], needle: str
) -> None:
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), picture())
    out = tmp_path / "x.json"
    line = failed_line(_carom("calibrate", str(image), "--out", str(out)))
    assert needle in line and "calibration failed" in line
    assert f"carom calibrate {image} --corners 'u,v;u,v;u,v;u,v' --out {out}" in line
    assert "--interactive" in line
    assert not out.exists()


def test_a_video_without_a_table_names_the_frame_and_the_wizard(tmp_path: Path) -> None:
    clip = write_clip(tmp_path / "floor.mp4", floor())
    line = failed_line(_carom("calibrate", str(clip), "--out", str(tmp_path / "x.json")))
    assert f"carom calibrate {clip} --frame 30 --corners" in line
    assert f"carom serve --camera {clip}, then http://127.0.0.1:8765/wizard" in line
    assert not (tmp_path / "x.json").exists()


def test_a_doubtful_fit_is_written_and_exits_3(tmp_path: Path) -> None:
    """Corners right, two diamonds marked 3 px off: a few mm of residual."""
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    cam = Camera.from_dict(truth["camera"])
    geometry = TableGeometry()
    corners = cam.project(np.c_[geometry.corners_mm(), np.zeros(4)])
    index = [2, 6, 11, 15, 19, 22]
    diamonds = cam.project(geometry.diamonds_xyz_mm()[index])
    diamonds[1] += [3.0, 0.0]
    diamonds[4] += [0.0, 3.0]
    marked = ";".join(f"{i}:{u:.2f},{v:.2f}" for i, (u, v) in zip(index, diamonds, strict=True))
    out = tmp_path / "doubt.json"
    done = _carom(
        "calibrate", str(SAMPLE), "--frame", "30", "--out", str(out),
        "--corners", ";".join(f"{u:.2f},{v:.2f}" for u, v in corners),
        "--diamonds", marked,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert "verdict: doubtful: refit lens" in done.stdout
    overlay = tmp_path / "doubt_overlay.png"
    assert out.is_file() and overlay.is_file()
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "calibration doubtful" in lines[0] and str(overlay) in lines[0]
    assert 0.0 < load_calibration(out).residuals["confidence"] < 0.8


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
    media = args[1] == "/no/such.mp4"  # unreadable media: exit 5, else bad input: 2
    assert needle in _one_line_error(carom_in_process(*args), status=5 if media else 2)


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


@pytest.mark.parametrize(
    ("corners", "why"),
    [
        ("218,97;1050,187;1003,600;180,510", "check corners (confidence 0."),  # a few px off
        ("218,97;180,510;1003,600;1050,187", "no camera sees a table"),  # counter-clockwise
    ],
    ids=["off", "order"],
)
def test_a_failed_fit_to_marked_corners_says_to_check_them_not_to_mark_them(
    tmp_path: Path, corners: str, why: str
) -> None:
    """It said "to mark the corners by hand: carom calibrate ... --corners" to someone who
    had just given --corners, and never which order they go in."""
    picture = Path(__file__).parents[3] / "examples" / "table.jpg"
    done = carom_in_process("calibrate", str(picture), "--corners", corners,
                            "--out", str(tmp_path / "t.json"))  # fmt: skip
    line = _one_line_error(done, status=4)
    assert why in line and "to mark the corners by hand" not in line, line
    assert (
        "check the marked corners: where the cloth meets the cushions, clockwise from "
        "the top left in the picture (and the diamonds' indices, if marked)"
    ) in line
    # Right corners fail too through a bent lens (a review as an installer marked the
    # real frame's right corners and was told to check them): the way on is the lens.
    assert line.endswith("mark six diamonds or more too (--diamonds), or give the lens "
                         "(--checkerboard)")  # fmt: skip
    assert not (tmp_path / "t.json").exists()


def test_the_7_pin_discipline_calibrates_its_pyramid_table_without_table(tmp_path: Path) -> None:
    """It wrote a 2840 mm table with pockets, a table that does not exist, which carom
    analyze --discipline pin-carom-7 then refused (found by a review as an installer)."""
    out = tmp_path / "pyramid.json"
    clip = SAMPLE.with_name("seven_pins_match.mp4")
    done = _carom("calibrate", str(clip), "--discipline", "pin-carom-7", "--frame", "30",
                  "--out", str(out))  # fmt: skip
    assert done.returncode in (0, 3), done.stdout + done.stderr  # written: good or doubtful
    geometry = load_calibration(out).geometry
    assert (geometry.table.length_mm, geometry.table.width_mm, geometry.pockets) == (
        3550.0, 1775.0, True,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("given", "advice", "way"),
    [
        ({"diamonds": "2:1,1"}, "check corners", "mark more diamonds, or give the lens"),
        ({"corners": "1,1;2,1;2,2;1,2"}, "check corners", "mark diamonds too (--diamonds"),
        ({}, "refit lens", "give the lens (--checkerboard"),
        ({}, "check corners", "mark the corners with --corners or --interactive"),
    ],
)  # fmt: skip
def test_a_doubtful_fit_s_way_on_fits_what_was_given(
    given: dict[str, str], advice: str, way: str
) -> None:
    """It said "mark diamonds too" to someone who had marked 22, and "mark the corners"
    for a lens to refit (found by a review as an installer)."""
    import argparse

    from carom.cli._calibrate import _doubtful_way_on

    args = argparse.Namespace(**{"corners": None, "diamonds": None, "interactive": False,
                                 **given})  # fmt: skip
    assert _doubtful_way_on(args, advice).startswith(way)
