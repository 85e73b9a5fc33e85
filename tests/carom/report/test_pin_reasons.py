"""The pin games' reasons in the report's languages: every golden five-pins and 7-pin
verdict's keyed parts said with the report catalogue's words (pins, balls, fouls and
the stroke's items named in the language), and in English the referee's own sentence."""

from __future__ import annotations

import re

import pytest

from calibration import TableGeometry
from carom.i18n import LANGUAGES
from carom.report._page import Page
from referee import (
    ITEM_FIELDS,
    MATCH_TABLE,
    PIN_ITEM_ENGLISH,
    ReasonKey,
    Verdict,
    pin_items,
)
from tests.carom.i18n.said import said_in
from tests.referee.golden import SHOTS_DIR, run_golden

GAMES = ("five-pins", "pin-carom-7")
VERDICTS = [run_golden(p)[0] for g in GAMES for p in sorted((SHOTS_DIR / g).glob("*.json"))]
#: Words of the referee's English pin game reasons that a translation must not keep.
ENGLISH_WORDS = re.compile(
    r"side pin|centre pin|points to|no pin fell|not standing|stroke \d|added to the count"
    r"|knocked illegally|pocketed|off the table|nothing made|game is won|no score"
)


def test_every_pin_game_verdict_has_keyed_parts_that_cover_the_keys_and_item_kinds() -> None:
    assert len(VERDICTS) >= 60 and all(v.reason_parts for v in VERDICTS)
    keys = {p.key for v in VERDICTS for p in v.reason_parts}
    kinds = {i.kind for v in VERDICTS for p in v.reason_parts for name in ITEM_FIELDS
             for i in pin_items(str(p.field_map().get(name, "")))}  # fmt: skip
    announced = ("pins_hand_", "pins_play_on", "pin7_spot_covered", "pin7_at_zero")
    pin_keys = {
        k for k in ReasonKey if k.startswith(("pins_", "pin7_")) and not k.startswith(announced)
    }
    # Overshoot at zero with pins down is a path no golden shot takes (test_reason has it).
    assert pin_keys - keys == {ReasonKey.PIN7_FELL_AT_ZERO}
    assert kinds == set(PIN_ITEM_ENGLISH)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pin_game_reasons_are_said_in_the_report_s_language(lang: str) -> None:
    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    for v in VERDICTS:
        said = page.reason(v)
        if lang == "en":
            assert said == v.reason
            continue
        assert said == "; ".join(said_in(lang, p) for p in v.reason_parts)
        assert not ENGLISH_WORDS.search(said), (lang, said)


def test_a_verdict_without_parts_keeps_the_referee_s_sentence() -> None:
    page = Page("fr", TableGeometry(MATCH_TABLE), 0.5)
    assert page.reason(Verdict(inning_ends=True, reason="overshoot: no score")) == (
        "overshoot: no score"
    )
