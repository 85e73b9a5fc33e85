"""The capture thread: real-time pacing, dropping the oldest frames, losing and finding
the source again. Real threads; frames from the sample clip or small real arrays."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from carom.live.loop._capture import (
    Capture,
    Captured,
    CaptureSettings,
    CaptureState,
    file_frames,
    is_file_source,
)
from tests.carom.live._helpers import SAMPLE
from tests.mjpeg_stream import grey, mjpeg_camera
from vision import Frame, VideoError

_IMG = np.zeros((8, 8, 3), np.uint8)


def _drain(capture: Capture, want: int, timeout_s: float = 10.0) -> list[Captured]:
    got: list[Captured] = []
    end = time.monotonic() + timeout_s
    while len(got) < want and time.monotonic() < end and not capture.finished:
        if (item := capture.get(0.05)) is not None:
            got.append(item)
    return got


def _frames(
    n: int, fps: float = 30.0, stall_after: int | None = None, hold: threading.Event | None = None
) -> Iterator[Frame]:
    """``n`` frames (a 0.6 s stall before ``stall_after``), then open until ``hold`` is set."""
    for i in range(n):
        if i == stall_after:
            time.sleep(0.6)
        yield Frame(i, i / fps, _IMG)
    if hold is not None:
        hold.wait(10)


def test_sources_are_told_apart() -> None:
    assert is_file_source("match.mp4") and is_file_source("/videos/2026/a.mkv")
    assert not is_file_source("0") and not is_file_source("rtsp://cam/stream")
    assert not is_file_source("/dev/video0")  # a V4L2 device is a camera, not a file


def test_a_network_camera_is_read_through_the_hardware_adapter() -> None:
    """A real MJPEG stream over HTTP (a local IP camera): the default opener reads it as
    a camera, times are the capture's clock, and a stream that ends is reconnected."""
    with mjpeg_camera(5, fps=25.0) as url:
        capture = Capture(url, CaptureSettings(backoff_min_s=0.05)).start()
        try:
            got = _drain(capture, 8)  # 5, then the stream ends, is lost and reopened
            status = capture.status()
        finally:
            capture.stop()
    assert not capture.is_file and len(got) == 8
    assert [c.frame.frame_idx for c in got] == list(range(8))
    assert [int(np.median(c.frame.image_bgr)) for c in got] == pytest.approx(
        [grey(i % 5) for i in range(8)], abs=3
    )
    times = [c.frame.t_s for c in got]
    assert times == sorted(times) and status.reconnects >= 1


def test_a_file_is_replayed_no_faster_than_real_time_times_pace() -> None:
    capture = Capture(str(SAMPLE), CaptureSettings(pace=2.0, queue_max=64)).start()
    try:
        started = time.monotonic()
        got = _drain(capture, 31)
        elapsed = time.monotonic() - started
    finally:
        capture.stop()
    span = got[-1].frame.t_s - got[0].frame.t_s
    assert [c.frame.frame_idx for c in got] == list(range(31))
    assert span == 1.0 and elapsed >= span / 2.0 - 0.02  # paced from the file's own times
    stamps = np.diff([c.captured_mono_s for c in got])
    assert np.allclose(stamps, 1 / 60, atol=1e-6)  # each frame due at its time / pace


def test_a_resumed_file_starts_at_the_given_video_time() -> None:
    frames = file_frames(SAMPLE, 20.0)
    first = next(frames)
    frames.close()
    assert (first.frame_idx, first.t_s) == (600, 20.0)
    reference = next(f for f in file_frames(SAMPLE, 19.9) if f.t_s >= 20.0)
    assert np.array_equal(first.image_bgr, reference.image_bgr)  # the very same picture


def test_a_slow_consumer_loses_the_oldest_frames_and_they_are_counted() -> None:
    hold = threading.Event()
    capture = Capture("0", CaptureSettings(queue_max=3),
                      opener=lambda _s: _frames(40, hold=hold)).start()  # fmt: skip
    try:
        time.sleep(0.3)  # processing is busy: the camera keeps going
        status = capture.status()
        got = _drain(capture, 3, timeout_s=1.0)
    finally:
        hold.set()
        capture.stop()
    assert status.frames_read == 40 and status.frames_dropped == 37 and status.queued == 3
    assert [c.frame.frame_idx for c in got] == [37, 38, 39]  # the newest three survive


def test_lossless_mode_waits_for_the_consumer_instead_of_dropping() -> None:
    capture = Capture("x.mp4", CaptureSettings(pace=0, queue_max=2),
                      opener=lambda _s: _frames(20)).start()  # fmt: skip
    try:
        time.sleep(0.2)
        assert capture.status().state is CaptureState.LIVE  # full, waiting: not "lost"
        got = _drain(capture, 20)
    finally:
        capture.stop()
    assert [c.frame.frame_idx for c in got] == list(range(20))
    assert capture.status().frames_dropped == 0


