"""The manual fit: marked corners, marked diamonds and a fixed lens."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import CalibrationError, Camera, fit_from_points
from calibration._geometry import TableGeometry
from referee import MATCH_TABLE
from synth import CameraSettings
from tests.calibration.test_fit import surface_errors_mm

GEOMETRY = TableGeometry()
# Two on each long rail, the middle one of each short rail: spread round the table.
DIAMONDS = [2, 6, 11, 15, 19, 22]


def _camera(height_m: float, tilt_deg: float, k1: float = 0.0) -> Camera:
    settings = CameraSettings(
        width_px=1280, height_px=720, height_m=height_m, tilt_deg=tilt_deg, k1=k1
    )
    return settings.camera(MATCH_TABLE)


def _marks(camera: Camera, seed: int, noise_px: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """Corners (4, 2) and diamond rows (6, 3) [index, u, v] as a person marks them."""
    rng = np.random.default_rng(seed)
    corners = camera.project(np.c_[GEOMETRY.corners_mm(), np.zeros(4)])
    dia = camera.project(GEOMETRY.diamonds_xyz_mm()[DIAMONDS])
    corners += rng.normal(0.0, noise_px, corners.shape)
    dia += rng.normal(0.0, noise_px, dia.shape)
    return corners, np.c_[DIAMONDS, dia]


def _rms(errors: np.ndarray) -> float:
    return float(np.sqrt(np.mean(errors**2)))


@pytest.mark.parametrize(
    ("height_m", "tilt_deg", "k1"), [(2.2, 15.0, 0.0), (2.2, 15.0, -0.1), (3.0, 0.0, -0.06)]
)
def test_marked_diamonds_fix_the_height_the_corners_cannot(
    height_m: float, tilt_deg: float, k1: float
) -> None:
    camera = _camera(height_m, tilt_deg, k1)
    height_err, rms_corners, rms_diamonds = [], [], []
    for seed in range(5):  # five people marking with 0.5 px noise
        corners, dia = _marks(camera, seed)
        alone = fit_from_points(camera.size_px, {"corners": corners.tolist()})
        both = fit_from_points(
            camera.size_px, {"corners": corners.tolist(), "diamonds": dia.tolist()}
        )
        assert both.n_diamonds == 6
        height_err.append(abs(both.camera.pose.height_mm / camera.pose.height_mm - 1.0))
        rms_corners.append(_rms(surface_errors_mm(camera, alone.camera)))
        rms_diamonds.append(_rms(surface_errors_mm(camera, both.camera)))
    # Face-on, the 42 mm rail height gives only a few pixels of parallax: 0.5 px of
    # noise moves the height by a few per cent there; tilted, well under 2%.
    limit = 0.02 if tilt_deg else 0.06
    assert np.median(height_err) < limit, height_err
    assert max(height_err) < 2.0 * limit, height_err
    assert np.mean(rms_diamonds) < np.mean(rms_corners), (rms_diamonds, rms_corners)
    assert max(rms_diamonds) < 2.0, rms_diamonds


def test_diamonds_tell_which_corner_is_which() -> None:
    camera = _camera(2.2, 15.0)
    corners, dia = _marks(camera, 0, noise_px=0.0)
    for shift in range(4):  # marking may start at any corner
        marked = {"corners": np.roll(corners, shift, axis=0).tolist(), "diamonds": dia.tolist()}
        fit = fit_from_points(camera.size_px, marked)
        assert np.abs(surface_errors_mm(camera, fit.camera)).max() < 0.5


def test_a_fixed_lens_takes_the_distortion_out_of_marked_corners() -> None:
    camera = _camera(2.5, 10.0, k1=-0.2)
    corners, dia = _marks(camera, 0, noise_px=0.0)
    lens = (camera.intrinsics, camera.distortion)
    plain = fit_from_points(camera.size_px, {"corners": corners.tolist()})
    fixed = fit_from_points(camera.size_px, {"corners": corners.tolist()}, lens=lens)
    both = fit_from_points(
        camera.size_px, {"corners": corners.tolist(), "diamonds": dia.tolist()}, lens=lens
    )
    assert fixed.camera.distortion == camera.distortion
    assert _rms(surface_errors_mm(camera, fixed.camera)) < 0.5 * _rms(
        surface_errors_mm(camera, plain.camera)
    )
    assert abs(both.camera.pose.height_mm / camera.pose.height_mm - 1.0) < 0.001


@pytest.mark.parametrize(
    ("rows", "needle"),
    [
        ([[24, 10.0, 10.0]], r"index 24 is not a diamond; use 0..23"),
        ([[1.5, 10.0, 10.0]], r"index 1.5 is not a diamond"),
        ([[3, 10.0, 10.0], [3, 12.0, 10.0]], r"a diamond is marked twice"),
        ([[3, 10.0]], r"marked.diamonds"),
    ],
)
def test_bad_diamond_marks_are_clear_errors(rows: list[list[float]], needle: str) -> None:
    corners = [[100.0, 100.0], [900.0, 100.0], [900.0, 500.0], [100.0, 500.0]]
    with pytest.raises(CalibrationError, match=needle):
        fit_from_points((960, 540), {"corners": corners, "diamonds": rows})


def test_corners_that_are_not_numbers_are_one_calibration_error() -> None:
    """A string or ragged rows were numpy's ValueError from deep inside."""
    for corners in ("1,2;3,4", [[1, 2], [3]], None):
        with pytest.raises(CalibrationError, match=r"marked.corners: expected \(n, 2\)"):
            fit_from_points((1280, 720), {"corners": corners})  # type: ignore[dict-item]
