"""Still frames of tables of every kind, with the true camera: calibration's test set.

:func:`calibration_scene` renders one frame of a category (:data:`CALIBRATION_CATEGORIES`)
for a seed; the seed draws the camera mount, the balls, the players, the lamps and the
category's own variation (:mod:`synth._calib_plans`). The frame comes with the truth a
calibration is measured against: the camera that rendered it and the playing surface's
corners in the picture. Every frame is JPEG-compressed (quality 60..90 by seed), as a
streamed camera's picture is. Deterministic: the same category and seed give the same
pixels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Camera
from referee import Ball, Discipline, Pin, Table
from synth._calib_plans import CALIBRATION_CATEGORIES, Plan, plan_for
from synth._render import Renderer
from synth._scene import PlayerStroke, RenderError, Scene

__all__ = ["CALIBRATION_CATEGORIES", "CalibrationScene", "calibration_scene"]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
#: When the frame is taken and when the player strikes (the cue near the ball, the
#: player leaning in, no stroke blur); the struck ball moves only after the strike.
_FRAME_T_S, _STRIKE_T_S = 0.0, 0.5


@dataclass(frozen=True, slots=True, eq=False)
class CalibrationScene:
    """One rendered frame and the truth a calibration is measured against.

    ``image_bgr`` (h, w, 3) uint8; ``camera`` the true camera; ``table`` and
    ``discipline`` what to pass to :func:`calibration.calibrate_frame`.
    ``corners_px`` (4, 2): the playing surface's corners (cloth plane, z = 0) in the
    picture, clockwise on screen from the top-left-most (smallest u + v); ``corners_mm``
    (4, 2) the table points of those rows; ``nose_corners_px`` (4, 2) the same corners
    at cushion-nose height (what the eye sees on a side the camera is beyond).
    """

    category: str
    seed: int
    image_bgr: U8
    camera: Camera
    table: Table
    discipline: Discipline | None
    corners_px: F64
    corners_mm: F64
    nose_corners_px: F64


class _Still:
    """Balls and pins at rest; a struck ball starts to move just after the strike."""

    def __init__(
        self,
        balls_mm: Mapping[Ball, tuple[float, float]],
        struck: Mapping[Ball, tuple[float, float]],
        pins_mm: Mapping[Pin, tuple[float, float]],
    ) -> None:
        self.balls = {b: np.array(p, dtype=np.float64) for b, p in balls_mm.items()}
        self.struck = {b: np.array(d, dtype=np.float64) for b, d in struck.items()}
        self.pins = dict(pins_mm)

    def positions_mm(self, t_s: F64) -> dict[Ball, F64]:
        """Ball centres (n, 2) at times ``t_s`` (n,)."""
        t = np.atleast_1d(np.asarray(t_s, dtype=np.float64))
        moved = np.clip(t - _STRIKE_T_S - 0.02, 0.0, None)[:, None] * 200.0  # mm
        out = {}
        for ball, xy in self.balls.items():
            step = self.struck.get(ball, np.zeros(2))
            out[ball] = xy + moved * step
        return out

    def pins_mm(self, t_s: float) -> dict[Pin, tuple[float, float, bool]]:
        """Every pin standing."""
        return {pin: (x, y, True) for pin, (x, y) in self.pins.items()}


def _clockwise_from_top_left(uv: F64) -> NDArray[np.intp]:
    """Row order (4,) of corners (4, 2) px, clockwise on screen from the smallest u + v.

    On screen v grows downwards, so a positive shoelace sum is clockwise.
    """
    u, v = uv[:, 0], uv[:, 1]
    signed = float(u @ np.roll(v, -1) - v @ np.roll(u, -1))
    order = np.arange(4) if signed > 0 else np.arange(4)[::-1]
    start = int(np.argmin(uv[order, 0] + uv[order, 1]))
    return np.roll(order, -start)


def render_plan(plan: Plan) -> U8:
    """The frame (h, w, 3) BGR uint8 a plan describes."""
    motion = _Still(plan.balls_mm, plan.struck, plan.pins_mm)
    strokes = [PlayerStroke(_STRIKE_T_S, ball) for ball in plan.struck]
    scene = Scene(look=plan.look, lamps=plan.lamps, ambient=plan.ambient)
    renderer = Renderer(plan.camera, scene, plan.settings)
    with np.errstate(invalid="ignore", divide="ignore"):  # rays that miss every surface
        frame = next(iter(renderer.frames(motion, 1, strokes)))
    ok, jpeg = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, plan.jpeg_quality])
    if not ok:
        raise RenderError("calibration scene: the frame could not be JPEG-encoded")
    image: U8 = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), dtype=np.uint8)
    return image


def calibration_scene(
    category: str, seed: int, size_px: tuple[int, int] = (1280, 720)
) -> CalibrationScene:
    """Render frame ``seed`` of ``category`` (one of :data:`CALIBRATION_CATEGORIES`).

    ``size_px`` is the frame (width, height); the camera is framed for it.

    Raises:
        RenderError: an unknown category (the message lists them).
    """
    plan = plan_for(category, seed, size_px)
    image = render_plan(plan)
    table = plan.look.table
    corners_mm = np.array(
        [
            [0.0, 0.0],
            [table.length_mm, 0.0],
            [table.length_mm, table.width_mm],
            [0.0, table.width_mm],
        ]
    )
    on_cloth = plan.camera.project(np.c_[corners_mm, np.zeros(4)])
    nose = np.full(4, plan.look.cushion_height_mm)
    order = _clockwise_from_top_left(on_cloth)
    return CalibrationScene(
        category=category,
        seed=seed,
        image_bgr=image,
        camera=plan.camera,
        table=table,
        discipline=plan.look.discipline,
        corners_px=on_cloth[order],
        corners_mm=corners_mm[order],
        nose_corners_px=plan.camera.project(np.c_[corners_mm, nose])[order],
    )
