"""A local HTTP server for the batch tests: the clips as URLs, some held back on demand.

A video under ``/held/`` is not answered until :meth:`VideoServer.release`: a batch
given one has a worker waiting on it for as long as the test likes, so a test can stop
the batch while a video is surely under way, whatever the machine's load.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["VideoServer", "serve_videos"]

_HOLD_S = 300.0


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    gate: threading.Event

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client gone mid-answer (a worker killed while held) is no error here."""


class _Handler(http.server.SimpleHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        if self.path.startswith("/held/"):
            self.server.gate.wait(_HOLD_S)
            self.path = self.path.removeprefix("/held")
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test's output is the batch's, not the server's."""


class VideoServer:
    """``folder``'s files at ``url(name)``; ``url(name, held=True)`` waits for release."""

    def __init__(self, folder: Path) -> None:
        self._server = _Server(("127.0.0.1", 0), functools.partial(_Handler, directory=str(folder)))
        self._server.gate = threading.Event()
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, name: str, *, held: bool = False) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{'held/' if held else ''}{name}"

    def hold(self) -> None:
        """Answer no ``/held/`` request until :meth:`release`."""
        self._server.gate.clear()

    def release(self) -> None:
        self._server.gate.set()

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self.release()
        self._server.shutdown()
        self._server.server_close()


@contextlib.contextmanager
def serve_videos(folder: Path) -> Iterator[VideoServer]:
    """A :class:`VideoServer` of ``folder``, running for the ``with`` block."""
    server = VideoServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.close()
