"""A network camera on 127.0.0.1 filming a real clip: MJPEG over HTTP at real-time pace.

The clip's frames are decoded with OpenCV and served as JPEG parts of a
``multipart/x-mixed-replace`` stream, as IP cameras serve them, each part when it is
due by the wall clock. A :class:`Step` list makes the camera misbehave on cue, at a
video time, while the video stands still (the table at rest for longer, as if the
players had taken their time):

* ``off``: the camera has gone: open streams are closed and every request is answered
  503, for ``seconds`` (``off_s``: the same before the first frame);
* ``stall``: open streams stay connected but silent for ``seconds``;
* ``hold``: the same picture again for ``seconds`` (a still table);
* ``end``: the camera goes away for good.

Every client sees the same frame at the same time (one producer thread).
"""

from __future__ import annotations

import contextlib
import http.server
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2

__all__ = ["Served", "Step", "network_camera"]


@dataclass(frozen=True, slots=True)
class Step:
    """At video time ``at_s``: ``kind`` (off, stall, hold, end) for ``seconds``."""

    at_s: float
    kind: str
    seconds: float = 0.0
    after_off: bool = False  # a hold that begins once a reader is back (see ``_do``)


class _Broadcast:
    """The newest JPEG part and whether the camera is up; clients wait on ``cond``."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.part = b""
        self.serial = 0
        self.up = False
        self.generation = 0  # bumped when the camera goes off: open streams end
        self.ended = threading.Event()  # the camera is gone for good
        self.refused = 0  # requests answered 503
        self.streams = 0  # streams started

    def publish(self, jpeg: bytes) -> None:
        head = f"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n"
        with self.cond:
            self.part, self.serial, self.up = (
                head.encode("ascii") + jpeg + b"\r\n",
                self.serial + 1,
                True,
            )
            self.cond.notify_all()

    def set_up(self, up: bool) -> None:
        with self.cond:
            if self.up and not up:
                self.generation += 1
            self.up = up
            self.cond.notify_all()


def _handler(cast: _Broadcast) -> type[http.server.BaseHTTPRequestHandler]:
    class Stream(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            with cast.cond:
                up, generation, seen = cast.up, cast.generation, cast.serial
            if not up:
                with cast.cond:
                    cast.refused += 1
                    cast.cond.notify_all()
                self.send_error(503, "camera starting")
                return
            with cast.cond:
                cast.streams += 1
                cast.cond.notify_all()
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            while True:
                with cast.cond:
                    while cast.serial == seen and cast.generation == generation:
                        cast.cond.wait()
                    if cast.generation != generation:
                        return  # the camera went off: the connection drops
                    part, seen = cast.part, cast.serial
                try:
                    self.wfile.write(part)
                    self.wfile.flush()
                except OSError:
                    return  # the reader hung up

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: a test's output is its own."""

    return Stream


def _produce(
    video: Path, steps: Sequence[Step], cast: _Broadcast, stop: threading.Event, off_s: float
) -> None:
    """Publish the clip's frames when due; after the frame at a step's time, do the step."""
    if off_s > 0:  # not up yet: answer 503 (to two requests at least)
        _do(Step(0.0, "off", off_s), b"", 1.0, cast, stop)
    cap = cv2.VideoCapture(str(video))
    fps = float(cap.get(cv2.CAP_PROP_FPS)) or 30.0
    todo = sorted(steps, key=lambda s: s.at_s)
    start, idx = time.monotonic(), 0
    try:
        while not stop.is_set():
            ok, image = cap.read()
            if not ok:
                break
            jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
            stop.wait(max(0.0, start + idx / fps - time.monotonic()))
            cast.publish(jpeg)
            while todo and todo[0].at_s <= idx / fps:
                step = todo.pop(0)
                if step.kind == "end":
                    return
                start += _do(step, jpeg, fps, cast, stop)  # the video stood still meanwhile
            idx += 1
    finally:
        cast.set_up(False)
        cast.ended.set()
        cap.release()


def _do(step: Step, jpeg: bytes, fps: float, cast: _Broadcast, stop: threading.Event) -> float:
    """Do ``step``; returns the seconds it took.

    An ``off`` lasts ``seconds`` and until two requests were refused (a busy reader is
    surely told); a ``hold`` right after it counts its ``seconds`` from the first stream
    served again, so the reader sees the still table whatever its reconnect backoff.
    """
    began = time.monotonic()
    with cast.cond:
        refused, streams = cast.refused, cast.streams
    cast.set_up(step.kind != "off")
    counting_from = began
    while not stop.is_set():
        with cast.cond:
            refused_now, streams_now = cast.refused, cast.streams
        if step.kind == "hold" and step.after_off and streams_now == streams:
            counting_from = time.monotonic()  # nobody is back yet: the hold has not begun
        elapsed = time.monotonic() - counting_from >= step.seconds
        if elapsed and (step.kind != "off" or refused_now - refused >= 2):
            break
        if step.kind == "hold":
            cast.publish(jpeg)
        stop.wait(1.0 / fps)
    return time.monotonic() - began


@dataclass(frozen=True, slots=True)
class Served:
    """The camera's URL, and an event set when it has gone for good (``end``)."""

    url: str
    ended: threading.Event


@contextlib.contextmanager
def network_camera(video: Path, steps: Sequence[Step], off_s: float = 0.0) -> Iterator[Served]:
    """Serve ``video`` as a network camera following ``steps``.

    For the first ``off_s`` seconds, and until it has refused two requests, the camera
    answers 503 (it is still starting).
    """
    cast = _Broadcast()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(cast))
    server.daemon_threads = True
    stop = threading.Event()
    threads = [
        threading.Thread(target=server.serve_forever, name="camera server", daemon=True),
        threading.Thread(target=_produce, args=(video, steps, cast, stop, off_s), daemon=True),
    ]
    for thread in threads:
        thread.start()
    if off_s == 0:  # up from the start: the first frame is there before the URL is given
        with cast.cond:
            cast.cond.wait_for(lambda: cast.serial > 0, 10.0)
    try:
        yield Served(f"http://127.0.0.1:{server.server_address[1]}/video.mjpg", cast.ended)
    finally:
        stop.set()
        cast.set_up(False)
        server.shutdown()
        server.server_close()
