"""A match kept by hand (no camera): the points and the turns a person enters are the
innings, and the game-end rules (target, equalizing inning, inning limit, sets) apply."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import Correction, CorrectionKind, Discipline, Match, MatchState, Phase, RulesError
from tests.referee.factories import W, config, many, miss, point


def _points(player: str, n: int) -> Correction:
    return Correction(CorrectionKind.POINTS, player, n, by_hand=True)


def _turn(player: str) -> Correction:
    return Correction(CorrectionKind.TURN, player, by_hand=True)


def _innings(state: MatchState) -> dict[str, int]:
    return {p: s.innings for p, s in state.scores.items()}


def test_turns_count_innings_a_scoring_one_and_an_empty_one() -> None:
    m = Match(config(target=5))
    m.correct(_points("A", 2))
    assert _innings(m.state) == {"A": 1, "B": 0}  # A's inning under way
    m.correct(_turn("B"))
    m.correct(_turn("A"))  # B scored nothing: still an inning
    assert _innings(m.state) == {"A": 1, "B": 1}
    assert m.state.scores["A"].runs == (2,) and m.state.scores["B"].runs == (0,)
    assert m.state.scores["A"].high_run == 2 and m.state.shooter == "A"
    assert m.state.audit[-1].detail == "turn to A (B's inning 1 over)"


def test_the_breaker_at_the_target_gives_the_other_an_equalizing_inning() -> None:
    """The helper's report: Kim +1, turn, Lee +1, turn, Kim +1 (target 2) ended at once."""
    m = Match(config(target=2))
    for c in (_points("A", 1), _turn("B"), _points("B", 1), _turn("A"), _points("A", 1)):
        m.correct(c)
    s = m.state
    assert s.phase is Phase.PLAYING and s.equalizing and s.shooter == "B"
    assert s.audit[-1].detail == ("+1 points to A (A reached the target: equalizing inning for B)")
    m.correct(_turn("A"))  # B's equalizing inning: nothing
    assert m.state.phase is Phase.OVER and m.state.winner == "A"
    assert m.state.audit[-1].detail.startswith("turn to A (B's inning 2 over; B did not equalize")
    assert _innings(m.state) == {"A": 2, "B": 2}


def test_an_equalizing_inning_that_reaches_the_target_draws() -> None:
    m = Match(config(target=2))
    for c in (_points("A", 2), _points("B", 2)):
        m.correct(c)
    assert m.state.phase is Phase.OVER and m.state.draw
    assert _innings(m.state) == {"A": 1, "B": 1}


def test_three_players_behind_each_get_their_equalizing_inning() -> None:
    """Ann +2 (target 2) ended the match at once; Bob and Cy never played."""
    m = Match(many("ABC", target=2))
    m.correct(_points("A", 2))
    assert m.state.equalizing and m.state.shooter == "B" and m.state.to_equalize == ("B", "C")
    m.correct(_turn("C"))
    assert m.state.phase is Phase.PLAYING and m.state.shooter == "C"
    m.correct(_points("C", 2))
    assert m.state.phase is Phase.OVER and m.state.draw and set(m.state.tied) == {"A", "C"}


def test_the_inning_limit_closes_the_round_on_points() -> None:
    m = Match(config(target=50, innings_limit=2))
    for c in (_points("A", 3), _turn("B"), _points("B", 1), _turn("A"), _turn("B")):
        m.correct(c)
    assert m.state.phase is Phase.PLAYING  # B's second inning is still to come
    m.correct(_turn("A"))
    assert m.state.phase is Phase.OVER and m.state.winner == "A"


def test_a_turn_given_by_mistake_is_undone_and_removals_stay_corrections() -> None:
    m = Match(config(target=9))
    m.correct(_points("A", 3))
    m.correct(_turn("B"))
    m.undo()  # the turn given by mistake: A's inning goes on
    assert _innings(m.state) == {"A": 1, "B": 0} and m.state.scores["A"].in_inning
    m.correct(_points("A", -1))  # a point taken back: a correction, no stroke
    assert m.state.scores["A"].points == 2 and m.state.scores["A"].corrected == -1
    m.correct(_points("B", 1))  # to the player away from the table: a correction
    assert _innings(m.state) == {"A": 1, "B": 0}


def test_a_camera_kept_match_s_corrections_count_no_inning() -> None:
    """Without ``by_hand`` nothing changes: a turn or points fix the camera's record."""
    m = Match(config(target=2))
    m.play(point(0, W))
    m.correct(Correction(CorrectionKind.TURN, "B"))
    m.correct(Correction(CorrectionKind.TURN, "A"))  # resumed
    m.correct(Correction(CorrectionKind.POINTS, "A", 1))
    assert m.state.phase is Phase.OVER or m.state.equalizing  # the target, as before
    m2 = Match(config(target=3))
    m2.play(miss(0, W))
    m2.correct(Correction(CorrectionKind.TURN, "A"))
    m2.correct(Correction(CorrectionKind.TURN, "B"))
    assert _innings(m2.state) == {"A": 1, "B": 0}


_INPUT = st.one_of(
    st.tuples(st.just("points"), st.sampled_from("ABC"), st.integers(-2, 3)),
    st.tuples(st.just("turn"), st.sampled_from("ABC"), st.just(0)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_INPUT, max_size=40), st.booleans())
def test_any_hand_kept_sequence_keeps_the_score_s_invariants(
    inputs: list[tuple[str, str, int]], equalizing: bool
) -> None:
    """Points are the parts' sum, innings the finished runs plus the one under way, and
    nobody is ever more than one inning ahead of a player after him in the order."""
    m = Match(many("ABC", target=6, equalizing=equalizing))
    for kind, player, n in inputs:
        if m.state.phase is Phase.OVER:
            break
        c = _points(player, n) if kind == "points" else _turn(player)
        before = m.state
        try:
            m.correct(c)
        except RulesError:  # an illegal input (no points, a player already at the table)
            assert m.state is before  # refused: nothing changed
        for s in m.state.scores.values():
            assert s.points == sum(s.runs) + s.current_run + s.awarded + s.corrected + s.carried
            assert s.innings == len(s.runs) + s.in_inning


def test_five_pins_points_past_the_target_are_cut_back_as_after_a_shot() -> None:
    m = Match(config(Discipline.FIVE_PINS, target=10))
    m.correct(_points("A", 14))
    assert m.state.scores["A"].points == 10  # cut to the target
    # The first to reach the target wins: five-pins has no equalizing inning [rules.md §6].
    assert m.state.winner == "A" and not m.state.equalizing
    assert m.state.audit[-1].detail == (
        "+14 points to A (A's total cut back to the target 10; A reached the target; "
        "match over: A wins)"
    )
    a = m.state.scores["A"]
    assert (a.runs, a.high_run, a.corrected) == ((10,), 10, 0)  # the run kept 10 of 14
