"""``carom live --serve``: the web server over the match ``carom live`` referees.

``carom live`` keeps its own loop (keyboard, scoreboard, camera) in the main thread;
with ``--serve`` this module serves the same app as ``carom serve`` in a thread, with
the table *attached* to that session and its runner (:meth:`LiveWeb.attach`): the
pages show it, the console's calls go through the runner's loop like typed lines
(:meth:`carom.live.loop.LiveRunner.post`), the review replay and the clock are
watched through the runner's hooks, and a new match is refused (the match is the one
on the command line).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from carom.live import Account, LiveSession
from carom.live.loop import LiveRunner
from carom.web._live import CameraRig
from carom.web._serve import RunningServer, bind, serve_in_thread
from carom.web._settings import WebSettings
from carom.web._table import ConflictError, MatchSetup, Table

__all__ = ["AttachedRig", "LiveWeb", "start_for_live"]


class AttachedRig(CameraRig):
    """The runner of ``carom live`` (run by it, not by the server)."""

    can_start = False

    def __init__(self, source: str) -> None:
        super().__init__(source, calibration=None)
        self.active = False

    @property
    def running(self) -> bool:
        """True while ``carom live``'s loop runs."""
        return self.active

    def start(self, session: LiveSession, setup: Any, *, on_change: Any) -> None:
        """A new match cannot be started from the web: carom live names its match."""
        raise ConflictError("carom live referees this table; start a new match with a new "
                            "carom live command")  # fmt: skip

    def stop(self) -> None:
        """Nothing to stop: carom live owns the loop."""


@dataclass(slots=True)
class LiveWeb:
    """The server of ``carom live --serve``."""

    server: RunningServer
    table: Table
    rig: AttachedRig

    def attach(self, runner: LiveRunner) -> None:
        """Serve ``runner``'s session (its calls go through its loop).

        Call it before the runner runs, so the review replay sees every frame.
        """
        runner.session.subscribe(self.rig.replay.on_update)
        self.rig.watch(runner, self.table.poke)
        self.rig.runner, self.rig.capture, self.rig.active = runner, runner.capture, True
        runner.console = True  # a review left at the video's end waits for the console too
        self.table.poke(Account("live_refereeing"))

    def detach(self) -> None:
        """``carom live``'s loop ended: calls are taken directly; stop serving."""
        self.rig.active = False
        self.server.stop()


def start_for_live(
    settings: WebSettings,
    where: tuple[str, int],
    camera: str,
    session: LiveSession,
    setup: MatchSetup,
) -> LiveWeb:
    """``carom live --serve``: serve ``session`` at ``where`` (host, port).

    ``settings``: the server's (made by the command line from the shared server
    options); ``setup``: the match and its shot clock (the file's and the flags').
    Returns once the server accepts requests.
    """
    from carom.web._app import create_app

    host, port = where
    sock = bind(host, port)
    sock.close()  # checked now, in one line; uvicorn binds it again just below
    app = create_app(settings, say=_say)
    app.state.wizard.live_camera = camera  # carom live calibrates; the wizard says so
    table: Table = app.state.table
    rig = AttachedRig(camera)
    table.rig = rig
    table.adopt(session, setup)
    server = serve_in_thread(app, host, port)
    pages = "scoreboard /scoreboard, overlay /overlay, console /console, history /history"
    _say(f"serving on {server.url}/ ({pages})")
    return LiveWeb(server, table, rig)


def _say(text: str) -> None:
    print(f"carom live: {text}", file=sys.stderr, flush=True)
