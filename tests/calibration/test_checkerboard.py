"""The lens from rendered checkerboard pictures, and the table fit with that lens fixed."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np
import pytest

from calibration import (
    CalibrationError,
    Camera,
    fit_camera,
    fit_lens_from_checkerboards,
)
from referee import MATCH_TABLE
from synth import CameraSettings
from tests.calibration.test_fit import render, surface_errors_mm

PATTERN = (9, 6)  # inner corners: a 10 x 7 board
SQUARE_MM = 40.0
# The lens of the bundled hard clip (strong barrel distortion, k2, tangential terms),
# at 960 x 540: the automatic fit models k1 only.
HARD = CameraSettings(
    width_px=960, height_px=540, height_m=2.3, tilt_deg=6.0, roll_deg=3.0,
    k1=-0.3, k2=0.09, p1=0.002, p2=-0.0015,
).camera(MATCH_TABLE)  # fmt: skip
# Board poses: (height mm, aim offset x mm, y mm, yaw, tilt, roll deg): face-on, tilted
# both ways, and the board moved to each quarter of the picture, where the lens bends.
POSES = [
    (520, 0, 0, 0, 0, 0), (480, 0, 0, 10, 25, 0), (480, 0, 0, -20, -25, 5),
    (650, 300, 140, 0, 8, 0), (650, -300, -140, 0, -8, 0), (650, 300, -140, 5, 0, 10),
    (650, -300, 110, 0, 0, -5),
]  # fmt: skip


def _pixel_rays(camera: Camera) -> np.ndarray:
    """Undistorted normalized coordinates (h*w, 2) of every pixel; NaN past the fold."""
    w, h = camera.size_px
    k = camera.intrinsics
    u, v = np.meshgrid(np.arange(w, dtype=float), np.arange(h, dtype=float))
    xy_d = np.c_[(u.ravel() - k.cx_px) / k.fx_px, (v.ravel() - k.cy_px) / k.fy_px]
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 60, 1e-12)
    xy = np.asarray(cv2.undistortPoints(xy_d.reshape(-1, 1, 2), np.eye(3),
                                        camera.distortion.coeffs(), criteria=crit),
                    dtype=np.float64).reshape(-1, 2)  # fmt: skip
    off = np.abs(camera.distortion.apply(xy) - xy_d).max(axis=1) > 1e-6
    xy[off | (np.hypot(*xy.T) >= camera.distortion.fold_radius())] = np.nan
    return np.asarray(xy)


def render_board(camera: Camera, rays: np.ndarray, seed: int) -> np.ndarray:
    """A BGR picture of the board (on z = 0, corner square at the origin) seen by ``camera``.

    Each pixel's ray meets the board plane; the squares' edges are ramps one pixel
    wide (anti-aliased); a white margin of one square, grey beyond; noise 2 grey levels.
    """
    w, h = camera.size_px
    cam = np.c_[rays, np.ones(len(rays))] @ camera.pose.rotation()
    cam[:, 2] *= -1.0  # (x, y, -z) -> (x, y, z up)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = -camera.pose.height_mm / cam[:, 2]
        xy = camera.position_mm[:2] + cam[:, :2] * s[:, None]
        xy[~(s > 0)] = np.nan
    x, y = xy[:, 0].reshape(h, w), xy[:, 1].reshape(h, w)
    foot = np.nan_to_num(np.hypot(*np.gradient(x)) + np.hypot(*np.gradient(y)), nan=1.0) / 1.4

    nx, ny = (p + 1 for p in PATTERN)

    def ramp(c: np.ndarray, n: int) -> np.ndarray:  # +-1 in the squares, linear over a pixel
        c = np.clip(c, 0.5 * SQUARE_MM, (n - 0.5) * SQUARE_MM)  # no ramp at the board's rim
        wave = 2.0 * (SQUARE_MM / np.pi) * np.sin(np.pi * c / SQUARE_MM) / foot
        return np.asarray(np.clip(wave, -1.0, 1.0))

    with np.errstate(invalid="ignore"):
        board = (x > 0) & (x < nx * SQUARE_MM) & (y > 0) & (y < ny * SQUARE_MM)
        margin = (x > -SQUARE_MM) & (x < (nx + 1) * SQUARE_MM)
        margin &= (y > -SQUARE_MM) & (y < (ny + 1) * SQUARE_MM)
        grey = np.where(board, 30.0 + 190.0 * (0.5 - 0.5 * ramp(x, nx) * ramp(y, ny)), 70.0)
    grey = np.where(margin & ~board, 220.0, grey)
    grey += np.random.default_rng(seed).normal(0.0, 2.0, grey.shape)
    out = np.clip(np.nan_to_num(grey, nan=70.0), 0, 255).astype(np.uint8)
    return np.asarray(cv2.cvtColor(out, cv2.COLOR_GRAY2BGR))


@lru_cache(maxsize=2)
def boards(lens: Camera) -> tuple[np.ndarray, ...]:
    """The board seen through ``lens`` from every pose of :data:`POSES`."""
    rays = _pixel_rays(lens)
    centre = ((PATTERN[0] + 1) * SQUARE_MM / 2.0, (PATTERN[1] + 1) * SQUARE_MM / 2.0)
    out = []
    for i, (height, dx, dy, yaw, tilt, roll) in enumerate(POSES):
        pose = Camera.overhead(
            height_mm=height, aim_mm=(centre[0] + dx, centre[1] + dy),
            yaw_deg=yaw, tilt_deg=tilt, roll_deg=roll,
        ).pose  # fmt: skip
        out.append(render_board(replace(lens, pose=pose), rays, seed=i))
    return tuple(out)


def test_the_lens_is_recovered_from_rendered_boards() -> None:
    intr, dist, rms_px = fit_lens_from_checkerboards(boards(HARD), PATTERN, SQUARE_MM)
    true = HARD.intrinsics
    assert rms_px < 0.1
    assert abs(intr.fx_px / true.fx_px - 1.0) < 0.005
    assert abs(intr.fy_px / true.fy_px - 1.0) < 0.005
    assert abs(intr.cx_px - true.cx_px) < 2.0 and abs(intr.cy_px - true.cy_px) < 2.0
    assert abs(dist.k1 - HARD.distortion.k1) < 0.01
    assert abs(dist.k2 - HARD.distortion.k2) < 0.02
    # What matters: pixels map to the same rays. Compare across the picture.
    u, v = np.meshgrid(np.linspace(0, 959, 25), np.linspace(0, 539, 15))
    uv = np.c_[u.ravel(), v.ravel()]
    fitted = Camera(intr, dist, HARD.pose)
    err = np.hypot(*(fitted.project(HARD.unproject(uv, 0.0)) - uv).T)
    assert np.nanmax(err) < 1.0, np.nanmax(err)


def test_a_fixed_lens_beats_the_auto_fit_on_a_strongly_distorted_table() -> None:
    intr, dist, _ = fit_lens_from_checkerboards(boards(HARD), PATTERN, SQUARE_MM)
    frame = render(HARD, "blue")
    auto = surface_errors_mm(HARD, fit_camera(frame).camera)
    fixed_fit = fit_camera(frame, lens=(intr, dist))
    fixed = surface_errors_mm(HARD, fixed_fit.camera)
    assert fixed_fit.camera.intrinsics == intr and fixed_fit.camera.distortion == dist
    assert np.sqrt(np.mean(fixed**2)) <= np.sqrt(np.mean(auto**2))
    assert np.sqrt(np.mean(fixed**2)) < 1.5 and fixed.max() < 3.0
    assert abs(fixed_fit.camera.pose.height_mm / HARD.pose.height_mm - 1.0) < 0.03


def test_too_few_boards_is_a_clear_error() -> None:
    blank = np.full((540, 960, 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match=r"found in 2 of 4 pictures, need at least 5"):
        fit_lens_from_checkerboards([*boards(HARD)[:2], blank, blank], PATTERN, SQUARE_MM)


def test_a_lens_for_another_frame_size_is_refused() -> None:
    intr = replace(HARD.intrinsics, width_px=1280, height_px=720)
    with pytest.raises(
        CalibrationError, match=r"calibrated at 1280x720 px but the frame is 960x540"
    ):
        fit_camera(render(HARD, "blue"), lens=(intr, HARD.distortion))