def test_a_busy_lossless_consumer_is_not_a_lost_camera() -> None:
    """Lossless, a consumer busy longer than ``stall_s`` (learning the table, closing a
    shot) then taking a frame: the status right after the take is not "lost", though
    the reader has not delivered a frame for that long (it was waiting for room)."""
    capture = Capture("x.mp4", CaptureSettings(pace=0, queue_max=2, stall_s=0.2),
                      opener=lambda _s: _frames(20)).start()  # fmt: skip
    states = []
    try:
        for _ in range(4):
            time.sleep(0.5)  # busy: the queue stays full, the reader waits
            assert capture.get(1.0) is not None
            states.append(capture.status().state)  # before the reader refills
    finally:
        capture.stop()
    assert CaptureState.LOST not in states, states


def test_a_failing_camera_is_reopened_with_backoff_and_its_times_stay_continuous() -> None:
    tries: list[float] = []

    def opener(_start_s: float) -> Iterator[Frame]:
        tries.append(time.monotonic())
        if len(tries) <= 2:
            raise VideoError("camera 0: cannot open it; check the index, cable or URL")
        return _frames(5)

    settings = CaptureSettings(backoff_min_s=0.05, backoff_max_s=1.0)
    capture = Capture("0", settings, opener=opener).start()
    try:
        end = time.monotonic() + 5
        while capture.status().state is not CaptureState.LOST and time.monotonic() < end:
            time.sleep(0.005)
        lost = capture.status()
        got = _drain(capture, 5)
    finally:
        capture.stop()
    assert lost.state is CaptureState.LOST and "cannot open" in lost.last_error
    assert len(got) == 5 and capture.status().reconnects >= 2
    assert tries[2] - tries[1] >= 2 * (tries[1] - tries[0]) * 0.9 - 0.01  # backoff doubles
    times = [c.frame.t_s for c in got]
    assert times == sorted(times) and times[0] > 0.05  # capture time, not the source's


def test_a_resumed_match_s_camera_time_goes_on_from_where_it_stopped() -> None:
    """A camera's frame times began at 0 on every start: after a restart the shots were
    "before" the journal's last ones (and an export's replay refused them)."""
    capture = Capture("0", CaptureSettings(start_s=500.0), opener=lambda _s: _frames(3)).start()
    try:
        got = _drain(capture, 3)
    finally:
        capture.stop()
    times = [c.frame.t_s for c in got]
    assert times == sorted(times) and 500.0 <= times[0] < 510.0


def test_the_backoff_starts_afresh_once_the_source_delivered_again() -> None:
    tries: list[float] = []

    def opener(_start_s: float) -> Iterator[Frame]:
        tries.append(time.monotonic())
        if len(tries) in (1, 2, 3, 5, 6):
            raise VideoError("camera 0: cannot open it")
        return _frames(3)  # delivers, then the stream drops

    settings = CaptureSettings(backoff_min_s=0.1, backoff_max_s=10.0)
    capture = Capture("0", settings, opener=opener).start()
    try:
        end = time.monotonic() + 10
        while len(tries) < 7 and time.monotonic() < end:
            time.sleep(0.01)
    finally:
        capture.stop()
    gaps = [b - a for a, b in itertools.pairwise(tries)]
    assert gaps[2] >= 0.35  # 0.1, 0.2, 0.4: doubling while it fails
    assert gaps[3] < 0.3 and gaps[4] < 0.3  # it delivered: 0.1 again (not 0.8) ...
    assert gaps[5] >= 0.18  # ... then doubling anew


def test_a_stalled_source_reads_as_lost_and_live_again_when_frames_return() -> None:
    settings = CaptureSettings(stall_s=0.2, queue_max=64)
    hold = threading.Event()
    opener = lambda _s: _frames(10, stall_after=5, hold=hold)  # noqa: E731
    capture = Capture("0", settings, opener=opener).start()
    states: list[CaptureState] = []
    got: list[Captured] = []
    try:
        end = time.monotonic() + 5
        while len(got) < 10 and time.monotonic() < end:
            states.append(capture.status().state)
            if (item := capture.get(0.02)) is not None:
                got.append(item)
    finally:
        hold.set()
        capture.stop()
    assert len(got) == 10
    assert CaptureState.LOST in states and states[-1] is not CaptureState.LOST
    lost_at = states.index(CaptureState.LOST)
    assert CaptureState.LIVE in states[:lost_at] and CaptureState.LIVE in states[lost_at:]
    assert got[5].frame.t_s - got[4].frame.t_s > 0.5  # the gap shows in the times


def test_a_missing_file_is_a_one_line_error() -> None:
    with pytest.raises(VideoError, match="no such file") as err:
        next(file_frames(SAMPLE.with_name("nope.mp4")))
    assert "\n" not in str(err.value)
