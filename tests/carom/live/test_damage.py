"""A damaged match database: found on open, refused in one line, salvaged into a new file.

Each kind of damage (garbage pages, invalid JSON, flipped bytes, a bad config, a
deleted, altered or reordered row, a zero-byte or truncated file) must give one line
from ``carom matches`` and ``carom live`` (status 2, never a traceback), leave the
file as it was, and be salvaged by ``carom matches DB --repair NEW``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from carom.cli import main
from carom.live import LiveError, LiveSession, LiveSetup, MatchStore, repair
from carom.live._codec import config_doc
from referee import MatchState
from tests.carom.live._helpers import carom_cmd, live_cmd, write_truth_calibration
from tests.carom.live.shotpool import NOW, SOURCE, golden_shots, long_config, scripted_input

INPUTS = 14


@pytest.fixture(autouse=True)
def _own_log_handlers() -> Iterator[None]:
    """carom.cli.main adds its stderr handler to the carom logger; take it off again."""
    log = logging.getLogger("carom")
    before = list(log.handlers)
    yield
    for handler in log.handlers[:]:
        if handler not in before:
            log.removeHandler(handler)


def recorded(path: Path, inputs: int = INPUTS) -> tuple[MatchState, int]:
    """A database with one unfinished match of ``inputs`` scripted inputs: its state."""
    with MatchStore(path) as store:
        session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
        pool = golden_shots(review=False)
        while session.version < inputs:
            scripted_input(session, pool)
        return session.state, session.version


def sql(*statements: str) -> Callable[[Path], None]:
    """Damage done with an SQL shell."""

    def run(path: Path) -> None:
        db = sqlite3.connect(path)
        for s in statements:
            db.execute(s)
        db.commit()
        db.close()

    return run


def garbage_pages(path: Path) -> None:
    """Two pages of the middle of the file overwritten with random bytes."""
    data = bytearray(path.read_bytes())
    middle = (len(data) // 4096 // 2) * 4096
    data[middle : middle + 8192] = random.Random(19).randbytes(8192)
    path.write_bytes(bytes(data))


def flipped_bytes(path: Path) -> None:
    """Three bytes of a shot's events flipped where they lie in the file."""
    data = bytearray(path.read_bytes())
    at = data.index(b'"events"') + 20
    for i in (at, at + 7, at + 11):
        data[i] ^= 0x04
    path.write_bytes(bytes(data))


def zero_bytes(path: Path) -> None:
    path.write_bytes(b"")


def truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "garbage pages": (garbage_pages, r"damaged: (SQLite|match 1)"),
    "invalid json": (
        sql("UPDATE journal SET payload = '{\"why\": ' WHERE seq = 3"),
        r"damaged: match 1: journal entry 3 was altered \(its payload is not valid JSON\)",
    ),
    "flipped bytes": (flipped_bytes, r"damaged: (match 1: journal entry \d+ was altered|SQLite)"),
    "bad config": (
        sql("UPDATE matches SET config = replace(config, '\"Ben\"', '\"Bob\"')"),
        r"damaged: match 1: its set-up was altered",
    ),
    "deleted row": (
        sql("DELETE FROM journal WHERE seq = 5"),
        r"damaged: match 1: journal entry 5 is missing",
    ),
    "deleted last row": (
        sql(
            f"DELETE FROM journal WHERE seq = {INPUTS}", "UPDATE matches SET version = version - 1"
        ),
        r"damaged: match 1: its version or finished mark was altered",
    ),
    "altered row": (
        sql("UPDATE journal SET who = 'someone' WHERE seq = 4"),
        r"damaged: match 1: journal entry 4 was altered",
    ),
    "reordered rows": (
        sql(
            "UPDATE journal SET seq = -seq WHERE seq IN (6, 7)",
            "UPDATE journal SET seq = 13 + seq WHERE seq IN (-6, -7)",
        ),
        r"damaged: match 1: journal entry 6 was altered",
    ),
    "zero bytes": (zero_bytes, r"empty file \(0 bytes\), not a match database"),
    "truncated": (truncated, r"damaged: SQLite"),
}


