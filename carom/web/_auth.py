"""The admin token: created at first start, shown once, stored only as a salted hash.

Theory of operation. The token guards every request that changes state. It is a
random 32-byte URL-safe string made when the database has none; its PBKDF2-SHA256
hash (with a random salt) is kept in the ``web_tokens`` table of the match database
and the token itself is printed once (and written to ``--token-file`` if asked).
A request's token is hashed and compared with :func:`hmac.compare_digest`. The
SHA-256 of the one right token is kept in memory as soon as it is known (made or preset
at start, or once a request presented it): from then on every token, right or wrong, is
told by one SHA-256 and a constant-time comparison (:meth:`TokenStore.quick`); only
before that (a server restarted over an existing hash, nobody has logged in yet) does a
token need the key derivation (:meth:`TokenStore.slow`), which the web server runs on
one low-priority thread behind a per-client back-off (:mod:`carom.web._guard`).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from carom.live import LiveError

__all__ = ["TokenIssue", "TokenStore", "write_token_file"]

_ITERATIONS = 200_000
_MIN_LEN = 16
_SCHEMA = "CREATE TABLE IF NOT EXISTS web_tokens (id INTEGER PRIMARY KEY, salt BLOB NOT NULL, " \
    "hash BLOB NOT NULL, iterations INTEGER NOT NULL, created_at TEXT NOT NULL)"  # fmt: skip


@dataclass(frozen=True, slots=True)
class TokenIssue:
    """What opening the token store did: ``token`` is set only when a new one was made."""

    token: str | None
    preset: bool = False
    kept: bool = True  # stored (hashed) in the database; False: for this run only


def _derive(token: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", token.encode("utf-8"), salt, iterations)


class TokenStore:
    """The hashed admin token in the match database (``web_tokens`` table)."""

    def __init__(self, db: Path) -> None:
        self._lock = threading.Lock()
        self._db_path = db
        self._salt = b""
        self._hash = b""
        self._iterations = _ITERATIONS
        self._fast_ok: bytes | None = None  # sha256 of the token that last matched

    def open(
        self, *, preset: str | None, renew: bool, now_iso: str, write: bool = True
    ) -> TokenIssue:
        """Load the hash; make a token when there is none (or ``renew``); ``preset`` sets it.

        ``write=False`` (a damaged database, which nothing may write): the stored hash is
        read if it can be, else a token is made for this run only and kept in memory.

        Raises:
            LiveError: the preset token is too short, or the database cannot be written.
        """
        if preset is not None and len(preset) < _MIN_LEN:
            raise LiveError(f"CAROM_TOKEN: use at least {_MIN_LEN} characters")
        if not write:
            return self._open_read_only(preset, renew)
        try:
            db = sqlite3.connect(str(self._db_path))
        except sqlite3.Error as exc:
            raise LiveError(f"{self._db_path}: cannot open it ({exc}); check --db") from None
        try:
            with db:
                token = self._load_or_make(db, preset, renew, now_iso)
        except sqlite3.Error as exc:
            raise LiveError(f"{self._db_path}: cannot keep the token ({exc}); check --db") from None
        finally:
            db.close()
        if token is None:
            return TokenIssue(None)
        return TokenIssue(None if preset else token, preset=preset is not None)

    def _open_read_only(self, preset: str | None, renew: bool) -> TokenIssue:
        row = None
        if preset is None and not renew:
            try:
                db = sqlite3.connect(f"file:{self._db_path}?mode=ro", uri=True)
                try:
                    row = db.execute("SELECT salt, hash, iterations FROM web_tokens "
                                     "ORDER BY id DESC LIMIT 1").fetchone()  # fmt: skip
                finally:
                    db.close()
            except sqlite3.Error:  # unreadable: a token for this run only
                row = None
        if row is not None:
            self._salt, self._hash, self._iterations = bytes(row[0]), bytes(row[1]), int(row[2])
            return TokenIssue(None)
        token = preset or secrets.token_urlsafe(32)
        self._salt = os.urandom(16)
        self._hash = _derive(token, self._salt, self._iterations)
        with self._lock:
            self._fast_ok = _sha256(token)
        return TokenIssue(None if preset else token, preset=preset is not None, kept=False)

    def _load_or_make(
        self, db: sqlite3.Connection, preset: str | None, renew: bool, now_iso: str
    ) -> str | None:
        db.execute(_SCHEMA)
        row = db.execute(
            "SELECT salt, hash, iterations FROM web_tokens ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is not None and preset is None and not renew:
            self._salt, self._hash, self._iterations = bytes(row[0]), bytes(row[1]), int(row[2])
            return None
        token = preset or secrets.token_urlsafe(32)
        self._salt = os.urandom(16)
        self._hash = _derive(token, self._salt, self._iterations)
        with self._lock:
            self._fast_ok = _sha256(token)
        db.execute("DELETE FROM web_tokens")
        db.execute(
            "INSERT INTO web_tokens (salt, hash, iterations, created_at) VALUES (?, ?, ?, ?)",
            (self._salt, self._hash, self._iterations, now_iso),
        )
        return token

    def quick(self, presented: str) -> bool | None:
        """True or False when the right token's SHA-256 is known (cheap); None otherwise."""
        fast = _sha256(presented)
        with self._lock:
            known = self._fast_ok
        if known is None:
            return None if self._hash else False
        return hmac.compare_digest(fast, known)

    def slow(self, presented: str) -> bool:
        """True when ``presented`` derives to the stored hash (PBKDF2: ~0.1 s of one core).

        A right token is remembered, so that :meth:`quick` answers from then on.
        """
        if not self._hash:
            return False
        ok = hmac.compare_digest(_derive(presented, self._salt, self._iterations), self._hash)
        if ok:
            with self._lock:
                self._fast_ok = _sha256(presented)
        return ok

    def check(self, presented: str) -> bool:
        """True when ``presented`` is the admin token (constant-time comparison).

        Pays the key derivation when :meth:`quick` cannot tell: call it off the event
        loop (the web server goes through :class:`carom.web._guard.Guard`).
        """
        quick = self.quick(presented)
        return quick if quick is not None else self.slow(presented)


def _sha256(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "replace")).digest()


def write_token_file(path: Path, token: str) -> None:
    """Write ``token`` to ``path`` readable by its owner only (0600)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(token + "\n")
        os.chmod(path, 0o600)
    except OSError as exc:
        raise LiveError(
            f"--token-file {path}: cannot write it ({exc}); pass another path"
        ) from None
