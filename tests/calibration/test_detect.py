"""Finding the cloth and its edges: rendered frames, real broadcast frames, no table."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import CalibrationError, detect_table, fit_camera
from tests.calibration.test_fit import make_camera, render

REAL = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "broadcast_frames"


@pytest.mark.parametrize(
    ("height_m", "tilt_deg", "k1", "cloth"), [(2.2, 15.0, -0.3, "blue"), (2.5, 10.0, -0.2, "green")]
)
def test_edges_lie_on_the_true_cloth_boundary(
    height_m: float, tilt_deg: float, k1: float, cloth: str
) -> None:
    camera = make_camera(height_m, tilt_deg, k1)
    edges = detect_table(render(camera, cloth))
    true = camera.project(np.array([[0, 0, 0], [2840, 0, 0], [2840, 1420, 0], [0, 1420, 0.0]]))
    # Corners: where the fitted arcs of two sides meet (extrapolated past the points).
    assert (
        np.min(np.hypot(*(edges.corners_px[:, None] - true[None]).transpose(2, 0, 1)), axis=1).max()
        < 4.0
    )
    assert all(len(p) > 60 for p in edges.edges_px)


@pytest.mark.parametrize(
    "image",
    [
        np.full((540, 960, 3), 128, np.uint8),
        np.random.default_rng(0).integers(0, 256, (540, 960, 3), dtype=np.uint8),
    ],
    ids=["grey", "noise"],
)
def test_no_table_is_a_clear_error(image: np.ndarray) -> None:
    with pytest.raises(
        CalibrationError, match=r"no table found: the cloth covers only \d+% of the picture"
    ):
        detect_table(image)


def test_small_cloth_patch_is_no_table() -> None:
    image = np.full((540, 960, 3), 90, np.uint8)
    image[250:290, 460:500] = (200, 120, 30)  # a blue patch: 0.3% of the picture
    with pytest.raises(CalibrationError, match="covers only 0%"):
        detect_table(image)


def test_bad_image_shape_is_named() -> None:
    with pytest.raises(CalibrationError, match=r"image_bgr: expected \(h, w, 3\) uint8"):
        detect_table(np.zeros((10, 10), np.uint8))
    # An empty picture was a ZeroDivisionError, a list an AttributeError.
    with pytest.raises(CalibrationError, match=r"length_mm must be 500\.\.5000, got -5"):
        fit_camera(np.zeros((720, 1280, 3), np.uint8), length_mm=-5)  # it said: no camera fits
    for image in (np.zeros((0, 0, 3), np.uint8), [[1, 2, 3]]):
        with pytest.raises(CalibrationError, match=r"image_bgr: expected (an )?\(h, w, 3\)"):
            fit_camera(image)  # type: ignore[arg-type]


@pytest.mark.skipif(not REAL.is_dir(), reason="real broadcast frames not present")
def test_every_real_broadcast_frame_has_its_table_found() -> None:
    for path in sorted(REAL.glob("*.jpg")):
        image = cv2.imread(str(path))
        edges = detect_table(image)
        w, h = np.ptp(edges.corners_px, axis=0)
        assert w > 0.5 * image.shape[1] and h > 0.4 * image.shape[0], path.name
        assert min(len(p) for p in edges.edges_px) > 80, path.name
