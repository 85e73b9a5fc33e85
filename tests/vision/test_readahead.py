"""ReadAhead: the items in order, the error after them, and a reader that stops."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from vision import VideoError, open_source
from vision._readahead import ReadAhead

SAMPLE = Path(__file__).resolve().parents[2] / "sample_videos" / "three_cushion_match.mp4"


def test_items_in_order_then_the_error_they_ended_with() -> None:
    def items() -> Iterator[int]:
        yield from range(50)
        raise VideoError("video x: truncated, 50 of 60 frames decode; re-copy the file")

    got: list[int] = []

    def consume() -> None:
        got.extend(ReadAhead(items(), depth=4))

    with pytest.raises(VideoError, match="truncated"):
        consume()
    assert got == list(range(50))


def test_leaving_early_stops_and_closes_the_producer() -> None:
    closed = threading.Event()

    def items() -> Iterator[int]:
        try:
            yield from range(10_000)
        finally:
            closed.set()

    reader = ReadAhead(items(), depth=3)
    for i in reader:
        if i == 5:
            break
    reader.close()
    assert closed.is_set() and not reader.thread.is_alive()


def test_video_frames_read_ahead_equal_frames_read_in_place() -> None:
    ahead = [(f.frame_idx, f.t_s) for f, _ in zip(open_source(SAMPLE), range(40), strict=False)]
    source = open_source(SAMPLE)
    source.ahead = 0
    inline = [(f.frame_idx, f.t_s) for f, _ in zip(source, range(40), strict=False)]
    assert ahead == inline


def test_closing_a_video_mid_read_stops_its_reader_first() -> None:
    source = open_source(SAMPLE)
    frames = iter(source)
    for _ in range(10):
        next(frames)
    source.close()  # the reader may be inside the decoder: it must stop before this returns
    assert source._reader is not None and not source._reader.thread.is_alive()


def test_a_whole_video_ends_with_its_last_frame() -> None:
    source = open_source(SAMPLE)
    n = sum(1 for _ in source)
    assert n == source.n_frames_expected and n == source.frames_read
