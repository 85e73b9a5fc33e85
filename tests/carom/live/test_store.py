"""The match store on real SQLite files, the codecs, and a writer killed with SIGKILL."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from carom.live import JournalEntry, LiveError, LiveSession, LiveSetup, MatchStore
from carom.live._codec import (
    config_doc,
    config_from_doc,
    decode_paths,
    encode_paths,
    lag_from_json,
    lag_json,
    setup_key,
)
from referee import Ball, Discipline, MatchConfig, RuleOptions, Table
from tests.carom.live.shotpool import (
    NOW,
    ROOT,
    SOURCE,
    example_log,
    golden_shots,
    long_config,
    scripted_input,
)


def _entry(seq: int, **kw: object) -> JournalEntry:
    values: dict[str, object] = {"seq": seq, "kind": "pause", "payload": {"why": f"x{seq}"},
                                 "who": "runtime", "at": NOW, "state_version": 0} | kw  # fmt: skip
    return JournalEntry(**values)  # type: ignore[arg-type]


def _new(store: MatchStore) -> int:
    config = config_doc(long_config())
    return store.new_match(setup_key="k", source=SOURCE, config=config, now_iso=NOW).id


def test_a_fresh_database_is_wal_full_sync_and_versioned(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    with MatchStore(path) as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    raw = sqlite3.connect(path)
    assert dict(raw.execute("SELECT key, value FROM meta")) == {
        "application": "carom-referee", "schema_version": "2",
    }  # fmt: skip
    raw.close()


def test_journal_round_trips_and_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    entries = [_entry(1), _entry(2, kind="shot", paths=b"\x00\x01", result={"what": "x"})]
    with MatchStore(path) as store:
        match_id = _new(store)
        store.append(match_id, entries, finished_at=None)
    with MatchStore(path, create=False) as store:
        assert store.journal(match_id) == entries
        assert store.journal(match_id, upto=1) == entries[:1]
        row = store.match(match_id)
        assert row.version == 2 and row.players == ("Ana", "Ben") and row.finished_at is None
        assert store.find_unfinished("k") == row
        store.append(match_id, [_entry(3)], finished_at=NOW)
        assert store.find_unfinished("k") is None
        assert [m.id for m in store.matches()] == [match_id]


def test_an_entry_out_of_sequence_writes_nothing(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "live.db") as store:
        match_id = _new(store)
        store.append(match_id, [_entry(1)], finished_at=None)
        with pytest.raises(LiveError, match="journal entry 4 does not follow entry 2; nothing"):
            store.append(match_id, [_entry(2), _entry(4)], finished_at=None)
        with pytest.raises(LiveError, match="another process has written this match since"):
            store.append(match_id, [_entry(1)], finished_at=None)
        assert len(store.journal(match_id)) == 1 and store.match(match_id).version == 1
        with pytest.raises(LiveError, match="no match 9"):
            store.match(9)
        for beyond in (2**63, -(2**63) - 1, 10**23):  # past SQLite's integers: OverflowError
            with pytest.raises(LiveError, match=f"no match {beyond} "):
                store.match(beyond)


def test_files_that_are_not_carom_databases_give_one_line_errors(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("hello, this is not SQLite\n" * 100)
    other = tmp_path / "other.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.close()
    newer = tmp_path / "newer.db"
    MatchStore(newer).close()
    db = sqlite3.connect(newer)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    cases = [
        (text, "not a carom database"),
        (other, "not a carom database"),
        (newer, "newer carom-referee .schema 99"),
        (tmp_path, "is a folder"),
        (tmp_path / "no" / "such" / "dir.db", "cannot open it"),
    ]
    for path, message in cases:
        with pytest.raises(LiveError, match=message) as info:
            MatchStore(path)
        assert "\n" not in str(info.value)
    with pytest.raises(LiveError, match="no such database"):
        MatchStore(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()


def test_a_7_pin_match_stored_with_an_innings_limit_still_opens_without_it() -> None:
    """Taken (and never applied) before the referee refused it: no stored match is lost."""
    seven = MatchConfig(discipline=Discipline.PIN_CAROM_7, players=("P", "Q"), cue_balls={},
                        target={"P": 300, "Q": 300}, start_count=500)  # fmt: skip
    doc = config_doc(seven)
    doc["match"]["innings_limit"] = 20
    assert config_from_doc(doc) == seven


def test_match_configs_round_trip_through_the_shot_log_head() -> None:
    configs = [
        long_config(),
        example_log().match,
        MatchConfig(discipline=Discipline.PIN_CAROM_7, players=("P", "Q"), cue_balls={},
                    target={"P": 300, "Q": 300}, start_count=500, sets=3,
                    table=Table(3550.0, 1775.0, 68.0)),
        MatchConfig(discipline=Discipline.FIVE_PINS, players=("P", "Q"), innings_limit=20,
                    cue_balls={"P": Ball.WHITE, "Q": Ball.DOTTED}, target={"P": 60, "Q": 40},
                    options=RuleOptions(frozen_tolerance_mm=2.5, five_pins_centre_line_mm=3.0),
                    equalizing=False),
    ]  # fmt: skip
    for config in configs:
        doc = json.loads(json.dumps(config_doc(config)))
        assert config_from_doc(doc) == config
    assert setup_key(configs[0], "cam0") != setup_key(configs[0], "cam1")
    assert setup_key(configs[0], "cam0") != setup_key(replace(configs[0], sets=3), "cam0")
    lag = example_log().lag
    assert lag is not None and lag_from_json(json.loads(json.dumps(lag_json(lag)))) == lag


def test_paths_blob_is_exact_or_refused() -> None:
    rounded = {Ball.RED: tuple((round(k / 15, 4), round(1400 - 7.31 * k, 2), 710.0)
                               for k in range(90))}  # fmt: skip
    blob = encode_paths(rounded)
    assert blob is not None and decode_paths(blob) == rounded
    assert len(blob) < len(json.dumps({"red": rounded[Ball.RED]})) / 5
    assert encode_paths({Ball.RED: ((0.123456789, 1.0, 2.0),)}) is None  # would lose digits


WRITER = """
import sys
from pathlib import Path
from carom.live import LiveSession, LiveSetup, MatchStore
from tests.carom.live.shotpool import NOW, SOURCE, golden_shots, long_config, scripted_input

