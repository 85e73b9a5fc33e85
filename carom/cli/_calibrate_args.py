"""The values of ``carom calibrate``'s options: marked points, a pattern, board pictures.

Imported when the command runs (not when the parser is built: it loads OpenCV).
"""

from __future__ import annotations

import glob
import math
from pathlib import Path

import cv2
import numpy as np

from calibration import CalibrationError, Distortion, Intrinsics, fit_lens_from_checkerboards
from vision import IMAGE_SUFFIXES

__all__ = [
    "corners_inside",
    "lens_from_checkerboards",
    "parse_corners",
    "parse_diamonds",
    "parse_pattern",
]


def parse_corners(text: str) -> list[list[float]]:
    """``"u,v;u,v;u,v;u,v"`` -> four [u, v] pixel points."""
    try:
        points = [[float(c) for c in pair.split(",")] for pair in text.split(";")]
    except ValueError:
        raise CalibrationError(
            f"--corners: expected 'u,v;u,v;u,v;u,v' in pixels, got {text!r}"
        ) from None
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise CalibrationError(f"--corners: expected 4 points 'u,v' separated by ';', got {text!r}")
    _check_pixels("--corners", [c for p in points for c in p], text)
    return points


def corners_inside(points: list[list[float]], width_px: int, height_px: int) -> None:
    """Refuse a marked corner outside the picture (a typo: an extra digit, u and v swapped)."""
    for i, (u, v) in enumerate(points, start=1):
        if not (u < width_px and v < height_px):
            size = f"{width_px}x{height_px}"
            raise CalibrationError(f"--corners: corner {i} ({u:g},{v:g}) lies outside the "
                                   f"{size} picture; give pixels within it")  # fmt: skip


def _check_pixels(option: str, values: list[float], text: str) -> None:
    """Pixel coordinates are finite and not negative (NaN or -5 is a typo, not a place)."""
    if not all(math.isfinite(v) and v >= 0.0 for v in values):
        raise CalibrationError(f"{option}: pixel coordinates must be finite and >= 0, got {text!r}")


def parse_diamonds(text: str) -> list[list[float]]:
    """``"i:u,v;j:u,v"`` -> rows [index, u, v]: diamond ``index`` (0..23) seen at (u, v) px."""
    rows = []
    for item in text.split(";"):
        try:
            index, uv = item.split(":")
            u, v = (float(c) for c in uv.split(","))
            rows.append([float(int(index)), u, v])
            _check_pixels("--diamonds", [u, v], item)
        except ValueError:
            raise CalibrationError(
                f"--diamonds: expected 'i:u,v;j:u,v' (diamond index 0..23, pixels), got {item!r}"
            ) from None
        if not 0 <= rows[-1][0] <= 23:  # bad input (status 2), not a failed fit (4)
            raise CalibrationError(
                f"--diamonds: {item!r}: index {rows[-1][0]:g} is not a diamond; use 0..23 "
                "(0..8 left rail, 9..17 right, 18..20 head, 21..23 foot)"
            )
        if rows[-1][0] in (r[0] for r in rows[:-1]):  # bad input too, not the corners
            raise CalibrationError(f"--diamonds: {item!r}: diamond {rows[-1][0]:g} is marked "
                                   "twice; mark each once")  # fmt: skip
    return rows


def parse_pattern(text: str) -> tuple[int, int]:
    """``"9x6"`` -> (9, 6) inner corners of a checkerboard."""
    try:
        cols, rows = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CalibrationError(
            f"--pattern: expected inner corners COLSxROWS, e.g. 9x6, got {text!r}"
        ) from None
    return cols, rows


def lens_from_checkerboards(
    spec: str, pattern: tuple[int, int], square_mm: float
) -> tuple[Intrinsics, Distortion, float]:
    """The lens from the checkerboard pictures in folder ``spec`` or matching glob ``spec``."""
    path = Path(spec)
    names = sorted(str(p) for p in path.iterdir()) if path.is_dir() else sorted(glob.glob(spec))
    names = [n for n in names if Path(n).suffix.lower() in IMAGE_SUFFIXES]
    if not names:
        raise CalibrationError(
            f"--checkerboard: no pictures (.png, .jpg ...) in or matching {spec!r}; "
            "give a folder or a quoted glob"
        )
    images = []
    for name in names:
        image = cv2.imread(name)
        if image is None:
            raise CalibrationError(f"{name}: cannot read this picture; remove it or replace it")
        images.append(np.asarray(image, dtype=np.uint8))
    return fit_lens_from_checkerboards(images, pattern, square_mm)
