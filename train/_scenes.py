"""Randomised renders with exact per-ball truth, for training and for the bench.

Each scene (one seed) draws a camera (resolution, height, tilt, roll, lens
distortion), a look (cloth hue, lamp layout and power, ambient light, ball colours
nudged), a sensor (noise, optics blur, sharpening, vignetting, exposure), extras
(score graphic, chalk lines of a random discipline, the player's arm and cue) and a
motion (three balls moving in straight lines at speeds from rest to 7 m/s, sometimes
two touching). A few frames are rendered twice, with and without the player: the
pixels that differ are the player, and each ball's visible share is what the player
leaves of its disc.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration, Camera, Distortion, TableGeometry
from referee import Ball, Discipline
from synth import (
    BALL_LOOKS,
    Lamp,
    PlayerStroke,
    RenderedFrame,
    Renderer,
    RenderSettings,
    Scene,
    ScoreGraphic,
    TableLook,
)
from vision import ball_radius_px

__all__ = ["BallTruth", "TruthFrame", "render_scene"]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

_SIZES = ((640, 360), (960, 540), (1280, 720))
_PLAYER_DN = 30.0  # a pixel this much changed by the player is the player


@dataclass(frozen=True, slots=True)
class BallTruth:
    """One ball in one frame: centre ``uv_px`` (2,), radius, blur half-vector (2,)."""

    ball: Ball
    uv_px: F64
    radius_px: float
    streak_px: F64
    speed_mps: float
    covered: bool  # the renderer's flag: the player hides the centre
    visible: float  # share of the disc the player leaves visible, 0..1


@dataclass(frozen=True, slots=True)
class TruthFrame:
    """A rendered frame (h, w, 3) BGR, its calibration, its balls and the player mask."""

    image: U8
    calibration: Calibration
    balls: tuple[BallTruth, ...]
    player: NDArray[np.bool_]
    seed: int


class _Linear:
    """Balls moving in straight lines: ``p0 + v t``."""

    def __init__(self, p0: Mapping[Ball, F64], v: Mapping[Ball, F64]) -> None:
        self.p0, self.v = p0, v

    def positions_mm(self, t_s: F64) -> Mapping[Ball, F64]:
        t = np.asarray(t_s, np.float64)[:, None]
        return {b: self.p0[b][None, :] + self.v[b][None, :] * t for b in self.p0}


def _camera(rng: np.random.Generator, size: tuple[int, int], geometry: TableGeometry) -> Camera:
    w, h = size
    height_mm = rng.uniform(2200.0, 3600.0)
    table = geometry.table
    half = max(table.length_mm / 2 + 330.0, (table.width_mm / 2 + 330.0) * w / h)
    hfov = math.degrees(2.0 * math.atan(half / height_mm)) * rng.uniform(0.97, 1.08)
    k1 = rng.uniform(-0.3, 0.05)
    return Camera.overhead(
        width_px=w, height_px=h, hfov_deg=hfov, height_mm=height_mm,
        aim_mm=(table.length_mm / 2 + rng.uniform(-60, 60), table.width_mm / 2),
        yaw_deg=float(rng.choice([0.0, 178.0])) + rng.uniform(-2, 2),
        tilt_deg=rng.uniform(-8, 8), roll_deg=rng.uniform(-4, 4),
        distortion=Distortion(k1, k1 * rng.uniform(-0.3, 0.3)),
    )  # fmt: skip


def _scene(rng: np.random.Generator) -> Scene:
    hue = rng.choice([rng.uniform(0.33, 0.42), rng.uniform(0.52, 0.62), rng.uniform(0.3, 0.7)])
    r, g, b = colorsys.hsv_to_rgb(float(hue), rng.uniform(0.4, 0.9), rng.uniform(0.35, 0.9))
    cloth = (int(255 * r), int(255 * g), int(255 * b))
    discipline = rng.choice([None, Discipline.THREE_CUSHION, Discipline.BALKLINE_47_2])  # type: ignore[arg-type]
    look = TableLook(cloth=cloth, discipline=discipline)
    t = look.table
    rows = (0.3, 0.7) if rng.random() < 0.6 else (0.5,)
    cols = rng.integers(2, 5)
    z = rng.uniform(900.0, 2000.0)
    power = rng.uniform(0.45, 1.8)
    lamps = tuple(
        Lamp(t.length_mm * (i + 0.5) / cols + rng.uniform(-100, 100), t.width_mm * fy, z,
             power * rng.uniform(0.8, 1.2), rng.uniform(100.0, 400.0))
        for i in range(cols) for fy in rows
    )  # fmt: skip
    balls = {}
    for ball, ball_look in BALL_LOOKS.items():
        c = tuple(int(np.clip(x + rng.normal(0, 8), 0, 255)) for x in ball_look.colour)
        balls[ball] = replace(ball_look, colour=c)  # type: ignore[arg-type]
    return Scene(look=look, lamps=lamps, ambient=rng.uniform(0.15, 0.5), balls=balls)


def _settings(rng: np.random.Generator, seed: int) -> RenderSettings:
    fps = float(rng.choice([25.0, 30.0, 50.0, 60.0]))
    noise = rng.uniform(0.3, 4.0)
    score = ScoreGraphic(scores=((0.0, 3, 7),)) if rng.random() < 0.3 else None
    return RenderSettings(
        fps=fps, exposure_s=rng.uniform(0.25, 1.0) / fps, seed=seed,
        optics_blur_px=rng.uniform(0.3, 1.4), sharpen=rng.uniform(0.0, 1.0),
        read_noise_dn=1.2 * noise, shot_noise_dn=0.035 * noise,
        vignetting=rng.uniform(0.0, 0.4), flicker=rng.uniform(0.0, 0.06), score=score,
    )  # fmt: skip


def _speed(rng: np.random.Generator) -> float:
    band = rng.choice(4, p=[0.3, 0.25, 0.25, 0.2])
    return float([0.0, rng.uniform(0.05, 1.0), rng.uniform(1.0, 3.0), rng.uniform(3.0, 7.0)][band])


def _motion(
    rng: np.random.Generator, geometry: TableGeometry, balls: tuple[Ball, ...], span_s: float
) -> _Linear:
    """Straight-line motions that keep every centre on the table over ``span_s``."""
    r = geometry.radius_mm
    lo, hi = np.array([r, r]), np.array([geometry.length_mm - r, geometry.width_mm - r])
    p0: dict[Ball, F64] = {}
    v: dict[Ball, F64] = {}
    for k, ball in enumerate(balls):
        mid = rng.uniform(lo + 20.0, hi - 20.0)
        if k > 0 and rng.random() < 0.15:  # touching the previous ball
            angle = rng.uniform(0, 2 * math.pi)
            mid = p0[balls[k - 1]] + (2 * r + rng.uniform(0, 3)) * np.array(
                [math.cos(angle), math.sin(angle)]
            )
        heading = rng.uniform(0, 2 * math.pi)
        vel = 1000.0 * _speed(rng) * np.array([math.cos(heading), math.sin(heading)])
        for _ in range(20):  # slow down until both ends stay on the table
            a, b = mid - vel * span_s / 2, mid + vel * span_s / 2
            if np.all((a >= lo) & (a <= hi) & (b >= lo) & (b <= hi)):
                break
            vel = vel * 0.7
        p0[ball] = np.clip(mid - vel * span_s / 2, lo, hi)
        v[ball] = vel
    return _Linear(p0, v)


def render_scene(
    seed: int, n_frames: int = 6, sizes: tuple[tuple[int, int], ...] = _SIZES
) -> Iterator[TruthFrame]:
    """Frames of one random scene ``seed`` with their truth (see the module docstring)."""
    rng = np.random.default_rng([seed, 77])
    geometry = TableGeometry()
    camera = _camera(rng, sizes[int(rng.integers(len(sizes)))], geometry)
    calibration = Calibration(geometry, camera, "2026-11-30")
    scene = _scene(rng)
    settings = _settings(rng, seed)
    second = Ball.DOTTED if rng.random() < 0.4 else Ball.YELLOW
    balls = (Ball.WHITE, second, Ball.RED)
    span = n_frames / settings.fps
    motion = _motion(rng, geometry, balls, span)
    strokes = (
        [PlayerStroke(rng.uniform(0.0, span), balls[int(rng.integers(3))])]
        if rng.random() < 0.7
        else []
    )
    renderer = Renderer(camera, scene, settings)
    bare = renderer.frames(motion, n_frames) if strokes else None
    for frame in renderer.frames(motion, n_frames, strokes):
        plain = next(bare).image if bare is not None else frame.image
        diff = np.abs(frame.image.astype(np.int16) - plain.astype(np.int16)).max(axis=2)
        player = diff > _PLAYER_DN
        truth = _truth(calibration, motion, frame.t_s, settings.exposure, frame, player)
        yield TruthFrame(frame.image, calibration, truth, player, seed)


def _truth(
    calibration: Calibration,
    motion: _Linear,
    t_s: float,
    exposure_s: float,
    frame: RenderedFrame,
    player: NDArray[np.bool_],
) -> tuple[BallTruth, ...]:
    r_mm = calibration.geometry.radius_mm
    out = []
    covered = frame.covered
    for ball, uv in frame.balls_px.items():
        if uv is None:
            continue
        uv_px = np.array(uv, np.float64)
        ends = motion.positions_mm(np.array([t_s - exposure_s / 2, t_s + exposure_s / 2]))[ball]
        ends_px = calibration.mm_to_px(ends, r_mm)
        radius = float(ball_radius_px(calibration, uv_px[None])[0])
        out.append(BallTruth(
            ball, uv_px, radius, (ends_px[1] - ends_px[0]) / 2.0,
            float(np.hypot(*motion.v[ball])) / 1000.0, ball in covered,
            _visible(player, uv_px, radius),
        ))  # fmt: skip
    return tuple(out)


def _visible(player: NDArray[np.bool_], uv_px: F64, radius_px: float) -> float:
    """Share of the disc (radius ``radius_px`` at ``uv_px``) not under the player mask."""
    h, w = player.shape
    u0, v0 = int(uv_px[0] - radius_px), int(uv_px[1] - radius_px)
    u1, v1 = int(uv_px[0] + radius_px) + 2, int(uv_px[1] + radius_px) + 2
    vv, uu = np.mgrid[max(v0, 0) : min(v1, h), max(u0, 0) : min(u1, w)]
    disc = (uu - uv_px[0]) ** 2 + (vv - uv_px[1]) ** 2 <= radius_px**2
    if not disc.any():
        return 1.0
    return float(1.0 - player[vv[disc], uu[disc]].mean())
