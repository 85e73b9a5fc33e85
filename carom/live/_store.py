"""The live match database: SQLite in WAL mode, one write-ahead journal per match.

Theory of operation. Every input of a live match (a shot, a person's call, a review
decision, a pause) is one row of ``journal``, written with ``synchronous=FULL`` in
one transaction together with the match's new version *before* anything in memory
changes. The match state is never stored: it is the journal replayed through the
referee (:mod:`carom.live._session`), so a power cut can lose at most the input
being written, and never leaves a state that disagrees with its history. The
schema is described in ``docs/live-storage.md``.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carom.live._chain import MATCH_COLUMNS, head_hash, link, seal
from carom.live._schema import APPLICATION, SCHEMA_VERSION, TRACKS, migrate
from carom.live._schema import create as create_tables
from carom.live._verify import StoreHealth, check, one_line
from referee import CaromError

__all__ = ["SCHEMA_VERSION", "JournalEntry", "LiveError", "MatchRow", "MatchStore", "StoreHealth"]

_log = logging.getLogger("carom.live")
_UNUSABLE = "its matches cannot be read, resumed or added to until then"


class LiveError(CaromError):
    """Live mode cannot do this: a bad database, an input the match does not take now."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRow:
    """One match of the database. ``config`` is the ``carom-shots/1`` head of the match.

    ``players``: every player in the order of play (2 to 8).
    """

    id: int
    created_at: str
    source: str
    setup_key: str
    config: Mapping[str, Any]
    discipline: str
    players: tuple[str, ...]
    version: int
    finished_at: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class JournalEntry:
    """One input of a match as written: ``seq`` is the session version after it.

    ``payload`` is what replaying needs (JSON object); ``result`` what it gave (for
    people and queries, never read back by replay); ``paths`` the compact ball paths
    of a shot; ``who``/``at`` name the person (or ``"vision"``) and the ISO time.
    """

    seq: int
    kind: str
    payload: Mapping[str, Any]
    who: str
    at: str
    state_version: int
    result: Mapping[str, Any] | None = None
    paths: bytes | None = None


