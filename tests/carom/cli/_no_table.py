"""Pictures calibration must refuse: a floor without a table, a table half out of view,
and a grey table whose cloth the automatic fit cannot find (marked corners fit it)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tests.calibration.test_empty_table import clean_table
from vision import open_video


def floor() -> np.ndarray:
    """A wooden floor (540, 960, 3) BGR: brown planks with grain, no table anywhere."""
    rng = np.random.default_rng(3)
    h, w = 540, 960
    image = np.zeros((h, w, 3), np.uint8)
    for i, top in enumerate(range(0, h, 60)):
        tone = np.array([40, 80, 130]) + 12 * (i % 3)  # BGR brown, plank by plank
        grain = rng.normal(0.0, 6.0, (min(60, h - top), w, 1))
        image[top : top + 60] = np.clip(tone + grain, 0, 255).astype(np.uint8)
        image[top : top + 2] = (25, 45, 70)  # the gap between planks
    return image


def half_table() -> np.ndarray:
    """The rendered table (540, 960, 3) moved left by half the picture: half is out."""
    table = clean_table()
    out = np.empty_like(table)
    out[:] = table[5, 5]  # the floor round the table
    out[:, :480] = table[:, 480:]
    return out


#: Where the cloth meets the cushions in :func:`grey_table` (px, clockwise from top left).
GREY_TABLE_CORNERS = [[120.2, 91.8], [838.8, 91.7], [816.9, 436.5], [142.1, 436.5]]


def grey_table() -> np.ndarray:
    """The rendered table (540, 960, 3) in grey: no cloth colour to find, corners to mark."""
    grey = cv2.cvtColor(clean_table(), cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), np.uint8)


def write_clip(path: Path, image: np.ndarray, seconds: float = 2.0, fps: float = 20.0) -> Path:
    """A still video of ``image`` (H.264), as a camera over it would record."""
    h, w = image.shape[:2]
    sink = open_video(path, fps, (w, h))
    try:
        for _ in range(round(seconds * fps)):
            sink.write(image)
    finally:
        sink.close()
    return path
