"""YuvImage: windows converted from the planes equal the same crop of the whole frame."""

from __future__ import annotations

from pathlib import Path

import av
import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import open_source
from vision.frames._yuv_planes import YuvImage, from_av

SAMPLE = Path(__file__).resolve().parents[3] / "sample_videos" / "three_cushion_match.mp4"


def _planes(h: int = 36, w: int = 52, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(16, 236, size=(h * 3 // 2, w), dtype=np.uint8)


def test_whole_frame_is_opencv_i420_conversion() -> None:
    i420 = _planes()
    want = cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420)
    img = YuvImage.from_i420(i420)
    assert img.shape == (36, 52, 3)
    assert np.array_equal(img.bgr(), want)


@settings(max_examples=200, deadline=None)
@given(
    y0=st.integers(0, 35), y1=st.integers(0, 36), x0=st.integers(0, 51), x1=st.integers(0, 52),
    sy=st.integers(1, 4), sx=st.integers(1, 4),
)  # fmt: skip
def test_any_window_equals_the_crop_of_the_whole(
    y0: int, y1: int, x0: int, x1: int, sy: int, sx: int
) -> None:
    i420 = _planes()
    whole = cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420)
    got = YuvImage.from_i420(i420)[y0:y1:sy, x0:x1:sx]
    want = whole[y0:y1:sy, x0:x1:sx]
    if want.size == 0:
        assert got.size == 0
    else:
        assert np.array_equal(got, want)


def test_a_shrunk_window_comes_contiguous() -> None:
    """The detector's shrunk search windows: one contiguous block (what it reads next)."""
    i420 = _planes(64, 80)
    whole = cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420)
    got = YuvImage.from_i420(i420)[8:40:4, 12:60:4]
    assert got.flags.c_contiguous and np.array_equal(got, whole[8:40:4, 12:60:4])


def test_nested_windows_reuse_one_conversion_and_stay_exact() -> None:
    i420 = _planes(64, 80)
    whole = cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420)
    img = YuvImage.from_i420(i420)
    assert np.array_equal(img[10:50, 7:61], whole[10:50, 7:61])
    first = img._win
    assert np.array_equal(img[13:40, 9:33], whole[13:40, 9:33])
    assert img._win is first  # inside the last window: no second conversion
    assert np.array_equal(img[0:5, 70:80], whole[0:5, 70:80])
    assert img._win is not first


def test_odd_sides_are_refused() -> None:
    for shape in ((10, 10), (9, 11)):
        with pytest.raises(ValueError, match="even"):
            YuvImage.from_i420(np.zeros(shape, np.uint8))


def test_video_frames_come_as_planes_close_to_pyav_conversion() -> None:
    with av.open(str(SAMPLE)) as container:
        av_frame = next(iter(container.decode(video=0)))
        ref = av_frame.to_ndarray(format="bgr24").astype(np.int16)
        img = from_av(av_frame)
    assert img is not None
    diff = np.abs(img.bgr().astype(np.int16) - ref)
    # Two converters, one colour matrix: rounding and chroma upsampling differ a little.
    assert float(diff.mean()) < 2.0
    assert float(np.percentile(diff, 99)) <= 6


def test_frame_source_gives_lazy_frames_with_whole_bgr_on_demand() -> None:
    frame = next(iter(open_source(SAMPLE)))
    assert isinstance(frame.image, YuvImage)
    assert frame.image_bgr.shape == frame.image.shape
    assert frame.image_bgr is frame.image_bgr  # converted once


@pytest.mark.parametrize(("y0", "x0", "s"), [(0, 0, 4), (2, 1, 3), (1, 3, 2), (0, 0, 5)])
def test_sampled_whole_frame_is_exact_without_converting_it(y0: int, x0: int, s: int) -> None:
    i420 = _planes(64, 80, seed=s)
    whole = cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420)
    img = YuvImage.from_i420(i420)
    assert np.array_equal(img[y0:64:s, x0:80:s], whole[y0:64:s, x0:80:s])
    assert img._bgr is None  # the coarse search never converts the whole frame


def test_decoder_plane_views_equal_pyav_planes() -> None:
    with av.open(str(SAMPLE)) as container:
        for av_frame in container.decode(video=0):
            img = from_av(av_frame)
            packed = YuvImage.from_i420(av_frame.to_ndarray())
            assert img is not None
            assert np.array_equal(img.bgr(), packed.bgr())
            break
