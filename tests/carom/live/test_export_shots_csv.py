"""``carom export DB --shots-csv FILE``: one row per shot of the exported shot log."""

from __future__ import annotations

from pathlib import Path

import pytest

from carom.cli import main
from carom.live import shot_log
from tests.carom.live.test_export import _finished_match
from tests.carom.report.shot_csv_check import check_against_log


def test_export_writes_the_per_shot_csv_of_its_shot_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "live.db"
    session = _finished_match(db)  # with a foul call, an undo and a review on the way
    out = tmp_path / "shots.csv"
    assert main(["export", str(db), "--shots-csv", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote match 1: {out}\n"  # not the log: a file asked for
    rows = check_against_log(out.read_text(encoding="utf-8"), shot_log(session), "1")
    assert len(rows) == len(session.records)
    assert any("miscue" in r["fouls"] for r in rows)  # the call in effect is a foul


def test_an_unwritable_shots_csv_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "live.db"
    _finished_match(db, with_calls=False)
    assert main(["export", str(db), "--shots-csv", str(tmp_path / "no" / "s.csv")]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot write" in err