class MatchStore:
    """The SQLite file of live matches: one connection, shared by threads under a lock.

    The file checks itself when opened (:mod:`carom.live._verify`): ``health`` says
    what it found. A damaged file is never written (every write raises LiveError
    naming the damage and ``carom matches DB --repair``); ``strict`` refuses it at once.
    """

    def __init__(
        self, path: Path, *, create: bool = True, busy_timeout_s: float = 5.0,
        strict: bool = False,
    ) -> None:  # fmt: skip
        """Open ``path`` (creating a fresh database unless ``create`` is False).

        ``busy_timeout_s`` is how long a write waits for another connection's write;
        ``strict``: raise on damage, else warn (log) once and keep ``health``.

        Raises LiveError when the file is missing (``create=False``), empty (0 bytes),
        is not a carom database, was written by a newer version, cannot be read by
        SQLite at all, or (``strict``) fails the checks on open.
        """
        self.path = Path(path)
        self._refuse_unusable(create)
        self._lock = threading.RLock()
        self.health = StoreHealth()
        try:
            self._db = sqlite3.connect(
                str(self.path), timeout=busy_timeout_s, check_same_thread=False,
                isolation_level=None,
            )  # fmt: skip
        except sqlite3.Error as exc:
            raise LiveError(f"{self.path}: cannot open it ({exc}); pass another path") from None
        try:
            self._prepare(create)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # text that is not UTF-8
            self._db.close()
            raise LiveError(self._unreadable(exc)) from None
        except LiveError:
            self._db.close()
            raise
        self._after_checks(strict)

    def _refuse_unusable(self, create: bool) -> None:
        if self.path.is_dir():
            raise LiveError(f"{self.path}: is a folder; pass a database file path")
        if not self.path.exists():
            if not create:
                raise LiveError(f"{self.path}: no such database; check the path (carom live --db)")
        elif self.path.stat().st_size == 0:
            raise LiveError(
                f"{self.path}: empty file (0 bytes), not a match database; nothing was written "
                "to it; delete it to start a new database there, or pass another path"
            )

    def _unreadable(self, error: Exception) -> str:
        exc = one_line(error)
        try:
            with self.path.open("rb") as f:
                sqlite = f.read(16) == b"SQLite format 3\x00"
        except OSError:
            sqlite = False
        if not sqlite:
            return f"{self.path}: not a carom database ({exc}); pass another path"
        return (
            f"{self.path}: damaged: SQLite cannot read it ({exc}); nothing was written to it; "
            f"salvage what it can with: carom matches {self.path} --repair NEW.db"
        )

    def _after_checks(self, strict: bool) -> None:
        if self.health.sound:
            return
        message = self.health.message(self.path)
        if strict:
            self._db.close()
            raise LiveError(message)
        _log.warning("%s", self.health.message(self.path, _UNUSABLE))

    def require_sound(self) -> None:
        """Raise LiveError (the damage and the way out) unless the checks on open passed."""
        if not self.health.sound:
            raise LiveError(self.health.message(self.path))

    def _prepare(self, create: bool) -> None:
        db = self._db
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            if not create:
                raise LiveError(f"{self.path}: empty database, no matches; check the path")
            with self._transaction() as tx:
                create_tables(tx)
        elif "meta" not in tables:
            raise LiveError(f"{self.path}: not a carom database (other tables); pass another path")
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("application") != APPLICATION:
            raise LiveError(f"{self.path}: not a carom database; pass another path")
        text = str(meta.get("schema_version", "0"))
        if not (text.isascii() and text.isdigit()):
            raise LiveError(StoreHealth((f"schema_version {text!r}",)).message(self.path))
        version = int(text)
        if version > SCHEMA_VERSION:
            raise LiveError(
                f"{self.path}: written by a newer carom-referee (schema {version}, this one "
                f"reads {SCHEMA_VERSION}); upgrade carom-referee"
            )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        self.health = check(db, chained=version >= 2)
        if version < 2 and self.health.sound:  # schema 1: the chain is computed once, now
            with self._transaction() as tx:
                migrate(tx)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all or nothing, on disk (FULL sync) when it returns."""
        with self._lock:
            self.require_sound()
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._write_error(exc) from None
            try:
                yield self._db
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise self._write_error(exc) from None
            except BaseException:
                self._rollback()
                raise

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """A read under the lock; damage met on the way (after the checks) is one LiveError."""
        with self._lock:
            try:
                yield self._db
            except (sqlite3.DatabaseError, ValueError, KeyError, TypeError) as exc:
                problem = f"reading it failed ({type(exc).__name__}: {exc})"
                raise LiveError(StoreHealth((problem,)).message(self.path)) from None

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _write_error(self, exc: sqlite3.Error) -> LiveError:
        return LiveError(
            f"{self.path}: cannot write ({exc}); check the disk, and that no other "
            "carom live uses this file"
        )

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- matches ---

    def new_match(
        self, *, setup_key: str, source: str, config: Mapping[str, Any], now_iso: str
    ) -> MatchRow:
        """Create an empty match (version 0) for ``config`` (a ``carom-shots/1`` head)."""
        names = config["match"]["players"]
        with self._transaction() as db:
            ids = [self._player_id(db, str(n)) for n in names]
            cur = db.execute(
                "INSERT INTO matches (created_at, source, setup_key, config, discipline, "
                "player_a, player_b) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (now_iso, source, setup_key, json.dumps(config, sort_keys=True),
                 str(config["discipline"]), ids[0], ids[1]),
            )  # fmt: skip
            match_id = int(cur.lastrowid or 0)
            head = head_hash(db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?",
                                        (match_id,)).fetchone())  # fmt: skip
            db.execute("UPDATE matches SET head = ?, seal = ? WHERE id = ?",
                       (head, seal(head, 0, None), match_id))  # fmt: skip
        return self.match(match_id)

    @staticmethod
    def _player_id(db: sqlite3.Connection, name: str) -> int:
        db.execute("INSERT OR IGNORE INTO players (name) VALUES (?)", (name,))
        row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
        return int(row[0])

    _SELECT = (
        "SELECT m.id, m.created_at, m.source, m.setup_key, m.config, m.discipline, a.name, "
        "b.name, m.version, m.finished_at FROM matches m LEFT JOIN players a ON a.id = m.player_a "
        "LEFT JOIN players b ON b.id = m.player_b"
    )

    @staticmethod
    def _row(r: Sequence[Any]) -> MatchRow:
        config = json.loads(r[4])
        # the columns hold players a and b; the set-up holds every player (2 to 8)
        players = tuple(config["match"]["players"])
        return MatchRow(
            id=int(r[0]), created_at=r[1], source=r[2], setup_key=r[3], config=config,
            discipline=r[5], players=players, version=int(r[8]), finished_at=r[9],
        )  # fmt: skip

    def match(self, match_id: int) -> MatchRow:
        """The match ``match_id``; LiveError naming the known ids when there is none."""
        row = None
        if -(2**63) <= match_id < 2**63:  # SQLite's integers: no match has another id
            with self._reading() as db:
                r = db.execute(self._SELECT + " WHERE m.id = ?", (match_id,)).fetchone()
                row = None if r is None else self._row(r)
        if row is None:
            known = ", ".join(str(m.id) for m in self.matches()) or "none"
            raise LiveError(
                f"{self.path}: no match {match_id} (matches: {known}); see carom matches DB"
            )
        return row

    def matches(self) -> list[MatchRow]:
        """Every match, oldest first."""
        with self._reading() as db:
            return [self._row(r) for r in db.execute(self._SELECT + " ORDER BY m.id")]

    def find_unfinished(self, setup_key: str) -> MatchRow | None:
        """The newest unfinished match with this set-up, if any (a table scan: no index)."""
        with self._reading() as db:
            r = db.execute(
                self._SELECT.replace("matches m", "matches m NOT INDEXED")
                + " WHERE m.setup_key = ? AND m.finished_at IS NULL ORDER BY m.id DESC LIMIT 1",
                (setup_key,),
            ).fetchone()
            return None if r is None else self._row(r)

    # --- journal ---

    def append(
        self, match_id: int, entries: Sequence[JournalEntry], *, finished_at: str | None
    ) -> None:
        """Write ``entries`` and the match's new version in one durable transaction.

        ``entries`` must continue the journal (``seq`` = version + 1, + 2, ...);
        ``finished_at`` is set when the match is over (``None`` reopens it).
        """
        with self._transaction() as db:
            row = db.execute(
                "SELECT m.version, COALESCE((SELECT chain FROM journal j WHERE j.match_id = m.id "
                "AND j.seq = m.version), m.head) FROM matches m WHERE m.id = ?", (match_id,),
            ).fetchone()  # fmt: skip
            if row is None:
                raise LiveError(f"{self.path}: no match {match_id}; see carom matches DB")
            version, prev = int(row[0]), str(row[1])
            if entries and entries[0].seq != version + 1:
                raise LiveError(
                    f"match {match_id}: another process has written this match since it "
                    "was loaded here; nothing was written: stop the other process, then "
                    "restart this one to go on from the database"
                )
            for i, e in enumerate(entries, start=1):
                if e.seq != version + i:
                    raise LiveError(f"match {match_id}: journal entry {e.seq} does not follow "
                                    f"entry {version + i - 1}; nothing was written")  # fmt: skip
                values = (e.seq, e.kind, json.dumps(e.payload), e.paths,
                          None if e.result is None else json.dumps(e.result), e.who, e.at,
                          e.state_version)  # fmt: skip
                prev = link(prev, match_id, values)
                db.execute(
                    "INSERT INTO journal (match_id, seq, kind, payload, paths, result, who, at, "
                    "state_version, chain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (match_id, *values, prev),
                )
            db.execute(
                "UPDATE matches SET version = ?, finished_at = ?, seal = ? WHERE id = ?",
                (version + len(entries), finished_at,
                 seal(prev, version + len(entries), finished_at), match_id),
            )  # fmt: skip

    def journal(self, match_id: int, *, upto: int | None = None) -> list[JournalEntry]:
        """The match's journal in order (the first ``upto`` entries when given)."""
        limit = -1 if upto is None else upto
        with self._reading() as db:
            rows = db.execute(
                "SELECT seq, kind, payload, paths, result, who, at, state_version FROM journal "
                "WHERE match_id = ? ORDER BY seq LIMIT ?",
                (match_id, limit),
            ).fetchall()
            return [
                JournalEntry(
                    seq=int(r[0]),
                    kind=r[1],
                    payload=json.loads(r[2]),
                    paths=r[3],
                    result=None if r[4] is None else json.loads(r[4]),
                    who=r[5],
                    at=r[6],
                    state_version=int(r[7]),
                )
                for r in rows
            ]

    def put_tracks(self, match_id: int, seq: int, data: bytes) -> None:
        """Keep the trajectories of journal entry ``seq`` (a shot), in their own transaction.

        Written after the entry itself (never delaying a verdict); replay never reads
        them. A file from before the table existed gets it here.
        """
        with self._transaction() as db:
            db.execute(TRACKS)
            db.execute(
                "INSERT OR REPLACE INTO tracks (match_id, seq, data) VALUES (?, ?, ?)",
                (match_id, seq, data),
            )

    def tracks(self, match_id: int) -> dict[int, bytes]:
        """The kept trajectories of a match's shot entries, by ``seq`` (none: empty)."""
        with self._lock:
            tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master")}
            if "tracks" not in tables:
                return {}
            rows = self._db.execute(
                "SELECT seq, data FROM tracks WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
        return {int(r[0]): bytes(r[1]) for r in rows}

    def integrity(self) -> str:
        """SQLite's ``PRAGMA integrity_check``: ``"ok"`` for a sound file."""
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])
