"""The static table as one camera sees it: traced once, kept for the next renderer.

Theory of operation. Tracing the table, its rails and the floor along every pixel's
viewing ray, with 2x2 samples where the picture has an edge (anti-aliasing), is most
of a renderer's set-up: about 2 s of a 1080p renderer's 2.4 s on the 2-core machine.
It depends on the camera and on the table's look, lamps and ambient light only, not
on the seed, the optics, the sensor or the players. So the last ``KEPT`` tracings are
kept: the same table rendered again by the same camera (with players and without, in
another seed or noise, as the tests do) skips it. One tracing is about 120 MB at
1080p (rays, the light along them and the points they hit); its arrays are read-only,
shared by every renderer that uses it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration import Camera
from synth._scene import Lamp, Scene, TableLook
from synth._shading import Lighting, background
from synth._sprites import encode

__all__ = ["KEPT", "StaticTable", "static_table"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
#: Tracings kept (the most recently used).
KEPT = 2
_CHUNK = 65536  # rays traced at once


@dataclass(frozen=True, slots=True)
class StaticTable:
    """The static scene along one camera's pixels (read-only arrays, h x w pixels).

    Attributes:
        rays: Each pixel's viewing direction (h, w, 3) float32, lens distortion included.
        cos_axis: Cosine between each ray and the optical axis (h * w,) float64, 0..1.
        lin: Linear BGR light along each ray (h * w, 3) float64, anti-aliased at edges.
        hit: The surface point each ray meets (h, w, 3) float32, mm.
    """

    rays: F32
    cos_axis: F64
    lin: F64
    hit: F32


@functools.lru_cache(maxsize=KEPT)
def static_table(
    camera: Camera, look: TableLook, lamps: tuple[Lamp, ...], ambient: float
) -> StaticTable:
    """The static scene of ``look`` under ``lamps`` seen by ``camera`` (module doc)."""
    scene = Scene(look=look, lamps=lamps, ambient=ambient)
    light = Lighting.of(scene)
    w, h = camera.size_px
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    rays64 = camera.rays(np.stack([u.ravel(), v.ravel()], axis=1))
    axis = camera.pose.rotation()[2] * np.array([1.0, 1.0, -1.0])
    cos_axis = np.clip(np.nan_to_num(rays64 @ axis, nan=0.0), 0.0, 1.0)
    rays = rays64.reshape(h, w, 3).astype(np.float32)
    k = camera.intrinsics
    px_rad = 2.0 / (k.fx_px + k.fy_px)  # the angle of one pixel near the axis
    origin = camera.position_mm
    lin, hit = _trace(origin, rays.reshape(-1, 3).astype(np.float64), scene, light, px_rad)
    edges = np.flatnonzero(_edges(encode(lin).reshape(h, w, 3)))
    uv = np.stack([edges % w, edges // w], axis=1).astype(np.float64)
    fine = np.zeros((len(edges), 3))
    for off in ((-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)):
        sub_rays = np.nan_to_num(camera.rays(uv + np.array(off)))
        fine += _trace(origin, sub_rays, scene, light, px_rad / 2.0)[0] / 4.0
    lin[edges] = fine
    out = StaticTable(rays, cos_axis, lin, hit.reshape(h, w, 3).astype(np.float32))
    for array in (out.rays, out.cos_axis, out.lin, out.hit):
        array.flags.writeable = False
    return out


def _trace(origin: F64, rays: F64, scene: Scene, light: Lighting, px_rad: float) -> tuple[F64, F64]:
    """Linear BGR (m, 3) and surface points (m, 3) of the static scene along rays.

    ``px_rad``: the angle each ray stands for (thin marks are averaged over it).
    """
    lin, hit = np.zeros_like(rays), np.zeros_like(rays)
    for start in range(0, len(rays), _CHUNK):
        part = slice(start, start + _CHUNK)
        lin[part], hit[part] = background(origin, rays[part], scene, light, px_rad)
    return np.nan_to_num(lin), np.nan_to_num(hit)


def _edges(display: F64) -> NDArray[np.bool_]:
    """Pixels (h, w) that differ from a 4-neighbour by more than 4 display levels."""
    diff = np.zeros(display.shape[:2])
    dx = np.abs(np.diff(display, axis=1)).max(axis=2)
    dy = np.abs(np.diff(display, axis=0)).max(axis=2)
    diff[:, 1:] = np.maximum(diff[:, 1:], dx)
    diff[:, :-1] = np.maximum(diff[:, :-1], dx)
    diff[1:] = np.maximum(diff[1:], dy)
    diff[:-1] = np.maximum(diff[:-1], dy)
    out: NDArray[np.bool_] = diff > 4.0
    return out
