"""The referee's announcements in the report's languages: frozen balls, five-pins ball in
hand, covered 7-pin spots, the count at zero (every golden shot that has one) and wrong
break positions (every golden wrong-break layout), each from its keyed phrase; in
English the referee's own sentences."""

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
    Spot,
    Table,
    Verdict,
    check_break_layout,
)
from tests.carom.i18n.said import said_in
from tests.referee.golden import SHOTS_DIR, run_golden
from tests.referee.test_break import FILES as LAYOUTS
from tests.referee.test_break import _load

ENGLISH_WORDS = re.compile(
    r"is frozen|Ball in hand|ball in hand|wrong break|spot is covered|count at zero"
)


def _wrong_breaks() -> list[Verdict]:
    out = []
    for path in LAYOUTS:
        discipline, table, positions, cue = _load(path)
        check = check_break_layout(discipline, table, positions, cue, RuleOptions())
        if check is not None and check.faults:
            out.append(Verdict(inning_ends=False, announcement_parts=check.faults))
    return out


def _too_far() -> Verdict:
    """The 7-pin layout with white1 40 mm beyond "beside" spot 1 (no golden layout has it)."""
    table = Table()
    spot1, spot3, head = (table.spot(s) for s in (Spot.SPOT1, Spot.SPOT3, Spot.HEAD))
    beside_mm = 1.5 * table.ball_diameter_mm
    positions = {Ball.RED: (head[0] - 100.0, head[1]), Ball.WHITE2: spot3,
                 Ball.WHITE1: (spot1[0], spot1[1] + beside_mm + 40.0)}  # fmt: skip
    check = check_break_layout(Discipline.PIN_CAROM_7, table, positions, Ball.RED, RuleOptions())
    assert check is not None and check.recognised
    return Verdict(inning_ends=False, announcement_parts=check.faults)


GOLDEN = [v for p in sorted(SHOTS_DIR.glob("*/*.json")) if (v := run_golden(p)[0]).announcements]
VERDICTS = [*GOLDEN, *_wrong_breaks(), _too_far()]


def test_every_announcement_the_referee_makes_is_keyed_and_every_key_is_seen() -> None:
    assert all(len(v.announcement_parts) == len(v.announcements) for v in VERDICTS)
    seen = {p.key for v in VERDICTS for p in v.announcement_parts}
    said = {k for k in ReasonKey if k.startswith(("frozen_", "pins_hand_", "wrong_break_"))}
    said |= {ReasonKey.PINS_PLAY_ON, ReasonKey.PIN7_SPOT_COVERED, ReasonKey.PIN7_AT_ZERO}
    # No golden shot puts a five-pins fouler's ball back on its spot, nor lacks its
    # place (a foul without the ball's end position; test_five_pins has one each).
    rare = {ReasonKey.PINS_HAND_OPPOSITE, ReasonKey.PINS_HAND_TOP,
            ReasonKey.PINS_HAND_CENTRE_LINE, ReasonKey.PINS_HAND_OPPOSITE_ASK,
            ReasonKey.PINS_HAND_OPPOSITE_ASK_RED, ReasonKey.PINS_HAND_TOP_ASK_RED,
            ReasonKey.PINS_HAND_CENTRE_LINE_ASK_RED}  # fmt: skip
    assert said - seen <= rare, said - seen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_announcements_are_said_in_the_report_s_language(lang: str) -> None:
    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    for v in VERDICTS:
        said = page.announcements(v)
        if lang == "en":
            assert said == v.announcements
            continue
        assert said == tuple(said_in(lang, p) for p in v.announcement_parts)
        assert not any(ENGLISH_WORDS.search(a) for a in said), (lang, said)


def test_announcements_not_all_keyed_are_the_referee_s_english() -> None:
    keyed = next(v for v in GOLDEN if v.announcement_parts)
    mixed = Verdict(inning_ends=True, announcements=("a note", *keyed.announcements),
                    announcement_parts=keyed.announcement_parts)  # fmt: skip
    assert Page("ko", TableGeometry(MATCH_TABLE), 0.5).announcements(mixed) == mixed.announcements


def test_a_white_too_far_from_its_spot_is_said_in_french() -> None:
    v = _too_far()
    assert v.announcements == (
        "wrong break position: white1 is 40 mm too far from spot 1 (at most 15 mm)",
    )
    said = Page("fr", TableGeometry(MATCH_TABLE), 0.5).announcements(v)
    assert said == ("position de casse incorrecte : blanche 1 est 40 mm trop loin de sa place, "
                    "le point 1 (au plus 15 mm)",)  # fmt: skip
