"""``carom synth --table-scene``: a still table of any kind, and calibrate on it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration import load_calibration
from tests.carom.cli.test_score import _carom, _one_line_error


@pytest.mark.parametrize("kind", ["pocket", "oblique"])
def test_a_rendered_table_of_any_kind_calibrates_to_its_true_corners(
    kind: str, tmp_path: Path
) -> None:
    made = _carom("synth", "--table-scene", kind, "--seed", "1", "--out", str(tmp_path))
    assert made.returncode == 0, made.stderr
    truth = json.loads((tmp_path / f"table-{kind}-1.json").read_text())
    assert truth["category"] == kind and len(truth["corners_px"]) == 4
    length_mm, width_mm = truth["table_mm"]
    cal = tmp_path / "cal.json"
    done = _carom(
        "calibrate", str(tmp_path / f"table-{kind}-1.png"),
        "--table", f"{length_mm:.0f}x{width_mm:.0f}", "--out", str(cal),
        "--overlay", str(tmp_path / "overlay.png"),
    )  # fmt: skip
    # 0 good or 3 doubtful (written, with a word of what to check): both go on.
    assert done.returncode in (0, 3), done.stdout + done.stderr
    assert "verdict: good" in done.stdout or "verdict: doubtful" in done.stdout
    fitted = load_calibration(cal)
    corners_mm = np.array(truth["corners_mm"], dtype=np.float64)
    seen_px = fitted.camera.project(np.c_[corners_mm, np.zeros(4)])
    err_px = np.linalg.norm(seen_px - np.array(truth["corners_px"]), axis=1)
    assert float(np.median(err_px)) < 2.0, err_px


def test_an_unknown_table_kind_is_one_line_naming_the_kinds(tmp_path: Path) -> None:
    line = _one_line_error(_carom("synth", "--table-scene", "snooker", "--out", str(tmp_path)))
    assert "--table-scene" in line and "'snooker'" in line and "pocket" in line


def test_calibrate_names_the_disciplines_for_an_unknown_one(tmp_path: Path) -> None:
    picture = tmp_path / "x.png"
    picture.write_bytes(b"")
    line = _one_line_error(_carom("calibrate", str(picture), "--discipline", "seven_pins"))
    assert "--discipline" in line and "pin-carom-7" in line
