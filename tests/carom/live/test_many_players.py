"""Live storage with three players (rules.md §1): calls for any player, review, export."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path

import pytest

from carom.cli import main
from carom.live import (
    DecisionKind,
    LiveError,
    LiveSession,
    LiveSetup,
    MatchStore,
    ReviewDecision,
    TimeoutCall,
    csv_columns,
    parse_line,
    result_row,
    write_csv,
)
from referee import Ball, Correction, Phase, parse_shot_log
from tests.carom.live.shotpool import NOW, ROOT, analyzed

THREE = ROOT / "examples" / "three_players_match.json"


def _three(path: Path, *, rotation: tuple[Ball, Ball] = (Ball.WHITE, Ball.YELLOW)) -> LiveSession:
    log = parse_shot_log(json.loads(THREE.read_text()))
    setup = LiveSetup(replace(log.match, rotation_balls=rotation), "three.mp4", 2)
    return LiveSession.open(MatchStore(path), setup, now_iso=NOW)


def _play_all(session: LiveSession) -> None:
    for shot in parse_shot_log(json.loads(THREE.read_text())).shots:
        session.submit(analyzed(shot), video_t_s=shot.end_s, now_iso=NOW)


def test_the_result_line_holds_every_player_and_the_shared_draw(tmp_path: Path) -> None:
    session = _three(tmp_path / "live.db")
    _play_all(session)
    assert session.state.phase is Phase.OVER and session.state.tied == ("Ana", "Ben")
    row = result_row(session)
    assert tuple(row) == csv_columns(3) and csv_columns(3)[-4:] == (
        "match_points_a", "match_points_b", "match_points_c", "winner",
    )  # fmt: skip
    assert [row[f"player_{s}"] for s in "abc"] == ["Ana", "Ben", "Cleo"]
    assert [row[f"points_{s}"] for s in "abc"] == ["3", "3", "0"]
    assert [row[f"match_points_{s}"] for s in "abc"] == ["1", "1", "0"]
    assert row["winner"] == "draw"


def test_carom_export_and_matches_take_three_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, out_csv = tmp_path / "live.db", tmp_path / "results.csv"
    session = _three(db)
    _play_all(session)
    for _ in range(2):  # the second run appends under the same header
        assert main(["export", str(db), "--csv", str(out_csv)]) == 0
    lines = out_csv.read_text().splitlines()
    assert lines[0] == ",".join(csv_columns(3)) and len(lines) == 3
    assert list(csv.DictReader(lines))[1] == result_row(session)
    assert main(["matches", str(db)]) == 0
    assert "Ana - Ben - Cleo  3 - 3 - 0  10 shots  finished, draw" in capsys.readouterr().out


def test_a_result_of_another_number_of_players_is_not_appended(tmp_path: Path) -> None:
    session = _three(tmp_path / "live.db")
    two = tmp_path / "two.csv"
    two.write_text(",".join(csv_columns(2)) + "\n")
    with pytest.raises(LiveError, match="other columns than a carom result of 3 players"):
        write_csv(two, [result_row(session)])
    with pytest.raises(LiveError, match="2 to 8 players, got 9"):
        csv_columns(9)


def test_the_third_player_takes_time_outs_and_corrections_from_the_keyboard(
    tmp_path: Path,
) -> None:
    session = _three(tmp_path / "live.db")
    players = session.state.config.players
    for line in ("timeout C", "timeout cleo", "correct 3 +2", "turn C"):
        call = parse_line(line, players)
        assert isinstance(call, TimeoutCall | Correction)
        session.call(call, who="keyboard", now_iso=NOW)
    assert session.timeouts_used() == (0, 0, 2)
    assert session.state.board("Cleo") == 2 and session.state.shooter == "Cleo"
    with pytest.raises(LiveError, match="Cleo has used all 2 time-out"):
        session.call(TimeoutCall("Cleo"), who="keyboard", now_iso=NOW)


def test_a_review_scored_zero_passes_the_turn_to_the_next_player(tmp_path: Path) -> None:
    session = _three(tmp_path / "live.db")
    first = parse_shot_log(json.loads(THREE.read_text())).shots[0]  # Ana's point
    doubt = replace(first.events[-1], doubt="balls too close to tell")
    shot = replace(first, events=(*first.events[:-1], doubt))
    assert session.submit(analyzed(shot), video_t_s=9.0, now_iso=NOW).pending is not None
    session.decide(ReviewDecision(DecisionKind.POINTS, 0), who="keyboard", now_iso=NOW)
    state = session.state
    assert state.board("Ana") == 0 and state.shooter == "Ben"


def test_the_rotating_dotted_white_is_kept_by_the_database(tmp_path: Path) -> None:
    session = _three(tmp_path / "live.db", rotation=(Ball.WHITE, Ball.DOTTED))
    store = MatchStore(tmp_path / "live.db", create=False)
    loaded = LiveSession.load(store, session.match_id)
    assert loaded.state.config.rotation_balls == (Ball.WHITE, Ball.DOTTED)
    assert store.match(session.match_id).players == ("Ana", "Ben", "Cleo")
