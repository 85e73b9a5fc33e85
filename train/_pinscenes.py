"""Randomised renders of pins with exact per-spot truth, for the pin classifier.

Each scene (one seed) takes its camera, look and sensor from :mod:`train._scenes` (the
ball detector's randomisation: resolution, height, tilt, roll, lens, cloth hue, lamps,
noise, blur, sharpening, vignetting, score graphic), the chalk of five-pins most of the
time (its white spots lie under the pins), and the pins of five-pins or the 7-pin game.
Every frame draws new pin states: per spot a pin standing (a few mm off its spot), a
knocked pin lying near it (its foot up to ``_LIE_MM`` away, any direction) or no pin at
all; in frame 0, the reference the check learns from, nearly every pin stands. Balls
are put near the spots (one to three radii) and move slowly; sometimes the
player's arm and cue are in the picture (rendered twice, as in :mod:`train._scenes`,
to know which spots it hides).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration, TableGeometry
from referee import Ball, Discipline, Pin
from synth import PlayerStroke, Renderer
from train._scenes import _PLAYER_DN, _SIZES, _camera, _scene, _settings, _speed
from vision.pins import PIN_Z_MM

__all__ = ["PinFrame", "render_pin_scene"]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

_STAND_JITTER_MM = 3.0
_LIE_MM = 30.0
_HIDE_MM = 10.0  # a ball centre within radius + this of a spot hides the pin


@dataclass(frozen=True, slots=True)
class PinFrame:
    """A rendered frame (h, w, 3) BGR, its calibration and, per spot, the truth.

    ``spots_mm`` (n, 2); ``standing`` (n,) bool; ``usable`` (n,) bool: False where a
    ball or the player hides the spot (the pipeline leaves such pins out).
    """

    image: U8
    calibration: Calibration
    spots_mm: F64
    standing: NDArray[np.bool_]
    usable: NDArray[np.bool_]
    seed: int


class _PinMotion:
    """Balls in straight lines and, per frame, a drawn pin state."""

    def __init__(
        self,
        p0: Mapping[Ball, F64],
        v: Mapping[Ball, F64],
        pins: list[dict[Pin, tuple[float, float, bool]]],
        fps: float,
    ) -> None:
        self.p0, self.v, self.pins, self.fps = p0, v, pins, fps

    def positions_mm(self, t_s: F64) -> Mapping[Ball, F64]:
        t = np.asarray(t_s, np.float64)[:, None]
        return {b: self.p0[b][None, :] + self.v[b][None, :] * t for b in self.p0}

    def pins_mm(self, t_s: float) -> Mapping[Pin, tuple[float, float, bool]]:
        i = min(max(round(t_s * self.fps), 0), len(self.pins) - 1)
        return self.pins[i]


def _pin_states(
    rng: np.random.Generator, spots: Mapping[Pin, tuple[float, float]], p_stand: float
) -> tuple[dict[Pin, tuple[float, float, bool]], dict[Pin, bool]]:
    """One frame's pins (what the renderer draws) and, per spot, whether a pin stands."""
    drawn: dict[Pin, tuple[float, float, bool]] = {}
    truth: dict[Pin, bool] = {}
    for pin, (x, y) in spots.items():
        kind = rng.choice(3, p=[p_stand, 0.75 * (1 - p_stand), 0.25 * (1 - p_stand)])
        truth[pin] = bool(kind == 0)
        if kind == 0:
            d = rng.normal(0, _STAND_JITTER_MM / 2, 2).clip(-_STAND_JITTER_MM, _STAND_JITTER_MM)
            drawn[pin] = (x + d[0], y + d[1], True)
        elif kind == 1:
            a, r = rng.uniform(0, 2 * math.pi), _LIE_MM * math.sqrt(rng.uniform())
            drawn[pin] = (x + r * math.cos(a), y + r * math.sin(a), False)
    return drawn, truth


