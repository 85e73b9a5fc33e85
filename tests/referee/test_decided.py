"""A stroke a person decided (``Shot.decided_points``): its points are the stroke's own, so
the run, the high run and the game's end follow from them as after any stroke, even where
the camera's call had ended the game; refused beyond what one stroke can score."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee import (
    Ball,
    BallContact,
    Discipline,
    IllegalMoveError,
    Match,
    Phase,
    Pin,
    RulesError,
    Shot,
    parse_shot,
    shot_json,
)
from tests.referee.factories import config, drive, five_pins_stroke, many, miss, point

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED


def _decided(shot: Shot, points: int) -> Shot:
    return replace(shot, decided_points=points)


def _next(match: Match) -> int:
    return match.state.shots_played


def test_a_miss_decided_a_point_goes_on_in_the_run_and_the_high_run() -> None:
    match = Match(config(target=20))
    drive(match, "ppp")
    record = match.play(_decided(miss(_next(match), W), 1))
    assert record.verdict.points == 1 and not record.verdict.inning_ends
    assert (
        record.verdict.reason == "decided by the referee: the stroke scores 1" and record.run == 4
    )
    drive(match, "pp m")
    a = match.state.scores["A"]
    assert (a.points, a.runs, a.high_run, a.corrected, a.innings) == (6, (6,), 6, 0, 1)


def test_a_point_decided_away_ends_the_inning_where_the_run_stood() -> None:
    match = Match(config(target=20))
    drive(match, "pp")
    record = match.play(_decided(point(_next(match), W), 0))
    assert record.verdict.inning_ends and match.state.shooter == "B"
    assert match.state.scores["A"].runs == (2,) and match.state.scores["A"].points == 2


def test_a_game_point_the_camera_gave_and_the_referee_took_away_plays_on() -> None:
    """The camera's point reached the target; decided 0, the game goes on (a correction
    after the game was over was refused)."""
    match = Match(config(target=3, equalizing=False))
    drive(match, "pp")
    match.play(_decided(point(_next(match), W), 0))
    assert match.state.phase is Phase.PLAYING and match.state.shooter == "B"
    # And a miss decided a point reaches it: the game is won by that stroke.
    drive(match, "m")
    match.play(_decided(miss(_next(match), W), 1))
    assert match.state.phase is Phase.OVER and match.state.winner == "A"


def test_the_equalizing_inning_and_the_innings_limit_follow_a_decision() -> None:
    # A broke and reached 2: B's equalizing inning; B's camera point decided 0 ends it.
    match = Match(config(target=2))
    drive(match, "pp")
    assert match.state.shooter == "B"
    match.play(_decided(point(_next(match), Y), 0))
    assert match.state.phase is Phase.OVER and match.state.winner == "A"
    # B's miss decided a point twice: B draws level in the equalizing inning.
    match = Match(config(target=2))
    drive(match, "pp")
    match.play(_decided(miss(_next(match), Y), 1))
    match.play(_decided(miss(_next(match), Y), 1))
    assert match.state.phase is Phase.OVER and match.state.draw
    # Last inning under a limit of 1: B's point decided 0 ends the game at once.
    match = Match(config(target=9, innings_limit=1))
    drive(match, "m")
    match.play(_decided(point(_next(match), Y), 0))
    assert match.state.phase is Phase.OVER and match.state.scores["B"].innings == 1


def test_five_pins_a_decision_passes_the_turn_and_is_cut_to_the_target_in_its_run() -> None:
    match = Match(config(Discipline.FIVE_PINS, target=12))
    match.play(five_pins_stroke(match, W, Pin.LEFT))  # A 2
    match.play(five_pins_stroke(match, Y))  # B 0
    record = match.play(_decided(five_pins_stroke(match, W, Pin.CENTER), 12))
    a = match.state.scores["A"] if match.state.phase is Phase.PLAYING else None
    assert record.verdict.points == 12
    assert match.state.phase is Phase.OVER and match.state.winner == "A"
    assert a is None and match.state.games[-1].points["A"] == 12
    assert match.state.games[-1].high_run["A"] == 10  # the stroke's run, cut to the target


def test_a_foul_decided_as_points_is_no_foul_and_a_decision_is_bounded() -> None:
    match = Match(config(Discipline.FIVE_PINS, target=60))
    hits = (BallContact(t_s=0.4, balls=(W, R)), BallContact(t_s=0.8, balls=(W, Y)))
    red_first = Shot(index=0, cue_ball=W, events=hits)
    record = match.play(_decided(red_first, 2))
    assert record.verdict.fouls == () and record.verdict.opponent_points == 0
    assert match.state.scores["B"].points == 0 and match.state.shooter == "B"
    three = Match(config(target=10))
    before = three.state
    with pytest.raises(IllegalMoveError, match="one stroke scores 1 at most in three-cushion"):
        three.play(_decided(point(0, W), 2))
    assert three.state is before
    with pytest.raises(RulesError, match="decided_points: expected a whole number"):
        three.play(_decided(point(0, W), -1))


def test_a_decision_round_trips_through_a_shot_log() -> None:
    shot = _decided(miss(4, W), 1)
    doc = shot_json(shot)
    assert doc["decided_points"] == 1
    assert parse_shot(doc, "shot") == shot
    assert "decided_points" not in shot_json(miss(4, W))


def test_a_7_pin_decision_counts_down_and_stops_at_the_count_left() -> None:
    match = Match(many("AB", Discipline.PIN_CAROM_7, target=10, start_count=10))
    touch = Shot(index=0, cue_ball=R, events=(BallContact(t_s=0.5, balls=(R, Ball.WHITE1)),))
    before = match.state
    with pytest.raises(
        IllegalMoveError, match="the count is 10, the most one stroke can score; not 11"
    ):
        match.play(_decided(touch, 11))
    assert match.state is before
    record = match.play(_decided(touch, 4))
    assert record.verdict.points == 4 and match.state.board("A") == 6
    assert match.state.shooter == "A"  # points for a stroke judged without keep the table


def test_five_pins_decisions_stop_at_what_one_stroke_can_score() -> None:
    match = Match(config(Discipline.FIVE_PINS, target=60))
    before = match.state
    with pytest.raises(
        IllegalMoveError, match="one stroke scores 16 at most in five-pins, not 150"
    ):
        match.play(_decided(five_pins_stroke(match, W, Pin.CENTER), 150))
    assert match.state is before
    assert match.play(_decided(five_pins_stroke(match, W), 16)).verdict.points == 16


def test_from_the_break_position_for_frozen_balls_a_decision_cannot_score() -> None:
    from referee import Correction, CorrectionKind

    match = Match(config(Discipline.FIVE_PINS, target=60))
    match.correct(Correction(CorrectionKind.BREAK_POSITION, "A"))
    before = match.state
    with pytest.raises(IllegalMoveError, match="may not score"):
        match.play(_decided(five_pins_stroke(match, W, Pin.CENTER), 8))
    assert match.state is before
    assert match.play(_decided(five_pins_stroke(match, W, Pin.CENTER), 0)).verdict.points == 0


def test_the_break_position_a_cue_ball_off_the_table_gave_stays_after_a_decision() -> None:
    from referee import OffTable

    match = Match(config(target=10))
    off = Shot(index=0, cue_ball=W,
               events=(BallContact(t_s=0.3, balls=(W, R)), OffTable(t_s=0.9, ball=W)))  # fmt: skip
    record = match.play(_decided(off, 0))
    assert record.verdict.fouls == () and match.state.shooter == "B"
    assert match.state.break_due  # B plays from the break position, as without the decision