store = MatchStore(Path(sys.argv[1]))
session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
pool = golden_shots(review=False)
print("ready", session.version, flush=True)
while True:
    scripted_input(session, pool)
    print(session.version, flush=True)
"""


def _run_writer_until_killed(path: Path, rng: random.Random) -> tuple[int, int]:
    """Start the writer, SIGKILL it after a random number of commits: (start, last seen).

    The writer goes on between the line read last and the kill (more than one commit
    on a loaded machine): the last seen is the last whole line it wrote before it died.
    """
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout is not None
    first = proc.stdout.readline().split()
    assert first[0] == "ready", first
    start, seen, target = int(first[1]), int(first[1]), rng.randint(3, 40)
    while seen < start + target:
        seen = int(proc.stdout.readline())
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    written = proc.stdout.read().split("\n")[:-1]  # a line cut by the kill is no report
    proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    return start, max([seen, *map(int, written)])


def test_a_writer_killed_at_random_moments_loses_nothing_it_reported(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    rng = random.Random(7)
    for _ in range(3):
        _, seen = _run_writer_until_killed(path, rng)
        with MatchStore(path, strict=True) as store:  # the chain holds: no false alarm
            assert store.integrity() == "ok" and store.health.sound
            (row,) = store.matches()
            assert seen <= row.version <= seen + 1  # at most the input being written is lost
            resumed = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
            assert resumed.resumed and resumed.version == row.version
            resumed.release()  # the next writer, another process, referees it again
    # The same script run without a crash, to the same length, gives the same match.
    with MatchStore(path) as store:
        final = LiveSession.load(store, store.matches()[0].id)
    reference = LiveSession.open(MatchStore(tmp_path / "ref.db"),
                                 LiveSetup(long_config(), SOURCE), now_iso=NOW)  # fmt: skip
    pool = golden_shots(review=False)
    while reference.version < final.version:
        scripted_input(reference, pool)
    assert reference.state == final.state
    assert len(final.records) > 10


def test_a_damaged_journal_entry_is_named(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    store = MatchStore(path)
    session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
    session.set_paused("camera lost", now_iso=NOW)
    store.close()
    raw = sqlite3.connect(path)
    raw.execute("UPDATE journal SET kind = 'call', payload = '{\"call\": \"foul\"}'")
    raw.commit()
    raw.close()
    with MatchStore(path) as store, pytest.raises(LiveError, match="journal entry 1 was altered"):
        LiveSession.load(store, session.match_id)
