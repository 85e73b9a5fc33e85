"""The web side: scoreboard, overlay, referee console, calibration wizard, match history.

``create_app(WebSettings(db=...))`` builds the FastAPI app of one table (served by
``carom serve`` or ``carom live --serve``); ``serve_in_thread`` runs it on loopback
for tests and benchmarks. See ``docs/web.md``.

The names are imported on first use, so that the ``carom`` command line (which
registers ``carom serve``) does not load FastAPI for
every other command.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carom.web._app import create_app
    from carom.web._live_serve import LiveWeb, start_for_live
    from carom.web._serve import RunningServer, bind, serve_forever, serve_in_thread
    from carom.web._settings import WebSettings
    from carom.web._table import ConflictError, MatchSetup, Table

__all__ = [
    "ConflictError",
    "LiveWeb",
    "MatchSetup",
    "RunningServer",
    "Table",
    "WebSettings",
    "bind",
    "create_app",
    "serve_forever",
    "serve_in_thread",
    "start_for_live",
]

_WHERE = {
    "create_app": "_app",
    "RunningServer": "_serve",
    "serve_in_thread": "_serve",
    "bind": "_serve",
    "serve_forever": "_serve",
    "LiveWeb": "_live_serve",
    "start_for_live": "_live_serve",
    "WebSettings": "_settings",
    "ConflictError": "_table",
    "MatchSetup": "_table",
    "Table": "_table",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'carom.web' has no attribute {name!r}")
    return getattr(importlib.import_module(f"carom.web.{module}"), name)
