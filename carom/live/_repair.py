"""Salvage a damaged match database into a new file (``carom matches DB --repair NEW``).

Theory of operation. The damaged file is never written: it is copied (with its
``-wal``) into a temporary folder and read from the copy, so even SQLite's own
recovery of the write-ahead log happens on the copy. Each match is read as far as it
can be trusted: its journal rows in order while each one is there, reads, has the
hash its predecessor and content give (schema 2; the order and JSON only in a
schema 1 file), and replays through the referee. That prefix is written to the new
file as a match of its own (fresh chain, the same set-up key so ``carom live``
resumes it, finished when its replay is over), with the kept shots' trajectories.
Everything after the first bad row is reported as lost, entry by entry: a match
replayed without one of its inputs would not be the match that was played.
"""

from __future__ import annotations

import itertools
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carom.live._chain import JOURNAL_COLUMNS, MATCH_COLUMNS, head_hash, link, seal
from carom.live._codec import config_from_doc
from carom.live._machine import Machine
from carom.live._store import JournalEntry, LiveError, MatchStore
from referee import CaromError, Phase

__all__ = ["MatchSalvage", "RepairReport", "repair"]

_BAD = (CaromError, KeyError, TypeError, ValueError, AttributeError)
_UNREADABLE = (sqlite3.DatabaseError, UnicodeDecodeError)  # a page or a text gone bad
_LISTED = 8


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchSalvage:
    """What became of one match: ``kept`` of ``total`` entries, ``new_id`` in the new file.

    ``problem`` says why the rest was lost (``None``: nothing was); ``lost`` names
    the lost entries (``"12 shot 9"``); ``note`` anything a person should check.
    """

    old_id: int
    new_id: int | None
    kept: int
    total: int
    finished: bool = False
    problem: str | None = None
    lost: tuple[str, ...] = ()
    note: str | None = None

    def line(self) -> str:
        """One line for people."""
        if self.new_id is None:
            return f"match {self.old_id}: lost, {self.total} entries ({self.problem})"
        state = "finished" if self.finished else "unfinished"
        head = f"match {self.old_id} -> {self.new_id}: kept {self.kept} of {self.total} entries"
        text = f"{head} ({state})"
        if self.problem is not None:
            shown = ", ".join(self.lost[:_LISTED]) + (", ..." if len(self.lost) > _LISTED else "")
            text += f"; lost from entry {self.kept + 1} ({self.problem}): {shown or 'unreadable'}"
        return text + (f"; {self.note}" if self.note else "")


@dataclass(frozen=True, slots=True)
class RepairReport:
    """The salvage of ``source`` into ``target``: one :class:`MatchSalvage` per match."""

    source: Path
    target: Path
    matches: tuple[MatchSalvage, ...]
    unreadable: str | None = None

    @property
    def complete(self) -> bool:
        """True when nothing was lost."""
        return self.unreadable is None and all(m.problem is None for m in self.matches)

    def lines(self) -> list[str]:
        """The report: a line per match, then the total."""
        out = [m.line() for m in self.matches]
        if self.unreadable is not None:
            out.append(f"not salvaged: {self.unreadable}")
        saved = [m for m in self.matches if m.new_id is not None]
        kept = sum(m.kept for m in self.matches)
        total = sum(m.total for m in self.matches)
        out.append(
            f"wrote {self.target}: {len(saved)} of {len(self.matches)} matches, {kept} of "
            f"{total} journal entries; {self.source} is unchanged"
        )
        return out


def repair(source: Path, target: Path) -> RepairReport:
    """Salvage every readable match of ``source`` into the new file ``target``.

    Raises LiveError when ``target`` exists (never overwritten) or is ``source``,
    or when ``source`` is missing or cannot be copied.
    """
    source, target = Path(source), Path(target)
    _check_paths(source, target)
    with tempfile.TemporaryDirectory(prefix="carom-repair-") as tmp:
        copy = Path(tmp) / "damaged.db"
        _copy(source, copy)
        try:
            db = sqlite3.connect(str(copy), isolation_level=None)
        except sqlite3.Error as exc:
            raise LiveError(f"{source}: SQLite cannot open even a copy of it ({exc})") from None
        try:
            with MatchStore(target) as store:
                salvaged, unreadable = _salvage_all(db, store)
        finally:
            db.close()
    return RepairReport(source, target, tuple(salvaged), unreadable)


