"""Diamonds on the rails: found on rendered frames, and the height they give real frames."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import detect_table, fit_camera, fit_edges
from calibration._diamonds import diamond_points, grey_image
from calibration._geometry import TableGeometry
from tests.calibration.test_fit import make_camera, render

REAL = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "broadcast_frames"


@pytest.mark.parametrize(
    ("height_m", "tilt_deg", "k1", "cloth"), [(2.2, 15.0, -0.3, "blue"), (2.5, 10.0, -0.2, "green")]
)
def test_diamonds_are_found_on_their_true_projections(
    height_m: float, tilt_deg: float, k1: float, cloth: str
) -> None:
    camera = make_camera(height_m, tilt_deg, k1)
    image = render(camera, cloth)
    xyz = TableGeometry().diamonds_xyz_mm()
    # Predicted by the cloth-edge camera (height unknown), searched in a 2% window.
    predicted = fit_edges(detect_table(image)).camera.project(xyz)
    idx, uv = diamond_points(grey_image(image), predicted, 0.02 * 960, 0.01 * 960)
    assert len(idx) >= 16
    err = np.hypot(*(uv - camera.project(xyz[idx])).T)
    assert err.max() < 1.5, err


def test_no_diamonds_on_a_plain_picture() -> None:
    grey = np.full((540, 960), 90.0, np.float32)
    idx, uv = diamond_points(grey, np.array([[100.0, 100.0], [np.nan, 5.0]]), 19.0, 6.0)
    assert len(idx) == 0 and uv.shape == (0, 2)


@pytest.mark.skipif(not REAL.is_dir(), reason="real broadcast frames not present")
def test_real_frames_get_a_steady_height_from_the_diamonds() -> None:
    heights = []
    for path in sorted(REAL.glob("*.jpg"))[::4]:  # every fourth frame: keep the test fast
        fit = fit_camera(np.asarray(cv2.imread(str(path)), dtype=np.uint8))
        assert fit.n_diamonds >= 8, path.name  # the diamonds set the height
        heights.append(fit.camera.pose.height_mm)
    assert min(heights) >= 2000.0 and max(heights) <= 6000.0, heights
    assert max(heights) / min(heights) < 1.3, heights


@pytest.mark.skipif(not REAL.is_dir(), reason="real broadcast frames not present")
def test_the_real_table_s_diamonds_are_drawn_and_marked_where_they_are() -> None:
    """The fit measured the real table's diamonds 85 mm out from the nose but the file
    kept the model's 125 mm: the overlay and the wizard drew every diamond about 17 px
    out, off the rail, and the diamonds marked where they are fitted no camera."""
    from calibration import calibrate_frame
    from referee import MATCH_TABLE

    image = np.asarray(cv2.imread(str(REAL / "00064.jpg")), dtype=np.uint8)
    auto = calibrate_frame(image, MATCH_TABLE)
    geometry, camera = auto.calibration.geometry, auto.calibration.camera
    assert 75.0 < geometry.diamond_offset_mm < 95.0, geometry
    drawn = camera.project(geometry.diamonds_xyz_mm())
    idx, uv = diamond_points(grey_image(image), drawn, 0.01 * 1920, 0.01 * 1920)
    assert len(idx) >= 16  # found within 19 px of where they are drawn (none before)
    assert float(np.median(np.hypot(*(drawn[idx] - uv).T))) < 2.0
    corners = camera.project(geometry.corners_xyz_mm(0.0)).tolist()
    marked = [[float(i), float(u), float(v)] for i, (u, v) in zip(idx, uv, strict=True)]
    again = calibrate_frame(image, MATCH_TABLE, corners=corners, diamonds=marked,
                            diamond_offset_mm=geometry.diamond_offset_mm)  # fmt: skip
    assert again.calibration.residuals["rms_px"] < 2.0
    assert again.calibration.geometry.diamond_offset_mm == pytest.approx(geometry.diamond_offset_mm)


def test_a_rendered_table_keeps_the_model_s_rails() -> None:
    """Rendered tables measure their 125 mm within half a millimetre: kept as it is."""
    from calibration import calibrate_frame
    from referee import MATCH_TABLE

    picture = Path(__file__).resolve().parents[2] / "examples" / "table.jpg"
    auto = calibrate_frame(np.asarray(cv2.imread(str(picture)), dtype=np.uint8), MATCH_TABLE)
    assert auto.calibration.geometry == TableGeometry(MATCH_TABLE)


def test_corners_and_diamonds_marked_on_a_real_table_fit_its_own_rail() -> None:
    """``carom calibrate --corners --diamonds`` knows no earlier fit: the model's 125 mm
    from the nose to the diamonds fitted no camera to the real table's (85 mm); from six
    diamonds on their offset is fitted too. Fewer say that more would."""
    from calibration import CalibrationError, calibrate_frame
    from referee import MATCH_TABLE

    image = np.asarray(cv2.imread(str(REAL / "00064.jpg")), dtype=np.uint8)
    auto = calibrate_frame(image, MATCH_TABLE)
    geometry, camera = auto.calibration.geometry, auto.calibration.camera
    idx, uv = diamond_points(grey_image(image), camera.project(geometry.diamonds_xyz_mm()),
                             0.01 * 1920, 0.01 * 1920)  # fmt: skip
    corners = camera.project(geometry.corners_xyz_mm(0.0)).tolist()
    marked = [[float(i), float(u), float(v)] for i, (u, v) in zip(idx, uv, strict=True)]
    for n in (len(marked), 6):
        fit = calibrate_frame(image, MATCH_TABLE, corners=corners, diamonds=marked[:n])
        assert fit.report.verdict.value != "failed", (n, fit.report)
        assert fit.calibration.residuals["rms_px"] < 1.5, n
        assert 80.0 < fit.calibration.geometry.diamond_offset_mm < 90.0, n
        drawn = fit.calibration.camera.project(fit.calibration.geometry.diamonds_xyz_mm())
        assert float(np.median(np.hypot(*(drawn[idx] - uv).T))) < 2.0, n
    with pytest.raises(CalibrationError, match="with 6 diamonds or more marked"):
        calibrate_frame(image, MATCH_TABLE, corners=corners, diamonds=marked[:5])
