"""Cameras framed on a table: how much of the picture the table fills.

A :class:`Mount` says where a camera hangs and how it is turned (height, tilt, yaw, roll,
the lens's distortion, the aim's offset from the table centre); :func:`framed_camera`
then chooses the field of view so the table fills the picture as asked: either the
table's outline (the playing surface grown by ``margin_mm``) reaches ``fill`` of the
way from the image centre to the nearest frame edge, or the cloth covers ``area`` of
the picture. The outline always stays inside the frame: an offset aim that would push
it out is halved until it fits, and a mount too low for its lens (the radial model
folds before the frame's corners, so some pixels would have no viewing ray) is raised.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from calibration import Camera, Distortion
from referee import Table
from synth._scene import RenderError

__all__ = ["Mount", "framed_camera", "outline_mm"]

F64 = NDArray[np.float64]
_HFOV_RANGE = (10.0, 150.0)


@dataclass(frozen=True, slots=True)
class Mount:
    """Where the camera hangs over a table and how it is turned (angles in degrees)."""

    height_mm: float = 2800.0
    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    k1: float = 0.0
    k2: float = 0.0
    offset_mm: tuple[float, float] = (0.0, 0.0)

    def camera(self, table: Table, size_px: tuple[int, int], hfov_deg: float) -> Camera:
        """The camera with this mount and field of view, aimed at centre + offset."""
        aim = (table.length_mm / 2.0 + self.offset_mm[0], table.width_mm / 2.0 + self.offset_mm[1])
        return Camera.overhead(
            width_px=size_px[0], height_px=size_px[1], hfov_deg=hfov_deg,
            height_mm=self.height_mm, aim_mm=aim, yaw_deg=self.yaw_deg,
            tilt_deg=self.tilt_deg, roll_deg=self.roll_deg,
            distortion=Distortion(k1=self.k1, k2=self.k2),
        )  # fmt: skip


def outline_mm(table: Table, margin_mm: float, z_mm: float = 0.0, per_side: int = 24) -> F64:
    """Points (4 * per_side, 3) mm around the playing surface grown by ``margin_mm``."""
    lo, hi = -margin_mm, np.array([table.length_mm, table.width_mm]) + margin_mm
    corners = np.array([[lo, lo], [hi[0], lo], [hi[0], hi[1]], [lo, hi[1]]])
    t = np.linspace(0.0, 1.0, per_side, endpoint=False)[:, None]
    sides = [a + t * (b - a) for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True)]
    xy = np.concatenate(sides)
    out: F64 = np.column_stack([xy, np.full(len(xy), z_mm)])
    return out


def _extent(camera: Camera, points_mm: F64) -> float:
    """How far the points reach: 1.0 on the frame edge nearest to them; inf if unseen."""
    uv = camera.project(points_mm)
    if not np.all(np.isfinite(uv)):
        return float("inf")
    w, h = camera.size_px
    return float(max(np.abs(uv[:, 0] - w / 2.0).max() / (w / 2.0),
                     np.abs(uv[:, 1] - h / 2.0).max() / (h / 2.0)))  # fmt: skip


def _area_share(camera: Camera, table: Table) -> float:
    """The cloth's share of the picture (0..1); 1.0 if part of it is not seen."""
    uv = camera.project(outline_mm(table, 0.0))
    if not np.all(np.isfinite(uv)):
        return 1.0
    u, v = uv[:, 0], uv[:, 1]
    area = 0.5 * abs(float(u @ np.roll(v, -1) - v @ np.roll(u, -1)))
    w, h = camera.size_px
    return area / (w * h)


def _solve_hfov(measure: Callable[[float], float], target: float) -> float:
    """The field of view where ``measure`` (falling with the field of view) meets ``target``."""
    lo, hi = _HFOV_RANGE
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if measure(mid) > target:
            lo = mid
        else:
            hi = mid
    return hi


def _whole_frame_seen(camera: Camera) -> bool:
    """True if every frame corner has a viewing ray (a strong lens may fold before it)."""
    w, h = camera.size_px
    rays = camera.rays(np.array([[0.0, 0.0], [w - 1.0, 0.0], [0.0, h - 1.0], [w - 1.0, h - 1.0]]))
    return bool(np.all(np.isfinite(rays)))


def _framed(
    table: Table,
    size_px: tuple[int, int],
    mount: Mount,
    fill: float | None,
    area: float | None,
    outline: F64,
) -> Camera:
    def reach(hfov: float) -> float:
        return _extent(mount.camera(table, size_px, hfov), outline)

    def share(hfov: float) -> float:
        return _area_share(mount.camera(table, size_px, hfov), table)

    hfov = _solve_hfov(reach, fill) if fill is not None else _solve_hfov(share, float(area or 0.0))
    return mount.camera(table, size_px, hfov)


def framed_camera(
    table: Table,
    size_px: tuple[int, int],
    mount: Mount,
    *,
    fill: float | None = None,
    area: float | None = None,
    margin_mm: float = 200.0,
) -> Camera:
    """The mount's camera with the field of view that frames the table as asked.

    Exactly one of ``fill`` (0..1: the outline's reach from the centre to the frame
    edge) or ``area`` (0..1: the cloth's share of the picture) is given.

    Raises:
        RenderError: no field of view and offset keep the outline in the frame.
    """
    if (fill is None) == (area is None):
        raise RenderError("framed_camera: give exactly one of fill or area")
    outline = outline_mm(table, margin_mm)
    for _ in range(8):
        camera = _framed(table, size_px, mount, fill, area, outline)
        inside, seen = _extent(camera, outline) <= 1.0, _whole_frame_seen(camera)
        if inside and seen:
            return camera
        if not seen:  # the lens folds before the frame's corners: hang the camera higher
            mount = replace(mount, height_mm=mount.height_mm * 1.15)
        if not inside:
            dx, dy = mount.offset_mm
            mount = replace(mount, offset_mm=(dx / 2.0, dy / 2.0))
    raise RenderError(f"framed_camera: the table does not fit the frame with {mount}")
