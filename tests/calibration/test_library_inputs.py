"""The calibration package as a library is called: a lens as documented, paths as
strings, maps given a list or a NaN (each was a raw IndexError, AttributeError or
ValueError for a developer using it, or wrote the calibration before failing)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from calibration import (
    Calibration,
    CalibrationError,
    Camera,
    MmToPx,
    PxToMm,
    TableGeometry,
    calibrate_frame,
    save_result,
)
from referee import MATCH_TABLE, Table
from vision import read_frame

SAMPLE = Path(__file__).parents[2] / "sample_videos" / "three_cushion_match.mp4"


@pytest.fixture(scope="module")
def truth() -> Calibration:
    doc = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    return Calibration(TableGeometry(Table()), Camera.from_dict(doc["camera"]), "2026-12-07")


def test_a_lens_given_as_intrinsics_and_distortion_fits_and_saves_by_string_paths(
    truth: Calibration, tmp_path: Path
) -> None:
    lens = (truth.camera.intrinsics, truth.camera.distortion)  # as docs/calibration.md has it
    result = calibrate_frame(read_frame(SAMPLE, 30), MATCH_TABLE, lens=lens)
    assert result.report.verdict in ("good", "usable")
    assert "lens_rms_px" not in result.calibration.residuals  # none given: none recorded
    save_result(result, str(tmp_path / "cal.json"), str(tmp_path / "cal.png"))
    assert (tmp_path / "cal.json").is_file() and (tmp_path / "cal.png").is_file()
    with pytest.raises(CalibrationError, match=r"overlay is a picture; give a name ending \.png"):
        save_result(result, tmp_path / "b.json", tmp_path / "b.json.txt")
    assert not (tmp_path / "b.json").exists()  # refused before anything was written


def test_the_fast_maps_take_lists_and_nan_and_refuse_a_bad_step(truth: Calibration) -> None:
    r_mm = truth.geometry.radius_mm
    to_px, to_mm = MmToPx(truth, r_mm), PxToMm(truth, r_mm)
    uv = to_px.points([[1420.0, 710.0], [math.nan, 5.0]])  # type: ignore[arg-type]
    assert np.allclose(uv[0], truth.mm_to_px(np.array([[1420.0, 710.0]]), r_mm)[0], atol=0.05)
    assert np.isnan(uv[1]).all()
    assert all(math.isnan(v) for v in to_mm.point(math.nan, 3.0))
    with pytest.raises(CalibrationError, match=r"xy_mm: expected \(k, 2\), got \(2,\)"):
        to_px.points(np.array([1.0, 2.0]))
    with pytest.raises(CalibrationError, match="step_mm must be more than 0"):
        MmToPx(truth, r_mm, step_mm=0)
    with pytest.raises(CalibrationError, match="step_px: expected a whole number of pixels"):
        PxToMm(truth, r_mm, step_px=-1)
