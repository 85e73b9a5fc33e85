"""Training crops for the pin classifier: one per visible spot of every rendered frame.

Each frame (:mod:`train._pinscenes`) is sometimes passed through JPEG (as for the ball
detector, :func:`train._dataset._jpeg`), then each spot no ball or arm hides is cut
with :func:`vision.pins.pin_crops`, the centre off by up to ``_SHIFT`` ball
radii (calibration error) and the scale by up to 8 %. Label: 1 if a pin stands on the
spot. With each crop goes the same crop of the scene's frame 0 (the reference, nearly
all pins up, as the check learns from the match's first frames). Spots a ball or the
arm hides are not used (the pipeline leaves them out).
"""

from __future__ import annotations

import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from train._dataset import _jpeg
from train._pinscenes import PinFrame, render_pin_scene
from vision import ball_radius_px
from vision.pins import PIN_Z_MM, pin_crops

__all__ = ["build", "crops_of"]

_SHIFT = 0.12  # calibration error, ball radii

U8 = NDArray[np.uint8]


def crops_of(
    frame: PinFrame, reference: U8, rng: np.random.Generator
) -> tuple[U8, U8, NDArray[np.int64]]:
    """Crops of the frame's usable spots, the same of ``reference``, labels (k,).

    Crops are (k, PIN_CROP, PIN_CROP, 3); ``reference`` is the scene's frame 0, already
    through JPEG.
    """
    image = _jpeg(rng, frame.image)
    uv = frame.calibration.mm_to_px(frame.spots_mm, PIN_Z_MM)
    radius = ball_radius_px(frame.calibration, uv)
    keep = frame.usable & np.all(np.isfinite(uv), axis=1)
    shift = rng.uniform(-_SHIFT, _SHIFT, (len(uv), 2)) * radius[:, None]
    scale = rng.uniform(0.92, 1.08, len(uv))
    at, r = (uv + shift)[keep], (radius * scale)[keep]
    return (
        pin_crops(image, at, r),
        pin_crops(reference, at, r),
        frame.standing[keep].astype(np.int64),
    )


def _one(args: tuple[int, int]) -> tuple[U8, U8, NDArray[np.int64], NDArray[np.int64], float]:
    seed, n_frames = args
    t0 = time.perf_counter()
    rng = np.random.default_rng([seed, 6])
    crops, refs, labels = [], [], []
    reference: U8 | None = None
    for frame in render_pin_scene(seed, n_frames):
        reference = _jpeg(rng, frame.image) if reference is None else reference
        c, r, y = crops_of(frame, reference, rng)
        crops.append(c)
        refs.append(r)
        labels.append(y)
    y_all = np.concatenate(labels)
    return (np.concatenate(crops), np.concatenate(refs), y_all, np.full(len(y_all), seed),
            time.perf_counter() - t0)  # fmt: skip


def build(seeds: range, n_frames: int, out: Path, workers: int = 2) -> tuple[int, float]:
    """Render ``seeds`` and save crops, labels and scene seeds to ``out`` (.npz)."""
    with Pool(workers) as pool:
        parts = pool.map(_one, [(s, n_frames) for s in seeds], chunksize=1)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        out,
        crops=np.concatenate([p[0] for p in parts]),
        refs=np.concatenate([p[1] for p in parts]),
        labels=np.concatenate([p[2] for p in parts]),
        seeds=np.concatenate([p[3] for p in parts]),
    )
    return sum(len(p[2]) for p in parts), float(sum(p[4] for p in parts))
