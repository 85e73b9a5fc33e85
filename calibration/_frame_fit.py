"""Does a calibration fit a frame? The cloth edges found in it against the projected ones.

Theory of operation. A calibration file may belong to another camera, another lens or
another table, or carry a wrong value that is still in range (a radial lens term 0.5
where the lens has -0.057 bends the cushions tens of pixels). Before a video is refereed
with one, a single frame is checked: :func:`calibration.detect_table` finds the cloth's
four edges in the picture without any camera model; the calibration projects where the
cloth edge must be (the foot of each cushion face on a side the camera is inside of, the
nose on a side it is beyond, as the fit measures it). Per side of the picture the
misfit is the median distance from the edge points found to the projected outline; the
worst side is compared with :func:`tolerance_px`. The fitted calibration of the bundled
clips is within 0.3-3 px of the edges found; a lens wrong by 0.06 in k1 about 8 px, by
0.5 about 70 px.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration._detect import detect_table
from calibration._errors import CalibrationError
from calibration._file import Calibration

__all__ = ["FrameFit", "frame_fit", "projected_outline", "tolerance_px"]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: Picture sides as :func:`detect_table` orders them (clockwise from the top-left corner).
SIDE_NAMES = ("top", "right", "bottom", "left")
_PER_SIDE = 1000  # projected points a cushion (about 1 px apart at 720p)
_EDGE_POINTS = 120  # edge points kept a side


def tolerance_px(size_px: tuple[int, int]) -> float:
    """Misfit a calibration may have on a frame of ``size_px``: 0.4% of the diagonal.

    5.9 px at 1280x720, 8.8 px at 1920x1080 (about 17 mm on a match table seen whole);
    at least 4 px.
    """
    return max(4.0, 0.004 * math.hypot(*size_px))


@dataclass(frozen=True, slots=True)
class FrameFit:
    """How far a frame's cloth edges lie from where a calibration puts them.

    Args:
        misfit_px: Per picture side (top, right, bottom, left), the median distance in
            pixels from the edge points found to the projected outline (inf: none
            projected).
        tolerance_px: The allowed misfit for this frame size.
    """

    misfit_px: tuple[float, float, float, float]
    tolerance_px: float

    @property
    def worst_side(self) -> str:
        """The picture side that fits worst (``top``, ``right``, ``bottom``, ``left``)."""
        return SIDE_NAMES[int(np.argmax(self.misfit_px))]

    @property
    def worst_px(self) -> float:
        """The largest per-side misfit, pixels."""
        return max(self.misfit_px)

    @property
    def fits(self) -> bool:
        """True when every side is within the tolerance."""
        return self.worst_px <= self.tolerance_px


def projected_outline(calib: Calibration) -> F64:
    """Where the calibration puts the cloth's edge in the picture: points (n, 2) ``uv_px``.

    The foot of the cushion face (z = 0) on a side the camera is inside of, the nose
    (z = cushion height) on a side it is beyond; points that do not project are left out.
    """
    geometry, camera = calib.geometry, calib.camera
    centre = np.array([geometry.length_mm / 2.0, geometry.width_mm / 2.0])
    t = np.linspace(0.0, 1.0, _PER_SIDE)[:, None]
    parts = []
    for seg in geometry.cushion_segments_mm():
        mid = seg.mean(axis=0)
        inside = float((camera.position_mm[:2] - mid) @ (centre - mid)) > 0.0
        z = 0.0 if inside else geometry.cushion_height_mm
        parts.append(calib.mm_to_px(seg[0] + t * (seg[1] - seg[0]), z))
    uv = np.concatenate(parts)
    out: F64 = uv[np.isfinite(uv).all(axis=1)]
    return out


def frame_fit(calib: Calibration, image_bgr: U8) -> FrameFit:
    """Compare ``calib`` with the cloth edges of one frame (h, w, 3) BGR (module docstring).

    Raises:
        CalibrationError: no table found in the frame (the check cannot be made), or a
            frame of another size than the one ``calib`` was fitted to (its outline would
            be compared with another picture's edges).
    """
    w, h = calib.image_size_px
    shape = image_bgr.shape if isinstance(image_bgr, np.ndarray) else None
    if shape is None or len(shape) < 2 or tuple(shape[:2]) != (h, w):
        got = "no picture" if shape is None else f"an array of shape {shape}"
        if shape is not None and len(shape) in (2, 3):
            got = f"a {shape[1]}x{shape[0]} frame"
        raise CalibrationError(
            f"frame_fit: {got}, but the calibration was fitted to {w}x{h} pictures; give "
            "a frame of the camera it was fitted to, or calibrate this camera"
        )
    edges = detect_table(image_bgr).thinned(_EDGE_POINTS)
    outline = projected_outline(calib)
    misfit = []
    for pts in edges.edges_px:
        if len(outline) == 0 or len(pts) == 0:
            misfit.append(math.inf)
            continue
        d2 = ((pts[:, None, :] - outline[None, :, :]) ** 2).sum(axis=2)
        misfit.append(float(np.median(np.sqrt(d2.min(axis=1)))))
    a, b, c, d = misfit
    return FrameFit((a, b, c, d), tolerance_px(calib.image_size_px))
