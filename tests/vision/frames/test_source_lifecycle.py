"""A frame source as an integrator uses it: closed from another thread, read once,
in a ``with`` block, a frame read by a ``Path`` (found by a developer using the library:
a close from a control thread left the reading loop waiting for ever)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from calibration import CalibrationError
from vision import VideoError, open_source, read_frame

CLIP = Path(__file__).parents[3] / "examples" / "one_shot.mp4"


def _ends_within(target: object, within_s: float) -> float:
    """Run ``target`` on a thread; the seconds it took (fails if it did not end)."""
    start = time.monotonic()
    worker = threading.Thread(target=target, daemon=True)  # type: ignore[arg-type]
    worker.start()
    worker.join(within_s)
    assert not worker.is_alive(), f"still reading after {within_s} s"
    return time.monotonic() - start


def test_a_source_closed_after_a_frame_ends_the_loop_reading_it() -> None:
    source = open_source(CLIP)
    frames = iter(source)
    next(frames)
    source.close()
    counted: list[int] = []
    _ends_within(lambda: counted.append(sum(1 for _ in frames)), 10.0)
    assert counted[0] < 447  # the reader stopped: not the rest of the clip


def test_a_close_from_another_thread_ends_the_reading_loop() -> None:
    source = open_source(CLIP)
    read: list[int] = []

    def loop() -> None:
        for frame in source:
            read.append(frame.frame_idx)
            time.sleep(0.005)  # a consumer slower than the decoder: the queue stays full

    worker = threading.Thread(target=loop, daemon=True)
    worker.start()
    while not read:
        time.sleep(0.01)
    source.close()
    worker.join(10.0)
    assert not worker.is_alive() and 0 < len(read) < 448


def test_a_video_is_read_once_and_a_with_block_closes_it() -> None:
    with open_source(CLIP) as source:
        first = next(iter(source))
        assert first.frame_idx == 0
        with pytest.raises(VideoError, match="read once already; open it again"):
            iter(source)
    with pytest.raises(VideoError, match="read once already"):
        list(source)  # closed by the block: one clear line, not PyAV's assertion


def test_a_frame_is_read_by_a_path_and_a_negative_number_is_refused() -> None:
    by_path = read_frame(CLIP, 3)
    assert by_path.dtype == np.uint8 and by_path.ndim == 3
    assert np.array_equal(by_path, read_frame(str(CLIP), 3))
    with pytest.raises(CalibrationError, match="frame -1: give a frame number, 0 or more"):
        read_frame(CLIP, -1)
