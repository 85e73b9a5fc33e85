"""Running the app under uvicorn: in the foreground (``carom serve``) or in a thread.

The listening socket is bound here, before uvicorn starts, so that a port in use or a
bad address is a one-line :class:`referee.CaromError` instead of a logged traceback.
"""

from __future__ import annotations

import errno
import socket
import threading
import time
from dataclasses import dataclass

import uvicorn
from fastapi import FastAPI

from referee import CaromError

__all__ = ["RunningServer", "bind", "serve_forever", "serve_in_thread"]

_START_WAIT_S = 30.0


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port).

    Raises:
        CaromError: the address is unusable or the port is taken.
    """
    if not 0 <= port <= 65535:
        raise CaromError(f"--port {port}: use 0..65535 (0: any free port)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
            way = ("no network interface of this machine has that address: pass one it has "
                   "with --host (0.0.0.0: all of them, 127.0.0.1: this machine only)")  # fmt: skip
        elif exc.errno in (errno.EACCES, errno.EPERM) and 0 < port < 1024:
            way = "a port under 1024 needs administrator rights: pass another --port"
        else:
            way = "pass another --port or stop the program using it"
        raise CaromError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); {way}") from None
    sock.setblocking(False)
    return sock


def _server(app: FastAPI, log_level: str) -> uvicorn.Server:
    # proxy_headers off: a client's address is the socket's, never an X-Forwarded-For
    # it wrote itself (the admin token's back-off is per address: docs/security.md).
    config = uvicorn.Config(app, log_level=log_level, lifespan="on", access_log=False,
                            timeout_graceful_shutdown=2, timeout_keep_alive=30,
                            proxy_headers=False)  # fmt: skip
    return uvicorn.Server(config)


def serve_forever(app: FastAPI, sock: socket.socket, *, log_level: str = "warning") -> None:
    """Serve ``app`` on ``sock`` until Ctrl-C (the caller's thread)."""
    _server(app, log_level).run(sockets=[sock])


@dataclass(slots=True)
class RunningServer:
    """A server running in a thread: its base URL (``http://127.0.0.1:PORT``) and app."""

    url: str
    app: FastAPI
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        """Shut the server down (open SSE streams are ended) and wait for it."""
        self.app.state.table.broadcaster.close()  # ends SSE streams: no wait for them
        self.server.should_exit = True
        self.thread.join(15.0)


def serve_in_thread(app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> RunningServer:
    """Start ``app`` on ``host:port`` in a daemon thread; returns once it accepts requests."""
    sock = bind(host, port)
    server = _server(app, "warning")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="web server", daemon=True)  # fmt: skip
    thread.start()
    deadline = time.monotonic() + _START_WAIT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise CaromError("the web server did not start; see the messages above")
        time.sleep(0.01)
    bound = sock.getsockname()
    return RunningServer(f"http://{host}:{bound[1]}", app, server, thread)
