"""Writing frames to a video file: the codecs, the refusals, frames that read back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision import VIDEO_CODECS, VideoError, default_bitrate, open_source, open_video


def test_default_bitrate_is_camera_like() -> None:
    assert default_bitrate((1280, 720), 30.0) == 1_935_360  # about 2 Mbit/s


@pytest.mark.parametrize("codec", VIDEO_CODECS)
def test_written_frames_read_back_at_their_size(tmp_path: Path, codec: str) -> None:
    path = tmp_path / f"{codec}.mp4"
    sink = open_video(path, 30.0, (320, 180), codec=codec)
    for i in range(5):
        sink.write(np.full((180, 320, 3), 40 * i, dtype=np.uint8))
    sink.close()
    frames = list(open_source(path))
    assert len(frames) == 5
    assert frames[0].image_bgr.shape == (180, 320, 3)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"codec": "divx"}, "codec: unknown 'divx'"),
        ({"bitrate_bps": 10}, "bitrate_bps must be 50000..200000000"),
        ({"size_px": (321, 180)}, "h264 needs an even frame size"),
    ],
)
def test_a_bad_request_is_refused_with_a_video_error(
    tmp_path: Path, kwargs: dict[str, object], message: str
) -> None:
    args: dict[str, object] = {"size_px": (320, 180)} | kwargs
    with pytest.raises(VideoError, match=message):
        open_video(tmp_path / "x.mp4", 30.0, **args)  # type: ignore[arg-type]
