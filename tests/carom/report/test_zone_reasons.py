"""A zone rule's notes in the report's languages: every golden balkline and straight-rail
verdict's keyed parts said with the report catalogue's words (the balls, the zones,
anchor squares and corners word by word, "and" and "or", the ordinal of the carom),
checked against an oracle written from the catalogue alone; in English the referee's own
sentence."""

from __future__ import annotations

import re

import pytest

from calibration import TableGeometry
from carom.i18n import LANGUAGES
from carom.report._page import Page
from referee import (
    MATCH_TABLE,
    Ball,
    Discipline,
    ReasonKey,
    RuleOptions,
    ShotContext,
    Verdict,
    judge,
)
from tests.carom.i18n.said import said_in
from tests.referee.golden import SHOTS_DIR, run_golden
from tests.referee.test_zones import _stroke

GAMES = ("straight-rail", *(p.name for p in sorted(SHOTS_DIR.glob("balkline-*"))))
W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED


def _corner_limit(limit: int) -> Verdict:
    """A first carom from a straight-rail corner with ``limit`` caroms allowed there."""
    options = RuleOptions(corner_zone_limit=limit)
    ctx = ShotContext(
        discipline=Discipline.STRAIGHT_RAIL, cue_ball=W, opponent_ball=Y, options=options
    )
    corner = {W: (60.0, 200.0), Y: (150.0, 90.0), R: (220.0, 60.0)}
    return judge(_stroke(0, corner, corner), ctx)


@pytest.fixture(scope="module")
def golden() -> list[Verdict]:
    """Every golden balkline and straight-rail verdict (judged when a test asks, not at
    collection: every worker collects this file)."""
    return [run_golden(p)[0] for g in GAMES for p in sorted((SHOTS_DIR / g).glob("*.json"))]


@pytest.fixture(scope="module")
def verdicts(golden: list[Verdict]) -> list[Verdict]:
    """The golden ones and first caroms from a corner with 3 and 4 caroms allowed."""
    return [*golden, _corner_limit(3), _corner_limit(4)]


#: Words of the referee's English zone notes that a translation must not keep.
ENGLISH_WORDS = re.compile(
    r"\bzone\b|carom there|none left|must leave|anchor|corner|object balls|position of|"
    r"the carom|\(free\)|\bleft\b|\bhead\b|\bfoot\b|zone restriction|\d(st|nd|rd|th)\b"
)


def test_the_verdicts_meet_every_zone_note_with_its_words(verdicts: list[Verdict]) -> None:
    parts = [p for v in verdicts for p in v.reason_parts if p.key.startswith("zone_")]
    assert {p.key for p in parts} == {k for k in ReasonKey if k.startswith("zone_")}
    assert ReasonKey.TEXT not in {p.key for v in verdicts for p in v.reason_parts}
    english = " ".join(v.reason for v in verdicts)
    for seen in ("anchor-", "corner-", "zone ", "(free)", " or ", "2nd carom", "1 more carom",
                 "2 more caroms", "all three balls", "both object balls"):  # fmt: skip
        assert seen in english, seen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_zone_notes_are_said_in_the_report_s_language(lang: str, verdicts: list[Verdict]) -> None:
    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    for v in verdicts:
        said = page.reason(v)
        if lang == "en":
            assert said == v.reason
            continue
        assert said == "; ".join(said_in(lang, p) for p in v.reason_parts), v.reason
        assert not ENGLISH_WORDS.search(said), (lang, said)


def test_a_french_refusal_reads_as_french(golden: list[Verdict]) -> None:
    """One worked example, written by hand: the oracle could share a mistake."""
    refused = next(v for v in golden if v.reason_parts[0].key is ReasonKey.ZONE_REFUSED)
    assert refused.reason == (
        "zone limit: both object balls in zone head-left (1st carom there), none left zone "
        "head-left: the carom does not count"
    )
    said = Page("fr", TableGeometry(MATCH_TABLE), 0.5).reason(refused)
    assert said == (
        "limite de cadre : les deux billes objets dans le cadre tête-gauche (1er carambolage "
        "à cet endroit), aucune n'a quitté le cadre tête-gauche : le carambolage ne compte pas"
    )
