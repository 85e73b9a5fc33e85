"""``carom export``'s files: refused before any is written, written all or none.

Every refusal is status 2 and one ``carom:`` line, and leaves every file of the
folder (the database, earlier exports) byte for byte as it was, with no temporary
file left beside them.
"""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

import pytest

from carom.cli import main
from carom.live import DecisionKind, LiveSession, MatchStore, ReviewDecision, result_row, shot_log
from tests.carom.live.shotpool import NOW, example_inputs, example_setup


def _finished_match(path: Path) -> LiveSession:
    """The example match, played to its end; its database closed (nothing left in its WAL)."""
    with MatchStore(path) as store:
        session = LiveSession.open(store, example_setup(), now_iso=NOW)
        for i, shot in enumerate(example_inputs()):
            if session.submit(shot, video_t_s=float(i), now_iso=NOW).pending is not None:
                session.decide(ReviewDecision(DecisionKind.ACCEPT), who="ref", now_iso=NOW)
    return session


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (links as their target's name) and its bytes."""
    return {
        str(p.relative_to(folder)): os.readlink(p).encode() if p.is_symlink() else p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() or p.is_symlink()
    }


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], line: str) -> None:
    """``carom ARGV`` exits 2 with exactly the one line ``line`` on stderr, nothing on stdout."""
    status = main(argv)
    said = capsys.readouterr()
    assert (status, said.err, said.out) == (2, line + "\n", "")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A finished match's database in the current folder (``tmp_path``)."""
    monkeypatch.chdir(tmp_path)
    _finished_match(tmp_path / "lvx.db")
    return Path("lvx.db")


@pytest.mark.parametrize("option", ["--json", "--csv", "--shots-csv", "--trajectories"])
@pytest.mark.parametrize("spelling", ["lvx.db", "./lvx.db", "{abs}", "link.db", "hard.db"])
def test_the_database_is_never_an_export(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str], option: str, spelling: str
) -> None:
    Path("link.db").symlink_to("lvx.db")
    os.link("lvx.db", "hard.db")
    before = _files(tmp_path)
    out = str(Path(spelling.format(abs=tmp_path / "lvx.db")))  # as argparse gives it
    _refused(capsys, ["export", str(db), "--match", "1", option, out],
             f"carom: {option} {out}: is the match database; give another file name")  # fmt: skip
    assert _files(tmp_path) == before


