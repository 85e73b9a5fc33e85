"""The tables of the live match database, and the one migration (schema 1 to 2).

Schema 2 added the hash chain (:mod:`carom.live._chain`): ``matches.head`` and
``matches.seal``, ``journal.chain``. A schema 1 file is migrated the first time
it is opened, once its rows have passed the checks a file without the chain can
have (order, count, JSON): the chain is computed over the rows as they are then.
The tables are described in ``docs/live-storage.md``.
"""

from __future__ import annotations

import sqlite3

from carom.live._chain import JOURNAL_COLUMNS, MATCH_COLUMNS, head_hash, link, seal

__all__ = ["APPLICATION", "COLUMNS", "SCHEMA_VERSION", "TRACKS", "create", "migrate"]

#: Bumped when the tables change so that an older reader would misread a file (or an
#: older writer would write rows this one takes for damage); a newer file is refused,
#: never half-read. The ``tracks`` table, which replay never reads and an older reader
#: ignores, came within version 1 (files without it read as before).
SCHEMA_VERSION = 2
APPLICATION = "carom-referee"

#: A shot entry's trajectories (``carom.live._codec.encode_tracks``); see put_tracks.
TRACKS = """
CREATE TABLE IF NOT EXISTS tracks (
    match_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (match_id, seq),
    FOREIGN KEY (match_id, seq) REFERENCES journal(match_id, seq)
)"""

_SCHEMA = (
    """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    source TEXT NOT NULL,
    setup_key TEXT NOT NULL,
    config TEXT NOT NULL,
    discipline TEXT NOT NULL,
    player_a INTEGER NOT NULL REFERENCES players(id),
    player_b INTEGER NOT NULL REFERENCES players(id),
    version INTEGER NOT NULL DEFAULT 0,
    finished_at TEXT,
    head TEXT,
    seal TEXT
);
CREATE INDEX matches_by_setup ON matches(setup_key, finished_at);
CREATE TABLE journal (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    paths BLOB,
    result TEXT,
    who TEXT NOT NULL,
    at TEXT NOT NULL,
    state_version INTEGER NOT NULL,
    chain TEXT,
    PRIMARY KEY (match_id, seq)
);
CREATE VIEW shots AS
    SELECT match_id, seq, json_extract(payload, '$.shot.index') AS shot_index,
           json_extract(payload, '$.video_t_s') AS video_t_s,
           json_extract(payload, '$.shot.events') AS events,
           json_extract(result, '$.records') AS verdicts,
           paths, who, at
    FROM journal WHERE kind = 'shot';
"""
    + TRACKS
    + ";"
)

#: The columns each table must have (schema 2; a schema 1 file lacks the chain's).
COLUMNS = {
    "meta": ("key", "value"),
    "players": ("id", "name"),
    "matches": tuple(c.strip() for c in MATCH_COLUMNS.split(",")),
    "journal": ("match_id", *(c.strip() for c in JOURNAL_COLUMNS.split(","))),
}


def create(db: sqlite3.Connection) -> None:
    """Make the tables of a fresh file (inside the caller's transaction)."""
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    db.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [("application", APPLICATION), ("schema_version", str(SCHEMA_VERSION))],
    )


def migrate(db: sqlite3.Connection) -> None:
    """Schema 1 to 2 (inside the caller's transaction): add the chain, computed now."""
    db.execute("ALTER TABLE matches ADD COLUMN head TEXT")
    db.execute("ALTER TABLE matches ADD COLUMN seal TEXT")
    db.execute("ALTER TABLE journal ADD COLUMN chain TEXT")
    for match in db.execute(f"SELECT {MATCH_COLUMNS} FROM matches").fetchall():
        prev = head_hash(match)
        rows = db.execute(
            f"SELECT {JOURNAL_COLUMNS} FROM journal WHERE match_id = ? ORDER BY seq", (match[0],)
        ).fetchall()
        for row in rows:
            prev = link(prev, match[0], row)
            db.execute("UPDATE journal SET chain = ? WHERE match_id = ? AND seq = ?",
                       (prev, match[0], row[0]))  # fmt: skip
        db.execute("UPDATE matches SET head = ?, seal = ? WHERE id = ?",
                   (head_hash(match), seal(prev, match[8], match[9]), match[0]))  # fmt: skip
    db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
