"""The checks a match database passes every time it is opened.

Three checks, cheapest first, each stopping the next when it fails (a file SQLite
finds damaged is not read further): SQLite's own structural check
(:data:`INTEGRITY_PRAGMA`), the schema (every table and column this version reads),
then every match: its hash chain (:mod:`carom.live._chain`), the JSON of its rows,
its set-up read back by the referee's parser, and no journal rows without a match.
The result is a :class:`StoreHealth`; :class:`carom.live.MatchStore` refuses to
resume or write a damaged file and names the way out (``carom matches DB --repair``).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from carom.live._chain import MATCH_COLUMNS, match_problem
from carom.live._codec import config_from_doc
from carom.live._schema import COLUMNS
from referee import CaromError

__all__ = ["INTEGRITY_PRAGMA", "StoreHealth", "check", "one_line"]

#: ``integrity_check``, not ``quick_check``: it also finds an index that disagrees with
#: its table (which could hide a match from resuming), and on a 400 MB file of 60,000
#: journal rows it costs 0.17 s against 0.15 s (docs/live-storage.md).
INTEGRITY_PRAGMA = "integrity_check"
_LISTED = 20


def one_line(text: object, limit: int = 240) -> str:
    """``text`` on one line and at most ``limit`` characters (SQLite's reports run long)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class StoreHealth:
    """What the checks on open found: ``problems`` (empty: sound), ``check_s`` their cost."""

    problems: tuple[str, ...] = ()
    check_s: float = 0.0

    @property
    def sound(self) -> bool:
        """True when no check failed."""
        return not self.problems

    def message(self, path: Path, consequence: str = "nothing was written to it") -> str:
        """The one line that refuses a damaged file: the problem, ``consequence``, the way out."""
        more = len(self.problems) - 1
        also = f" (and {more} more problem{'s' * (more > 1)})" if more > 0 else ""
        first = one_line(self.problems[0])
        return (
            f"{path}: damaged: {first}{also}; {consequence}; salvage "
            f"its matches into a new file with: carom matches {path} --repair NEW.db"
        )


def check(db: sqlite3.Connection, *, chained: bool) -> StoreHealth:
    """Run the checks on an open file (``chained``: schema 2, with the hash chain)."""
    started = time.perf_counter()
    try:
        problems = _structure(db) or _schema(db, chained) or _matches(db, chained)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # text that is not UTF-8
        problems = [f"SQLite cannot read it ({exc})"]
    return StoreHealth(tuple(problems[:_LISTED]), time.perf_counter() - started)


def _structure(db: sqlite3.Connection) -> list[str]:
    rows = [str(r[0]) for r in db.execute(f"PRAGMA {INTEGRITY_PRAGMA}").fetchall()]
    if rows == ["ok"]:
        return []
    return [f"SQLite finds its pages damaged ({' '.join(rows[:2])})"]


def _schema(db: sqlite3.Connection, chained: bool) -> list[str]:
    problems = []
    for table, columns in COLUMNS.items():
        have = {str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")}
        if not have:
            problems.append(f"its table {table} is missing")
            continue
        wanted = columns if chained else [c for c in columns if c not in ("head", "seal", "chain")]
        if missing := [c for c in wanted if c not in have]:
            problems.append(f"its table {table} lacks the column(s) {', '.join(missing)}")
    return problems


def _matches(db: sqlite3.Connection, chained: bool) -> list[str]:
    problems = []
    columns = MATCH_COLUMNS if chained else MATCH_COLUMNS.replace("head, seal", "NULL, NULL")
    for match in db.execute(f"SELECT {columns} FROM matches ORDER BY id").fetchall():
        problem = match_problem(db, match, chained=chained) or _config_problem(match[4])
        if problem is not None:
            problems.append(f"match {match[0]}: {problem}")
    orphans = db.execute(
        "SELECT DISTINCT match_id FROM journal WHERE match_id NOT IN (SELECT id FROM matches)"
    ).fetchall()
    problems += [f"the row of match {r[0]} is missing (its journal is there)" for r in orphans]
    return problems


def _config_problem(text: str) -> str | None:
    try:
        config_from_doc(json.loads(text))
    except (CaromError, KeyError, TypeError, ValueError) as exc:
        return f"its set-up (config) cannot be read ({exc})"
    return None
