"""Has the table moved in the picture? A check cheap enough for every few seconds live.

Theory of operation. From the frame the calibration was made on (the reference) we keep
the table's region of the picture: the bounding box of the projected rails, with a
margin, downscaled so its longer side is at most ``work_px``. Each check turns both the
reference region and the new frame's region into gradient-magnitude images (edges:
cushions, rails and diamonds, indifferent to the lamps' brightness) kept only on the
cushions and rails: the cloth, where the balls roll and the players lean in, is masked
out (with the balls in, a frame after a shot matched the reference hundreds of pixels
off). Phase correlation finds the translation between them with sub-pixel precision. A shift above
``threshold_px`` (in full-size pixels) means the camera was bumped: the calibration no
longer fits and must be re-fitted. A weak correlation peak means the two pictures
cannot be compared (the table hidden, the lights off): that is said, not guessed. The
cloth colour at the table centre is compared too: a very different cloth means another
table or another camera.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError
from calibration._file import Calibration

__all__ = ["DriftCheck", "DriftResult"]

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]

#: Phase-correlation peak below which the frames cannot be compared.
MIN_RESPONSE = 0.05
#: Mean absolute cloth colour change (0..255 per channel) that means another table.
CLOTH_CHANGE = 60.0


@dataclass(frozen=True, slots=True)
class DriftResult:
    """Outcome of one check.

    Args:
        moved: True when the calibration no longer fits the picture.
        shift_px: Length of the estimated shift of the table, full-size pixels.
        reason: One line for the user; empty when all is well.
        shift_uv_px: The shift (du, dv) in pixels, image right and down positive.
    """

    moved: bool
    shift_px: float
    reason: str
    shift_uv_px: tuple[float, float] = (0.0, 0.0)


class DriftCheck:
    """Compares frames with the reference frame of a calibration.

    Args:
        reference_bgr: The frame the calibration fits, (h, w, 3) uint8.
        calib: The calibration; its image size must be the frame's.
        threshold_px: Shift (full-size pixels) above which the table has moved.
        work_px: Longer side of the downscaled table region the correlation runs on.
    """

    def __init__(
        self,
        reference_bgr: U8,
        calib: Calibration,
        *,
        threshold_px: float = 4.0,
        work_px: int = 384,
    ) -> None:
        if not (math.isfinite(threshold_px) and 0.5 <= threshold_px <= 100.0):
            raise CalibrationError(f"threshold_px must be 0.5..100, got {threshold_px!r}")
        if not 64 <= work_px <= 2048:
            raise CalibrationError(f"work_px must be 64..2048, got {work_px!r}")
        _check_frame(reference_bgr, calib.image_size_px, "reference_bgr")
        self.threshold_px = threshold_px
        self._size = calib.image_size_px
        self._box = _table_box(calib)
        x0, y0, x1, y1 = self._box
        self._scale = min(1.0, work_px / max(x1 - x0, y1 - y0))
        self._mask = _rail_band(calib, self._box, self._scale)
        self._ref = self._edges(reference_bgr) * self._mask
        self._window = cv2.createHanningWindow(self._ref.shape[::-1], cv2.CV_32F)
        self._cloth_uv = _cloth_window(calib)
        self._cloth = self._cloth_colour(reference_bgr)

    def check(self, frame_bgr: U8) -> DriftResult:
        """Estimate how far the table moved since the reference frame (a few ms)."""
        _check_frame(frame_bgr, self._size, "frame_bgr")
        (du, dv), response = cv2.phaseCorrelate(self._ref, self._edges(frame_bgr), self._window)
        du, dv = du / self._scale, dv / self._scale
        if response < MIN_RESPONSE:
            du = dv = math.nan
        shift = math.hypot(du, dv)
        cloth = float(np.abs(self._cloth_colour(frame_bgr) - self._cloth).mean())
        if cloth > CLOTH_CHANGE:
            why = f"the cloth looks different (colour changed by {cloth:.0f}/255)"
            return DriftResult(True, shift, _warn(why), (du, dv))
        if response < MIN_RESPONSE:
            why = "cannot compare with the calibration frame (table hidden or lights changed?)"
            return DriftResult(False, shift, why, (du, dv))
        if shift > self.threshold_px:
            why = f"the table moved {shift:.1f} px in the picture ({du:+.1f}, {dv:+.1f})"
            return DriftResult(True, shift, _warn(why), (du, dv))
        return DriftResult(False, shift, "", (du, dv))

    def _edges(self, frame_bgr: U8) -> F32:
        x0, y0, x1, y1 = self._box
        grey = np.asarray(cv2.cvtColor(frame_bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), np.float32)
        if self._scale < 1.0:
            size = (round((x1 - x0) * self._scale), round((y1 - y0) * self._scale))
            grey = np.asarray(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), np.float32)
        img = cv2.GaussianBlur(grey, (0, 0), 1.0)
        gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3)
        return np.asarray(cv2.magnitude(gx, gy), np.float32)

    def _cloth_colour(self, frame_bgr: U8) -> NDArray[np.float64]:
        u0, v0, u1, v1 = self._cloth_uv
        patch = frame_bgr[v0:v1, u0:u1].reshape(-1, 3)
        out: NDArray[np.float64] = np.median(patch, axis=0).astype(np.float64)
        return out


def _warn(why: str) -> str:
    return f"camera moved: {why}; the calibration no longer fits, re-run carom calibrate"


def _check_frame(frame: U8, size_px: tuple[int, int], name: str) -> None:
    w, h = size_px
    if frame.shape != (h, w, 3) or frame.dtype != np.uint8:
        raise CalibrationError(
            f"{name}: expected ({h}, {w}, 3) uint8 (the calibration's size), "
            f"got {frame.shape} {frame.dtype}"
        )


def _table_box(calib: Calibration) -> tuple[int, int, int, int]:
    """Pixel box (u0, v0, u1, v1) around the projected rails, clipped to the image."""
    geo = calib.geometry
    off = geo.diamond_offset_mm + geo.rail_width_mm / 2.0
    xy = geo.corners_mm() + np.array([[-off, -off], [off, -off], [off, off], [-off, off]])
    edges = [np.linspace(xy[i], xy[(i + 1) % 4], 20) for i in range(4)]
    uv = calib.mm_to_px(np.concatenate(edges), geo.rail_height_mm)
    uv = uv[np.isfinite(uv).all(axis=1)]
    w, h = calib.image_size_px
    if len(uv) == 0:
        return 0, 0, w, h
    u0, v0 = np.floor(uv.min(axis=0)).astype(int) - 8
    u1, v1 = np.ceil(uv.max(axis=0)).astype(int) + 8
    box = max(int(u0), 0), max(int(v0), 0), min(int(u1), w), min(int(v1), h)
    if box[2] - box[0] < 32 or box[3] - box[1] < 32:
        raise CalibrationError("drift check: the table is (almost) outside the picture")
    return box


def _rail_band(calib: Calibration, box: tuple[int, int, int, int], scale: float) -> F32:
    """Weights 0..1 on the rails (1) and the cloth (0), in the downscaled table box.

    The band runs from half-way across the cushion top (a ball at the nose and the
    nose's own edge stay out even after a shift of a few pixels) to 40 mm beyond the
    rails' outer edge, with feathered borders: a hard mask border would pull the
    correlation towards no shift.
    """
    geo = calib.geometry
    x0, y0, x1, y1 = box
    h, w = (y1 - y0, x1 - x0)
    shape = (round(h * scale), round(w * scale)) if scale < 1.0 else (h, w)
    band = np.zeros(shape, np.uint8)
    outer = geo.cushion_width_mm + geo.rail_width_mm + 40.0
    for off, z, value in ((outer, geo.rail_height_mm, 1),
                          (geo.cushion_width_mm / 2.0, geo.cushion_height_mm, 0)):  # fmt: skip
        xy = geo.corners_mm() + off * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
        ring = np.concatenate([np.linspace(xy[i], xy[(i + 1) % 4], 40) for i in range(4)])
        uv = calib.mm_to_px(ring, z)
        uv = (uv[np.isfinite(uv).all(axis=1)] - [x0, y0]) * min(scale, 1.0)
        cv2.fillPoly(band, [np.round(uv * 16).astype(np.int32)], value, cv2.LINE_8, shift=4)
    return np.asarray(cv2.GaussianBlur(band.astype(np.float32), (0, 0), 2.0), np.float32)


def _cloth_window(calib: Calibration) -> tuple[int, int, int, int]:
    """A small pixel box on the cloth beside the centre spot (the spot itself left out)."""
    geo = calib.geometry
    xy = np.array([[geo.length_mm * 0.4, geo.width_mm * 0.4], [geo.length_mm * 0.45,
                   geo.width_mm * 0.45]])  # fmt: skip
    uv = calib.mm_to_px(xy, 0.0)
    w, h = calib.image_size_px
    u0, u1 = sorted(np.clip(uv[:, 0], 0, w - 1).astype(int).tolist())
    v0, v1 = sorted(np.clip(uv[:, 1], 0, h - 1).astype(int).tolist())
    return u0, v0, max(u1, u0 + 1), max(v1, v0 + 1)
