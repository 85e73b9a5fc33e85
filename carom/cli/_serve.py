"""``carom serve``: the referee's web server (scoreboard, overlay, console, history).

Composition root of ``carom serve``: checks the options (one-line errors, no
traceback), calibrates a video source when asked (``--calibration auto``), builds
the app (:func:`carom.web.create_app`) and serves it with uvicorn on a socket bound
here (so a port in use is a clean error).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carom.web import WebSettings

__all__ = ["add_parser", "run"]

DEFAULT_PORT = 8765
_LOOPBACK = ("127.0.0.1", "localhost")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom serve``."""
    p = sub.add_parser(
        "serve",
        help="serve the scoreboard, overlay, referee console and match history on the web",
        description="Serve one table: pages at / (scoreboard, overlay, console, wizard, "
        "history), the API at /api (OpenAPI at /docs), live updates at /api/events. "
        "Listens on 127.0.0.1 unless --host says otherwise. Changes need the admin "
        "token printed at the first start.",
    )
    add_server_options(p)
    p.add_argument("--db", type=Path, default=Path("carom-live.db"),
                   help="match database (default carom-live.db; as carom live)")  # fmt: skip
    p.add_argument("--camera", metavar="SRC",
                   help="camera index, stream URL or video file; a match created on the "
                   "console is then refereed live from it (default: no camera, calls by "
                   "hand)")  # fmt: skip
    p.add_argument("--calibration", metavar="FILE|auto",
                   help="calibration file of the camera; 'auto' (the default with a video "
                   "file) fits one from the video as carom analyze does")  # fmt: skip
    from carom.match import add_match_options

    add_match_options(p)
    p.add_argument("--pace", type=float, default=1.0,
                   help="video file replay speed: 1 real time, 0 as fast as processed")  # fmt: skip


def add_server_options(p: argparse.ArgumentParser) -> None:
    """The options ``carom serve`` and ``carom live --serve`` share."""
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only)")  # fmt: skip
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; 0: any free port, printed)")  # fmt: skip
    p.add_argument("--token-file", type=Path, metavar="PATH",
                   help="also write a newly made admin token to PATH (mode 0600)")  # fmt: skip
    p.add_argument("--new-token", action="store_true",
                   help="make a new admin token (the old one stops working)")  # fmt: skip
    p.add_argument("--cors", nargs="+", default=[], metavar="ORIGIN",
                   help="let pages of these origins call the API (default: none)")  # fmt: skip
    p.add_argument("--max-body", type=int, default=64 * 1024, metavar="BYTES",
                   help="largest request body accepted (default 65536)")  # fmt: skip


def settings_of(args: argparse.Namespace, *, camera: str | None, calibration: Path | None,
                pace: float, match: Any = None, start: bool = False) -> WebSettings:  # fmt: skip
    """The :class:`WebSettings` of the shared options (CAROM_TOKEN presets the token).

    ``match``: the console form's set-up (its table is the server's); ``start``: put
    it on the table at start-up.
    """
    from carom.web import WebSettings
    from referee import CaromError

    if not 1024 <= args.max_body <= 16 * 1024 * 1024:
        raise CaromError(f"--max-body {args.max_body}: use 1024..16777216 bytes")
    for origin in args.cors:
        if origin == "*" or "://" not in origin:
            raise CaromError(f"--cors {origin!r}: give full origins like http://host:port")
    from carom.match import match_from_args, table_of

    match = match if match is not None else match_from_args(args)
    return WebSettings(
        table=table_of(match), match=match, start_match=start, db=args.db, camera=camera,
        calibration=calibration, pace=pace,
        token=os.environ.get("CAROM_TOKEN") or None, new_token=args.new_token,
        token_file=args.token_file, cors_origins=tuple(args.cors),
        max_body_bytes=args.max_body,
        allowed_hosts=("127.0.0.1", "localhost") if args.host in _LOOPBACK else (),
    )  # fmt: skip


def _calibration(args: argparse.Namespace) -> Path | None:
    """The calibration file to use (fitted from a video file for ``auto``)."""
    from carom.live.loop import is_file_source
    from referee import CaromError

    if args.camera is None:
        if args.calibration is not None:
            raise CaromError("--calibration needs --camera (the camera it calibrates)")
        return None
    wanted: str | None = args.calibration or ("auto" if is_file_source(args.camera) else None)
    if wanted is None:
        raise CaromError(f"--camera {args.camera}: a live camera needs --calibration FILE "
                         "(make one with carom calibrate)")  # fmt: skip
    if wanted != "auto":
        from calibration import load_calibration

        load_calibration(Path(str(wanted)))
        return Path(str(wanted))
    if not is_file_source(args.camera):
        raise CaromError("--calibration auto works on a video file; for a camera pass FILE")
    return _auto_calibrate(args)


def _auto_calibrate(args: argparse.Namespace) -> Path:
    """Fit the camera from the video file as ``carom analyze`` does; the file's path."""
    from carom.match import match_from_args
    from carom.pipeline import Pipeline
    from vision import VideoFileSource

    source = VideoFileSource(args.camera)
    try:
        size = source.size_px
    finally:
        source.close()
    db = Path(args.db)
    out = db.parent / f"{db.stem}-calibration"
    Pipeline(source=args.camera, match=match_from_args(args)).calibrate(size, out)
    path = out / "calibration.json"
    _say(f"calibrated from the video: {path}")
    return path


def _say(text: str) -> None:
    print(f"carom serve: {text}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom serve`` (until Ctrl-C); CaromError (one line) on bad input."""
    from carom.live.loop import is_file_source
    from carom.match import match_from_args
    from carom.web import bind, create_app, serve_forever
    from referee import CaromError
    from vision import VideoFileSource

    if not 0.0 <= args.pace <= 100.0:
        raise CaromError(f"--pace {args.pace}: use 0 (as fast as processed) up to 100")
    match = match_from_args(args)  # a bad --match or flag fails now, in one line
    if args.camera is not None and is_file_source(args.camera):
        VideoFileSource(args.camera).close()  # a missing file fails now, in one line
    sock = bind(args.host, args.port)
    try:
        calibration = _calibration(args)
        settings = settings_of(args, camera=args.camera, calibration=calibration, pace=args.pace,
                               match=match, start=args.match is not None)  # fmt: skip
        app = create_app(settings)
    except BaseException:
        sock.close()
        raise
    host, port = sock.getsockname()[:2]
    _say(f"listening on http://{host}:{port}/ (scoreboard /scoreboard, overlay /overlay, "
         "console /console, history /history; Ctrl-C stops)")  # fmt: skip
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops cleanly, then re-raises it
        serve_forever(app, sock)
    _say("stopped")
    return 0
