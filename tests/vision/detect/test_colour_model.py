"""Colour model pieces that must stay equal to their plain numpy definitions."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration import Calibration, Camera, TableGeometry
from vision import ColourDetector, open_source
from vision.detect._colour_detector import _shrink
from vision.detect._colour_model import _first_min
from vision.frames import YuvImage


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_first_min_is_argmin_ties_included(n: int, k: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    # Few distinct values: many rows hold their minimum twice (argmin takes the first).
    q = rng.integers(-3, 3, (n, k)).astype(np.float32)
    assert np.array_equal(_first_min(q), np.argmin(q, axis=1).astype(np.int8))


def test_foreground_from_the_planes_is_the_foreground_of_the_converted_frame() -> None:
    """Sampled Y, U, V through the same affine test: equal but at the threshold's edge."""
    samples = Path(__file__).resolve().parents[3] / "sample_videos"
    truth = json.loads((samples / "three_cushion_match.json").read_text())
    calib = Calibration(TableGeometry(), Camera.from_dict(truth["camera"]), "2026-11-30")
    frames = [f for f, _ in zip(open_source(samples / "three_cushion_match.mp4"), range(91),
                                strict=False)]  # fmt: skip
    det = ColourDetector.learn(calib, frames[30].image_bgr, scale=2)
    hs, ws = det.search_small.shape
    total = differ = 0
    for frame in frames[::30]:
        assert isinstance(frame.image, YuvImage)
        planes = frame.image.planes_sampled(0, hs * 2, 0, ws * 2, 2)
        assert planes is not None and planes.shape == (hs, ws, 3)
        yuv = det.model.foreground_yuv(planes) & det.search_small
        bgr = det.model.foreground(_shrink(frame.image_bgr, 2, (0, 0, ws, hs))) & det.search_small
        total += int(det.search_small.sum())
        differ += int((yuv != bgr).sum())
        assert yuv.sum() > 0.5 * bgr.sum() > 0  # the balls (and more) are foreground
    assert differ <= 1e-3 * total


def test_planes_are_sampled_with_their_own_chroma_or_not_at_all() -> None:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 256, (40, 64), dtype=np.uint8)
    u, v = (rng.integers(0, 256, (20, 32), dtype=np.uint8) for _ in range(2))
    img = YuvImage(y, u, v)
    got = img.planes_sampled(2, 38, 4, 60, 4)
    assert got is not None
    rows, cols = np.arange(2, 38, 4), np.arange(4, 60, 4)
    want = np.dstack([y[np.ix_(rows, cols)], u[np.ix_(rows // 2, cols // 2)],
                      v[np.ix_(rows // 2, cols // 2)]])  # fmt: skip
    assert np.array_equal(got, want)
    assert (
        img.planes_sampled(1, 38, 4, 60, 4) is None and img.planes_sampled(0, 38, 0, 60, 3) is None
    )
