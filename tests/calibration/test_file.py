"""The calibration file: round trip, one-line refusals, parallax-corrected mapping."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration import (
    Calibration,
    CalibrationError,
    CalibrationMethod,
    Camera,
    Distortion,
    TableGeometry,
    load_calibration,
    save_calibration,
)

PROPS = settings(max_examples=60, deadline=None)


def calib(width_px: int = 1280, height_px: int = 720) -> Calibration:
    cam = Camera.overhead(width_px=width_px, height_px=height_px, tilt_deg=8.0, yaw_deg=3.0,
                          distortion=Distortion(-0.2, 0.05, 0.001, -0.001))  # fmt: skip
    residuals = {"rms_px": 0.4, "max_mm": 1.5, "n_points": 962, "head_n_points": 40.0}
    return Calibration(TableGeometry(), cam, "2026-11-29T20:00:00+00:00",
                       CalibrationMethod.MANUAL, residuals)  # fmt: skip


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data))
    return path


def test_round_trip(tmp_path: Path) -> None:
    original = calib()
    path = tmp_path / "cal.json"
    save_calibration(path, original)
    loaded = load_calibration(path, expect_size_px=(1280, 720))
    assert loaded == original
    doc = json.loads(path.read_text())
    assert doc["format"] == "carom-calibration/1" and doc["method"] == "manual"
    assert doc["image_size_px"] == [1280, 720] and doc["camera"]["format"] == "carom-camera/1"
    # Counts are whole in the file ("n_points": 962.0 before), the rest numbers as fitted.
    assert '"n_points": 962,' in path.read_text() and doc["residuals"]["head_n_points"] == 40
    assert doc["residuals"]["rms_px"] == 0.4


def bad_cases() -> list[tuple[str, Any, str]]:
    good = calib().to_dict()
    no_pose_x = json.loads(json.dumps(good))
    del no_pose_x["camera"]["pose"]["x_mm"]
    return [
        ("format", good | {"format": "foo"}, r"not a carom-calibration/1 file \(format 'foo'\)"),
        ("no format", {}, r"not a carom-calibration/1 file \(no format\); give the file carom "),
        ("no table", {k: v for k, v in good.items() if k != "table"}, r"table: missing$"),
        ("no pose x", no_pose_x, r"camera\.pose\.x_mm: missing$"),
        ("method", good | {"method": "guess"}, r"method: 'guess' is not one of: auto, manual"),
        ("created", good | {"created": "yesterday"}, r"created: expected an ISO 8601 date"),
        ("size", good | {"image_size_px": [640, 360]}, r"image_size_px \[640, 360\] differs"),
        ("residual", good | {"residuals": {"rms_px": "low"}}, r"residuals\.rms_px: expected a"),
        ("extra", good | {"colour": 1}, r"colour: unknown field$"),
        ("list", [1, 2], r"expected a JSON object, got list$"),
    ]


@pytest.mark.parametrize(("case", "data", "message"), bad_cases(), ids=lambda c: str(c)[:12])
def test_bad_files_get_one_line_naming_the_problem(
    tmp_path: Path, case: str, data: Any, message: str
) -> None:
    path = write(tmp_path, data)
    with pytest.raises(CalibrationError, match=f"^calibration file {path}: {message}") as err:
        load_calibration(path)
    assert "\n" not in str(err.value)


def test_bad_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{\n  "format": "carom-calibration/1",\n  "table" {}\n}')
    with pytest.raises(CalibrationError, match=r"not valid JSON \(line 3 column 11: Expecting"):
        load_calibration(path)


def test_missing_file_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="not found; run carom calibrate"):
        load_calibration(tmp_path / "none.json")


def test_size_mismatch_with_the_video(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    save_calibration(path, calib(width_px=1920, height_px=1080))
    want = (
        f"calibration file {path}: image size 1920x1080 does not match the video's 1280x720; "
        "re-run carom calibrate on this camera"
    )
    with pytest.raises(CalibrationError) as err:
        load_calibration(path, expect_size_px=(1280, 720))
    assert str(err.value) == want


def test_unwritable_path_is_named(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cannot write"):
        save_calibration(tmp_path / "no" / "dir.json", calib())


def test_shapes_are_checked() -> None:
    with pytest.raises(CalibrationError, match=r"uv_px: expected \(n, 2\), got \(3,\)"):
        calib().px_to_mm(np.zeros(3))


CAL = calib()
xs = st.floats(0.0, 2840.0)
ys = st.floats(0.0, 1420.0)


@PROPS
@given(x=xs, y=ys, h=st.floats(0.0, 80.0))
def test_a_point_at_height_h_unprojected_at_h_lands_where_it_was(
    x: float, y: float, h: float
) -> None:
    uv = CAL.mm_to_px(np.array([[x, y]]), h)
    back = CAL.px_to_mm(uv, h)
    assert np.abs(back - [x, y]).max() < 1e-6


@PROPS
@given(u=st.floats(100.0, 1180.0), v=st.floats(80.0, 640.0), h=st.sampled_from([0.0, 30.75]))
def test_px_mm_px_round_trip(u: float, v: float, h: float) -> None:
    xy = CAL.px_to_mm(np.array([[u, v]]), h)
    assert np.abs(CAL.mm_to_px(xy, h) - [u, v]).max() < 1e-6


def test_ignoring_ball_height_misplaces_a_ball_near_the_cushion() -> None:
    uv = CAL.mm_to_px(np.array([[40.0, 40.0]]), CAL.geometry.radius_mm)
    on_cloth = CAL.px_to_mm(uv, 0.0)
    at_centre = CAL.px_to_mm(uv, CAL.geometry.radius_mm)
    assert np.abs(at_centre - [40.0, 40.0]).max() < 1e-6
    assert float(np.hypot(*(on_cloth - [40.0, 40.0])[0])) > 10.0  # over a centimetre


def test_a_path_that_is_not_a_path_is_one_calibration_error() -> None:
    with pytest.raises(CalibrationError, match="calibration file: expected a path, got NoneType"):
        load_calibration(None)  # type: ignore[arg-type]


def test_a_calibration_s_residuals_are_read_only_and_a_height_is_a_finite_number() -> None:
    """``cal.residuals["rms_px"] = 99`` changed a frozen value; a NaN height gave all-NaN
    points without a word (found by a review as a library user)."""
    import math

    from calibration import CalibrationError

    cal = calib()
    with pytest.raises(TypeError, match="part of a frozen value"):
        cal.residuals["rms_px"] = 99.0  # type: ignore[index]
    pts = np.array([[100.0, 200.0]])
    for bad in (math.nan, math.inf, "x"):
        with pytest.raises(CalibrationError, match="z_mm: expected a finite height in mm"):
            cal.px_to_mm(pts, bad)  # type: ignore[arg-type]
        with pytest.raises(CalibrationError, match="z_mm: expected a finite height in mm"):
            cal.mm_to_px(pts, bad)  # type: ignore[arg-type]
    assert np.isfinite(cal.px_to_mm(cal.mm_to_px(pts, 30.75), 30.75)).all()


@pytest.mark.parametrize("size", ["x", (1280,), (1280.0, 720), (0, 720)])
def test_an_expected_size_that_is_no_size_is_one_line(tmp_path: Path, size: object) -> None:
    """``expect_size_px="x"`` was an IndexError from inside (found by a review as a library
    user)."""
    from calibration import CalibrationError, load_calibration, save_calibration

    path = tmp_path / "cal.json"
    save_calibration(path, calib())
    with pytest.raises(CalibrationError, match=r"expect_size_px: expected \(width, height\)"):
        load_calibration(path, expect_size_px=size)  # type: ignore[arg-type]
