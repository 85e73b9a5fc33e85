"""Points that count in a run (``Correction.in_run``): an overturned call's points are the
stroke's, so the high run is the run as played; refused where no run is left to amend."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import (
    Correction,
    CorrectionKind,
    Discipline,
    IllegalMoveError,
    Match,
    MatchState,
    Phase,
    RulesError,
    Score,
    counts_in_run,
)
from tests.referee.factories import config, drive
from tests.referee.test_properties import event_recipes, play_all


def _sound(score: Score) -> bool:
    """The score's invariant (``referee.Score``): the points are their parts' sum."""
    parts = sum(score.runs) + score.current_run + score.awarded + score.corrected + score.carried
    return score.points == parts


def _points(player: str, points: int, *, in_run: bool = True) -> Correction:
    return Correction(CorrectionKind.POINTS, player, points, "review", in_run=in_run)


def test_a_point_called_a_miss_given_back_counts_in_the_run_and_the_high_run() -> None:
    match = Match(config(target=20))
    drive(match, "ppp m")  # the camera called A's fourth stroke a miss: it was a point
    match.correct(Correction(CorrectionKind.TURN, "A"))  # the inning given back
    state = match.correct(_points("A", 1))
    a = state.scores["A"]
    assert (a.points, a.current_run, a.corrected, a.innings) == (4, 4, 0, 1) and _sound(a)
    assert state.audit[-1].detail == "+1 points to A in the run (review)"
    drive(match, "pp m")
    a = match.state.scores["A"]
    assert a.high_run == 6 and a.runs == (6,) and _sound(a)


def test_as_a_plain_correction_the_same_point_stays_apart_from_the_run() -> None:
    match = Match(config(target=20))
    drive(match, "ppp m")
    match.correct(Correction(CorrectionKind.TURN, "A"))
    match.correct(_points("A", 1, in_run=False))
    drive(match, "pp m")
    a = match.state.scores["A"]
    assert (a.points, a.high_run, a.corrected) == (6, 5, 1) and _sound(a)


def test_a_point_taken_back_after_the_inning_ended_amends_that_inning_s_run() -> None:
    match = Match(config(target=20))
    drive(match, "ppp m")  # A's third point was no point; the inning ended after it
    assert counts_in_run(match.state, "A", -1) and not counts_in_run(match.state, "B", -1)
    state = match.correct(_points("A", -1))
    a = state.scores["A"]
    assert (a.points, a.runs, a.high_run, a.corrected) == (2, (2,), 2, 0) and _sound(a)
    assert state.shooter == "B"


def test_in_five_pins_each_stroke_s_run_is_amended_after_the_turn_passed() -> None:
    match = Match(config(Discipline.FIVE_PINS, target=50))
    drive(match, "m")  # every stroke ends the inning in five-pins
    assert match.state.shooter == "B" and counts_in_run(match.state, "A", 4)
    a = match.correct(_points("A", 4)).scores["A"]
    assert (a.points, a.runs, a.high_run, a.corrected) == (4, (4,), 4, 0)
    assert _sound(a)


@pytest.mark.parametrize(
    ("script", "player", "points", "why"),
    [
        ("", "B", 1, "no stroke of B's"),  # B has not played
        ("pp m", "B", 1, "no stroke of B's"),  # B at the table, no inning begun
        ("pp m m", "A", 1, "no stroke of A's"),  # A's inning ended before B's
        ("pp m m p", "A", -2, "no stroke of A's"),  # 3 points, but a run of 1
    ],
)
def test_points_where_no_run_is_left_to_amend_are_refused_and_change_nothing(
    script: str, player: str, points: int, why: str
) -> None:
    match = Match(config(target=20))
    drive(match, script)
    before: MatchState = match.state
    assert not counts_in_run(before, player, points)
    with pytest.raises(IllegalMoveError, match=why):
        match.correct(_points(player, points))
    assert match.state is before


def test_only_points_count_in_a_run() -> None:
    with pytest.raises(RulesError, match="only points count in a run"):
        Correction(CorrectionKind.TURN, "A", in_run=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), discipline=st.sampled_from(list(Discipline)))
def test_points_in_a_run_keep_the_score_whole_or_are_refused_and_change_nothing(
    data: st.DataObject, discipline: Discipline
) -> None:
    """After any strokes: points that may count in a run go there (the corrected part
    untouched, the high run the longest run); any others are refused unchanged."""
    match = play_all(discipline, data.draw(st.lists(event_recipes(discipline), max_size=20)))
    if match.state.phase is not Phase.PLAYING:
        return
    player = data.draw(st.sampled_from(match.state.config.players))
    points = data.draw(st.integers(-6, 6).filter(bool))
    before = match.state
    old = before.scores[player]
    if not counts_in_run(before, player, points):
        with pytest.raises(IllegalMoveError):
            match.correct(_points(player, points))
        assert match.state is before
        return
    try:
        new = match.correct(_points(player, points)).scores
    except IllegalMoveError:  # the score's own limits (below zero, a 7-pin count past 0)
        assert match.state is before
        return
    if match.state.phase is Phase.PLAYING:
        s = new[player]
        assert _sound(s) and s.corrected == old.corrected and s.innings == old.innings
        assert s.high_run == max((*s.runs, s.current_run), default=0)
        assert sum(s.runs) + s.current_run == sum(old.runs) + old.current_run + points
