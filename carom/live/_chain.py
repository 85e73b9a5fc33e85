"""The hash chain of a match's journal: a missing, altered or reordered row shows.

Theory of operation. A match's ``head`` is the SHA-256 of what never changes about
it (id, creation time, source, set-up key, config, discipline, players). Every
journal row stores ``chain`` = SHA-256(previous row's chain, or the head, + the
row's own columns exactly as stored); the match's ``seal`` = SHA-256(last chain +
version + finished_at) is rewritten in the same transaction as each append. So
deleting, editing or swapping any row, or editing the match's set-up, version or
finished mark, breaks an equation that :func:`match_problem` recomputes. It guards
against damage (a disk, a copy, a person with an SQL shell by mistake), not
against a forger: there is no secret. SQLite commits a row and the new seal in one
transaction, so a crash never leaves a chain that disagrees with itself.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence
from typing import Any

__all__ = ["JOURNAL_COLUMNS", "MATCH_COLUMNS", "head_hash", "link", "match_problem", "seal"]

_TAG = b"carom-journal/1;"

#: The columns of ``matches`` the head covers, in order.
MATCH_COLUMNS = (
    "id, created_at, source, setup_key, config, discipline, player_a, player_b, "
    "version, finished_at, head, seal"
)
#: The columns of a journal row its link covers (then its stored ``chain``).
JOURNAL_COLUMNS = "seq, kind, payload, paths, result, who, at, state_version, chain"


def _sha(*parts: Any) -> str:
    """SHA-256 over typed, length-prefixed parts: no two part lists give the same bytes."""
    h = hashlib.sha256(_TAG)
    for part in parts:
        if part is None:
            h.update(b"n;")
            continue
        if isinstance(part, bytes | bytearray | memoryview):
            tag, data = b"b", bytes(part)
        elif isinstance(part, str):
            tag, data = b"s", part.encode("utf-8", "surrogatepass")
        else:  # int (or a float or other value damage made)
            tag, data = b"r", repr(part).encode("ascii", "backslashreplace")
        h.update(b"%s%d:" % (tag, len(data)))
        h.update(data)
    return h.hexdigest()


def head_hash(match: Sequence[Any]) -> str:
    """The head of a match from its first eight ``MATCH_COLUMNS`` values."""
    return _sha("head", *match[:8])


def link(prev: str, match_id: int, row: Sequence[Any]) -> str:
    """A journal row's chain from the previous one and its first eight columns."""
    return _sha("row", prev, match_id, *row[:8])


def seal(last: str, version: int, finished_at: str | None) -> str:
    """The match's seal over its last chain, its version and its finished mark."""
    return _sha("seal", last, version, finished_at)


def match_problem(
    db: sqlite3.Connection, match: Sequence[Any], *, chained: bool = True
) -> str | None:
    """What is wrong with one match (``MATCH_COLUMNS`` values) and its journal, if anything.

    ``chained``: the file has the chain (schema 2); without it only the order, the
    count and the JSON are checked. The answer is one phrase, e.g. ``"journal entry
    5 is missing"``.
    """
    if not isinstance(match[4], str) or not _is_json(match[4]):
        return "its set-up (config) is not valid JSON"
    prev = str(match[10])
    if chained and prev != head_hash(match):
        return "its set-up was altered (the head hash does not match)"
    columns = JOURNAL_COLUMNS if chained else JOURNAL_COLUMNS.replace("chain", "NULL")
    rows = db.execute(
        f"SELECT {columns} FROM journal WHERE match_id = ? ORDER BY seq", (match[0],)
    ).fetchall()
    for expected, row in enumerate(rows, start=1):
        problem = _number_problem(expected, row[0])
        if problem is None and chained:
            prev = link(prev, match[0], row)
            if row[8] != prev:  # the JSON is read only to say more: what was written was JSON
                problem = _json_problem(expected, row) or f"journal entry {expected} was altered"
        elif problem is None:
            problem = _json_problem(expected, row)
        if problem is not None:
            return problem
    return _end_problem(match, len(rows), prev, chained)


def _number_problem(expected: int, seq: object) -> str | None:
    if seq == expected:
        return None
    if isinstance(seq, int) and seq > expected:
        return f"journal entry {expected} is missing"
    return f"journal entry {expected} was altered (its number reads {seq!r})"


def _json_problem(expected: int, row: Sequence[Any]) -> str | None:
    for name, text in (("payload", row[2]), ("result", row[4])):
        if text is not None and (not isinstance(text, str) or not _is_json(text)):
            return f"journal entry {expected} was altered (its {name} is not valid JSON)"
    return None


def _end_problem(match: Sequence[Any], n: int, last: str, chained: bool) -> str | None:
    version = match[8]
    if version != n:
        if isinstance(version, int) and version > n:
            gone = f"entry {n + 1} is" if version == n + 1 else f"entries {n + 1} to {version} are"
            return f"journal {gone} missing (the match counts {version})"
        return f"its version was altered (reads {version!r}, the journal has {n} entries)"
    if chained and match[11] != seal(last, n, match[9]):
        return "its version or finished mark was altered (the seal does not match)"
    return None


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