def _check_paths(source: Path, target: Path) -> None:
    if not source.is_file():
        raise LiveError(f"{source}: no such database file; check the path")
    if target.exists() or target.resolve() == source.resolve():
        raise LiveError(
            f"{target}: exists; the repair writes a new file and never overwrites one: "
            "pass a new path"
        )


def _copy(source: Path, copy: Path) -> None:
    try:
        shutil.copyfile(source, copy)
        wal = source.with_name(source.name + "-wal")
        if wal.is_file():
            shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
    except OSError as exc:
        raise LiveError(f"{source}: cannot copy it to read it ({exc.strerror})") from None


def _salvage_all(
    db: sqlite3.Connection, store: MatchStore
) -> tuple[list[MatchSalvage], str | None]:
    try:
        columns = {str(r[1]) for r in db.execute("PRAGMA table_info(matches)")}
        wanted = MATCH_COLUMNS if "seal" in columns else MATCH_COLUMNS.replace(", head, seal", "")
        ids = [int(r[0]) for r in db.execute("SELECT id FROM matches ORDER BY id")]
    except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
        return [], f"its table of matches cannot be read ({exc})"
    chained = "seal" in columns
    journal = _Journal(db, chained)
    out = []
    for match_id in ids:
        try:
            match = db.execute(f"SELECT {wanted} FROM matches WHERE id = ?", (match_id,)).fetchone()
        except _UNREADABLE as exc:
            out.append(MatchSalvage(old_id=match_id, new_id=None, kept=0, total=0,
                                    problem=f"its row cannot be read ({exc})"))  # fmt: skip
            continue
        out.append(_salvage(journal, store, tuple(match), chained))
    return out, None


def _salvage(
    journal: _Journal, store: MatchStore, match: tuple[Any, ...], chained: bool
) -> MatchSalvage:
    rows, read_problem = journal.rows(match[0], match[8])
    total = max(len(rows), match[8] if isinstance(match[8], int) else 0)
    try:
        doc = json.loads(match[4])
        machine = Machine(config_from_doc(doc))
    except (*_BAD, *_UNREADABLE) as exc:
        return MatchSalvage(old_id=match[0], new_id=None, kept=0, total=total,
                            problem=f"its set-up (config) cannot be read ({exc})")  # fmt: skip
    entries, problem = _trusted(match, rows, machine, chained)
    if read_problem is not None and (problem is None or problem.endswith(" is missing")):
        problem = read_problem  # the gap the trust check met is the page that did not read
    if problem is None and len(entries) < total:
        problem = f"journal entries {len(entries) + 1} to {total} are missing"
    if problem is None and chained and not _sealed(match, rows):
        problem = "its seal does not match: entries after the last one may have been lost"
    finished = machine.match.state.phase is Phase.OVER
    new = store.new_match(setup_key=str(match[3]), source=str(match[2]), config=doc,
                          now_iso=str(match[1]))  # fmt: skip
    if entries:
        store.append(new.id, entries, finished_at=entries[-1].at if finished else None)
    _copy_tracks(journal.db, store, match[0], new.id, len(entries))
    lost = tuple(_name(r) for r in rows[len(entries) :])
    note = None
    if chained and match[10] != head_hash(match):
        note = "its set-up reads otherwise than when it was written: check players and rules"
    return MatchSalvage(old_id=match[0], new_id=new.id, kept=len(entries), total=total,
                        finished=finished, problem=problem, lost=lost, note=note)  # fmt: skip


def _sealed(match: Sequence[Any], rows: Sequence[tuple[Any, ...]]) -> bool:
    """Whether the match's seal agrees with its (whole, trusted) journal."""
    last = rows[-1][8] if rows else match[10]
    return bool(match[11] == seal(str(last), len(rows), match[9]))


