"""ReadAhead: the items in order, the error after them, and a reader that stops."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from vision import VideoError, open_source
from vision.frames._read_ahead import ReadAhead

SAMPLE = Path(__file__).resolve().parents[3] / "sample_videos" / "three_cushion_match.mp4"


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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")
def test_the_reader_and_the_threads_it_starts_run_below_the_consumer() -> None:
    """The decoder's own threads are started by the reader and inherit its priority."""
    seen: dict[str, int] = {}

    def nice_now() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def items() -> Iterator[int]:
        seen["reader"] = nice_now()
        child = threading.Thread(target=lambda: seen.setdefault("child", nice_now()))
        child.start()
        child.join()
        yield 1

    assert list(ReadAhead(items(), depth=2, nice=5)) == [1]
    mine = nice_now()
    assert seen == {"reader": min(mine + 5, 19), "child": min(mine + 5, 19)}
    assert list(ReadAhead(iter([2]), depth=2)) == [2] and nice_now() == mine


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc for threads")
def test_video_decoder_threads_run_at_the_decoder_priority() -> None:
    """FFmpeg's frame threads (named ``av:...``) carry the reader's lower priority."""
    from vision.frames._sources import DECODER_NICE

    source = open_source(SAMPLE)
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    names: dict[str, int] = {}
    for frame in source:
        if frame.frame_idx == 10:
            for stat in Path("/proc/self/task").glob("*/stat"):
                text = stat.read_text()
                name = text[text.index("(") + 1 : text.rindex(")")]
                names[name] = int(text[text.rindex(")") + 2 :].split()[16])
            break
    source.close()
    decoder = {n: v for n, v in names.items() if n.startswith("av:")}
    assert decoder, f"no decoder threads among {sorted(names)}"
    assert set(decoder.values()) == {min(mine + DECODER_NICE, 19)}
