"""The capture queue never holds a verdict behind stale frames.

Real capture threads over small real frames: a consumer that wants the newest frame
gets it (the older ones dropped and counted), and a queue let grow while the table was
being learnt shrinks back to its size as soon as that catch-up is over, instead of
keeping the loop seconds behind the table on a busy machine; a replayed file whose
decoding falls behind drops the frames it could not deliver in time, as a camera.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import numpy as np

from carom.live.loop import Capture, CaptureSettings
from tests.carom.live._helpers import SAMPLE
from vision import Frame

_IMG = np.zeros((8, 8, 3), np.uint8)


def _frames(n: int, done: threading.Event) -> Iterator[Frame]:
    for i in range(n):
        yield Frame(i, i / 60.0, _IMG)
    done.set()
    time.sleep(10)  # stay open: a camera that is still there


def _filled(settings: CaptureSettings, n: int, *, catch_up: bool) -> Capture:
    done = threading.Event()
    capture = Capture("0", settings, opener=lambda _s: _frames(n, done))
    capture.catch_up = catch_up
    capture.start()
    assert done.wait(10)
    return capture


def test_the_newest_frame_is_taken_and_the_stale_ones_are_counted_as_dropped() -> None:
    capture = _filled(CaptureSettings(queue_max=32), 20, catch_up=False)
    try:
        item = capture.get(1.0, newest=True)
        status = capture.status()
    finally:
        capture.stop()
    assert item is not None
    assert item.frame.frame_idx == 19
    assert status.frames_dropped == 19
    assert status.queued == 0


def test_a_catch_up_backlog_shrinks_to_the_queue_size_once_it_is_over() -> None:
    settings = CaptureSettings(queue_max=4)
    done = threading.Event()
    frames = iter(_frames(40, done))
    gate = threading.Event()

    def opener(_start_s: float) -> Iterator[Frame]:
        for k, frame in enumerate(frames):
            if k == 30:
                gate.wait(10)  # the consumer ends its catch-up here
            yield frame

    capture = Capture("0", settings, opener=opener)
    capture.catch_up = True
    capture.start()
    try:
        deadline = time.monotonic() + 10
        while capture.status().queued < 30 and time.monotonic() < deadline:
            time.sleep(0.01)
        grown = capture.status().queued
        capture.catch_up = False
        gate.set()
        assert done.wait(10)
        status = capture.status()
    finally:
        capture.stop()
    assert grown == 30  # 16 x 4 allowed while catching up
    assert status.queued == settings.queue_max
    assert status.frames_dropped == 40 - settings.queue_max


def test_a_replay_too_busy_to_decode_in_time_drops_the_late_frames_as_a_camera() -> None:
    """A file whose decoding stalls 0.3 s: the frames due meanwhile are lost, not queued."""

    def stalling(_start_s: float) -> Iterator[Frame]:
        for i in range(30):
            if i == 10:
                time.sleep(0.3)
            yield Frame(i, i / 30.0, _IMG)

    capture = Capture(str(SAMPLE), CaptureSettings(pace=1.0, late_s=0.1), opener=stalling)
    capture.start()
    got = []
    try:
        deadline = time.monotonic() + 5
        while not capture.finished and time.monotonic() < deadline:
            if (item := capture.get(0.05)) is not None:
                got.append((item, time.monotonic()))
        status = capture.status()
    finally:
        capture.stop()
    late = [taken - item.captured_mono_s for item, taken in got]
    indexes = [item.frame.frame_idx for item, _ in got]
    assert status.frames_read == 30
    assert 5 <= status.frames_dropped <= 8  # due 0.3 .. 0.1 s before they were decoded
    assert indexes[:10] == list(range(10))
    assert len(indexes) == 30 - status.frames_dropped
    assert max(late) < 0.15
