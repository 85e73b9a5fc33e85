"""Render settings (timing, optics, sensor, extras) and what a rendered frame holds."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from referee import Ball, Pin
from synth._props import ScoreGraphic
from synth._scene import RenderError

__all__ = ["RenderSettings", "RenderedFrame"]


@dataclass(frozen=True, slots=True)
class RenderSettings:
    """How frames are made: timing, optics, sensor and extras.

    Noise: a pixel of display value v gets Gaussian noise of standard deviation
    ``sqrt(read_noise_dn**2 + shot_noise_dn * v)`` DN, spatially and across channels
    slightly correlated like a demosaiced sensor. Flicker: lamps on ``mains_hz`` mains
    pulse at twice that frequency with relative amplitude ``flicker``, averaged over
    the exposure, so it beats with the frame rate.
    """

    fps: float = 30.0
    exposure_s: float | None = None
    seed: int = 0
    max_subframes: int = 12
    optics_blur_px: float = 0.7
    sharpen: float = 0.5
    read_noise_dn: float = 1.2
    shot_noise_dn: float = 0.035
    flicker: float = 0.03
    mains_hz: float = 50.0
    vignetting: float = 0.2
    cloth_grain: float = 0.012
    shadows: bool = True
    players: bool = True
    score: ScoreGraphic | None = None

    def __post_init__(self) -> None:
        _check("fps", self.fps, 1.0, 1000.0)
        if self.exposure_s is not None:
            _check("exposure_s", self.exposure_s, 1e-6, 1.0 / self.fps)
        _check("max_subframes", self.max_subframes, 1, 64)
        _check("optics_blur_px", self.optics_blur_px, 0.0, 10.0)
        _check("sharpen", self.sharpen, 0.0, 3.0)
        _check("read_noise_dn", self.read_noise_dn, 0.0, 50.0)
        _check("shot_noise_dn", self.shot_noise_dn, 0.0, 5.0)
        _check("flicker", self.flicker, 0.0, 0.5)
        _check("mains_hz", self.mains_hz, 40.0, 70.0)
        _check("vignetting", self.vignetting, 0.0, 1.0)
        _check("cloth_grain", self.cloth_grain, 0.0, 0.2)

    @classmethod
    def clean(cls, fps: float = 30.0, seed: int = 0) -> RenderSettings:
        """A reference render: no motion or optics blur, noise, flicker, vignetting, players."""
        return cls(
            fps=fps,
            seed=seed,
            max_subframes=1,
            optics_blur_px=0.0,
            sharpen=0.0,
            read_noise_dn=0.0,
            shot_noise_dn=0.0,
            flicker=0.0,
            vignetting=0.0,
            cloth_grain=0.0,
            players=False,
        )

    @property
    def exposure(self) -> float:
        """Exposure time in seconds (default: half the frame interval)."""
        return self.exposure_s if self.exposure_s is not None else 0.5 / self.fps


def _check(name: str, value: float, lo: float, hi: float) -> None:
    if not (math.isfinite(value) and lo <= value <= hi):
        raise RenderError(f"{name} must be {lo:g}..{hi:g}, got {value!r}")


@dataclass(frozen=True, slots=True, eq=False)
class RenderedFrame:
    """One frame: the BGR image (h, w, 3) uint8 and what it shows at ``t_s``.

    ``balls_mm`` are centres (x_mm, y_mm) on the table, ``balls_px`` their projection
    at ball-centre height (u_px, v_px); ``None`` once a ball is off the table.
    ``covered``: balls whose centre the player or cue hides.
    """

    frame_idx: int
    t_s: float
    image: NDArray[np.uint8]
    balls_mm: dict[Ball, tuple[float, float] | None]
    balls_px: dict[Ball, tuple[float, float] | None]
    covered: frozenset[Ball]
    pins: dict[Pin, tuple[float, float, bool]] = field(default_factory=dict)
