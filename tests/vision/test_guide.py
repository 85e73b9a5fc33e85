"""The guide's windows: predicted centres projected through a grid as the camera would."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_track import _truth
from vision._guide import MmToPx


@pytest.mark.parametrize("name", ["three_cushion_match", "hard_three_cushion"])
def test_grid_projection_matches_the_camera_on_and_off_the_table(name: str) -> None:
    _, calibration = _truth(name)
    z_mm = calibration.geometry.radius_mm
    grid = MmToPx(calibration, z_mm)
    g = calibration.geometry
    rng = np.random.default_rng(7)
    on = np.c_[rng.uniform(0, g.length_mm, 500), rng.uniform(0, g.width_mm, 500)]
    off = np.array([[-900.0, 300.0], [g.length_mm + 700.0, -500.0]])  # beyond the grid
    for xy in (on, off):
        err = np.hypot(*(grid.points(xy) - calibration.mm_to_px(xy, z_mm)).T)
        assert float(err.max()) < 0.05  # pixels
