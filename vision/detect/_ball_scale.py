"""How big the balls look against how big the calibration says they must look.

Theory of operation. A calibration fitted to the cloth's edges alone cannot tell a
2100 x 1050 mm table seen from close by from a 2840 x 1420 mm one seen from further
away: the outline is the same rectangle. It takes its size from ``--table`` and puts the
camera where that size fits. The balls settle it: they are 61.5 mm whatever the
table, so with the wrong size they look smaller or bigger than the calibration expects
(the wrong table's ratio: 2100 for 2840 gives 0.74).

A ball's apparent radius is read from the pixels: along 32 rays from its centre, where
the colour difference to the cloth around it falls to half its value inside the ball
(the edge of a blurred disc). The median over the rays keeps a cushion, a chalk line
or another ball on a few of them from moving it. The scale is the median, over the
confident balls at rest in a few frames, of that radius over the calibration's
(measured on our renders and on real broadcast frames: 1.00 to 1.01 with the right
table, 0.75 with 2100 x 1050 for a match table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Calibration
from vision._types import U8
from vision.detect._colour_detector import ColourDetector

__all__ = ["BallScale", "apparent_radius_px", "ball_scale"]

F64 = NDArray[np.float64]

#: Rays read from a ball's centre; at least ``_MIN_EDGES`` of them must show its edge.
_RAYS = 32
_MIN_EDGES = 8
#: Colour difference (BGR levels) a ball's inside needs from the cloth to be read.
_MIN_CONTRAST = 20.0
#: A detection is used when its score is at least this and it has no streak (at rest).
#: Low: with the wrong table a ball's colour mass is far from the expected one, which
#: is what lowers its score.
_MIN_SCORE = 0.3
#: Balls needed for a scale.
MIN_BALLS = 3


@dataclass(frozen=True, slots=True)
class BallScale:
    """The balls' apparent size over the calibration's, and how many balls said so.

    Attributes:
        ratio: Median apparent radius over the calibration's radius at the same place
            (1 when the table's size is right; under 1: the table is larger than the
            calibration's, over 1: smaller).
        balls: The ball images it is the median of.
        radius_px: The calibration's radius of those balls (median, px): how big they
            are in the picture (under about 6 px their blurred edges read smaller).
    """

    ratio: float
    balls: int
    radius_px: float


def apparent_radius_px(image_bgr: U8, uv_px: F64, radius_px: float) -> float | None:
    """The radius (px) of the ball centred at ``uv_px`` (2,) in ``image_bgr`` (h, w, 3).

    ``radius_px``: the expected radius, which sets where the rays are read (0.2 to 2.6
    of it) and where the cloth is (beyond 1.9 of it). None when too few rays show an
    edge (a ball no brighter than the cloth, a ball against another).
    """
    r = float(radius_px)
    angles = np.linspace(0.0, 2.0 * np.pi, _RAYS, endpoint=False)
    dist = np.arange(0.2 * r, 2.6 * r, 0.25)
    us = (uv_px[0] + np.cos(angles)[:, None] * dist[None, :]).astype(np.float32)
    vs = (uv_px[1] + np.sin(angles)[:, None] * dist[None, :]).astype(np.float32)
    samples = cv2.remap(image_bgr, us, vs, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    samples = samples.astype(np.float64)
    cloth = np.median(samples[:, dist >= 1.9 * r].reshape(-1, 3), axis=0)
    diff = np.linalg.norm(samples - cloth, axis=2)  # (rays, distances)
    inside = np.median(diff[:, (dist >= 0.3 * r) & (dist <= 0.6 * r)], axis=1)
    radii = [
        edge
        for ray in range(_RAYS)
        if inside[ray] >= _MIN_CONTRAST
        and (edge := _half_way(diff[ray], dist, inside[ray] / 2.0, 0.5 * r)) is not None
    ]
    return float(np.median(radii)) if len(radii) >= _MIN_EDGES else None


def _half_way(diff: F64, dist: F64, level: float, after: float) -> float | None:
    """The first distance past ``after`` where ``diff`` falls below ``level`` (interpolated)."""
    below = np.flatnonzero((diff < level) & (dist > after))
    if not len(below) or below[0] == 0:
        return None
    j = int(below[0])
    a, b = float(diff[j - 1]), float(diff[j])
    t = (a - level) / (a - b) if a != b else 0.0
    return float(dist[j - 1] + t * (dist[j] - dist[j - 1]))


def ball_scale(calibration: Calibration, images_bgr: Sequence[U8]) -> BallScale | None:
    """The balls' apparent size over ``calibration``'s in ``images_bgr`` (each h, w, 3).

    The colour detector is learned from the first image. None when fewer than
    ``MIN_BALLS`` balls at rest could be read (an empty table, balls in motion).

    Raises:
        VisionError: an image is not the calibration's size, or no table is seen.
    """
    if not images_bgr:
        return None
    detector = ColourDetector.learn(calibration, images_bgr[0])
    ratios, radii = [], []
    for image in images_bgr:
        found = detector.detect(image)
        for uv, score, r, streak in zip(
            found.uv_px, found.score, found.radius_px, found.streak_px, strict=True
        ):
            if score < _MIN_SCORE or streak.any() or not r > 0.0:
                continue
            if (seen := apparent_radius_px(image, uv, float(r))) is not None:
                ratios.append(seen / float(r))
                radii.append(float(r))
    if len(ratios) < MIN_BALLS:
        return None
    return BallScale(float(np.median(ratios)), len(ratios), float(np.median(radii)))
