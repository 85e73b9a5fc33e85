"""Find the diamonds (bright sights on the rails) near where a camera predicts them.

Theory of operation. A diamond is a small bright spot on the darker wooden rail. Around
each predicted pixel, a square window of the grey image is searched: the brightest
pixel (after a light blur) must stand out by ``min_contrast`` grey levels from the
median of a ring a diamond's size around it, and the connected region above half-way
between the two must be compact (no wider or taller than ``size_px``, not touching the
window's border). Its centre is the intensity-weighted
centroid of that region, to a fraction of a pixel.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["diamond_points", "grey_image"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]


def grey_image(image_bgr: NDArray[np.uint8]) -> F32:
    """Grey levels (h, w) float32 0..255, lightly blurred against noise."""
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(grey, (0, 0), 0.7), dtype=np.float32)


def diamond_points(
    grey: F32, predicted_px: F64, window_px: float, size_px: float, min_contrast: float = 30.0
) -> tuple[NDArray[np.intp], F64]:
    """Diamonds found near their predicted pixels.

    Args:
        grey: Grey image (h, w) (:func:`grey_image`).
        predicted_px: Predicted diamond centres (n, 2) ``uv_px``; NaN rows are skipped.
        window_px: Half-size of the square searched around each prediction, px.
        size_px: Largest diamond extent, px (a blob wider or taller is something else).
        min_contrast: Peak over the window median, grey levels.

    Returns:
        Indices (m,) into ``predicted_px`` of the diamonds found and their sub-pixel
        centres (m, 2) ``uv_px``.
    """
    h, w = grey.shape
    r = max(round(window_px), 3)
    idx: list[int] = []
    found: list[tuple[float, float]] = []
    for i, (u, v) in enumerate(predicted_px):
        if not (np.isfinite(u) and np.isfinite(v)):
            continue
        u0, v0 = round(u) - r, round(v) - r
        if u0 < 0 or v0 < 0 or u0 + 2 * r + 1 > w or v0 + 2 * r + 1 > h:
            continue
        centre = _blob(grey[v0 : v0 + 2 * r + 1, u0 : u0 + 2 * r + 1], size_px, min_contrast)
        if centre is not None:
            idx.append(i)
            found.append((u0 + centre[0], v0 + centre[1]))
    uv = np.array(found, dtype=np.float64).reshape(-1, 2)
    # A blob two predictions claim belongs to neither.
    near = np.hypot(*(uv[:, None] - uv[None]).transpose(2, 0, 1)) < 3.0
    alone = near.sum(axis=1) == 1
    return np.array(idx, dtype=np.intp)[alone], uv[alone]


def _blob(win: F32, size_px: float, min_contrast: float) -> tuple[float, float] | None:
    """Sub-pixel centre (x, y) of the compact bright blob in a window, or None."""
    y, x = np.unravel_index(int(np.argmax(win)), win.shape)
    peak = float(win[y, x])
    # Background: the ring of pixels a diamond's size away from the peak.
    yy, xx = np.indices(win.shape)
    ring = np.abs(np.hypot(yy - y, xx - x) - max(size_px, 3.0)) < 1.0
    bg = float(np.median(win[ring])) if ring.any() else float(np.median(win))
    if peak - bg < min_contrast:
        return None
    thr = 0.5 * (peak + bg)
    mask = (win > thr).astype(np.uint8)
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    blob = labels == labels[y, x]
    ys, xs = np.nonzero(blob)
    size = win.shape[0]
    if xs.min() == 0 or ys.min() == 0 or xs.max() == size - 1 or ys.max() == size - 1:
        return None
    if max(np.ptp(xs), np.ptp(ys)) + 1 > max(size_px, 3.0):
        return None  # too big or elongated: a highlight on a cushion, a cue, a logo
    wgt = win[ys, xs].astype(np.float64) - thr
    return float(xs @ wgt / wgt.sum()), float(ys @ wgt / wgt.sum())
