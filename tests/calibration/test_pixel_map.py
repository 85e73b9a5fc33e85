"""The grid-sampled pixel maps against the exact projection, on the sample lenses."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration import MmToPx, PxToMm
from tests.sample_truth import sample_truth

NAMES = ("white", "yellow", "red")


def test_px_to_mm_matches_exact_unprojection() -> None:
    truth, calib = sample_truth("hard_three_cushion")  # the strongest lens distortion
    frames = truth["frames"]
    xy = np.array([[f["balls"][n]["xy_mm"] for n in NAMES] for f in frames])
    uv = np.array([[f["balls"][n]["uv_px"] for n in NAMES] for f in frames])
    pts = uv[::7].reshape(-1, 2)
    fast = PxToMm(calib, calib.geometry.radius_mm)(pts)
    exact = calib.px_to_mm(pts, calib.geometry.radius_mm)
    assert np.abs(fast - exact).max() < 0.1  # noise is 0.3 px, about 1 mm
    assert np.abs(fast - xy[::7].reshape(-1, 2)).max() < 0.1


@pytest.mark.parametrize("name", ["three_cushion_match", "hard_three_cushion"])
def test_mm_to_px_matches_the_camera_on_and_off_the_table(name: str) -> None:
    _, calibration = sample_truth(name)
    z_mm = calibration.geometry.radius_mm
    grid = MmToPx(calibration, z_mm)
    g = calibration.geometry
    rng = np.random.default_rng(7)
    on = np.c_[rng.uniform(0, g.length_mm, 500), rng.uniform(0, g.width_mm, 500)]
    off = np.array([[-900.0, 300.0], [g.length_mm + 700.0, -500.0]])  # beyond the grid
    for xy in (on, off):
        err = np.hypot(*(grid.points(xy) - calibration.mm_to_px(xy, z_mm)).T)
        assert float(err.max()) < 0.05  # pixels


def test_calibration_imports_nothing_of_vision() -> None:
    import ast

    root = Path(__file__).resolve().parents[2] / "calibration"
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] != "vision", f"{path.name} imports vision"
            elif isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] != "vision" for a in node.names), path.name
