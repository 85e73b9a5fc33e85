"""What the live loop says about a camera that never opened, is lost or comes back."""

from __future__ import annotations

from carom.live.loop._camera_watch import CameraWatch
from carom.live.loop._capture import CaptureState, CaptureStatus

URL = "rtsp://admin:pw@10.0.0.7/live"


def _status(
    state: CaptureState, read: int = 0, reconnects: int = 0, error: str = ""
) -> CaptureStatus:
    return CaptureStatus(state, read, 0, reconnects, error, 0)


def test_a_camera_that_never_opened_says_why_at_once_then_reminds_with_the_tries() -> None:
    watch = CameraWatch(URL)
    assert watch.update(_status(CaptureState.STARTING), 0.0) == []
    why = "camera rtsp://***@10.0.0.7/live: cannot open it; tried FFmpeg: refused"
    (first,) = watch.update(_status(CaptureState.LOST, 0, 1, why), 0.4)
    assert first.startswith("camera rtsp://***@10.0.0.7/live has not opened: cannot open it; ")
    assert "retrying" in first and "pw" not in first and watch.lost
    assert watch.update(_status(CaptureState.LOST, 0, 3, why), 5.0) == []
    (reminder,) = watch.update(_status(CaptureState.LOST, 0, 5, why), 10.5)
    assert "has still not opened after 10 s (5 tries; last: cannot open it; tried" in reminder
    said = [watch.update(_status(CaptureState.LOST, 0, 9, why), t) for t in range(11, 1000)]
    times = [t for t, lines in zip(range(11, 1000), said, strict=True) if lines]
    assert times == [31, 61, 121, 421, 721]  # 30 s, 1 min, 2 min, then every 5 min


def test_a_camera_lost_in_play_is_lost_then_back_with_the_time_away() -> None:
    watch = CameraWatch("0")
    assert watch.update(_status(CaptureState.LIVE, 100), 0.0) == []
    (lost,) = watch.update(_status(CaptureState.LOST, 100, 0, "no frame for a while"), 3.0)
    assert lost == "camera lost (no frame for a while); reconnecting"
    (reminder,) = watch.update(_status(CaptureState.LOST, 100, 2), 13.0)
    assert "camera 0 is still lost after 10 s (3 tries" in reminder
    (back,) = watch.update(_status(CaptureState.LIVE, 101, 2), 14.25)
    assert back == "camera back after 11.2 s" and not watch.lost


def test_an_open_that_hangs_is_said_once() -> None:
    watch = CameraWatch("http://10.0.0.9/video.mjpg")
    assert watch.update(_status(CaptureState.STARTING), 0.0) == []
    (line,) = watch.update(_status(CaptureState.STARTING), 5.5)
    assert line == "camera http://10.0.0.9/video.mjpg: still opening after 6 s; waiting for it"
    assert watch.update(_status(CaptureState.STARTING), 60.0) == []
