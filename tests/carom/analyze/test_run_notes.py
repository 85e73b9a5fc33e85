"""The notes ``carom analyze`` writes about the match, keyed: their English as the
terminal and the summary always said it, their fields checked, and each said in every
report language with its balls and numbers in the language."""

from __future__ import annotations

import pytest

from carom.analyze._report import note_in
from carom.analyze._run_notes import RUN_NOTE_ENGLISH, RunNote, start_innings_notes
from carom.i18n import LANGUAGES, catalogue, format_number
from referee import Discipline, MatchConfig, RulesError, StartState

NOTES = [
    RunNote.of("no_lag"),
    RunNote.of("lag_not_judged", player="Ana"),
    RunNote.of("after_end", shot="1234"),
    RunNote.of("first_contradicted", player="Ben", ball="yellow", expected="Ana", other="white"),
    RunNote.of("font_missing", letters="김민수"),
    RunNote.of("start_innings_unknown", player="Ana", points=12),
    RunNote.of("lag_again"),
    RunNote.of("no_lag_entered"),
    RunNote.of("no_lag_unnamed"),
    RunNote.of("began_unseen", t_s="1234.5"),
    RunNote.of("lag_not_judged_start"),
]


def test_every_note_is_met_and_its_english_is_the_old_sentence() -> None:
    assert {n.key for n in NOTES} == set(RUN_NOTE_ENGLISH)
    assert NOTES[1].english() == "a lag was seen, but Ana was set to break: lag not judged"
    assert NOTES[2].english() == "shot 1234: played after the match ended; not judged"
    assert NOTES[3].english() == (
        "--first contradicts the video (the video shows Ben's yellow played first, not "
        "Ana's white): following the video; use --first Ben"
    )


def test_the_english_catalogue_says_what_analyze_says() -> None:
    english = catalogue("report").messages["en"]
    for key, template in RUN_NOTE_ENGLISH.items():
        assert english[f"run_note_{key}"] == template


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_each_note_is_said_in_the_language_with_its_balls_and_numbers(lang: str) -> None:
    cat = catalogue("report")
    said = [note_in(lang, n) for n in NOTES]
    assert not any("lag" in s.split("--first")[0] or "the match" in s for s in said), said
    assert "1234" in said[2]  # a shot's number is its name: written as the card says it
    assert cat.text(lang, "ball_yellow") in said[3] and cat.text(lang, "ball_white") in said[3]
    assert "--first Ben" in said[3] and "Ana" in said[1]
    assert "김민수" in said[4] and "CAROM_FONT" in said[4] and "no font" not in said[4]
    assert "Ana" in said[5] and "12" in said[5] and "--start-innings" in said[5]
    # a time in the language's digits: 1.234,5 or 1,234.5
    assert format_number(lang, 1234.5, 1) in said[9] and "1234.5" not in said[9]


def test_english_is_the_note_itself() -> None:
    assert [note_in("en", n) for n in NOTES] == [n.english() for n in NOTES]


@pytest.mark.parametrize(
    ("key", "fields"),
    [("no_such", {}), ("after_end", {}), ("no_lag", {"player": "Ana"}),
     ("lag_not_judged", {"shot": 1})],
)  # fmt: skip
def test_an_unknown_key_or_wrong_fields_are_refused(key: str, fields: dict[str, str]) -> None:
    with pytest.raises(RulesError, match="run note"):
        RunNote.of(key, **fields)


def _joined(start: StartState, discipline: Discipline = Discipline.THREE_CUSHION) -> MatchConfig:
    return MatchConfig(
        discipline=discipline,
        players=("Ana", "Ben"),
        start=start,
        target=dict.fromkeys(("Ana", "Ben"), 300),
        cue_balls={} if discipline is Discipline.PIN_CAROM_7 else {"Ana": "white", "Ben": "yellow"},
    )  # type: ignore[dict-item]


def test_a_start_score_without_its_innings_is_said_for_each_player_with_points() -> None:
    """Before, ``--start-score Ana=12`` alone gave Ana an average of 12 after one inning,
    without a word: the innings behind the 12 are unknown and counted as 0."""
    notes = start_innings_notes(_joined(StartState(board={"Ana": 12, "Ben": 0})))
    assert [n.english() for n in notes] == [
        "the start score gives Ana 12 points but no innings before the record: they count "
        "as 0, so Ana's averages are too high; give the start innings too (--start-innings, "
        "or the match file's or the manifest's)"
    ]
    given = StartState(board={"Ana": 12, "Ben": 7}, innings={"Ana": 9, "Ben": 9})
    assert start_innings_notes(_joined(given)) == []
    assert start_innings_notes(_joined(StartState(shooter="Ana"))) == []
    # the 7-pin board shows the count left: 300 is nothing made yet, 250 is 50 made
    pins = _joined(StartState(board={"Ana": 300, "Ben": 250}), Discipline.PIN_CAROM_7)
    assert [dict(n.fields) for n in start_innings_notes(pins)] == [{"player": "Ben", "points": 50}]
