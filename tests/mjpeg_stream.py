"""A local IP camera: MJPEG over HTTP (multipart/x-mixed-replace), as IP cameras serve it.

Camera tests read a real network stream through OpenCV's FFmpeg with no device and no
internet. Picture ``i`` is flat grey at :func:`grey` ``(i)`` on a non-square image, so
frames are told apart and an x/y swap shows in the shape.
"""

from __future__ import annotations

import contextlib
import http.server
import threading
import time
from collections.abc import Iterator

import cv2
import numpy as np

__all__ = ["SIZE_PX", "grey", "mjpeg_camera"]

SIZE_PX = (320, 240)  # (width, height)


def grey(i: int) -> int:
    """The grey level of picture ``i``."""
    return (20 + 9 * i) % 256


def _part(i: int) -> bytes:
    image = np.full((SIZE_PX[1], SIZE_PX[0], 3), grey(i), np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    data = jpeg.tobytes()
    head = f"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {len(data)}\r\n\r\n"
    return head.encode("ascii") + data + b"\r\n"


def _handler(n_frames: int, fps: float) -> type[http.server.BaseHTTPRequestHandler]:
    class Stream(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            for i in range(n_frames):
                try:
                    self.wfile.write(_part(i))
                    self.wfile.flush()
                except OSError:
                    return  # the reader hung up
                time.sleep(1.0 / fps)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: a test's output is its own."""

    return Stream


@contextlib.contextmanager
def mjpeg_camera(n_frames: int, fps: float = 50.0) -> Iterator[str]:
    """Serve ``n_frames`` pictures at ``fps`` to each client on 127.0.0.1; yields the URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(n_frames, fps))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="mjpeg camera", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/video.mjpg"
    finally:
        server.shutdown()
        server.server_close()
