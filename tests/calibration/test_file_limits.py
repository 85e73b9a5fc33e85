"""The calibration file's limits and its full check: the opencv block, mutations, sizes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from calibration import CALIBRATION_LIMITS, CalibrationError, load_calibration, save_calibration
from tests.calibration.test_file import calib
from tests.carom.match.test_loaders_fuzz import mutations
from tests.fuzz_scale import examples

FAST = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _saved(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "c.json"
    save_calibration(path, calib())
    return path, json.loads(path.read_text())


def _refused(path: Path, data: Any, pattern: str) -> None:
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=pattern) as exc:
        load_calibration(path)
    assert "\n" not in str(exc.value)


REAL = json.dumps(calib().to_dict(), indent=2).encode()


@FAST
@given(mutations(REAL))
def test_a_mutated_calibration_loads_or_gives_one_calibration_error(
    tmp_path: Path, raw: bytes
) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(raw)
    message = ""
    try:
        load_calibration(path)
    except CalibrationError as exc:
        message = str(exc)
    assert "\n" not in message


@pytest.mark.parametrize(
    ("key", "index", "value", "pattern"),
    [
        ("dist_coeffs", (0,), math.nan, r"camera\.opencv\.dist_coeffs: expected finite numbers"),
        ("camera_matrix", (0, 0), 1e400, r"camera_matrix: expected finite numbers"),
        ("dist_coeffs", (0,), 0.5, r"dist_coeffs\[0\]: 0\.5 disagrees with -0\.2 derived"),
        ("rvec", (2,), 3.0, r"camera\.opencv\.rvec\[2\]: 3 disagrees"),
        ("tvec_mm", (1,), True, r"tvec_mm: expected finite numbers, got True"),
    ],
)
def test_the_opencv_block_is_checked(
    tmp_path: Path, key: str, index: tuple[int, ...], value: Any, pattern: str
) -> None:
    path, data = _saved(tmp_path)
    target = data["camera"]["opencv"][key]
    for i in index[:-1]:
        target = target[i]
    target[index[-1]] = value
    _refused(path, data, pattern)


def test_the_opencv_block_shapes_and_entries(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    data["camera"]["opencv"]["camera_matrix"] = [[1.0, 0.0], [0.0, 1.0]]
    _refused(path, data, r"camera_matrix: expected a 3x3 list of numbers")
    path, data = _saved(tmp_path)
    data["camera"]["opencv"]["extra"] = 1
    _refused(path, data, r"camera\.opencv\.extra: unknown entry")
    path, data = _saved(tmp_path)
    del data["camera"]["opencv"]["rvec"]
    _refused(path, data, r"camera\.opencv\.rvec: missing")
    path, data = _saved(tmp_path)
    data["camera"]["opencv"] = [1]
    _refused(path, data, r"camera\.opencv: expected an object")


def test_a_calibration_without_the_opencv_block_loads(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    del data["camera"]["opencv"]
    path.write_text(json.dumps(data))
    assert load_calibration(path).camera == calib().camera


def test_an_unknown_camera_field_is_refused(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    data["camera"]["distorsion"] = data["camera"]["distortion"]
    _refused(path, data, r"camera\.distorsion: unknown field \(allowed: distortion")


def test_non_finite_numbers_are_refused_everywhere(tmp_path: Path) -> None:
    for block, key in [("intrinsics", "fx_px"), ("distortion", "k1"), ("pose", "x_mm")]:
        path, data = _saved(tmp_path)
        data["camera"][block][key] = math.nan
        _refused(path, data, rf"camera\.{block}.*{key}")
    path, data = _saved(tmp_path)
    data["table"]["length_mm"] = math.inf
    _refused(path, data, r"table.*length_mm")
    path, data = _saved(tmp_path)
    data["residuals"]["rms_px"] = math.nan
    _refused(path, data, r"residuals\.rms_px: expected a finite number")


def test_deep_long_and_big_calibration_files_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(b'{"table": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    with pytest.raises(CalibrationError, match=r"calibration file .*c\.json: nested 100001 levels"):
        load_calibration(path)
    path.write_bytes(b'{"table": ' + b"1" * 5000 + b"}")
    with pytest.raises(
        CalibrationError, match=r"more than 30 digits \(1111.*; run carom calibrate"
    ):
        load_calibration(path)
    with path.open("wb") as f:
        f.truncate(CALIBRATION_LIMITS.max_bytes + 1)
    with pytest.raises(CalibrationError, match=r"1\.0 MB, more than the 1\.0 MB"):
        load_calibration(path)
