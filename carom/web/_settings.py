"""What the web server is set up with (``carom serve`` options)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from carom.match import MatchFile
from carom.web._guard import GuardPolicy
from carom.web._rate import RatePolicy
from referee import Table

__all__ = ["WebSettings"]

STATIC_DIR = Path(__file__).parent / "static"


@dataclass(frozen=True, slots=True, kw_only=True)
class WebSettings:
    """The server's set-up; nothing in a request can change these.

    ``db``: the match database (SQLite, shared with ``carom live``). ``camera``: the
    table's camera or video file (None: shots are entered by hand). ``calibration``:
    the camera's calibration file (needed with a camera; the wizard saves there).
    ``pace``: video file replay speed (0 as fast as processed). ``token``: a preset
    admin token (``CAROM_TOKEN``); ``new_token``: make a new one even if one exists;
    ``token_file``: also write a new token there (0600). ``cors_origins``: origins
    allowed to call the API from a browser (none by default). ``max_body_bytes``:
    larger requests get 413. ``keepalive_s``: SSE keep-alive comment period.
    ``table``: the table (its size, for the calibration wizard). ``allowed_hosts``: the
    ``Host`` names a request may carry (empty: any); a loopback server allows only
    its own names, so a web page cannot reach it through DNS rebinding.
    ``max_sse_clients``: more live streams get 503. ``match``: the console form's
    set-up (``carom serve --match`` and the flags); ``start_match``: put it on the
    table at start-up (``--match`` given). ``drift_every_s``: seconds between checks
    that the camera did not move off its calibration (0: never; as ``carom live
    --drift-every``). ``guard``: the admin token's back-off per client and the bound on
    key derivations waiting (:mod:`carom.web._guard`). ``rate``: the requests a client
    (not on this machine) may send (:mod:`carom.web._rate`).
    """

    db: Path
    camera: str | None = None
    calibration: Path | None = None
    pace: float = 1.0
    token: str | None = None
    new_token: bool = False
    token_file: Path | None = None
    cors_origins: tuple[str, ...] = ()
    max_body_bytes: int = 64 * 1024
    keepalive_s: float = 15.0
    static_dir: Path = STATIC_DIR
    status_every_s: float = 60.0
    table: Table = field(default_factory=Table)
    allowed_hosts: tuple[str, ...] = ()
    max_sse_clients: int = 2000
    match: MatchFile | None = None
    start_match: bool = False
    drift_every_s: float = 0.0
    guard: GuardPolicy = field(default_factory=GuardPolicy)
    rate: RatePolicy = field(default_factory=RatePolicy)
