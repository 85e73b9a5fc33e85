"""Five-pins frozen balls [000 §10.4]: when no legal stroke exists the referee sets the
break position, and that stroke may not score for the shooter (a safety only; a foul
still gives the opponent its points). An option (``five_pins_frozen_break_no_score``)."""

from __future__ import annotations

from referee import (
    Ball,
    BallContact,
    Correction,
    CorrectionKind,
    Discipline,
    Match,
    Pin,
    ReasonKey,
    RuleOptions,
    Shot,
)
from tests.referee.factories import config, five_pins_stroke, point

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED


def _frozen(**options: object) -> Match:
    """A five-pins match where A's ball lies frozen and A was given the break position."""
    match = Match(config(Discipline.FIVE_PINS, target=60, options=RuleOptions(**options)))  # type: ignore[arg-type]
    match.correct(Correction(CorrectionKind.BREAK_POSITION, "A"))
    return match


def test_the_stroke_from_the_break_position_for_frozen_balls_scores_nothing() -> None:
    match = _frozen()
    record = match.play(five_pins_stroke(match, W, Pin.CENTER))
    assert record.verdict.points == 0 and record.verdict.opponent_points == 0
    (said,) = record.verdict.reason_parts
    assert said.key is ReasonKey.PINS_FROZEN_BREAK and dict(said.fields)["points"] == 8
    assert "may not score" in record.verdict.reason
    assert match.state.shooter == "B" and match.state.scores["A"].points == 0
    # The next stroke is an ordinary one again: the opponent's 8 count.
    assert match.play(five_pins_stroke(match, Y, Pin.CENTER)).verdict.points == 8


def test_a_foul_from_there_still_gives_the_opponent_its_points() -> None:
    match = _frozen()
    red_first = (BallContact(t_s=0.4, balls=(W, R)), BallContact(t_s=0.8, balls=(W, Y)))
    record = match.play(Shot(index=0, cue_ball=W, events=red_first))
    assert record.verdict.fouls and record.verdict.opponent_points == 4
    assert match.state.scores["B"].points == 4


def test_with_the_option_off_the_stroke_scores_as_any() -> None:
    match = _frozen(five_pins_frozen_break_no_score=False)
    assert match.play(five_pins_stroke(match, W, Pin.CENTER)).verdict.points == 8


def test_in_three_cushion_the_break_position_for_a_frozen_ball_scores() -> None:
    match = Match(config(target=10))
    match.correct(Correction(CorrectionKind.BREAK_POSITION, "A"))
    assert match.play(point(0, W)).verdict.points == 1
