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
