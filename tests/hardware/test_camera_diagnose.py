"""Why a camera did not open, told from a real socket and the real /dev."""

from __future__ import annotations

import http.server
import socket
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import CameraError, explain_camera, open_camera, safe_spec


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_port_nobody_listens_on_is_refused_and_the_port_is_named() -> None:
    port = _free_port()
    line = explain_camera(f"rtsp://127.0.0.1:{port}/stream1")
    assert f"127.0.0.1:{port} refused the connection" in line
    assert "check the camera is on and streaming" in line


def test_a_server_that_answers_without_video_points_at_the_path_and_password() -> None:
    class NotFound(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_error(404)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        line = explain_camera(f"http://127.0.0.1:{port}/wrong/path")
    finally:
        server.shutdown()
        server.server_close()
    assert f"127.0.0.1:{port} answers but gave no video" in line and "the path" in line


def test_a_missing_device_index_names_its_device_file() -> None:
    index = next(i for i in range(90, 200) if not Path(f"/dev/video{i}").exists())
    line = explain_camera(str(index))
    assert f"index {index} (/dev/video{index}): no such device" in line


def test_a_device_without_pictures_is_named_as_present() -> None:
    # /dev/null exists and is readable, as a camera held by another program would be.
    assert "the device is there but gave no picture" in explain_camera("/dev/null")


def test_a_url_without_a_port_or_host_says_so() -> None:
    assert "cannot tell its host and port" in explain_camera("foo://")


def test_passwords_are_never_repeated() -> None:
    port = _free_port()
    url = f"rtsp://admin:s3cret@127.0.0.1:{port}/live"
    with pytest.raises(CameraError) as err:
        open_camera(url)
    line = str(err.value)
    assert "s3cret" not in line and "admin" not in line
    assert line.startswith(f"camera rtsp://***@127.0.0.1:{port}/live: cannot open it; tried")
    assert safe_spec(url) == f"rtsp://***@127.0.0.1:{port}/live"


_SECRET = st.text(st.characters(exclude_characters="/?#@", exclude_categories=("Cs",)), min_size=1)


@given(_SECRET, _SECRET)
def test_safe_spec_never_keeps_the_user_or_password(user: str, password: str) -> None:
    shown = safe_spec(f"rtsp://{user}:{password}@cam.local:554/x?token=1")
    assert shown == "rtsp://***@cam.local:554/x?token=1"
