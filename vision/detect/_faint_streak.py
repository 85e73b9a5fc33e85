"""A ball gone too fast to be seen: its faint streak, found by the share of its colour.

Theory of operation. A ball that runs several radii within one exposure covers no
pixel of its streak for more than a part of it: at 30 fps a white struck at 7 m/s
covers each for a fifth to a third of the exposure, and on a blue cloth its streak
is a light grey-blue that neither the colour detector's coarse foreground nor the
network take for a ball (tuning pt0029: the white unseen in the two frames between
its stroke and its kiss, and the yellow's cushion at that kiss lost with it). Blur
moves a ball's colour about but keeps its amount: summed over the streak, the share
of the ball's colour (0 at the cloth, 1 at the ball, :class:`ColourModel`) is about
one ball's area, however long the streak.

:func:`faint_streak` looks in a window round where a missing ball was last seen:

1. **Pixels.** Those whose colour lies on the ball's line from the cloth: a share of
   at least ``_MIN_SHARE`` and within ``_MAX_ANGLE`` of the line's direction (noise on
   the cloth has no direction; another ball's colour has its own line).
2. **Regions.** Connected regions of them, other balls' discs left out. One is the
   ball's streak when its summed share is ``_MASS`` ball areas, it is longer than a
   ball by ``_MIN_EXTRA`` radii, no wider than a ball, faint all along (a ball seen
   in full colour is the colour detector's), and its axis passes within
   ``_THROUGH`` radii of where the ball was last seen: a ball runs straight between
   two frames, and a struck one leaves from where it rested.
3. **The ball.** The share-weighted centre (the ball's place at mid-exposure) and the
   streak's half-length ``sqrt(3 (l1 - l2))`` along its axis, as the colour
   detector gives a blurred ball; its score is low (``_SCORE``), so that a doubt on
   it stays one.

Thresholds were set on the tuning part of the independent set only
(``bench/independent_events.py``; ``docs/independent-events.md``).
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from referee import Ball
from vision.detect._blob_balls import Found
from vision.detect._colour_model import ColourModel
from vision.detect._detector import Pixels

__all__ = ["MAX_STEP_RADII", "faint_streak"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]

#: Radii a ball may run in one frame (8 m/s at 30 fps is 8.7): the window's reach a frame.
MAX_STEP_RADII = 9.5
_MIN_SHARE = 0.12  # of the ball's colour, for a pixel of its streak
_MAX_ANGLE = math.radians(30.0)  # from the ball's colour line
_MASS = (0.35, 1.5)  # summed share, in ball areas (the rim's faint share left out)
_MIN_EXTRA = 0.5  # half-length beyond a ball's radius, in radii
_MAX_WIDTH = 1.3  # across the axis, in a disc's spread (sqrt(l2) against r / 2)
_MAX_PEAK = 0.6  # 90th percentile share: brighter is a ball the colour detector sees
_THROUGH = 1.5  # radii from the last seen centre to the streak's axis
_OTHERS = 1.5  # radii round the other balls' centres left out
_SCORE = 0.3


def faint_streak(
    model: ColourModel,
    image: Pixels,
    ball: Ball,
    seen: tuple[F64, float, float],
    others_px: F64,
) -> Found | None:
    """The faint streak of ``ball`` near ``seen`` (module docstring), or None.

    ``seen``: where it was last seen (``uv_px`` (2,)), its radius there and how far it
    may be from there now (px). ``others_px`` (m, 2): the other balls' centres.
    """
    (u, v), r, reach = seen
    h, w = image.shape[:2]
    x0, y0 = max(int(u - reach), 0), max(int(v - reach), 0)
    x1, y1 = min(int(u + reach) + 1, w), min(int(v + reach) + 1, h)
    if x1 - x0 < 2 * r or y1 - y0 < 2 * r or ball not in model.balls:
        return None
    share = _shares(model, image[y0:y1, x0:x1], model.balls.index(ball))
    for a, b in np.asarray(others_px, np.float64).reshape(-1, 2):
        cv2.circle(share, (round(a - x0), round(b - y0)), round(_OTHERS * r), 0.0, -1)
    mask = (share > 0).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    best: tuple[float, Found] | None = None
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < r * r:
            continue
        found = _streak(share, labels == i, (x0, y0), (ball, r, np.array([u, v])))
        if found is not None and (best is None or found[0] < best[0]):
            best = found
    return best[1] if best is not None else None


def _shares(model: ColourModel, roi_bgr: NDArray[Any], k: int) -> F32:
    """Share (h, w) of class ``k``'s colour where a pixel lies on its line, else 0."""
    pixels = model.weighted(cv2.cvtColor(roi_bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3))
    diff = pixels - model.cloth.astype(np.float32)
    line = (model.prototypes[k] - model.cloth).astype(np.float32)
    along = diff @ line / float(line @ line)
    norm = np.sqrt((diff * diff).sum(axis=1)) * float(np.linalg.norm(line))
    on_line = diff @ line >= math.cos(_MAX_ANGLE) * np.maximum(norm, 1e-6)
    out: F32 = np.where(on_line & (along >= _MIN_SHARE), along, 0.0).astype(np.float32)
    return out.reshape(roi_bgr.shape[:2])


def _streak(
    share: F32, region: NDArray[np.bool_], origin: tuple[int, int], ball: tuple[Ball, float, F64]
) -> tuple[float, Found] | None:
    """``(mass's distance from one ball, the ball)`` if ``region`` is a streak, else None."""
    name, r, seen = ball
    vs, us = np.nonzero(region)
    wts = np.minimum(share[vs, us], 1.0).astype(np.float64)
    mass = float(wts.sum()) / (math.pi * r * r)
    if not _MASS[0] <= mass <= _MASS[1] or float(np.percentile(wts, 90)) > _MAX_PEAK:
        return None
    pts = np.c_[us + origin[0], vs + origin[1]].astype(np.float64)
    centre = (wts[:, None] * pts).sum(axis=0) / wts.sum()
    d = pts - centre
    cov = (wts[:, None, None] * d[:, :, None] * d[:, None, :]).sum(axis=0) / wts.sum()
    l_small, l_big = np.linalg.eigvalsh(cov)
    axis = np.linalg.eigh(cov)[1][:, 1]
    half = math.sqrt(max(3.0 * (l_big - l_small), 0.0))
    if half < (1.0 + _MIN_EXTRA) * r or math.sqrt(max(l_small, 0.0)) > _MAX_WIDTH * r / 2.0:
        return None
    off = seen - centre
    if abs(float(off[0] * axis[1] - off[1] * axis[0])) > _THROUGH * r:
        return None  # not on the line the ball ran from where it was seen
    return abs(mass - 1.0), Found(centre, name, _SCORE, r, axis * half)
