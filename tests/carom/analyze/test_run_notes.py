"""The notes ``carom analyze`` writes about the match, keyed: their English as the
terminal and the summary always said it, their fields checked, and each said in every
report language with its balls and numbers in the language."""

from __future__ import annotations

import pytest

from carom.analyze._report import note_in
from carom.analyze._run_notes import RUN_NOTE_ENGLISH, RunNote
from carom.i18n import LANGUAGES, catalogue
from referee import RulesError

NOTES = [
    RunNote.of("no_lag"),
    RunNote.of("lag_not_judged", player="Ana"),
    RunNote.of("after_end", shot="1234"),
    RunNote.of("first_contradicted", player="Ben", ball="yellow", expected="Ana", other="white"),
    RunNote.of("font_missing", letters="김민수"),
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
