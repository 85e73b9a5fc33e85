"""The rule that judged a shot a break or play, and a shot's notes (who is at the table,
how a game ended), in the report's languages: each from its keyed phrase, checked
against an oracle written from the catalogue alone; in English the referee's own
sentences. The records come from matches the referee really plays."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from calibration import TableGeometry
from carom.i18n import LANGUAGES
from carom.report._html import ReportShot, _verdict_block
from carom.report._page import Page
from referee import (
    MATCH_TABLE,
    Ball,
    Discipline,
    Match,
    ReasonKey,
    RuleOptions,
    Shot,
    ShotRecord,
    StartState,
)
from tests.carom.i18n.said import said_in
from tests.referee.factories import W, Y, config, drive, many, miss, point
from tests.referee.test_break import FILES as LAYOUTS
from tests.referee.test_break import _load

ENGLISH_WORDS = re.compile(
    r"break layout|shot log|start positions|reached the target|match over|equaliz|"
    r"inning limit|at the table|the video|breaker's|mm from|cut back|wins the game"
)


def _layouts() -> list[ShotRecord]:
    """The first stroke of a match from every golden break layout (break or play)."""
    out = []
    for path in LAYOUTS:
        discipline, table, positions, cue = _load(path)
        if discipline is Discipline.PIN_CAROM_7:
            cfg = many("AB", discipline, target=300, table=table)
        else:
            cfg = config(discipline, first="A" if cue == W else "B", table=table)
        out.append(Match(cfg).play(Shot(index=0, cue_ball=cue, start_positions_mm=positions)))
    return out


def _played() -> list[ShotRecord]:
    """Records of matches that end every way a game ends, and of who is found at the table."""
    out = []
    for cfg, script in (
        (config(target=2), "ppm"),  # A at the target, B does not equalize
        (config(target=1), "p p"),  # B equalizes: a draw
        (config(target=1), "m p"),  # B at the target, nobody behind him
        (config(target=1, sets=3), "pm"),  # set 1 to A
        (config(target=1, sets=3), "pp"),  # set 1 to nobody
        (config(target=9, innings_limit=1), "m m"),  # inning limit, a draw
        (config(target=9, innings_limit=1), "pm m"),  # inning limit, A wins
        (many("ABC", target=1), "p p p"),  # equalizing innings, level at the target
        (many("ABC", target=1), "p m m"),  # the equalizing innings are over
        (many("ABC", target=2, innings_limit=1), "m pm pm"),  # a draw between B, C
    ):
        out += drive(Match(cfg), script)
    second_set = Match(config(target=1, sets=3))
    out += drive(second_set, "pm")  # set 1 to A: B breaks the second, the balls say play
    mid_game = next(p for p in LAYOUTS if p.match("three-cushion/mid_game.play.json"))
    positions = _load(mid_game)[2]
    out.append(second_set.play(Shot(index=2, cue_ball=Y, start_positions_mm=positions)))
    follow = Match(config(first="A", options=RuleOptions(follow_cue_ball=True)))
    out.append(follow.play(miss(0, Y)))  # the video contradicts the first player
    joined = Match(config(first=None))
    joined.join(StartState())
    out.append(joined.play(point(0, Y)))  # found at the table by the ball
    out.append(Match(config()).play(Shot(index=0, cue_ball=W, is_break=False)))
    out.append(Match(config()).play(Shot(index=0, cue_ball=W, is_break=True)))
    return out


RECORDS = [*_layouts(), *_played()]


def test_the_records_meet_every_break_rule_and_most_notes() -> None:
    seen = {p.key for r in RECORDS for p in (*r.note_parts, r.break_part) if p is not None}
    said = {k for k in ReasonKey if k.startswith(("note_", "break_", "play_"))}
    # Five-pins' cut to the target and the 7-pin count's game won need those games' own
    # scoring to the end (test_five_pins, test_pin_carom7); their words are checked below.
    rare = {ReasonKey.NOTE_CUT_TO_TARGET, ReasonKey.NOTE_GAME_WON}
    assert said - seen <= rare, said - seen
    assert all(r.break_part is not None and r.break_why for r in RECORDS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_break_rules_and_notes_are_said_in_the_report_s_language(lang: str) -> None:
    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    for r in RECORDS:
        rule, note = page.break_rule(r), page.note(r)
        if lang == "en":
            assert (rule, note) == (r.break_why, r.note)
            continue
        assert r.break_part is not None
        assert rule == said_in(lang, r.break_part), r.break_why
        assert note == "; ".join(said_in(lang, p) for p in r.note_parts), r.note
        assert not ENGLISH_WORDS.search(f"{rule} {note}"), (lang, rule, note)


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_the_rare_notes_are_said_too(lang: str) -> None:
    from referee import Reason

    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    for part in (Reason.of(ReasonKey.NOTE_CUT_TO_TARGET, player="Ana", target=60),
                 Reason.of(ReasonKey.NOTE_GAME_WON, player="Ana")):  # fmt: skip
        said = page.phrases((part,), part.english())
        assert said == said_in(lang, part) and "Ana" in said
        assert not ENGLISH_WORDS.search(said), said


def test_the_report_card_shows_the_break_rule_and_the_notes_in_its_language() -> None:
    record = next(r for r in RECORDS if "match over" in r.note and r.is_break is False)
    page = Page("ko", TableGeometry(MATCH_TABLE), 0.5)
    shot = ReportShot(
        index=record.index,
        player=record.player,
        cue_ball=Ball.WHITE,
        verdict=record.verdict,
        break_rule=record.break_why,
        record=record,
    )
    block = _verdict_block(page, shot)
    # Play, and not the record's first shot: its rule is not said (the scoresheet's way)
    assert page.t("judged_as", rule=page.break_rule(record)) not in block
    assert "경기 종료" in block and "match over" not in block
    english = _verdict_block(Page("en", TableGeometry(MATCH_TABLE), 0.5), shot)
    assert record.break_why not in english and record.note in english
    first = RECORDS[0]
    opening = replace(shot, index=0, verdict=first.verdict, break_rule=first.break_why,
                      record=first)  # fmt: skip
    assert page.t("judged_as", rule=page.break_rule(first)) in _verdict_block(page, opening)
