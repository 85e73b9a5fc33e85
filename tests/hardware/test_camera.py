"""Cameras behind the hardware protocol: a real MJPEG stream over HTTP (a local IP
camera), which specs are cameras, the registry of camera kinds, and the boundaries."""

from __future__ import annotations

import ast
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from hardware import (
    Camera,
    CameraError,
    CameraFrame,
    CameraKind,
    is_camera_spec,
    open_camera,
    register_camera,
)
from hardware.camera import _cameras
from tests.mjpeg_stream import SIZE_PX, grey, mjpeg_camera

ROOT = Path(__file__).parents[2]


@pytest.fixture
def stream_url() -> Iterator[str]:
    """A local IP camera serving 12 pictures to each client."""
    with mjpeg_camera(12) as url:
        yield url


def test_a_network_stream_opens_as_a_camera_and_gives_timed_pictures(stream_url: str) -> None:
    camera: Camera = open_camera(stream_url)
    assert camera.size_px == SIZE_PX and camera.fps > 0
    shots = list(camera.frames())  # until the stream ends; the camera is closed then
    camera.close()  # idempotent
    assert [s.index for s in shots] == list(range(12))
    assert all(s.image_bgr.shape == (SIZE_PX[1], SIZE_PX[0], 3) for s in shots)
    assert all(s.image_bgr.dtype == np.uint8 for s in shots)
    levels = [int(np.median(s.image_bgr)) for s in shots]
    assert np.abs(np.array(levels) - [grey(i) for i in range(12)]).max() <= 3  # JPEG
    times = [s.t_s for s in shots]
    assert times[0] >= 0.0 and times[1:] == sorted(set(times[1:])) and times[1] > 0


def test_what_a_camera_spec_is() -> None:
    devices = (0, "0", "12", "/dev/video0", "/dev/v4l/by-id/usb-cam-video-index0")
    cameras = (*devices, "rtsp://cam.local/s1", "http://10.0.0.9/video.mjpg", "udp://@:1234")
    files = ("match.mp4", "/videos/2026/a.mkv", "shots/*.png", "frames/", "0.mp4", -1)
    assert all(is_camera_spec(s) for s in cameras)
    assert not any(is_camera_spec(s) for s in files)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_camera_that_is_not_there_is_a_one_line_error() -> None:
    for spec, why in ((f"http://127.0.0.1:{_free_port()}/video", "refused the connection"),
                      ("/dev/video99", "no such device; check the camera is plugged")):  # fmt: skip
        with pytest.raises(CameraError, match=f"cannot open it; tried .*{why}") as err:
            open_camera(spec)
        assert str(spec) in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(CameraError, match="not a camera index, device or URL"):
        open_camera("match.mp4")
    for index in ("2147483648", "99999999999999999999", 2**31):  # OpenCV takes a C int
        with pytest.raises(CameraError, match=r"not a camera index \(0 to 2147483647\)"):
            open_camera(index)
    assert not is_camera_spec("\N{SUPERSCRIPT TWO}")  # a digit int() does not read


class _TestPattern:
    """A camera kind of the test's own: ``pattern://N`` gives N black pictures."""

    def __init__(self, spec: int | str, clock: object) -> None:
        self.n = int(str(spec).removeprefix("pattern://"))
        self.fps, self.size_px = 10.0, (64, 48)
        self.closed = False

    def frames(self) -> Iterator[CameraFrame]:
        for i in range(self.n):
            yield CameraFrame(i, i / self.fps, np.zeros((48, 64, 3), np.uint8))
        self.close()

    def close(self) -> None:
        self.closed = True


def test_a_registered_camera_kind_takes_its_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cameras, "_KINDS", list(_cameras._KINDS))  # restored after
    assert not is_camera_spec("pattern:3")
    register_camera(CameraKind("pattern", lambda s: str(s).startswith("pattern://"), _TestPattern))
    camera = open_camera("pattern://3")
    assert isinstance(camera, _TestPattern) and camera.size_px == (64, 48)
    assert [f.t_s for f in camera.frames()] == [0.0, 0.1, 0.2] and camera.closed
    assert is_camera_spec("rtsp://cam/1") and not is_camera_spec("a.mp4")  # OpenCV's still


def test_import_hardware_loads_no_camera_library() -> None:
    code = "import sys, hardware; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    loaded = {m.split(".")[0] for m in out.stdout.split()}
    assert loaded.isdisjoint({"cv2", "numpy", "vision", "carom", "av"})


def test_hardware_imports_neither_vision_nor_the_app() -> None:
    """Frames flow camera -> vision: vision may use hardware, never the other way."""
    bad = []
    for path in sorted((ROOT / "hardware").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            bad += [f"{path.relative_to(ROOT)}: {n}" for n in names
                    if n.split(".")[0] in ("vision", "carom", "calibration", "synth")]  # fmt: skip
    assert bad == []


def test_a_stream_is_read_as_it_comes_not_all_at_once() -> None:
    with mjpeg_camera(6, fps=10.0) as url:
        camera = open_camera(url)
        started = time.monotonic()
        frames = camera.frames()
        next(frames)
        first = time.monotonic() - started
        for _ in frames:
            pass
        whole = time.monotonic() - started
    assert whole - first >= 0.3  # five more pictures, 0.1 s apart on the server


def test_a_stream_that_goes_silent_ends_after_the_read_timeout_not_ffmpeg_s_30_s() -> None:
    from hardware.camera._camera_opencv import READ_TIMEOUT_S
    from tests.network_camera import Step, network_camera

    video = Path(__file__).parents[2] / "sample_videos" / "three_cushion_match.mp4"
    with network_camera(video, [Step(0.3, "stall", 60.0)]) as served:
        camera = open_camera(served.url)
        began = None
        n_frames = 0
        for _frame in camera.frames():  # ends when the read times out
            n_frames += 1
            began = time.monotonic()
        assert began is not None and n_frames >= 5
        silent_s = time.monotonic() - began
    assert READ_TIMEOUT_S - 0.5 < silent_s < 20.0  # FFmpeg alone would wait 30 s
