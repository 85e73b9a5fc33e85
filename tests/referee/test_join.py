"""Joining a match in progress, and a record that takes up where another stopped:
``start_after`` is what a joining record would be told, ``continues`` whether a start
agrees with it (a match recorded in two files, carom.stats)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import Discipline, Match, MatchConfig, Phase, StartState, continues, start_after
from tests.referee.factories import config, drive
from tests.referee.test_properties import event_recipes, play_all

PLAYERS = ("A", "B")


def _stopped(script: str) -> Match:
    match = Match(config(target=20))
    drive(match, script)
    return match


def test_the_start_after_a_match_is_its_whole_state_as_a_start() -> None:
    match = _stopped("pp m p")  # A 2 in one inning, B at the table with a run of 1
    end = start_after(match.state)
    assert dict(end.board) == {"A": 2, "B": 1} and dict(end.innings) == {"A": 1, "B": 1}
    assert (end.shooter, end.run, end.breaker, end.set_index) == ("B", 1, "A", 0)
    assert dict(end.sets_won) == {"A": 0, "B": 0} and end.next_break is False


def test_a_record_joined_there_goes_on_exactly_as_the_match_would() -> None:
    """Joined at ``start_after``, the same strokes give the same scores and turn."""
    match = _stopped("pp m p")
    joined = Match(config(target=20, start=start_after(match.state)))
    drive(match, "p m pp")
    drive(joined, "p m pp")
    assert joined.state.scores == {
        p: replace(s, carried=joined.state.scores[p].carried, runs=joined.state.scores[p].runs)
        for p, s in match.state.scores.items()
    }
    assert joined.state.shooter == match.state.shooter
    assert {p: joined.state.board(p) for p in PLAYERS} == {p: match.state.board(p) for p in PLAYERS}


def test_a_start_that_gives_the_scores_and_innings_and_agrees_continues_the_match() -> None:
    end = start_after(_stopped("pp m p").state)
    assert continues(end, end, PLAYERS)
    scores = {"board": {"A": 2, "B": 1}, "innings": {"A": 1, "B": 1}}
    assert continues(StartState(**scores), end, PLAYERS)  # the rest unknown
    assert continues(StartState(**scores, shooter="B", run=1), end, PLAYERS)


def test_a_new_set_at_0_0_continues_the_set_before() -> None:
    match = Match(config(target=2, sets=3, equalizing=False))
    drive(match, "pp")  # A wins the first set; the second starts at 0 : 0
    end = start_after(match.state)
    assert dict(end.board) == {"A": 0, "B": 0} and end.set_index == 1
    start = StartState(board=end.board, innings=end.innings, set_index=1, sets_won={"A": 1})
    assert continues(start, end, PLAYERS)
    assert not continues(replace(start, set_index=0, sets_won={}), end, PLAYERS)


@pytest.mark.parametrize(
    "start",
    [
        StartState(board={"A": 2, "B": 1}),  # no innings: too little to tell
        StartState(board={"A": 2}, innings={"A": 1, "B": 1}),  # not every player's score
        StartState(board={"A": 2, "B": 2}, innings={"A": 1, "B": 1}),  # another score
        StartState(board={"A": 0, "B": 0}, innings={"A": 0, "B": 0}),  # a match's start
        StartState(board={"A": 2, "B": 1}, innings={"A": 2, "B": 1}),
        StartState(board={"A": 2, "B": 1}, innings={"A": 1, "B": 1}, shooter="A"),
        StartState(board={"A": 2, "B": 1}, innings={"A": 1, "B": 1}, shooter="B", run=0),
        StartState(board={"A": 2, "B": 1}, innings={"A": 1, "B": 1}, breaker="B"),
        StartState(board={"A": 2, "B": 1}, innings={"A": 1, "B": 1}, next_break=True),
        StartState(
            board={"A": 2, "B": 1}, innings={"A": 1, "B": 1}, set_index=1, sets_won={"A": 1}
        ),
    ],
)
def test_a_start_that_disagrees_in_anything_it_gives_does_not(start: StartState) -> None:
    assert not continues(start, start_after(_stopped("pp m p").state), PLAYERS)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), discipline=st.sampled_from(list(Discipline)))
def test_any_match_under_way_is_continued_by_its_own_start(
    data: st.DataObject, discipline: Discipline
) -> None:
    match = play_all(discipline, data.draw(st.lists(event_recipes(discipline), max_size=20)))
    if match.state.phase is not Phase.PLAYING:
        return  # over: nothing to take up
    end = start_after(match.state)
    players = match.state.config.players
    assert continues(end, end, players) == (any(end.innings.values()) or end.set_index > 0)
    # And it is a start a record may be given (a match file's, a shot log's): checked.
    config: MatchConfig = replace(match.state.config, start=end)
    assert Match(config).state.scores.keys() == match.state.scores.keys()


@pytest.mark.parametrize("innings", [{}, {"A": 20, "B": 20}])
def test_joined_with_the_breaker_given_only_a_breaker_s_target_gives_an_equalizing_inning(
    innings: dict[str, int],
) -> None:
    """B broke, A reaches the target: A had as many innings as B, the game is A's [rules.md
    §5]. The innings alone (not given, or A's first stroke opening an inning) had B
    behind, who got an equalizing inning and drew."""
    start = StartState(board={"A": 39, "B": 39}, innings=innings, shooter="A", breaker="B")
    match = Match(config(target=40, start=start))
    drive(match, "p")
    assert (match.state.phase, match.state.winner) == (Phase.OVER, "A")
    assert not match.state.equalizing
    # The breaker reaching the target still gives the other the equalizing inning.
    other = Match(config(target=40, start=replace(start, shooter="B")))
    drive(other, "p")
    assert other.state.phase is Phase.PLAYING and other.state.equalizing
    assert other.state.shooter == "A"
