"""Things in front of the table: the player and cue around each stroke, a score graphic.

The player is a few 3D capsules (cue, forearms, upper arms, hands, head, torso) placed
along the line of the stroke, projected through the camera (so height, parallax and
lens distortion apply) and filled as anti-aliased polygons. The timeline around a
stroke at ``t_s``: the player walks in from 2.2 s before, makes practice strokes,
strikes at ``t_s`` (the tip reaches the ball), follows through, and leaves by 1.4 s
after. Images here are float32 BGR display values (0..255), (h, w, 3).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Camera
from synth._scene import MotionSource, PlayerStroke, TableLook

__all__ = ["PlayerPose", "ScoreGraphic", "draw_players", "draw_score", "player_pose"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
_BEFORE_S, _AFTER_S = 2.2, 1.4
_CUE_MM, _ELEVATION = 1400.0, math.radians(7.0)
_SKINS = ((222, 180, 150), (190, 140, 105), (140, 96, 70))
_SLEEVES = ((235, 235, 235), (40, 40, 48), (120, 25, 35))


@dataclass(frozen=True, slots=True)
class PlayerPose:
    """Where one stroke's player is: the cue ball's rest point and the stroke line."""

    ball_mm: F64  # (3,) cue ball centre before the stroke
    dir_xy: F64  # (2,) unit direction of the stroke
    side: float  # +1 / -1: the bridge arm's side of the cue line
    body_mm: float  # from the ball back to the shoulders: at the rail, leaning over it
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


def player_pose(
    motion: MotionSource, stroke: PlayerStroke, look: TableLook, seed: int
) -> PlayerPose:
    """The pose of the player making ``stroke``, with looks drawn from ``seed``."""
    t = np.array([stroke.t_s, stroke.t_s + 0.05])
    xy = motion.positions_mm(t).get(stroke.ball, np.full((2, 2), np.nan))
    step = xy[1] - xy[0]
    norm = float(np.hypot(*step))
    rng = np.random.default_rng([seed, int(stroke.t_s * 1000.0) & 0xFFFFFFFF])
    if not (norm > 1e-6 and np.all(np.isfinite(xy[0]))):
        angle = rng.uniform(0.0, 2.0 * math.pi)
        step, norm = np.array([math.cos(angle), math.sin(angle)]), 1.0
    start, d = np.nan_to_num(xy[0]), step / norm
    return PlayerPose(
        ball_mm=np.array([start[0], start[1], look.radius_mm]),
        dir_xy=d,
        side=float(rng.choice([-1.0, 1.0])),
        body_mm=float(np.clip(_to_table_edge(start, -d, look) + 120.0, 650.0, 1100.0)),
        skin=_SKINS[int(rng.integers(len(_SKINS)))],
        sleeve=_SLEEVES[int(rng.integers(len(_SLEEVES)))],
    )


def _to_table_edge(xy: F64, d: F64, look: TableLook) -> float:
    """Distance (mm) from ``xy`` along unit ``d`` to the outer edge of the rails."""
    outer = look.cushion_width_mm + look.rail_width_mm
    lo = np.array([-outer, -outer])
    hi = np.array([look.table.length_mm + outer, look.table.width_mm + outer])
    with np.errstate(divide="ignore", invalid="ignore"):
        exits = np.where(d > 0, (hi - xy) / d, (lo - xy) / d)
    return float(np.nanmin(np.where(np.isfinite(exits), exits, np.inf)))


def _smooth(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3.0 - 2.0 * x)


def _timeline(tau: float) -> tuple[float, float]:
    """(gap from the tip to the ball in mm, how far the player is away in mm) at ``tau``."""
    away = 900.0 * (1.0 - _smooth((tau + _BEFORE_S) / 0.6)) + 900.0 * _smooth((tau - 0.6) / 0.8)
    if tau < -0.25:
        gap = 30.0 + 35.0 * (1.0 - math.cos(2.0 * math.pi * (tau + _BEFORE_S) / 0.55))
    elif tau < -0.1:
        gap = 30.0 + 90.0 * _smooth((tau + 0.25) / 0.15)
    elif tau < 0.0:
        gap = 120.0 * (-tau / 0.1) ** 1.5
    else:
        gap = -70.0 * _smooth(tau / 0.12)
    return gap, away


_Part = tuple[F64, F64, float, float, tuple[int, int, int]]


def _capsules(pose: PlayerPose, tau: float) -> list[_Part]:
    """The player's parts as (p0 (3,), p1 (3,), r0 mm, r1 mm, sRGB), far parts first."""
    gap, away = _timeline(tau)
    d = np.array([pose.dir_xy[0], pose.dir_xy[1], 0.0])
    side = pose.side * np.array([-d[1], d[0], 0.0])
    up = np.array([0.0, 0.0, 1.0])
    ball = pose.ball_mm - d * away + up * (away * 0.2)
    tip = ball - d * (pose.ball_mm[2] + 2.0 + gap) + up * 2.0
    butt = tip - d * _CUE_MM * math.cos(_ELEVATION) + up * _CUE_MM * math.sin(_ELEVATION)
    bridge = ball - d * 260.0 + up * 10.0 - up * ball[2]
    grip = tip + (butt - tip) * 0.82
    body = pose.body_mm
    shoulder_b = ball - d * body + side * 190.0 + up * 420.0
    shoulder_g = ball - d * (body + 40.0) - side * 190.0 + up * 430.0
    elbow_b = (shoulder_b + bridge) / 2.0 + side * 120.0 + up * 60.0
    elbow_g = grip + up * 300.0 - d * 40.0 - side * 40.0
    torso = (shoulder_b + shoulder_g) / 2.0 + side * 60.0
    head = (shoulder_b + shoulder_g) / 2.0 + d * 150.0 + up * 120.0
    sleeve, skin = pose.sleeve, pose.skin
    return [
        (torso, torso - d * 380.0 + up * 150.0, 200.0, 210.0, (35, 35, 40)),
        (bridge - d * 20.0, bridge + d * 45.0 - side * 15.0, 45.0, 28.0, skin),
        (tip, butt, 6.5, 15.0, (200, 160, 100)),
        (tip, tip - d * 25.0, 6.6, 6.8, (245, 245, 240)),
        (shoulder_b, elbow_b, 55.0, 45.0, sleeve),
        (elbow_b, bridge - d * 40.0, 42.0, 32.0, sleeve),
        (shoulder_g, elbow_g, 55.0, 45.0, sleeve),
        (elbow_g, grip, 42.0, 35.0, sleeve),
        (grip - d * 30.0, grip + d * 50.0, 38.0, 38.0, skin),
        (head, head - d * 90.0, 95.0, 105.0, (45, 32, 25)),
    ]


