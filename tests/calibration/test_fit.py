"""Automatic and manual camera fits against rendered frames with known cameras."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from calibration import (
    CalibrationError,
    Camera,
    detect_table,
    fit_camera,
    fit_edges,
    fit_from_points,
)
from referee import MATCH_TABLE, Ball
from synth import (
    CameraSettings,
    PlayerStroke,
    Renderer,
    RenderSettings,
    Scene,
    ScoreGraphic,
    TableLook,
)

R_MM = 30.75


class Still:
    """Balls at rest: one near a cushion, where the player's arm and cue are."""

    def __init__(self, pos: dict[Ball, tuple[float, float]]) -> None:
        self.pos = pos

    def positions_mm(self, t_s: np.ndarray) -> dict[Ball, np.ndarray]:
        n = len(np.atleast_1d(t_s))
        return {b: np.tile(np.array(p, dtype=float), (n, 1)) for b, p in self.pos.items()}


@lru_cache(maxsize=8)  # the detection tests reuse these frames
def render(camera: Camera, cloth: str, players: bool = True, graphic: bool = False) -> np.ndarray:
    """One frame: the yellow ball 9 mm off a cushion, the player striking the white."""
    balls = Still(
        {Ball.WHITE: (2700.0, 600.0), Ball.RED: (1400.0, 700.0), Ball.YELLOW: (500.0, 40.0)}
    )
    score = ScoreGraphic(scores=((0.0, 12, 6),)) if graphic else None
    settings = RenderSettings(seed=1, players=players, score=score)
    scene = Scene(look=TableLook.with_cloth(cloth))
    with np.errstate(invalid="ignore"):  # the renderer's rays that miss every surface
        frame = next(
            iter(
                Renderer(camera, scene, settings).frames(balls, 1, [PlayerStroke(0.0, Ball.WHITE)])
            )
        )
    return frame.image


def surface_errors_mm(true: Camera, fitted: Camera) -> np.ndarray:
    """Distance (n,) mm between true and fitted ball centres over a 100 mm grid."""
    x, y = np.meshgrid(np.linspace(0.0, 2840.0, 29), np.linspace(0.0, 1420.0, 15))
    xyz = np.c_[x.ravel(), y.ravel(), np.full(x.size, R_MM)]
    back = fitted.unproject(true.project(xyz), R_MM)
    return np.hypot(*(back[:, :2] - xyz[:, :2]).T)


def make_camera(height_m: float, tilt_deg: float, k1: float) -> Camera:
    settings = CameraSettings(
        width_px=960, height_px=540, height_m=height_m, tilt_deg=tilt_deg, k1=k1
    )
    return settings.camera(MATCH_TABLE)


@pytest.mark.parametrize(
    ("height_m", "tilt_deg", "k1", "cloth", "graphic"),
    [
        (2.2, 15.0, -0.3, "blue", False),  # low, tilted, strong barrel distortion
        (2.5, 10.0, -0.2, "green", False),
        (2.8, 0.0, 0.0, "blue", False),  # face-on, no distortion: height from the nose line
        (3.5, 5.0, -0.1, "green", False),
        (3.0, 0.0, -0.15, "blue", True),  # a score graphic over the corner
    ],
)
def test_auto_fit_maps_ball_centres_within_2mm_rms(
    height_m: float, tilt_deg: float, k1: float, cloth: str, graphic: bool
) -> None:
    camera = make_camera(height_m, tilt_deg, k1)
    fit = fit_camera(render(camera, cloth, graphic=graphic))
    err = surface_errors_mm(camera, fit.camera)
    assert fit.rms_px < 0.6
    assert abs(fit.camera.pose.height_mm / camera.pose.height_mm - 1.0) < 0.12
    assert np.sqrt(np.mean(err**2)) <= 2.0, err
    assert err.max() <= 5.0


def test_manual_corners_give_the_cloth_plane() -> None:
    camera = make_camera(2.6, 12.0, 0.0)
    corners = camera.project(np.array([[0, 0, 0], [2840, 0, 0], [2840, 1420, 0], [0, 1420, 0.0]]))
    fit = fit_from_points(camera.size_px, {"corners": corners.tolist()}, hfov_deg=45.0)
    x, y = np.meshgrid(np.linspace(0.0, 2840.0, 15), np.linspace(0.0, 1420.0, 8))
    xyz = np.c_[x.ravel(), y.ravel(), np.zeros(x.size)]
    back = fit.camera.unproject(camera.project(xyz), 0.0)
    assert np.abs(back[:, :2] - xyz[:, :2]).max() < 3.0
    assert fit.rms_px < 0.5


def test_cloth_edges_alone_fit_the_picture() -> None:
    camera = make_camera(2.5, 10.0, -0.2)
    fit = fit_edges(detect_table(render(camera, "green")))
    assert fit.rms_px < 0.3
    assert fit.n_points > 400
    assert all(r < 0.5 for r in fit.residuals_px)


def test_manual_needs_four_corners() -> None:
    with pytest.raises(CalibrationError, match=r"marked.corners: expected \(4, 2\), got \(3, 2\)"):
        fit_from_points((960, 540), {"corners": [[0, 0], [1, 0], [1, 1]]})
