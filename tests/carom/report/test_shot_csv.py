"""The per-shot CSV of hand-made shot logs: contacts, fouls, formula cells, players, errors."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from carom.match import score_document
from carom.report import (
    SHOT_CSV_COLUMNS,
    ShotCsvError,
    cue_ball_contacts,
    shot_csv_columns,
    shot_csv_text,
    write_shot_csv,
)
from referee import record_json
from tests.carom.report.shot_csv_check import check_against_log, documented_columns, read_rows

EXAMPLE = Path(__file__).parents[3] / "examples" / "three_cushion_match.json"
SAMPLES = Path(__file__).parents[3] / "sample_videos"


def _ev(t: float, kind: str, **more: Any) -> dict[str, Any]:
    return {"t_s": t, "kind": kind, **more}


def _verdict(i: int, player: str, **more: Any) -> dict[str, Any]:
    return {"index": i, "player": player, "set": 1, "inning": 1, "points": 0,
            "opponent_points": 0, "penalty": 0, "fouls": [], "inning_ends": True,
            "review": None, "reason": "no point", "score_after": {"Ana": 0, "Ben": 0},
            "run": 0} | more  # fmt: skip


def _doc(events: list[dict[str, Any]], verdict: dict[str, Any], discipline: str = "three-cushion",
         players: tuple[str, ...] = ("Ana", "Ben")) -> dict[str, Any]:  # fmt: skip
    cue = {"Ana": "white", "Ben": "yellow"} if len(players) == 2 else None
    match: dict[str, Any] = {"players": list(players), "first_player": players[0]}
    if cue and players == ("Ana", "Ben"):
        match["cue_balls"] = cue
    return {"format": "carom-shots/1", "discipline": discipline, "match": match,
            "shots": [{"index": 0, "start_s": 1.0, "end_s": 6.25, "cue_ball": "white",
                       "events": events, "verdict": verdict}]}  # fmt: skip


POINT = [  # out of order on purpose: the contacts are read in time order
    _ev(2.4, "ball", balls=["yellow", "white"]),
    _ev(1.2, "cushion", ball="white", cushion="foot"),
    _ev(1.0, "ball", balls=["white", "red"]),
    _ev(0.5, "cushion", ball="white", cushion="head"),
    _ev(1.6, "cushion", ball="red", cushion="left"),
    _ev(2.0, "cushion", ball="white", cushion="right"),
    _ev(3.0, "cushion", ball="white", cushion="left"),
]


def test_first_ball_second_ball_and_cushions_before_it_follow_time_not_list_order() -> None:
    assert cue_ball_contacts(POINT, "white") == ("red", "yellow", "3")
    assert cue_ball_contacts(POINT[1:], "white") == ("red", "", "")  # no second ball
    assert cue_ball_contacts([], "white") == ("", "", "")
    again = [_ev(0.1, "ball", balls=["white", "red"]), _ev(0.2, "ball", balls=["red", "white"])]
    assert cue_ball_contacts(again, "white") == ("red", "", "")  # the same ball twice


def test_a_hand_made_log_gives_the_rows_the_shot_log_says() -> None:
    doc = _doc(POINT, _verdict(0, "Ana", points=1, run=1, inning_ends=False,
                                 reason="point", score_after={"Ana": 1, "Ben": 0}))  # fmt: skip
    rows = check_against_log(shot_csv_text(doc, "clip.mp4"), doc, "clip.mp4")
    assert rows[0]["cushions_before_second_ball"] == "3" and rows[0]["score_a"] == "1"
    assert tuple(rows[0]) == SHOT_CSV_COLUMNS


def test_a_shot_without_times_has_empty_time_cells() -> None:
    """Shots fed to a live match without times (the web history's shots.csv was a 500)."""
    doc = _doc(POINT, _verdict(0, "Ana", points=1, run=1, inning_ends=False,
                                 reason="point", score_after={"Ana": 1, "Ben": 0}))  # fmt: skip
    for key in ("start_s", "end_s"):
        del doc["shots"][0][key]
    rows = check_against_log(shot_csv_text(doc, "live"), doc, "live")
    assert (rows[0]["start_s"], rows[0]["end_s"]) == ("", "")


def test_the_bundled_example_log_judged_checks_field_by_field() -> None:
    """The 14-shot example (a lag, points, misses, fouls) judged, then written as CSV."""
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert shot_csv_text(doc, "x").splitlines() == [",".join(SHOT_CSV_COLUMNS)]  # no verdicts
    run = score_document(doc)
    for shot, record in zip(doc["shots"], run.match.records, strict=True):
        shot["verdict"] = record_json(record)
    rows = check_against_log(shot_csv_text(doc, "example"), doc, "example")
    assert len(rows) == 14 and {r["second_ball"] for r in rows} >= {"red", "yellow", ""}


def test_formula_text_is_neutralised_and_numbers_and_line_breaks_survive() -> None:
    reason = "=cmd|' /C calc'!A0\nsecond, \"line\"\r"
    doc = _doc(
        POINT,
        _verdict(
            0,
            "Ana",
            reason=reason,
            review="+1 kiss?",
            fouls=["miscue", "push"],
            points=-2,
            score_after={"Ana": -2, "Ben": 0},
        ),
    )
    rows = read_rows(shot_csv_text(doc, "@clip"))
    row = rows[0]
    assert row["reason"] == "'" + reason
    assert row["review"] == "'+1 kiss?" and row["match"] == "'@clip"
    assert row["fouls"] == "miscue;push" and row["points"] == "-2" and row["score_a"] == "-2"


def test_pin_games_leave_the_carom_columns_empty() -> None:
    doc = _doc(POINT, _verdict(0, "Ana"), discipline="five-pins")
    row = read_rows(shot_csv_text(doc, "m"))[0]
    assert (row["first_ball"], row["second_ball"], row["cushions_before_second_ball"]) == (
        "",
        "",
        "",
    )


def test_the_pins_that_fell_are_listed_in_time_order_with_the_ball_that_knocked_each() -> None:
    """A coach's five-pins and 7-pin rows say what fell (the club official found no pins)."""
    events = [_ev(2.0, "pin", pin="foot"), _ev(1.5, "pin", pin="center", ball="yellow"),
              _ev(1.0, "ball", balls=["white", "yellow"])]  # fmt: skip
    doc = _doc(events, _verdict(0, "Ana"), discipline="five-pins")
    assert read_rows(shot_csv_text(doc, "m"))[0]["pins_down"] == "center:yellow;foot:"
    # As the referee counts them: a pin that was not standing, or falls twice, once at most.
    events += [_ev(2.2, "pin", pin="center", ball="white"), _ev(2.5, "pin", pin="left")]
    doc = _doc(events, _verdict(0, "Ana"), discipline="five-pins")
    doc["shots"][0]["pins_standing"] = ["center", "foot", "right", "head"]
    assert read_rows(shot_csv_text(doc, "m"))[0]["pins_down"] == "center:yellow;foot:"
    check_against_log(shot_csv_text(doc, "m"), doc, "m")
    assert read_rows(shot_csv_text(_doc(POINT, _verdict(0, "Ana")), "m"))[0]["pins_down"] == ""


@pytest.mark.parametrize("name", ["five_pins_match", "seven_pins_match"])
def test_the_bundled_pin_games_judged_check_field_by_field(name: str) -> None:
    doc = json.loads((SAMPLES / f"{name}.shots.json").read_text(encoding="utf-8"))
    run = score_document(doc)
    for shot, record in zip(doc["shots"], run.match.records, strict=True):
        shot["verdict"] = record_json(record)
    rows = check_against_log(shot_csv_text(doc, name), doc, name)
    fell = [r["pins_down"] for r in rows if r["pins_down"]]
    assert fell and all(re.fullmatch(r"(\w+:\w*)(;\w+:\w*)*", f) for f in fell), fell


def test_three_players_get_a_seat_each_and_a_tenth_is_refused() -> None:
    doc = _doc(POINT, _verdict(0, "Cleo", score_after={"Ana": 3, "Ben": 1, "Cleo": 2}),
               players=("Ana", "Ben", "Cleo"))  # fmt: skip
    row = read_rows(shot_csv_text(doc, "m"))[0]
    assert list(row)[-6:] == ["player_a", "score_a", "player_b", "score_b", "player_c", "score_c"]
    assert (row["player_c"], row["score_c"], row["score_a"]) == ("Cleo", "2", "3")
    assert shot_csv_columns(8)[-1] == "score_h"
    with pytest.raises(ShotCsvError, match="2 to 8 players, got 9"):
        shot_csv_columns(9)


def test_the_header_is_the_documented_one() -> None:
    assert list(SHOT_CSV_COLUMNS[: len(documented_columns())]) == documented_columns()
    assert len(SHOT_CSV_COLUMNS) == len(documented_columns()) + 4


def test_a_shot_without_a_verdict_has_no_row_and_an_unwritable_file_is_one_line(
    tmp_path: Path,
) -> None:
    doc = _doc(POINT, _verdict(0, "Ana"))
    unjudged = copy.deepcopy(doc)
    del unjudged["shots"][0]["verdict"]
    assert len(read_rows(shot_csv_text(unjudged, "m"))) == 0
    write_shot_csv(tmp_path / "s.csv", doc, "m")
    assert len(read_rows((tmp_path / "s.csv").read_text(encoding="utf-8"))) == 1
    with pytest.raises(ShotCsvError, match=r"^shot CSV .*cannot write .*; check the folder$"):
        write_shot_csv(tmp_path / "no" / "such.csv", doc, "m")
