"""Writing frames to a video file: the codecs, the refusals, frames that read back."""

from __future__ import annotations

import re
import subprocess
import sys
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
        ({"encoder_threads": 17}, "encoder_threads must be 0..16"),
        ({"encoder_threads": -1}, "encoder_threads must be 0..16"),
    ],
)
def test_a_bad_request_is_refused_with_a_video_error(
    tmp_path: Path, kwargs: dict[str, object], message: str
) -> None:
    args: dict[str, object] = {"size_px": (320, 180)} | kwargs
    with pytest.raises(VideoError, match=message):
        open_video(tmp_path / "x.mp4", 30.0, **args)  # type: ignore[arg-type]


def _noisy(i: int) -> np.ndarray:
    """A frame with detail that moves (costly to encode): smooth blobs plus fine noise."""
    rng = np.random.default_rng(i)
    yy, xx = np.mgrid[:360, :640]
    base = 120 + 60 * np.sin(xx / 23.0 + i / 3) * np.cos(yy / 17.0 - i / 5)
    img = base[..., None] + rng.normal(0, 12, (360, 640, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("bitrate", [150_000, 600_000])
def test_h264_holds_the_target_rate_and_puts_its_index_first(tmp_path: Path, bitrate: int) -> None:
    """3 s of costly frames: the file is near rate * duration, every frame decodes, and the
    ``moov`` index comes before the frames (``mdat``), so a phone plays it while loading."""
    path = tmp_path / "rate.mp4"
    sink = open_video(path, 30.0, (640, 360), bitrate_bps=bitrate)
    for i in range(90):
        sink.write(_noisy(i))
    sink.close()
    expected = bitrate * 3.0 / 8
    assert 0.5 <= path.stat().st_size / expected <= 2.0, path.stat().st_size / expected
    assert len(list(open_source(path))) == 90
    head = path.read_bytes()
    assert 0 <= head.find(b"moov") < head.find(b"mdat")


_ENCODE = """
import sys
from pathlib import Path
from tests.vision.test_video_out import _noisy
from vision import open_video
sink = open_video(Path(sys.argv[1]), 30.0, (640, 360), bitrate_bps=400_000,
                  encoder_threads=int(sys.argv[2]))
for i in range(45):
    sink.write(_noisy(i).copy())  # a fresh array each frame, freed after it is written
sink.close()
"""


def test_one_encoder_thread_in_a_fresh_process_gives_the_same_file(tmp_path: Path) -> None:
    """What the independent benchmark's renders rely on (docs/synthetic.md, "Bit for bit"):
    the same frames, each encoded in a fresh process with one libx264 thread, give the
    same bytes; the file's x264 settings say the threads asked for."""
    root = Path(__file__).parents[2]
    files = []
    for k, threads in enumerate((1, 1, 2)):
        files.append(tmp_path / f"{k}.mp4")
        subprocess.run([sys.executable, "-c", _ENCODE, str(files[-1]), str(threads)],
                       check=True, cwd=root, timeout=120)  # fmt: skip
    assert files[0].read_bytes() == files[1].read_bytes()
    said = [re.search(rb"threads=(\d+) lookahead_threads", f.read_bytes()) for f in files]
    assert [m.group(1) if m else None for m in said] == [b"1", b"1", b"2"]