def _outlines(camera: Camera, parts: list[_Part]) -> list[NDArray[np.int32] | None]:
    """Polygons (m, 2) in 1/16 px around tapered capsules projected by the camera."""
    s = np.linspace(0.0, 1.0, 9)[:, None]
    centres = np.concatenate([p0 + (p1 - p0) * s for p0, p1, _, _, _ in parts])
    uv_all = camera.project(centres).reshape(len(parts), 9, 2)
    depth_all = camera.to_camera(centres)[:, 2].reshape(len(parts), 9)
    out: list[NDArray[np.int32] | None] = []
    for (_, _, r0, r1, _), uv, depth in zip(parts, uv_all, depth_all, strict=True):
        if not np.all(np.isfinite(uv)):
            out.append(None)
            continue
        r_px = (r0 + (r1 - r0) * s[:, 0]) * camera.intrinsics.fx_px / depth
        out.append(_capsule_polygon(uv, r_px))
    return out


def _capsule_polygon(uv: F64, r_px: F64) -> NDArray[np.int32] | None:
    tangent = np.gradient(uv, axis=0)
    norm = np.hypot(tangent[:, 0], tangent[:, 1])[:, None]
    if not np.all(norm > 1e-9):
        return None
    tangent = tangent / norm
    normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1)
    ang = np.linspace(-math.pi / 2.0, math.pi / 2.0, 7)[1:-1, None]
    cap1 = uv[-1] + r_px[-1] * (np.cos(ang) * tangent[-1] - np.sin(ang) * normal[-1])
    cap0 = uv[0] + r_px[0] * (-np.cos(ang) * tangent[0] + np.sin(ang) * normal[0])
    left = uv + normal * r_px[:, None]
    right = (uv - normal * r_px[:, None])[::-1]
    poly = np.concatenate([left, cap1, right, cap0])
    return np.round(poly * 16.0).astype(np.int32)