class _Journal:
    """The journal rows of the copy, read in order or, past damage, row by row."""

    def __init__(self, db: sqlite3.Connection, chained: bool) -> None:
        self.db = db
        columns = JOURNAL_COLUMNS if chained else JOURNAL_COLUMNS.replace("chain", "NULL")
        self.sql = f"SELECT match_id, {columns} FROM journal"
        self._scanned: dict[int, dict[int, tuple[Any, ...]]] | None = None

    def rows(self, match_id: int, version: object) -> tuple[list[tuple[Any, ...]], str | None]:
        """The match's rows from entry 1 on, and why they stop early (a page unread)."""
        try:
            found = self.db.execute(self.sql + " WHERE match_id = ? ORDER BY seq", (match_id,))
            return [tuple(r[1:]) for r in found], None
        except _UNREADABLE:
            pass
        by_seq = self._scan().get(match_id, {})
        gap = next(k for k in itertools.count(1) if k not in by_seq)
        rows = [by_seq[k] for k in sorted(by_seq)]
        if gap <= len(rows) or (isinstance(version, int) and version >= gap):
            return rows, f"journal entry {gap} cannot be read (a damaged page)"
        return rows, None

    def _scan(self) -> dict[int, dict[int, tuple[Any, ...]]]:
        """Every readable row, one rowid at a time (a bad page loses only its own rows)."""
        if self._scanned is None:
            self._scanned = {}
            for rowid in range(1, self._last_rowid() + 1):
                try:
                    r = self.db.execute(self.sql + " WHERE rowid = ?", (rowid,)).fetchone()
                except _UNREADABLE:
                    continue
                if r is not None and isinstance(r[0], int) and isinstance(r[1], int):
                    self._scanned.setdefault(r[0], {})[r[1]] = tuple(r[1:])
        return self._scanned

    def _last_rowid(self) -> int:
        last = 0
        for sql in ("SELECT max(rowid) FROM journal", "SELECT sum(version) FROM matches"):
            try:
                value = self.db.execute(sql).fetchone()[0]
            except _UNREADABLE:
                continue
            last = max(last, value if isinstance(value, int) else 0)
        return last


def _trusted(
    match: Sequence[Any], rows: Sequence[tuple[Any, ...]], machine: Machine, chained: bool
) -> tuple[list[JournalEntry], str | None]:
    """The rows to keep (in order, chained, readable, replayable) and why the next is not."""
    prev = str(match[10]) if chained else ""
    kept: list[JournalEntry] = []
    for seq, row in enumerate(rows, start=1):
        if row[0] != seq:
            return kept, f"journal entry {seq} is missing"
        if chained:
            prev = link(prev, match[0], row)
            if prev != row[8]:
                return kept, f"journal entry {seq} was altered"
        try:
            entry = _entry(row)
            machine.execute(machine.plan(entry.kind, entry.payload, entry.paths, seq))
        except _BAD as exc:
            return kept, f"journal entry {seq} cannot be replayed ({exc})"
        kept.append(entry)
    return kept, None


def _entry(row: Sequence[Any]) -> JournalEntry:
    return JournalEntry(
        seq=int(row[0]), kind=str(row[1]), payload=json.loads(row[2]),
        paths=None if row[3] is None else bytes(row[3]),
        result=None if row[4] is None else json.loads(row[4]), who=str(row[5]),
        at=str(row[6]), state_version=int(row[7]),
    )  # fmt: skip


def _name(row: Sequence[Any]) -> str:
    """A lost row in a few words: its number, its kind, a shot's video time, a call's kind."""
    words = [str(row[0]), str(row[1])]
    try:
        payload = json.loads(row[2])
        if row[1] == "shot" and isinstance(payload.get("video_t_s"), int | float):
            words.append(f"at {payload['video_t_s']:.1f} s")
        elif row[1] == "call":
            words.append(str(payload.get("call")))
    except (*_BAD, *_UNREADABLE):
        words.append("(unreadable)")
    return " ".join(words)


def _copy_tracks(
    db: sqlite3.Connection, store: MatchStore, old_id: int, new_id: int, kept: int
) -> None:
    """The kept shots' trajectories, as far as they read (replay never needs them)."""
    try:
        rows = db.execute(
            "SELECT seq, data FROM tracks WHERE match_id = ? AND seq <= ? ORDER BY seq",
            (old_id, kept),
        ).fetchall()
    except _UNREADABLE:
        return
    for seq, data in rows:
        if isinstance(seq, int) and isinstance(data, bytes):
            store.put_tracks(new_id, seq, data)
