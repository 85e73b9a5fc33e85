"""Which game ends how: the equalizing inning only where rules.md §5 gives one, the
five-pins cut-back for a referee's correction too, the 7-pin count never below zero.

Found by a referee who read rules.md against the library: five-pins gave the player who
did not break an equalizing inning (a game could end drawn, where the first to reach the
target wins), a correction past a five-pins target was not cut back, and a correction
took a 7-pin count below zero with the game going on.
"""

from __future__ import annotations

import pytest

from referee import (
    Ball,
    BallContact,
    Call,
    Correction,
    CorrectionKind,
    Discipline,
    Foul,
    IllegalMoveError,
    Match,
    MatchConfig,
    Phase,
    Pin,
    PinDown,
    RulesError,
    Shot,
    UnknownBallError,
    call_fouls,
    parse_shot_log,
)
from tests.referee.factories import R, W, Y, config, many


def _centre_pin(index: int, cue: Ball, other: Ball) -> Shot:
    """Cue ball -> the opponent's ball, which knocks the centre pin alone: 8 points."""
    events = (BallContact(t_s=index + 0.2, balls=(cue, other)),
              PinDown(t_s=index + 0.4, pin=Pin.CENTER, ball=other))  # fmt: skip
    return Shot(index=index, cue_ball=cue, events=events)


def test_five_pins_the_first_to_reach_the_target_wins_without_an_equalizing_inning() -> None:
    match = Match(config(Discipline.FIVE_PINS, target=8))  # equalizing asked for (default)
    assert match.state.config.equalizing and not match.state.config.equalizes
    record = match.play(_centre_pin(0, W, Y))
    assert match.state.phase is Phase.OVER and match.state.winner == "A", record.note
    assert "equalizing" not in record.note
    with pytest.raises(IllegalMoveError, match="the match is over"):
        match.play(_centre_pin(1, Y, W))  # B's stroke that tied it before: no more


def test_the_scoring_disciplines_keep_their_equalizing_inning() -> None:
    for discipline in (Discipline.THREE_CUSHION, Discipline.ONE_CUSHION, Discipline.BALKLINE_47_2):
        assert config(discipline).equalizes
        assert not config(discipline, equalizing=False).equalizes


def test_a_five_pins_correction_past_the_target_is_cut_back_and_wins() -> None:
    match = Match(config(Discipline.FIVE_PINS, target=10))
    match.play(_centre_pin(0, W, Y))  # A 8
    match.play(Shot(index=1, cue_ball=Y, events=(BallContact(t_s=1.2, balls=(Y, W)),)))
    match.correct(Correction(CorrectionKind.POINTS, "A", 4))
    a = match.state.scores["A"]
    assert (a.points, a.corrected, a.high_run) == (10, 2, 8)  # 12 cut back to the target
    assert match.state.phase is Phase.OVER and match.state.winner == "A"


def test_a_7_pin_correction_below_zero_is_refused_and_changes_nothing() -> None:
    match = Match(many("AB", Discipline.PIN_CAROM_7, target=10, start_count=10))
    match.correct(Correction(CorrectionKind.POINTS, "A", 5))
    before = match.state
    assert before.board("A") == 5
    with pytest.raises(IllegalMoveError, match=r"A's count is 5; it ends at exactly zero"):
        match.correct(Correction(CorrectionKind.POINTS, "A", 10))
    assert match.state is before
    match.correct(Correction(CorrectionKind.POINTS, "A", 5))  # to exactly zero: taken
    assert match.state.board("A") == 0 and match.state.phase is Phase.PLAYING


def test_a_7_pin_handicap_and_a_start_count_elsewhere_are_refused_not_ignored() -> None:
    with pytest.raises(RulesError, match=r"a target per player \(a handicap\) is not used"):
        MatchConfig(discipline=Discipline.PIN_CAROM_7, players=("A", "B"), cue_balls={},
                    target={"A": 300, "B": 200})  # fmt: skip
    with pytest.raises(RulesError, match="start_count is the 7-pin starting count"):
        config(Discipline.THREE_CUSHION, start_count=300)
    with pytest.raises(RulesError, match=r"pin-carom-7: the game ends when a player's count "
                       r"reaches zero; an innings limit is not used, got 20"):  # fmt: skip
        MatchConfig(
            discipline=Discipline.PIN_CAROM_7,
            players=("A", "B"),
            cue_balls={},
            target={"A": 300, "B": 300},
            innings_limit=20,
        )  # the game went on past it
    doc = {"format": "carom-shots/1", "discipline": "pin-carom-7", "shots": [],
           "match": {"players": ["A", "B"], "target": {"A": 300, "B": 200}}}  # fmt: skip
    with pytest.raises(RulesError, match=r"^match: pin-carom-7: every player counts down"):
        parse_shot_log(doc)


def test_a_jump_over_pins_is_called_only_where_there_are_pins() -> None:
    assert Foul.JUMP_OVER_PINS in call_fouls(Discipline.FIVE_PINS)
    assert Foul.JUMP_OVER_PINS not in call_fouls(Discipline.THREE_CUSHION)
    match = Match(config())
    shot = Shot(index=0, cue_ball=W, events=(BallContact(t_s=0.2, balls=(W, R)),
                                            Call(t_s=1.0, foul=Foul.JUMP_OVER_PINS)))  # fmt: skip
    with pytest.raises(UnknownBallError, match="call jump_over_pins, but three-cushion has no"):
        match.play(shot)
    assert not match.records
