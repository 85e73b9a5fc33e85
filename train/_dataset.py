"""Training crops from randomised renders: ROIs around balls, near misses and the player.

For every rendered frame (:mod:`train._scenes`): the frame is sometimes passed through
JPEG (blocking and chroma loss like a broadcast), then crops of ``CROP`` pixels at
``BALL_PX`` per ball radius are cut (:func:`vision.detect.cut_roi`) around each
ball, displaced by up to ``_SHIFT`` radii like a prediction that is off, plus crops on
random table points and on the player (negatives). Each crop keeps the balls whose
centres fall in it: class, centre and blur half-vector in crop pixels, and a weight
(1: a ball to find; 0: mostly under the player, neither rewarded nor punished).
"""

from __future__ import annotations

from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from train._scenes import TruthFrame, render_scene
from vision.detect import BALL_PX, CLASSES, cut_roi

__all__ = ["CROP", "MAX_BALLS", "build", "centre_crop", "crops_of"]

CROP = 64
MAX_BALLS = 4
_SHIFT = 3.5  # prediction error, ball radii
_MIN_VISIBLE = 0.4  # a ball with less of its disc visible is ignored by the loss
_CLASS = {b: i for i, b in enumerate(CLASSES)}

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]


def _jpeg(rng: np.random.Generator, image: U8) -> U8:
    if rng.random() < 0.3:
        return image
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 92))])
    assert ok
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)


def crops_of(frame: TruthFrame, rng: np.random.Generator) -> tuple[list[U8], list[F32]]:
    """Crops (CROP, CROP, 3) and targets (MAX_BALLS, 6) [class, u, v, su, sv, weight]."""
    image = _jpeg(rng, frame.image)
    r_mean = float(np.mean([b.radius_px for b in frame.balls])) if frame.balls else 8.0
    centres: list[tuple[np.ndarray, float]] = []
    for b in frame.balls:
        for _ in range(3 if b.visible > 0.15 else 1):
            shift = rng.uniform(-_SHIFT, _SHIFT, 2) * b.radius_px
            centres.append((b.uv_px + shift, b.radius_px))
    h, w = image.shape[:2]
    for _ in range(2):
        centres.append((rng.uniform([0.2 * w, 0.2 * h], [0.8 * w, 0.8 * h]), r_mean))
    vs, us = np.nonzero(frame.player)
    if len(us):
        k = int(rng.integers(len(us)))
        centres.append((np.array([us[k], vs[k]], np.float64), r_mean))
    crops, targets = [], []
    for centre, radius in centres:
        roi = cut_roi(image, centre, radius * rng.uniform(0.92, 1.08), CROP)
        target = np.zeros((MAX_BALLS, 6), np.float32)
        target[:, 0] = -1
        n = 0
        for b in frame.balls:
            c = roi.to_crop(b.uv_px[None])[0]
            if n < MAX_BALLS and np.all((c >= -0.5) & (c < CROP - 0.5)):
                weight = 1.0 if b.visible >= _MIN_VISIBLE and not b.covered else 0.0
                streak = b.streak_px / roi.step_px
                target[n] = (_CLASS[b.ball], c[0], c[1], streak[0], streak[1], weight)
                n += 1
        crops.append(roi.image)
        targets.append(target)
    return crops, targets


def _one(args: tuple[int, int]) -> tuple[U8, F32, float]:
    import time

    seed, n_frames = args
    t0 = time.perf_counter()
    rng = np.random.default_rng([seed, 5])
    crops: list[U8] = []
    targets: list[F32] = []
    for frame in render_scene(seed, n_frames):
        c, t = crops_of(frame, rng)
        crops += c
        targets += t
    return np.stack(crops), np.stack(targets), time.perf_counter() - t0


def build(seeds: range, n_frames: int, out: Path, workers: int = 2) -> tuple[int, float]:
    """Render ``seeds`` and save crops and targets to ``out`` (.npz); (crops, render s)."""
    with Pool(workers) as pool:
        parts = pool.map(_one, [(s, n_frames) for s in seeds], chunksize=1)
    crops = np.concatenate([p[0] for p in parts])
    targets = np.concatenate([p[1] for p in parts])
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, crops=crops, targets=targets)
    return len(crops), float(sum(p[2] for p in parts))


def centre_crop(crops: U8, targets: F32, size: int) -> tuple[U8, F32]:
    """The middle ``size`` pixels of crops (N, CROP, CROP, 3), targets moved to match.

    A ball whose centre falls outside, but within a radius of the new edge, becomes an
    ignored one (its edge shows); farther ones are dropped.
    """
    cut = (crops.shape[1] - size) // 2
    out = targets.copy()
    out[..., 1:3] -= cut
    c = out[..., 1:3]
    inside = np.all((c >= -0.5) & (c < size - 0.5), axis=-1)
    near = np.all((c >= -0.5 - BALL_PX) & (c < size - 0.5 + BALL_PX), axis=-1)
    out[..., 5] = np.where(inside, out[..., 5], 0.0)
    out[..., 0] = np.where(near, out[..., 0], -1.0)
    return np.ascontiguousarray(crops[:, cut : cut + size, cut : cut + size]), out
