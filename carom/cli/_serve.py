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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carom.cli._analyze import language_arg
from carom.cli._outputs import check_output
from carom.cli._signals import sigterm_interrupts
from carom.console import say

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
                   help="calibration file of the camera; default: the one saved for this "
                   "camera beside the database (DB-calibration/camera-SRC.json, where the "
                   "wizard saves), else one fitted now from the camera or video and saved "
                   "there (if that fails, the server starts and the wizard marks the "
                   "corners); 'auto' always fits and stops if the fit fails")  # fmt: skip
    from carom.match import add_match_options

    add_match_options(p)
    p.add_argument("--pace", type=float, default=1.0,
                   help="video file replay speed: 1 real time, 0 as fast as processed")  # fmt: skip
    p.add_argument("--drift-every", type=float, default=0.0, metavar="S",
                   help="check every S seconds that the camera did not move off its "
                   "calibration (default 0: off; as carom live)")  # fmt: skip


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
    p.add_argument("--language", "--lang", type=language_arg, metavar="CODE",
                   help="the pages' language when the console has set none: en, ko, tr, nl, "
                   "fr or es (default: each browser's own; docs/web.md)")  # fmt: skip


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
        max_body_bytes=args.max_body, language=args.language,
        allowed_hosts=("127.0.0.1", "localhost") if args.host in _LOOPBACK else (),
    )  # fmt: skip


def _calibration(args: argparse.Namespace) -> tuple[Path | None, str | None]:
    """The camera's calibration file, and a line to say once the server listens.

    ``--calibration FILE``: that file. Else the one saved for the camera
    (:func:`carom.pipeline.camera_calibration_path`), else one fitted from the camera
    and saved there (``auto`` always fits). A failed fit stops an explicit ``auto``
    (:class:`calibration.CalibrationFailed`); by default the server starts anyway, so
    the wizard can mark the corners and save them there: the line says where.
    """
    from calibration import CalibrationFailed, load_calibration
    from carom.cli._live_calibration import saved_calibration
    from carom.pipeline import WIZARD_URL, camera_calibration_path
    from referee import CaromError

    if args.camera is None:
        if args.calibration is not None:
            raise CaromError("--calibration needs --camera (the camera it calibrates)")
        return None, None
    if args.calibration not in (None, "auto"):
        load_calibration(Path(str(args.calibration)))
        return Path(str(args.calibration)), None
    path = camera_calibration_path(Path(args.db), args.camera)
    if args.calibration is None and path.exists():
        saved_calibration(path, args.camera)  # a damaged file fails now, in one line
        _say(f"using the calibration saved for {args.camera}: {path}")
        return path, None
    try:
        _auto_calibrate(args, path)
    except CalibrationFailed as exc:
        if args.calibration == "auto":
            raise
        # The wizard's address is this server's once it listens (run() puts it in).
        return path, (f"{exc.reason}; mark the table's corners in this server's wizard, "
                      f"{WIZARD_URL}: it saves them to {path}, and a match can start "
                      "once they are saved")  # fmt: skip
    return path, None


def _auto_calibrate(args: argparse.Namespace, path: Path) -> None:
    """Fit the camera from its frames as ``carom analyze`` does; save it at ``path``."""
    from carom.match import match_from_args
    from carom.pipeline import fit_calibration

    config = match_from_args(args).config(camera=True)
    fit_calibration(args.camera, config.table, config.discipline, path.parent, say=_say,
                    name=path.stem)  # fmt: skip
    _say(f"calibrated from {args.camera}: {path}")


def _say(text: str) -> None:
    say("serve", text)


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom serve`` (until Ctrl-C); CaromError (one line) on bad input."""
    from carom.live.loop import is_file_source
    from carom.match import match_from_args
    from carom.web import bind, create_app, serve_forever
    from referee import CaromError
    from vision import VideoFileSource

    if not 0.0 <= args.pace <= 100.0:
        raise CaromError(f"--pace {args.pace}: use 0 (as fast as processed) up to 100")
    if not 0.0 <= args.drift_every <= 86400.0:
        raise CaromError(f"--drift-every {args.drift_every}: use 0 (off) to 86400 seconds")
    if args.token_file is not None:
        check_output(args.token_file, "--token-file")  # before a token is made and kept
    match = match_from_args(args)  # a bad --match or flag fails now, in one line
    if args.camera is not None and is_file_source(args.camera):
        VideoFileSource(args.camera).close()  # a missing file fails now, in one line
    sock = bind(args.host, args.port)
    try:
        calibration, later = _calibration(args)
        settings = settings_of(args, camera=args.camera, calibration=calibration, pace=args.pace,
                               match=match, start=args.match is not None)  # fmt: skip
        settings = replace(settings, drift_every_s=args.drift_every)
        app = create_app(settings)
    except BaseException:
        sock.close()
        raise
    host, port = sock.getsockname()[:2]
    # Ctrl-C or SIGTERM (a service manager's stop): uvicorn shuts down cleanly, then
    # raises the signal again; either is then a KeyboardInterrupt, the normal end, also
    # the moment the address is said (a watcher may stop it at once).
    with sigterm_interrupts(), contextlib.suppress(KeyboardInterrupt):
        if later is not None:  # before the address line, which tells a watcher it is up
            _say(later.replace("http://127.0.0.1:8765/", f"http://{host}:{port}/"))
        _say(f"listening on http://{host}:{port}/ (scoreboard /scoreboard, overlay /overlay, "
             "console /console, history /history, calibration wizard /wizard; "
             "Ctrl-C stops)")  # fmt: skip
        serve_forever(app, sock)
    sock.close()
    _say("stopped")
    return 0
