"""Finding any table: rendered scenes of every calibration category, real OpenCV.

Frames from :func:`synth.calibration_scene` at 960x540 (even seeds only: odd seeds
are the benchmark's held-out set). The detected cloth-edge corners are compared with
the true corners on the cloth or at the cushion nose (a side the camera is beyond
shows the nose); a full fit is checked where the detection alone does not settle it
(a wide lens bends the sides past what the corner arcs extrapolate).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from calibration import CalibrationError, Camera, Distortion, detect_table, fit_camera
from referee import MATCH_TABLE, Ball
from synth import CalibrationScene, Renderer, RenderSettings, Scene, TableLook, calibration_scene
from tests.calibration.test_fit import Still

SIZE = (960, 540)


@lru_cache(maxsize=4)
def scene(category: str, seed: int) -> CalibrationScene:
    return calibration_scene(category, seed, SIZE)


def corner_errors_px(found: np.ndarray, sc: CalibrationScene) -> np.ndarray:
    """Per found corner (4,), the distance to the nearest true corner (cloth or nose)."""
    true = np.concatenate([sc.corners_px, sc.nose_corners_px])
    return np.hypot(*(found[:, None] - true[None]).transpose(2, 0, 1)).min(axis=1)


@pytest.mark.parametrize(
    ("category", "seed"),
    [
        ("cloth", 2),  # teal
        ("cloth", 4),  # red, a player in red leaning over the rail
        ("cloth", 8),  # grey: no saturated hue at all
        ("small", 6),  # a red-clothed small table standing on a larger green one
        ("small", 12),  # grey cloth, balkline marks, on a larger green table
        ("small", 4),  # floor lines around a small blue table, camera tilted 25 degrees
        ("pocket", 2),  # pockets, leather jaws, printed markers by the corners
        ("oblique", 0),  # tilted 34 degrees
        ("far", 2),  # the table a fifth of the picture, off-centre
        ("light", 6),  # one half dim, a bright spot: the cloth's corners dark
        ("people", 4),
    ],
)
def test_the_cloth_edges_are_found_on_every_kind_of_table(category: str, seed: int) -> None:
    sc = scene(category, seed)
    edges = detect_table(sc.image_bgr)
    assert np.median(corner_errors_px(edges.corners_px, sc)) < 2.0
    assert corner_errors_px(edges.corners_px, sc).max() < 4.0
    assert all(len(p) > 40 for p in edges.edges_px)


def cloth_errors_mm(fitted: Camera, sc: CalibrationScene) -> np.ndarray:
    """Distance (n,) mm between true and fitted cloth points over a grid."""
    x, y = np.meshgrid(np.linspace(0, sc.table.length_mm, 15), np.linspace(0, sc.table.width_mm, 8))
    xyz = np.c_[x.ravel(), y.ravel(), np.zeros(x.size)]
    back = fitted.unproject(sc.camera.project(xyz), 0.0)
    return np.hypot(*(back[:, :2] - xyz[:, :2]).T)


@pytest.mark.parametrize("seed", [0, 14])
def test_a_wide_lens_is_fitted_to_its_bent_cushions(seed: int) -> None:
    """k1 -0.45 and -0.43 with k2 0.1: k1 alone leaves the edges 0.8 px off; k2 joins."""
    sc = scene("wide", seed)
    fit = fit_camera(sc.image_bgr, length_mm=sc.table.length_mm, width_mm=sc.table.width_mm)
    corners = fit.camera.project(np.c_[sc.corners_mm, np.zeros(4)])
    assert np.hypot(*(corners - sc.corners_px).T).max() < 1.0
    assert fit.camera.distortion.k2 > 0.05
    assert np.median(cloth_errors_mm(fit.camera, sc)) < 1.0


def test_a_far_face_on_camera_gets_its_height_from_the_diamonds() -> None:
    """The cloth edges alone drift to an absurd focal length and height; no error."""
    sc = scene("far", 12)
    fit = fit_camera(sc.image_bgr)
    assert fit.n_diamonds >= 8
    assert abs(fit.camera.pose.height_mm / sc.camera.pose.height_mm - 1.0) < 0.15
    assert np.median(cloth_errors_mm(fit.camera, sc)) < 1.0


@pytest.mark.parametrize(("aim_mm", "edge"), [((0.0, 710.0), "right"), ((1420.0, 0.0), "bottom")])
def test_a_table_half_out_of_the_picture_is_a_clear_error(
    aim_mm: tuple[float, float], edge: str
) -> None:
    camera = Camera.overhead(
        width_px=960, height_px=540, hfov_deg=70.0, height_mm=2600.0, aim_mm=aim_mm,
        distortion=Distortion(-0.1),
    )  # fmt: skip
    settings = RenderSettings(seed=2, players=False)
    renderer = Renderer(camera, Scene(look=TableLook(table=MATCH_TABLE)), settings)
    with np.errstate(invalid="ignore"):
        image = next(iter(renderer.frames(Still({Ball.WHITE: (900.0, 500.0)}), 1, []))).image
    with pytest.raises(
        CalibrationError, match=rf"the table runs out of the picture: the cloth reaches its {edge}"
    ):
        detect_table(image)
