"""Who plays and whether it is a break come from what the record saw, never assumed."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import (
    Ball,
    BallContact,
    Cushion,
    CushionContact,
    Discipline,
    Foul,
    IllegalMoveError,
    Lag,
    Match,
    MatchConfig,
    Phase,
    Pin,
    PinDown,
    Reason,
    ReasonKey,
    RuleOptions,
    RulesError,
    Shot,
    StartState,
    parse_shot_log,
    parse_start,
    start_json,
)
from tests.referee.factories import R, W, Y, config, miss, point, three_cushion_events

BREAK_LAYOUT = {W: (710.0, 557.6), Y: (710.0, 710.0), R: (2130.0, 710.0)}
OPEN_TABLE = {W: (600.0, 300.0), R: (1000.0, 500.0), Y: (2300.0, 1100.0)}
FOLLOW = RuleOptions(follow_cue_ball=True)


def _yellow_first(index: int, cue: Ball, positions: dict[Ball, tuple[float, float]]) -> Shot:
    """A three-cushion point that hits the other cue ball first (a break foul on a break)."""
    other = Y if cue == W else W
    events = three_cushion_events(cue, other, R)
    return Shot(index=index, cue_ball=cue, events=events, start_positions_mm=positions)


def test_first_stroke_from_an_open_table_is_play_not_a_break() -> None:
    match = Match(config(first="A"))
    record = match.play(_yellow_first(0, W, OPEN_TABLE))
    assert not record.is_break
    assert record.verdict.points == 1 and record.verdict.fouls == ()
    assert record.break_why.startswith("play: the balls are not in the break layout")


def test_first_stroke_from_the_break_layout_is_a_break() -> None:
    match = Match(config(first="A"))
    record = match.play(_yellow_first(0, W, BREAK_LAYOUT))
    assert record.is_break
    assert record.verdict.fouls == (Foul.BREAK_WRONG_BALL_FIRST,)
    assert "stand in the break layout" in record.break_why


def test_without_positions_a_game_starts_from_the_break() -> None:
    match = Match(config(first="A"))
    record = match.play(_yellow_first(0, W, {}))
    assert record.is_break and record.verdict.fouls == (Foul.BREAK_WRONG_BALL_FIRST,)
    assert "no start positions" in record.break_why
    second = match.play(_yellow_first(1, Y, {}))
    assert not second.is_break and second.verdict.points == 1


def test_the_shots_own_break_field_wins() -> None:
    match = Match(config(first="A"))
    shot = dataclasses.replace(_yellow_first(0, W, BREAK_LAYOUT), is_break=False)
    record = match.play(shot)
    assert not record.is_break and record.verdict.points == 1
    assert record.break_why == "not a break: the shot log says so"


def test_a_wrong_break_layout_is_announced_and_judged_as_the_break() -> None:
    layout = {**BREAK_LAYOUT, R: (2160.0, 710.0)}  # red 30 mm off the foot spot
    record = Match(config(first="A")).play(_at(point(0, W), layout))
    assert record.is_break and record.verdict.points == 1
    assert record.verdict.announcements[0] == (
        "wrong break position: red is 30 mm off the foot spot (at most 15 mm)"
    )
    # the same, keyed, for readers that translate it
    assert record.verdict.announcement_parts[0] == Reason.of(
        ReasonKey.WRONG_BREAK_OFF, ball=R, distance_mm=30, place="foot_spot", limit_mm=15
    )


def _at(shot: Shot, layout: dict[Ball, tuple[float, float]]) -> Shot:
    return dataclasses.replace(shot, start_positions_mm=layout)


def test_a_break_due_after_the_lag_but_not_in_the_layout_is_reviewed() -> None:
    match = Match(config(first=None))
    match.lag(Lag(winner="A"))
    record = match.play(_yellow_first(0, W, OPEN_TABLE))
    assert record.is_break and record.verdict.fouls == (Foul.BREAK_WRONG_BALL_FIRST,)
    assert record.verdict.review is not None
    assert "break position was due" in record.verdict.review


def test_joining_with_nobody_known_the_cue_ball_names_the_shooter() -> None:
    match = Match(config(first=None))
    match.join(StartState())
    record = match.play(_at(point(0, Y), OPEN_TABLE))
    assert record.player == "B" and record.verdict.points == 1
    assert record.note == "B at the table: the first stroke is played with yellow"
    assert match.state.shooter == "B"


def test_following_the_ball_a_contradicting_first_player_is_said_once() -> None:
    match = Match(config(first="A", options=FOLLOW))
    first = match.play(miss(0, Y))
    assert first.player == "B" and first.verdict.fouls == () and first.verdict.review is None
    assert "set B as the first player, or swap the cue balls" in first.note
    second = match.play(miss(1, W))
    assert second.player == "A" and second.note == "" and second.verdict.review is None


def test_a_shooter_change_without_a_miss_is_reviewed_not_a_wrong_ball_foul() -> None:
    match = Match(config(first="A", options=FOLLOW))
    assert match.play(point(0, W)).verdict.points == 1  # A goes on
    record = match.play(point(1, Y))  # but B plays
    assert record.player == "B" and record.verdict.fouls == ()
    assert (
        record.verdict.review is not None
        and "the rules had A at the table" in record.verdict.review
    )
    state = match.state
    assert state.scores["A"].runs == (1,) and not state.scores["A"].in_inning
    assert state.scores["B"].points == 1 and state.shooter == "B"


def test_without_following_the_other_ball_is_the_wrong_ball_foul() -> None:
    match = Match(config(first="A"))
    record = match.play(point(0, Y))
    assert record.player == "A" and Foul.WRONG_BALL in record.verdict.fouls


def test_seven_pins_with_nobody_known_is_reviewed() -> None:
    cfg = MatchConfig(
        discipline=Discipline.PIN_CAROM_7, players=("A", "B"), cue_balls={},
        target={"A": 300, "B": 300}, start=StartState(),
    )  # fmt: skip
    shot = Shot(
        index=0, cue_ball=R,
        events=(BallContact(t_s=0.3, balls=(R, Ball.WHITE1)),
                CushionContact(t_s=0.6, ball=Ball.WHITE1, cushion=Cushion.LEFT),
                PinDown(t_s=0.9, pin=Pin.HEAD, ball=Ball.WHITE1)),
    )  # fmt: skip
    record = Match(cfg).play(shot)
    assert record.player == "A"
    assert record.verdict.review is not None and "A assumed" in record.verdict.review


def test_the_start_state_carries_the_score_and_the_turn() -> None:
    start = StartState(board={"A": 12, "B": 7}, innings={"A": 9, "B": 8}, run=2, shooter="A")
    match = Match(config(target=14, start=start))
    assert match.state.phase is Phase.PLAYING and match.state.shooter == "A"
    record = match.play(_at(point(0, W), OPEN_TABLE))
    assert record.score_after == {"A": 13, "B": 7} and record.run == 3 and record.inning == 9
    last = match.play(_at(point(1, W), OPEN_TABLE))
    # the breaker is not known: A, with more innings, broke, so B equalizes
    assert last.note == "A reached the target: equalizing inning for B"
    assert match.state.shooter == "B" and match.state.scores["A"].high_run == 4


def test_seven_pins_start_board_is_the_remaining_count() -> None:
    cfg = MatchConfig(
        discipline=Discipline.PIN_CAROM_7, players=("A", "B"), cue_balls={},
        target={"A": 300, "B": 300}, start=StartState(board={"A": 120, "B": 305}, shooter="B"),
    )  # fmt: skip
    state = Match(cfg).state
    assert state.board("A") == 120 and state.board("B") == 305


@pytest.mark.parametrize(
    "start",
    [
        StartState(shooter="C"),
        StartState(board={"A": -1}),
        StartState(run=3),
        StartState(sets_won={"A": 1}),
    ],
)
def test_a_bad_start_state_raises_and_changes_nothing(start: StartState) -> None:
    with pytest.raises(RulesError):
        config(start=start)
    match = Match(config(first=None))
    before = match.state
    with pytest.raises(RulesError):
        match.join(start)
    assert match.state is before


def test_join_only_from_the_lag_phase() -> None:
    match = Match(config(first="A"))
    with pytest.raises(IllegalMoveError):
        match.join(StartState())
    match2 = Match(config(first=None))
    match2.join(StartState(shooter="B", next_break=True))
    assert match2.state.break_due and match2.state.shooter == "B"
    match2.undo()
    assert match2.state.phase is Phase.LAG


def test_the_shot_log_reads_break_and_start() -> None:
    doc = {
        "format": "carom-shots/1",
        "discipline": "three-cushion",
        "match": {
            "players": ["A", "B"], "cue_balls": {"A": "white", "B": "yellow"},
            "rules": {"follow_cue_ball": True},
            "start": {"board": {"A": 3}, "shooter": "B", "next_break": False, "set_index": 0},
        },
        "shots": [{"index": 0, "cue_ball": "yellow", "break": False}],
    }  # fmt: skip
    log = parse_shot_log(doc)
    assert log.shots[0].is_break is False
    assert log.match.start == StartState(board={"A": 3}, shooter="B", next_break=False)
    assert log.match.options.follow_cue_ball


def test_five_pins_board_shows_the_total_cut_back_to_the_target() -> None:
    cfg = config(Discipline.FIVE_PINS, target=5, start=StartState(board={"A": 3}, shooter="A"))
    match = Match(cfg)
    events = (
        BallContact(t_s=0.2, balls=(W, Y)),
        BallContact(t_s=0.5, balls=(W, R)),
    )  # carom cue -> opponent -> red: 4 points
    record = match.play(Shot(index=0, cue_ball=W, events=events))
    assert record.verdict.points == 4
    assert record.score_after["A"] == 5


def test_five_pins_high_run_keeps_only_the_points_the_cut_total_kept() -> None:
    """8 points made with 2 to go are a run of 2: the high run never exceeds what counted."""
    cfg = config(Discipline.FIVE_PINS, target=2)
    match = Match(cfg)
    events = (
        BallContact(t_s=0.2, balls=(W, Y)),
        PinDown(t_s=0.4, pin=Pin.CENTER, ball=Y),
    )  # cue -> opponent, which knocks the centre pin: 8 points
    record = match.play(Shot(index=0, cue_ball=W, events=events))
    assert record.verdict.points == 8 and record.score_after["A"] == 2
    a = match.state.scores["A"]
    assert (a.points, a.runs, a.high_run, a.corrected) == (2, (2,), 2, 0), a
    (game,) = match.state.games  # no equalizing inning in five-pins [rules.md §6]
    assert game.winner == "A" and game.high_run == {"A": 2, "B": 0}


_COUNTS = st.dictionaries(st.sampled_from(["A", "B"]), st.integers(0, 500), max_size=2)


@given(
    board=_COUNTS, innings=_COUNTS, run=st.integers(0, 9),
    shooter=st.sampled_from(["A", "B"]), breaker=st.none() | st.sampled_from(["A", "B"]),
    next_break=st.none() | st.booleans(),
)  # fmt: skip
def test_start_json_round_trips(
    board: dict[str, int], innings: dict[str, int], run: int, shooter: str,
    breaker: str | None, next_break: bool | None,
) -> None:  # fmt: skip
    start = StartState(board=board, innings=innings, run=run, shooter=shooter,
                       breaker=breaker, next_break=next_break)  # fmt: skip
    assert parse_start(start_json(start), "start", ("A", "B")) == start
