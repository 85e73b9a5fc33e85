"""The lag's crossing rule [rules.md §2]: which ball crossed when the two touch."""

from __future__ import annotations

import pytest

from referee import (
    Ball,
    BallContact,
    Cushion,
    CushionContact,
    Discipline,
    Event,
    IllegalMoveError,
    Lag,
    Match,
    MatchConfig,
    Shot,
    judge_lag,
)

W, Y = Ball.WHITE, Ball.YELLOW
CONFIG = MatchConfig(
    discipline=Discipline.THREE_CUSHION, players=("A", "B"), cue_balls={"A": W, "B": Y},
    target={"A": 40, "B": 40},
)  # fmt: skip
START = {W: (650.0, 400.0), Y: (650.0, 1020.0)}


def _lag(end: dict[Ball, tuple[float, float]], *extra: Event) -> Lag:
    feet = (CushionContact(t_s=2.0, ball=W, cushion=Cushion.FOOT),
            CushionContact(t_s=2.1, ball=Y, cushion=Cushion.FOOT))  # fmt: skip
    events = tuple(sorted((*feet, *extra), key=lambda e: e.t_s))
    return Lag(events=events, start_positions_mm=START, end_positions_mm=end)


def test_the_ball_seen_across_is_the_one_that_crossed_when_they_touch() -> None:
    # The yellow comes over into white's half, hits the white there and stays.
    kiss = BallContact(t_s=4.0, balls=(W, Y))
    result = judge_lag(_lag({W: (300.0, 380.0), Y: (200.0, 560.0)}, kiss), CONFIG)
    assert result.winner == "A", result.reason
    assert result.faults == {"A": (), "B": ("crossed into the opponent's half",)}


def test_a_touch_with_neither_seen_across_loses_both() -> None:
    kiss = BallContact(t_s=4.0, balls=(W, Y))
    result = judge_lag(_lag({W: (300.0, 650.0), Y: (200.0, 770.0)}, kiss), CONFIG)
    assert result.winner is None
    assert all(f == ("crossed into the opponent's half",) for f in result.faults.values())


def test_the_far_long_cushion_shows_the_crossing() -> None:
    far = CushionContact(t_s=3.0, ball=W, cushion=Cushion.RIGHT)
    result = judge_lag(_lag({W: (300.0, 600.0), Y: (200.0, 1000.0)}, far), CONFIG)
    assert result.winner == "B" and result.faults["A"] == ("crossed into the opponent's half",)


def test_a_stroke_after_a_lag_to_play_again_says_the_lag_was_not_decided() -> None:
    """A log whose one lag was judged 'lag again' and then strokes: the refusal says so
    (it said "record the lag" although one was recorded)."""
    match = Match(CONFIG)
    kiss = BallContact(t_s=4.0, balls=(W, Y))
    assert match.lag(_lag({W: (300.0, 650.0), Y: (200.0, 770.0)}, kiss)).winner is None
    before = match.state
    with pytest.raises(IllegalMoveError, match="one judged 'lag again' is played again"):
        match.play(Shot(index=0, cue_ball=W, events=()))
    assert match.state is before


def test_a_stroke_with_no_lag_and_nobody_to_break_names_every_way_out() -> None:
    """With no lag (or after one undone) the refusal does not claim one was played."""
    match = Match(CONFIG)
    before = match.state
    said = r"not decided yet \(none recorded, or .* first_player, or the start of a match"
    with pytest.raises(IllegalMoveError, match=said):
        match.play(Shot(index=0, cue_ball=W, events=()))
    assert match.state is before