def damaged(tmp_path: Path, kind: str) -> Path:
    """A recorded database with damage ``kind`` done to it."""
    path = tmp_path / "live.db"
    recorded(path)
    DAMAGE[kind][0](path)
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line_refusal(capsys: pytest.CaptureFixture[str], status: int, pattern: str) -> str:
    """The command failed with status 2 and one ``carom:`` line matching ``pattern``."""
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err and "internal error" not in err, err
    (line,) = err.splitlines()
    assert line.startswith("carom: ")
    assert re.search(pattern, line), line
    return line


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_carom_matches_refuses_damage_in_one_line_and_writes_nothing(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, kind)
    before = digest(path)
    line = one_line_refusal(capsys, main(["matches", str(path)]), DAMAGE[kind][1])
    if kind != "zero bytes":
        assert line.endswith(f"carom matches {path} --repair NEW.db")
    assert digest(path) == before
    assert one_line_refusal(capsys, main(["export", str(path), "--match", "1"]), DAMAGE[kind][1])


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_carom_live_never_resumes_nor_starts_a_match_over_damage(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, kind)
    before = digest(path)
    calibration = write_truth_calibration(tmp_path / "cal.json")
    argv = live_cmd(calibration, path, None)[len(carom_cmd()) :]
    one_line_refusal(capsys, main(argv), DAMAGE[kind][1])
    assert digest(path) == before


def test_a_missing_file_still_makes_a_new_database(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "new.db", strict=True) as store:
        assert store.health.sound and store.matches() == []


@pytest.mark.parametrize("kind", [k for k in DAMAGE if k != "zero bytes"])
def test_the_repair_salvages_what_is_sound_into_a_new_file(tmp_path: Path, kind: str) -> None:
    path = damaged(tmp_path, kind)
    before = digest(path)
    report = repair(path, tmp_path / "new.db")
    assert digest(path) == before
    # the garbage lands on an index's pages: every row is read one by one and kept
    assert report.complete == (kind in ("bad config", "garbage pages")), report.lines()
    assert report.lines()[-1].startswith(f"wrote {tmp_path / 'new.db'}: ")
    with MatchStore(tmp_path / "new.db", strict=True) as store:
        for row in store.matches():
            LiveSession.load(store, row.id)  # every salvaged match replays


def test_the_repair_keeps_the_journal_up_to_a_deleted_row_and_resumes_it(tmp_path: Path) -> None:
    path = damaged(tmp_path, "deleted row")
    (salvage,) = repair(path, tmp_path / "new.db").matches
    assert (salvage.kept, salvage.total, salvage.problem) == (
        4,
        INPUTS,
        "journal entry 5 is missing",
    )
    assert len(salvage.lost) == INPUTS - 5  # the rows after the gap, each named
    recorded(tmp_path / "ref.db", inputs=4)
    with MatchStore(tmp_path / "ref.db") as ref:
        reference = LiveSession.load(ref, 1).state
    with MatchStore(tmp_path / "new.db", strict=True) as store:
        resumed = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
        assert resumed.resumed and resumed.version == 4 and resumed.state == reference


def test_a_set_up_altered_is_salvaged_with_a_note(tmp_path: Path) -> None:
    path = damaged(tmp_path, "bad config")
    (salvage,) = repair(path, tmp_path / "new.db").matches
    assert salvage.kept == INPUTS and salvage.note is not None and "check players" in salvage.note


def test_the_repair_never_overwrites_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, "deleted row")
    (tmp_path / "new.db").write_text("mine")
    status = main(["matches", str(path), "--repair", str(tmp_path / "new.db")])
    one_line_refusal(capsys, status, "exists; the repair writes a new file")
    assert (tmp_path / "new.db").read_text() == "mine"
    one_line_refusal(capsys, main(["matches", str(path), "--repair", str(path)]), "exists")


def test_the_repair_command_reports_what_was_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = damaged(tmp_path, "altered row")
    assert main(["matches", str(path), "--repair", str(tmp_path / "new.db")]) == 0
    out, err = capsys.readouterr()
    assert "match 1 -> 1: kept 3 of 14 entries (unfinished); lost from entry 4 (journal entry 4 " \
           "was altered): 4 " in out  # fmt: skip
    assert "some of" in err and "was lost" in err
    assert main(["matches", str(tmp_path / "new.db")]) == 0
    assert "unfinished" in capsys.readouterr().out