def _balls(
    rng: np.random.Generator, geometry: TableGeometry, spots: F64, span_s: float
) -> tuple[dict[Ball, F64], dict[Ball, F64]]:
    """Three balls, most near a spot (one to three radii off), moving slowly."""
    r = geometry.radius_mm
    lo, hi = np.array([r, r]), np.array([geometry.length_mm - r, geometry.width_mm - r])
    p0: dict[Ball, F64] = {}
    v: dict[Ball, F64] = {}
    for ball in (Ball.WHITE, Ball.YELLOW, Ball.RED):
        if rng.random() < 0.7:
            a = rng.uniform(0, 2 * math.pi)
            mid = spots[rng.integers(len(spots))] + r * rng.uniform(1.0, 3.0) * np.array(
                [math.cos(a), math.sin(a)]
            )
            speed = 1000.0 * rng.uniform(0.0, 0.15) if rng.random() < 0.8 else 1000.0 * _speed(rng)
        else:
            mid = rng.uniform(lo + 20.0, hi - 20.0)
            speed = 1000.0 * _speed(rng)
        h = rng.uniform(0, 2 * math.pi)
        vel = speed * np.array([math.cos(h), math.sin(h)])
        p0[ball] = np.clip(mid - vel * span_s / 2, lo, hi)
        v[ball] = vel
    return p0, v


def render_pin_scene(seed: int, n_frames: int = 10) -> Iterator[PinFrame]:
    """Frames of one random pin scene ``seed`` with their truth (see the module docstring)."""
    rng = np.random.default_rng([seed, 91])
    geometry = TableGeometry()
    camera = _camera(rng, _SIZES[int(rng.integers(len(_SIZES)))], geometry)
    calibration = Calibration(geometry, camera, "2026-11-30")
    scene = _scene(rng)
    if rng.random() < 0.75:
        scene = replace(scene, look=replace(scene.look, discipline=Discipline.FIVE_PINS))
    settings = _settings(rng, seed)
    layout = geometry.pins_mm(
        Discipline.FIVE_PINS if rng.random() < 0.6 else Discipline.PIN_CAROM_7
    )
    spots = np.array(list(layout.values()), np.float64)
    # Frame 0 is the reference (the check learns from a frame with the pins up): nearly
    # all pins stand in it; in the others any share of them.
    states = [_pin_states(rng, layout, 0.92 if i == 0 else rng.uniform(0.3, 0.8))
              for i in range(n_frames)]  # fmt: skip
    span = n_frames / settings.fps
    p0, v = _balls(rng, geometry, spots, span)
    motion = _PinMotion(p0, v, [s[0] for s in states], settings.fps)
    strokes = [PlayerStroke(rng.uniform(0.0, span), Ball.WHITE)] if rng.random() < 0.3 else []
    renderer = Renderer(camera, scene, settings)
    bare = renderer.frames(motion, n_frames) if strokes else None
    for i, frame in enumerate(renderer.frames(motion, n_frames, strokes)):
        plain = next(bare).image if bare is not None else frame.image
        player = (
            np.abs(frame.image.astype(np.int16) - plain.astype(np.int16)).max(axis=2) > _PLAYER_DN
        )
        usable = _usable(calibration, motion, frame.t_s, spots, player)
        standing = np.array([states[i][1][p] for p in layout])
        yield PinFrame(frame.image, calibration, spots, standing, usable, seed)


def _usable(
    calibration: Calibration, motion: _PinMotion, t_s: float, spots: F64, player: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """Per spot: no ball over it and no player pixel within a few pixels of its image."""
    geometry = calibration.geometry
    xy = motion.positions_mm(np.array([t_s]))
    centres = np.array([p[0] for p in xy.values()])
    gap = np.hypot(*(spots[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    free: NDArray[np.bool_] = np.all(gap > geometry.radius_mm + _HIDE_MM, axis=1)
    uv = calibration.mm_to_px(spots, PIN_Z_MM)
    h, w = player.shape
    for k, (u, q) in enumerate(uv):
        ui, vi = int(np.rint(u)), int(np.rint(q))
        if (
            not (3 <= ui < w - 3 and 3 <= vi < h - 3)
            or player[vi - 3 : vi + 4, ui - 3 : ui + 4].any()
        ):
            free[k] = False
    return free
