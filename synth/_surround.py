"""Extras painted on the static table image: floor patches, stickers, pocket jaws.

What a calibration must ignore (issue 17): a larger table or floor lines around the
table (:class:`synth.FloorPatch`), printed markers and stickers on the rails or the cloth
(:class:`synth.Sticker`), the leather jaws around a pocket table's holes. Each works on
the albedo (linear BGR, (m, 3)) of the rays' surface points ``hit`` (m, 3) mm before the
light is applied; the table look's defaults have none, and then nothing here runs.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from synth._scene import FloorPatch, Sticker, TableLook, linear_bgr

__all__ = ["decorate"]

F64 = NDArray[np.float64]
B = NDArray[np.bool_]


def decorate(out: F64, hit: F64, masks: tuple[B, ...], footprint_mm: F64, look: TableLook) -> None:
    """Paint the look's floor patches, stickers and pocket jaws onto ``out`` (m, 3).

    ``masks`` are the surfaces hit (rail, cushion top, cloth, cushion face, apron);
    ``footprint_mm`` (m,) the width one ray stands for at the cloth (edge ramps).
    """
    is_rail, is_cush, is_cloth, is_face, is_apron = masks
    ramp = np.maximum(footprint_mm, 1.0)
    if look.floor_patches:
        floor = np.flatnonzero(~(is_rail | is_cush | is_cloth | is_face | is_apron))
        for patch in look.floor_patches:
            _patch(out, hit, floor, ramp, patch)
    if look.stickers:
        top = np.flatnonzero(is_rail | is_cush | is_cloth)
        for sticker in look.stickers:
            _sticker(out, hit, top, ramp, sticker)
    if look.pockets and look.pocket_jaw_mm > 0.0:
        _jaws(out, hit, np.flatnonzero(is_rail | is_cush), look)


def _frame_coords(hit: F64, idx: NDArray[np.intp], x: float, y: float, angle: float) -> F64:
    """Coordinates (k, 2) of the points ``idx`` along and across a turned frame at (x, y)."""
    a = math.radians(angle)
    u = np.array([math.cos(a), math.sin(a)])
    n = np.array([-u[1], u[0]])
    d = hit[idx, :2] - np.array([x, y])
    return np.stack([d @ u, d @ n], axis=1)


def _box_cover(coords: F64, half_a: float, half_b: float, ramp: F64) -> F64:
    """Share (k,) of each point's footprint inside the box |a| <= half_a, |b| <= half_b."""
    ca = np.clip((half_a - np.abs(coords[:, 0])) / ramp + 0.5, 0.0, 1.0)
    cb = np.clip((half_b - np.abs(coords[:, 1])) / ramp + 0.5, 0.0, 1.0)
    out: F64 = ca * cb
    return out


def _blend(out: F64, idx: NDArray[np.intp], cover: F64, rgb: tuple[int, int, int]) -> None:
    alpha = cover[:, None]
    out[idx] = out[idx] * (1.0 - alpha) + linear_bgr(rgb) * alpha


def _patch(out: F64, hit: F64, idx: NDArray[np.intp], ramp: F64, patch: FloorPatch) -> None:
    coords = _frame_coords(hit, idx, patch.x_mm, patch.y_mm, patch.angle_deg)
    cover = _box_cover(coords, patch.length_mm / 2.0, patch.width_mm / 2.0, ramp[idx] * 1.5)
    _blend(out, idx, cover, patch.colour)


def _sticker(out: F64, hit: F64, idx: NDArray[np.intp], ramp: F64, sticker: Sticker) -> None:
    coords = _frame_coords(hit, idx, sticker.x_mm, sticker.y_mm, sticker.angle_deg)
    half = sticker.size_mm / 2.0
    _blend(out, idx, _box_cover(coords, half, half, ramp[idx]), sticker.paper)
    if sticker.ink is not None:
        inner = _box_cover(coords, 0.7 * half, 0.7 * half, ramp[idx])
        checker = (coords[:, 0] * coords[:, 1] > 0.0).astype(np.float64)
        _blend(out, idx, inner * checker, sticker.ink)


def _jaws(out: F64, hit: F64, idx: NDArray[np.intp], look: TableLook) -> None:
    """A leather ring ``pocket_jaw_mm`` wide around each pocket hole (rail, cushion top)."""
    outer = look.pocket_radius_mm + look.pocket_jaw_mm
    for cx, cy in look.geometry().pockets_mm().values():
        d = np.hypot(hit[idx, 0] - cx, hit[idx, 1] - cy)
        _blend(out, idx, np.clip(outer + 0.5 - d, 0.0, 1.0), look.pocket_jaw)