def test_a_repair_that_saves_nothing_says_so_and_writes_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file cut in half loses its table of matches: nothing can be salvaged. The repair
    said "wrote NEW.db: 0 of 0 matches" with status 0 (found by a new installer)."""
    path = damaged(tmp_path, "truncated")
    new = tmp_path / "new.db"
    assert main(["matches", str(path), "--repair", str(new)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "not salvaged: its table of matches cannot be read (database disk image is malformed)"
    ]
    assert err.strip() == (
        f"carom: {path}: nothing could be salvaged (its table of matches cannot be read "
        f"(database disk image is malformed)); {new} was not written; keep {path} as it is: "
        "SQLite's own .recover may still read some of it"
    )
    assert not new.exists() and not new.with_name("new.db-wal").exists()


def _drop_chain(path: Path) -> None:
    """Make ``path`` a schema 1 file, as carom-referee wrote before the chain."""
    sql("ALTER TABLE journal DROP COLUMN chain", "ALTER TABLE matches DROP COLUMN head",
        "ALTER TABLE matches DROP COLUMN seal",
        "UPDATE meta SET value = '1' WHERE key = 'schema_version'")(path)  # fmt: skip


def test_a_schema_1_file_gets_the_chain_once_and_resumes_as_before(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    state, version = recorded(path)
    _drop_chain(path)
    with MatchStore(path, strict=True) as store:
        resumed = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
        assert resumed.version == version and resumed.state == state
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("2",)
    db.close()
    sql("DELETE FROM journal WHERE seq = 5")(path)  # from now on the chain shows it
    with pytest.raises(LiveError, match="journal entry 5 is missing"):
        MatchStore(path, strict=True)


def test_a_damaged_schema_1_file_is_reported_and_not_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    recorded(path)
    _drop_chain(path)
    sql("DELETE FROM journal WHERE seq = 5")(path)
    with pytest.raises(LiveError, match="journal entry 5 is missing"):
        MatchStore(path, strict=True)
    (salvage,) = repair(path, tmp_path / "new.db").matches
    assert salvage.kept == 4
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("1",)
    db.close()


def test_a_lenient_store_says_so_once_and_refuses_every_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = damaged(tmp_path, "deleted row")
    doc = config_doc(long_config())
    with caplog.at_level("WARNING", logger="carom.live"), MatchStore(path) as store:
        assert not store.health.sound
        with pytest.raises(LiveError, match="entry 5 is missing"):
            LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
        with pytest.raises(LiveError, match="entry 5 is missing"):
            store.new_match(setup_key="k", source=SOURCE, config=doc, now_iso=NOW)
    (record,) = caplog.records
    assert "cannot be read, resumed or added to" in record.getMessage()


def test_a_damaged_trajectories_blob_is_left_out_of_the_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "live.db"
    recorded(path)
    with MatchStore(path) as store:
        shot = store.journal(1)[0]
        assert shot.kind == "shot"
        store.put_tracks(1, shot.seq, b"x\x9c not zlib at all")
    out = tmp_path / "t.json"
    assert main(["export", str(path), "--match", "1", "--trajectories", str(out)]) == 0
    err = capsys.readouterr().err
    assert "have no kept trajectories" in err and "Traceback" not in err
    assert json.loads(out.read_text())["shots"] == []


def test_the_repair_reads_past_a_bad_page_of_journal_rows(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    recorded(path, inputs=40)
    with MatchStore(path) as store:  # the entry whose row the damaged page holds
        hit = next(e.seq for e in store.journal(1) if e.payload.get("video_t_s") == 30.0)
    data = bytearray(path.read_bytes())
    page = data.index(b'"video_t_s": 30.0') // 4096 * 4096  # a leaf of the journal table
    data[page : page + 4096] = random.Random(5).randbytes(4096)
    path.write_bytes(bytes(data))
    (salvage,) = repair(path, tmp_path / "new.db").matches
    # Kept: the entries before the damaged page (which rows share it depends on their size).
    assert 3 < salvage.kept < hit and salvage.problem is not None, salvage.line()
    with MatchStore(tmp_path / "new.db", strict=True) as store:
        assert LiveSession.load(store, 1).version == salvage.kept
