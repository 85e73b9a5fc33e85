"""A camera read through vision's one reader: ``open_source`` hands camera specs to
``hardware.open_camera`` and gives its pictures as frames. A real MJPEG stream over HTTP
(a local IP camera) stands in for a device."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import numpy as np
import pytest

from tests.mjpeg_stream import SIZE_PX, grey, mjpeg_camera
from vision import CameraSource, FrameSource, VideoError, open_source


@pytest.fixture
def stream_url() -> Iterator[str]:
    """A local IP camera serving 8 pictures to each client."""
    with mjpeg_camera(8) as url:
        yield url


def test_a_stream_url_is_a_camera_source_of_timed_frames(stream_url: str) -> None:
    source = open_source(stream_url)
    assert isinstance(source, CameraSource) and isinstance(source, FrameSource)
    assert source.size_px == SIZE_PX
    frames = list(source)
    assert [f.frame_idx for f in frames] == list(range(8))
    assert [int(np.median(f.image_bgr)) for f in frames] == pytest.approx(
        [grey(i) for i in range(8)], abs=3
    )
    assert all(f.image_bgr.shape == (SIZE_PX[1], SIZE_PX[0], 3) for f in frames)
    assert [f.t_s for f in frames[1:]] == sorted(f.t_s for f in frames[1:])


def test_stopping_early_releases_the_camera(stream_url: str) -> None:
    source = CameraSource(stream_url)
    frames = iter(source)
    assert next(frames).frame_idx == 0
    frames.close()  # type: ignore[attr-defined]  # a generator: closing it releases
    assert list(source) == []  # released: nothing more to read


def test_a_camera_that_is_not_there_is_a_video_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for spec, why in ((f"rtsp://127.0.0.1:{port}/live", "refused the connection"),
                      ("/dev/video99", "no such device")):  # fmt: skip
        with pytest.raises(VideoError, match=rf"cannot open it; tried .*{why}"):
            open_source(spec)