def draw_players(
    image: F32,
    camera: Camera,
    poses: Sequence[tuple[PlayerStroke, PlayerPose]],
    times_s: F64,
) -> tuple[tuple[int, int, int, int], F32] | None:
    """Draw the players active at ``times_s`` (sub-times of the exposure) onto ``image``.

    The result is the average of the sub-time pictures (motion blur of the stroke).
    Returns the box (x0, y0, x1, y1) the players touch and how much of each pixel of
    it they hide (h, w) in 0..1, or None when no player is in the picture.
    """
    shapes = [_shapes_at(camera, poses, float(t)) for t in times_s]
    polys = [poly for frame in shapes for poly, _ in frame]
    if not polys:
        return None
    h, w = image.shape[:2]
    pts = np.concatenate(polys) // 16
    x0, y0 = np.maximum(pts.min(axis=0) - 2, 0)
    x1, y1 = np.minimum(pts.max(axis=0) + 3, [w, h])
    if x1 <= x0 or y1 <= y0:
        return None
    acc_c = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
    acc_a = np.zeros((y1 - y0, x1 - x0), np.float32)
    offset = np.array([x0, y0]) * 16
    for frame in shapes:
        # cv2's anti-aliased fill blends each edge into what is there: on a black canvas
        # that is premultiplied colour, and shape over shape is the "over" operator.
        canvas, mask = np.zeros(acc_c.shape, np.uint8), np.zeros(acc_a.shape, np.uint8)
        for poly, rgb in frame:
            cv2.fillPoly(canvas, [poly - offset], rgb[::-1], cv2.LINE_AA, 4)
            cv2.fillPoly(mask, [poly - offset], 255, cv2.LINE_AA, 4)
        acc_c += canvas
        acc_a += mask
    acc_c /= np.float32(len(shapes))
    acc_a /= np.float32(255.0 * len(shapes))
    region = image[y0:y1, x0:x1]
    region *= 1.0 - acc_a[..., None]
    region += acc_c
    return (int(x0), int(y0), int(x1), int(y1)), acc_a


def _shapes_at(
    camera: Camera, poses: Sequence[tuple[PlayerStroke, PlayerPose]], t: float
) -> list[tuple[NDArray[np.int32], tuple[int, int, int]]]:
    out = []
    for stroke, pose in poses:
        tau = t - stroke.t_s
        if -_BEFORE_S < tau < _AFTER_S:
            parts = _capsules(pose, tau)
            for poly, part in zip(_outlines(camera, parts), parts, strict=True):
                if poly is not None:
                    out.append((poly, part[4]))
    return out


@dataclass(frozen=True, slots=True)
class ScoreGraphic:
    """A broadcast-style score box: player names and the score after each change.

    ``scores`` holds ``(t_s, score_a, score_b)`` rows in time order; before the first
    row the score is 0:0.
    """

    players: tuple[str, str] = ("PLAYER A", "PLAYER B")
    scores: tuple[tuple[float, int, int], ...] = ()
    title: str = "3-CUSHION"

    def at(self, t_s: float) -> tuple[int, int]:
        """The score shown at ``t_s``."""
        shown = (0, 0)
        for t, a, b in self.scores:
            if t <= t_s:
                shown = (a, b)
        return shown


def draw_score(image: NDArray[np.uint8], graphic: ScoreGraphic, t_s: float) -> None:
    """Draw the score box into the bottom-left corner of a BGR uint8 image, in place."""
    h = image.shape[0]
    unit = max(h / 1080.0, 0.3)
    row, width = round(40 * unit), round(420 * unit)
    x0, y0 = round(30 * unit), h - round(30 * unit) - 3 * row
    box = image[y0 : y0 + 3 * row, x0 : x0 + width]
    box[:] = (box * 0.25 + np.array([70, 30, 20]) * 0.75).astype(np.uint8)
    font, scale = cv2.FONT_HERSHEY_SIMPLEX, 0.8 * unit
    thick = max(1, round(2 * unit))
    text_y = round(row * 0.7)
    cv2.putText(box, graphic.title, (round(10 * unit), text_y), font, scale, (255, 255, 255), thick)
    for i, (name, score) in enumerate(zip(graphic.players, graphic.at(t_s), strict=True)):
        top = (i + 1) * row
        cv2.putText(
            box, name, (round(10 * unit), top + text_y), font, scale, (240, 240, 240), thick
        )
        sx = width - round(80 * unit)
        cv2.rectangle(box, (sx, top + 4), (width - 6, top + row - 4), (40, 200, 250), -1)
        cv2.putText(
            box, str(score), (sx + round(8 * unit), top + text_y), font, scale, (0, 0, 0), thick
        )