def test_a_journal_of_the_database_is_never_an_export(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(tmp_path)
    _refused(capsys, ["export", str(db), "--match", "1", "--json", "lvx.db-wal"],
             "carom: --json lvx.db-wal: is a journal of the match database; "
             "give another file name")  # fmt: skip
    assert _files(tmp_path) == before
    (tmp_path / "lvx.db-holds").write_bytes(b"")  # as a carom live beside it makes it
    before = _files(tmp_path)
    _refused(capsys, ["export", str(db), "--match", "1", "--csv", "lvx.db-holds"],
             "carom: --csv lvx.db-holds: is the match database's holds file (which process "
             "referees which match); give another file name")  # fmt: skip
    assert _files(tmp_path) == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /proc")
def test_a_later_file_that_cannot_be_written_leaves_the_earlier_ones(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("keep.json").write_text("the earlier export\n")
    before = _files(tmp_path)
    _refused(capsys, ["export", str(db), "--match", "1", "--json", "keep.json",
                      "--shots-csv", "s.csv", "--csv", "/proc/x.csv"],
             "carom: --csv /proc/x.csv: cannot write the export there (No such file or "
             "directory); give a path you may write to")  # fmt: skip
    assert _files(tmp_path) == before


def test_a_failure_while_writing_removes_what_was_written(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--json is written (to its temporary file) before --csv finds its file is not one."""
    Path("keep.json").write_text("the earlier export\n")
    Path("bin.mp4").write_bytes(b"\0\0\0 ftypisom\n" + bytes(range(256)) * 8)  # a video
    before = _files(tmp_path)
    _refused(capsys, ["export", str(db), "--match", "1", "--json", "keep.json",
                      "--csv", "bin.mp4", "--trajectories", "t.json"],
             "carom: --csv bin.mp4: not a CSV of carom results (not UTF-8 text); "
             "give a new file name or that CSV")  # fmt: skip
    assert _files(tmp_path) == before


def test_a_csv_of_other_columns_is_refused_whole(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("notes.csv").write_text("name,age\nAna,31\n")
    before = _files(tmp_path)
    _refused(capsys, ["export", str(db), "--match", "1", "--shots-csv", "s.csv",
                      "--csv", "notes.csv"],
             "carom: --csv notes.csv: has other columns than a carom result of 2 players; "
             "pass a new file")  # fmt: skip
    assert _files(tmp_path) == before


@pytest.mark.parametrize(
    "option", ["--json", "--csv", "--shots-csv", "--trajectories", "--trajectories-csv"]
)
def test_a_folder_is_refused_and_no_temporary_is_left(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    Path("bad").mkdir()
    Path("bad", "inside.txt").write_text("kept")
    before = _files(tmp_path)
    _refused(capsys, ["export", str(db), "--match", "1", "--json", "m.json", option, "bad"],
             f"carom: {option} bad: is a folder; give a file name")  # fmt: skip
    assert _files(tmp_path) == before and Path("bad").is_dir()


def test_one_file_named_by_two_options_is_refused(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(tmp_path)
    _refused(capsys, ["export", str(db), "--match", "1", "--json", "m.json", "--csv", "./m.json"],
             "carom: --csv m.json: is also --json; give each export its own file name")  # fmt: skip
    assert _files(tmp_path) == before


def test_a_missing_folder_is_refused_before_any_file(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(tmp_path)
    _refused(capsys, ["export", str(db), "--match", "1", "--json", "m.json",
                      "--trajectories", "no/t.json"],
             f"carom: --trajectories no/t.json: cannot write the export there (no folder "
             f"{tmp_path / 'no'}); make it or give another path")  # fmt: skip
    assert _files(tmp_path) == before


def test_every_file_is_written_and_the_csv_appended_through_a_link(
    tmp_path: Path, db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = _finished_match(Path("other.db"))
    Path("results.csv").write_bytes(b"")
    Path("link.csv").symlink_to("results.csv")
    outs = ["--json", "m.json", "--csv", "link.csv", "--shots-csv", "s.csv",
            "--trajectories", "t.json", "--trajectories-csv", "t.csv"]  # fmt: skip
    for _ in range(2):
        assert main(["export", "other.db", "--match", "1", *outs]) == 0
    assert capsys.readouterr().out == "wrote match 1: m.json, link.csv, s.csv, t.json, t.csv\n" * 2
    assert json.loads(Path("m.json").read_text()) == shot_log(session)
    assert Path("link.csv").is_symlink()  # the file it names got the lines
    rows = list(csv.DictReader(Path("results.csv").read_text().splitlines()))
    assert rows == [result_row(session)] * 2
    names = {p.name for p in tmp_path.iterdir()}
    assert not [n for n in names if n.endswith(".tmp") or n.startswith(".carom-check")]


def test_an_appended_csv_keeps_its_mode_and_gets_its_missing_line_end(
    tmp_path: Path, db: Path
) -> None:
    assert main(["export", str(db), "--match", "1", "--csv", "r.csv"]) == 0
    text = Path("r.csv").read_text()
    Path("r.csv").write_text(text.rstrip("\n"))  # a file saved without its last line end
    Path("r.csv").chmod(0o600)
    assert main(["export", str(db), "--match", "1", "--csv", "r.csv"]) == 0
    assert Path("r.csv").read_text() == text + text.splitlines()[1] + "\n"
    assert Path("r.csv").stat().st_mode & 0o777 == 0o600
