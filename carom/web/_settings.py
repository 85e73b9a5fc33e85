"""What the web server is set up with (``carom serve`` options), and the table's language."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path

from carom.i18n import LANGUAGES
from carom.live import LiveError
from carom.match import MatchFile
from carom.web._guard import GuardPolicy
from carom.web._rate import RatePolicy
from referee import Table

__all__ = ["TableLanguage", "WebSettings"]

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
    (not on this machine) may send (:mod:`carom.web._rate`). ``language``: the pages'
    language when the console has set none (None: each browser's own; docs/web.md).
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
    language: str | None = None


class TableLanguage:
    """The table's page language: a code of :data:`carom.i18n.LANGUAGES`, or None.

    None means each browser's own. Kept in the match database (table ``web_settings``)
    so it outlives a restart; read once, then from memory; the console changes it.
    ``keep`` False (a damaged database, which is never written): for this run only.
    """

    def __init__(self, db: Path, *, keep: bool = True) -> None:
        self._db, self._keep = db, keep
        self._lock = threading.Lock()
        self._value: str | None = None
        self._loaded = False

    def get(self) -> str | None:
        """The table's language, or None (an unreadable database: None, never an error)."""
        with self._lock:
            if not self._loaded:
                self._value, self._loaded = self._read(), True
            return self._value

    def set(self, language: str | None) -> None:
        """Keep ``language`` (None: each browser's own).

        Raises:
            LiveError: the database cannot be written.
        """
        with self._lock:
            if not self._keep:
                self._value, self._loaded = language, True
                return
            try:
                db = sqlite3.connect(str(self._db))
                try:
                    with db:
                        db.execute(_CREATE)
                        db.execute("INSERT OR REPLACE INTO web_settings (key, value) "
                                   "VALUES ('language', ?)", (language,))  # fmt: skip
                finally:
                    db.close()
            except sqlite3.Error as exc:
                raise LiveError(f"{self._db}: cannot keep the language ({exc})") from None
            self._value, self._loaded = language, True

    def _read(self) -> str | None:
        try:
            db = sqlite3.connect(f"file:{self._db}?mode=ro", uri=True)
            try:
                row = db.execute("SELECT value FROM web_settings WHERE key = 'language'").fetchone()
            finally:
                db.close()
        except sqlite3.Error:  # no such table yet, or no database: no setting
            return None
        return str(row[0]) if row and row[0] in LANGUAGES else None


_CREATE = "CREATE TABLE IF NOT EXISTS web_settings (key TEXT PRIMARY KEY, value TEXT)"
