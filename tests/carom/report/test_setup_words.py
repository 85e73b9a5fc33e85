"""The scoresheet's set-up line: the terms a result was judged under, as a referee checks them."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from carom.i18n import LANGUAGES, catalogue, format_number
from carom.match import TABLE_PRESETS, score_document
from carom.report import match_summary, render_report, render_sheet
from carom.report._setup_words import setup_line
from referee import Ball, Discipline, MatchConfig, RuleOptions, StartState, Table

ROOT = Path(__file__).parents[3]
TWO = ("Ana", "Ben")
BALLS = {"Ana": Ball.WHITE, "Ben": Ball.YELLOW}


def _config(**kw: object) -> MatchConfig:
    base: dict[str, object] = {"discipline": Discipline.THREE_CUSHION, "players": TWO,
                               "cue_balls": BALLS, "target": {"Ana": 40, "Ben": 40}}  # fmt: skip
    return MatchConfig(**{**base, **kw})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        (
            {},
            "set-up: to 40 points; equalizing inning from the break position; "
            "match table 2840x1420 mm",
        ),
        (
            {"target": {"Ana": 40, "Ben": 30}, "equalizing_from_break": False},
            "set-up: to Ana 40, Ben 30 points (handicap); equalizing inning; "
            "match table 2840x1420 mm",
        ),
        (
            {
                "target": {"Ana": 15, "Ben": 15},
                "sets": 3,
                "innings_limit": 50,
                "equalizing": False,
                "table": Table(length_mm=2500, width_mm=1250),
            },
            "set-up: to 15 points a set; best of 3 sets; innings limit 50; no equalizing "
            "inning; table 2500x1250 mm, balls 61.5 mm",
        ),
        (
            {"options": RuleOptions(follow_cue_ball=True, corner_zone_limit=1)},
            "set-up: to 40 points; equalizing inning from the break position; match table "
            "2840x1420 mm; shooter taken from the ball struck (camera); rules changed: "
            "corner_zone_limit 1",
        ),
        (
            {
                "start": StartState(
                    board={"Ana": 12, "Ben": 7}, innings={"Ana": 9, "Ben": 9}, shooter="Ana"
                )
            },
            "set-up: to 40 points; equalizing inning from the break position; match table "
            "2840x1420 mm; joined in progress at 12 : 7 after 9 : 9 innings, Ana at the table",
        ),
        (
            {
                "sets": 3,
                "start": StartState(
                    board={"Ana": 12, "Ben": 7},
                    set_index=2,
                    sets_won={"Ana": 1, "Ben": 1},
                    breaker="Ben",
                    shooter="Ana",
                    run=3,
                ),
            },
            "set-up: to 40 points a set; best of 3 sets; equalizing inning from the break "
            "position; match table 2840x1420 mm; joined in progress at 12 : 7 after 0 : 0 "
            "innings, set 3, sets 1 : 1, Ben broke this game, Ana at the table on a run of 3",
        ),
        (
            {"start": StartState()},
            "set-up: to 40 points; equalizing inning from the break position; match table "
            "2840x1420 mm; joined in progress (the score before is not known: counted from 0)",
        ),
        (
            {
                "discipline": Discipline.PIN_CAROM_7,
                "cue_balls": {},
                "start_count": 500,
                "start": StartState(),
            },
            "set-up: each counts down from 500; match table 2840x1420 mm; joined in progress "
            "(the score before is not known: counted down from 500)",
        ),
        (
            {"start": StartState(next_break=True)},
            "set-up: to 40 points; equalizing inning from the break position; match table "
            "2840x1420 mm; joined in progress at 0 : 0 after 0 : 0 innings, the next stroke "
            "from the break position",
        ),
    ],
    ids=[
        "defaults",
        "handicap",
        "sets-limit-table",
        "rules",
        "joined",
        "joined-sets",
        "joined-knowing-nothing",
        "seven-pins-joined-knowing-nothing",
        "joined-at-a-break",
    ],
)
def test_the_line_names_every_term_that_decides_the_result(
    changes: dict[str, object], line: str
) -> None:
    assert setup_line(_config(**changes)) == line


def test_games_without_an_equalizing_inning_do_not_mention_it() -> None:
    pins = _config(discipline=Discipline.FIVE_PINS, target={"Ana": 60, "Ben": 60})
    assert setup_line(pins) == "set-up: to 60 points; match table 2840x1420 mm"
    one = _config(discipline=Discipline.FIVE_PINS, target={"Ana": 1, "Ben": 1})
    assert setup_line(one) == "set-up: to 1 point; match table 2840x1420 mm"  # "1 points"
    pyramid = Table(length_mm=3550, width_mm=1775, ball_diameter_mm=68)
    seven = MatchConfig(discipline=Discipline.PIN_CAROM_7, players=TWO, cue_balls={},
                        target={"Ana": 500, "Ben": 500}, start_count=500,
                        table=pyramid)  # fmt: skip
    assert setup_line(seven) == "set-up: each counts down from 500; pyramid table 3550x1775 mm"


def test_the_sheet_carries_it_under_the_players_line() -> None:
    """``carom score`` and ``carom analyze`` print this sheet; the log's set-up is read back."""
    doc = json.loads((ROOT / "examples" / "three_cushion_match.json").read_text())
    doc["match"].update(target={"Ana": 5, "Ben": 4}, innings_limit=30)
    sheet = render_sheet(score_document(doc)).splitlines()
    assert sheet[:2] == [
        "three-cushion: Ana vs Ben",
        "set-up: to Ana 5, Ben 4 points (handicap); innings limit 30; equalizing inning "
        "from the break position; match table 2840x1420 mm",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_report_says_it_in_its_language_under_the_result(lang: str) -> None:
    doc = json.loads((ROOT / "examples" / "three_cushion_match.json").read_text())
    doc["match"].update(players=["Ana", "<b>&"], cue_balls={"Ana": "white", "<b>&": "yellow"},
                        target={"Ana": 5, "<b>&": 4}, sets=3)  # fmt: skip
    run = score_document(doc)
    page = render_report([], title="t", meta={}, summary=match_summary(run), lang=lang)
    (said,) = re.findall(r'<p class="setup">(.*?)</p>', page)
    words = catalogue("report").messages[lang]
    assert html.unescape(said).startswith(words["setup"].split("{")[0])
    assert "Ana 5, <b>& 4" in html.unescape(said) and "<b>&" not in said  # escaped once
    assert words["setup_sets"].format(n=3) in html.unescape(said)
    assert page.index('class="setup"') < page.index('class="players"')
    size = f"{format_number(lang, 2840, 0)}x{format_number(lang, 1420, 0)} mm"
    assert size in html.unescape(said)  # the page's numbers: 2.840x1.420 mm in Turkish


def test_every_named_table_has_its_words() -> None:
    for name, (length, width, ball) in TABLE_PRESETS.items():
        table = Table(length_mm=length, width_mm=width, ball_diameter_mm=ball)
        assert setup_line(_config(table=table)).endswith(f"{name} table {length:g}x{width:g} mm")
