"""Matches of three or more players [rules.md §1]: order, rotating whites, game end, stats."""

from __future__ import annotations

import pytest

from referee import (
    MAX_PLAYERS,
    Ball,
    Correction,
    CorrectionKind,
    Discipline,
    Foul,
    IllegalMoveError,
    Lag,
    Match,
    MatchResult,
    NextPosition,
    Phase,
    RuleOptions,
    RulesError,
    StartState,
    UnknownBallError,
    cue_ball_due,
    judge_lag,
    match_stats,
    standings,
)
from tests.referee.factories import W, Y, drive, many, miss, point

D = Ball.DOTTED
FOLLOW = RuleOptions(follow_cue_ball=True)
EVERY_STROKE = RuleOptions(rotate_cue_ball_every_stroke=True)


def _balls(match: Match, script: str) -> list[tuple[str, Ball]]:
    """(player, ball) of each stroke ``drive`` plays."""
    out = []
    for ch in script.replace(" ", ""):
        state = match.state
        ball = cue_ball_due(state) or state.config.cue_ball_pair[0]
        assert state.shooter is not None
        out.append((state.shooter, ball))
        drive(match, ch)
    return out


# --- set-up ------------------------------------------------------------------------


def test_three_players_rotate_the_whites() -> None:
    cfg = many("ABC")
    assert cfg.rotates and cfg.cue_ball_pair == (W, Y)
    assert [cfg.next_player(p) for p in "ABC"] == ["B", "C", "A"]
    assert cfg.previous_player("A") == "C" and cfg.order_from("B") == ("B", "C", "A")
    assert cfg.owner_of(W) is None


def test_four_players_given_balls_keep_them() -> None:
    cfg = many("ABCD", cue_balls={"A": W, "B": Y, "C": W, "D": Y})
    assert not cfg.rotates and cfg.ball_of("C") is W
    assert cfg.owner_of(W) is None  # shared: the ball names nobody
    assert many("ABCD").rotates  # no balls given: they rotate


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"players": "ABC", "cue_balls": {"A": W, "B": Y, "C": W}}, "odd number of players"),
        ({"players": "ABCD", "cue_balls": {"A": W, "B": Y}}, r"each player \(or none"),
        ({"players": "ABCD", "cue_balls": dict.fromkeys("ABCD", W)}, "white and yellow"),
        ({"players": "ABC", "rotation_balls": (Y, D)}, "rotation_balls must be white"),
        ({"players": "ABC", "discipline": Discipline.FIVE_PINS}, "five-pins is a two-player"),
        ({"players": "ABCDEFGHI"}, f"2 to {MAX_PLAYERS} names"),
        ({"players": "ABA"}, "different names"),
        ({"players": "ABC", "first": "Z"}, "first_player 'Z'"),
    ],
)
def test_bad_set_ups_are_refused(kw: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        many(**kw)  # type: ignore[arg-type]


def test_nobody_is_the_opponent_of_three_and_no_ball_is_kept() -> None:
    cfg = many("ABC")
    with pytest.raises(RulesError, match="nobody is the opponent"):
        cfg.opponent("A")
    with pytest.raises(RulesError, match="the whites rotate"):
        cfg.ball_of("A")
    with pytest.raises(UnknownBallError):
        cfg.next_player("Z")


def test_a_lag_by_events_is_for_two_and_a_given_winner_breaks() -> None:
    cfg = many("ABC", first=None)
    with pytest.raises(RulesError, match="played by two"):
        judge_lag(Lag(), cfg)
    match = Match(cfg)
    match.lag(Lag(winner="C"))
    assert match.state.shooter == "C" and match.state.breaker == "C"


# --- the whites and the turn -------------------------------------------------------


def test_per_inning_the_incoming_player_takes_the_other_white() -> None:
    match = Match(many("ABC", target=9))
    seen = _balls(match, "ppm m m m")
    assert seen == [("A", W), ("A", W), ("A", W), ("B", Y), ("C", W), ("A", Y)]
    assert match.state.shooter == "B" and cue_ball_due(match.state) is W


def test_every_stroke_the_other_white_with_the_option() -> None:
    match = Match(many("ABC", target=9, options=EVERY_STROKE))
    seen = _balls(match, "ppmm")
    assert seen == [("A", W), ("A", Y), ("A", W), ("B", Y)]


def test_the_first_stroke_may_use_either_white_and_the_rotation_follows() -> None:
    match = Match(many("ABC", target=9))
    assert cue_ball_due(match.state) is None
    first = match.play(miss(0, Y))
    assert first.verdict.fouls == () and first.player == "A"
    assert cue_ball_due(match.state) is W and match.state.shooter == "B"


def test_the_other_white_is_the_wrong_ball_foul() -> None:
    match = Match(many("ABC", target=9))
    drive(match, "m")  # A white; B is due the yellow
    record = match.play(point(1, W))
    assert record.player == "B" and Foul.WRONG_BALL in record.verdict.fouls
    assert record.verdict.points == 0 and match.state.shooter == "C"


def test_the_dotted_white_rotates_too() -> None:
    match = Match(many("ABC", target=9, rotation_balls=(W, D)))
    match.play(miss(0, W))
    record = match.play(point(1, D, other=W))
    assert record.player == "B" and record.verdict.points == 1
    assert cue_ball_due(match.state) is D


def test_four_players_keeping_balls_take_turns_in_order() -> None:
    match = Match(many("ABCD", target=9, cue_balls={"A": W, "B": Y, "C": W, "D": Y}))
    seen = _balls(match, "mmpmmm")
    assert seen == [("A", W), ("B", Y), ("C", W), ("C", W), ("D", Y), ("A", W)]


def test_four_players_without_balls_rotate_like_their_order() -> None:
    match = Match(many("ABCD", target=9))
    seen = _balls(match, "mmmmm")
    assert seen == [("A", W), ("B", Y), ("C", W), ("D", Y), ("A", W)]


def test_seven_pins_takes_three_players_in_order() -> None:
    match = Match(many("ABC", Discipline.PIN_CAROM_7, target=300))
    seen = _balls(match, "ffff")  # fouls: points added to the count, the turn passes
    assert seen == [("A", Ball.RED), ("B", Ball.RED), ("C", Ball.RED), ("A", Ball.RED)]
    assert [match.state.board(p) for p in "ABC"] == [320, 310, 310]


# --- following the camera ----------------------------------------------------------


def test_following_the_other_white_keeps_the_shooter_and_asks_for_review() -> None:
    match = Match(many("ABC", target=9, options=FOLLOW))
    drive(match, "p")  # A scores with the white and goes on
    record = match.play(point(1, Y, other=W))  # but the yellow is played
    assert record.player == "A" and record.verdict.fouls == () and record.verdict.points == 1
    assert record.verdict.review is not None
    assert "A plays the yellow although the white was due" in record.verdict.review
    assert cue_ball_due(match.state) is Y  # the rotation follows the ball played


def test_joined_with_nobody_known_the_first_player_is_assumed() -> None:
    match = Match(many("ABC", target=9, first=None, options=FOLLOW, start=StartState()))
    record = match.play(miss(0, Y))
    assert record.player == "A" and record.verdict.fouls == ()
    assert record.verdict.review == (
        "nobody known at the table and the whites rotate among the 3 players: "
        "A assumed (correct the turn if not)"
    )
    assert match.state.shooter == "B" and cue_ball_due(match.state) is W


def test_joined_with_shared_balls_the_first_owner_is_assumed() -> None:
    balls = {"A": W, "B": Y, "C": W, "D": Y}
    match = Match(many("ABCD", target=9, first=None, cue_balls=balls, start=StartState()))
    record = match.play(miss(0, Y))
    assert record.player == "B" and record.verdict.fouls == ()
    assert (
        record.verdict.review is not None and "2 players play the yellow" in record.verdict.review
    )


def test_a_turn_correction_gives_the_other_white_to_the_new_player() -> None:
    match = Match(many("ABC", target=9))
    drive(match, "p")
    match.correct(Correction(CorrectionKind.TURN, "C"))
    assert match.state.shooter == "C" and cue_ball_due(match.state) is Y
    assert match.state.scores["A"].runs == (1,)


# --- the end of a game --------------------------------------------------------------


def test_equalizing_innings_for_everyone_after_the_player_at_the_target() -> None:
    match = Match(many("ABC", target=2))
    records = drive(match, "pp")
    assert records[-1].note == "A reached the target: equalizing inning for B, C"
    state = match.state
    assert state.equalizing and state.to_equalize == ("B", "C") and state.shooter == "B"
    assert state.next_position is NextPosition.BREAK
    records = drive(match, "pm")
    assert records[-1].note == "equalizing inning for C"
    records = drive(match, "pp")
    assert records[-1].note == "A, C level at the target: draw; match over: draw"
    state = match.state
    assert state.phase is Phase.OVER and state.draw and state.tied == ("A", "C")
    result = MatchResult.from_state(state)
    assert [result.match_points(p) for p in "ABC"] == [1, 0, 1]


def test_nobody_equalizes_and_the_player_at_the_target_wins() -> None:
    match = Match(many("ABC", target=2))
    records = drive(match, "pp m m")
    assert records[-1].note == "the equalizing innings are over: A wins; match over: A wins"
    assert match.state.winner == "A" and match.state.tied == ()


def test_the_second_player_at_the_target_gives_only_the_third_an_inning() -> None:
    match = Match(many("ABC", target=2))
    records = drive(match, "m pp")
    assert records[-1].note == "B reached the target: equalizing inning for C"
    records = drive(match, "m")
    assert match.state.winner == "B" and records[-1].game_over


def test_the_last_player_of_the_round_at_the_target_wins_at_once() -> None:
    match = Match(many("ABC", target=2))
    records = drive(match, "m m pp")
    assert records[-1].note == "C reached the target; match over: C wins"


def test_without_equalizing_the_first_at_the_target_wins() -> None:
    match = Match(many("ABC", target=2, equalizing=False))
    drive(match, "pp")
    assert match.state.winner == "A"


def test_the_innings_limit_waits_for_the_round_to_close() -> None:
    match = Match(many("ABC", target=9, innings_limit=2))
    drive(match, "m pm m m m")  # round 1; A and B play round 2
    assert match.state.phase is Phase.PLAYING and match.state.shooter == "C"
    records = drive(match, "pm")
    assert records[-1].note == "inning limit 2 reached: draw between B, C; match over: draw"
    assert match.state.tied == ("B", "C")


def test_the_innings_limit_gives_the_game_to_the_most_points() -> None:
    match = Match(many("ABC", target=9, innings_limit=1))
    records = drive(match, "m ppm m")
    assert records[-1].note == "inning limit 1 reached: B wins; match over: B wins"


def test_sets_are_broken_in_turn_and_won_by_a_majority() -> None:
    match = Match(many("ABC", target=1, sets=3, equalizing=False))
    breakers = []
    for _ in range(2):
        breakers.append(match.state.breaker)
        drive(match, "p")  # the breaker scores the one point of the set
    assert breakers == ["A", "B"]
    assert match.state.breaker == "C" and match.state.sets_won == {"A": 1, "B": 1, "C": 0}
    drive(match, "m p")  # C misses, A wins a second set
    assert match.state.phase is Phase.OVER and match.state.winner == "A"


# --- statistics ---------------------------------------------------------------------


def test_statistics_per_player_and_standings() -> None:
    match = Match(many("ABC", target=3))
    drive(match, "pm ppm m pp")
    stats = match_stats(match.state)
    assert {p: (s.points, s.innings, s.high_run) for p, s in stats.items()} == {
        "A": (3, 2, 2), "B": (2, 1, 2), "C": (0, 1, 0),
    }  # fmt: skip
    # A reached 3 in his second inning; B and C were owed their second innings
    assert match.state.equalizing and match.state.to_equalize == ("B", "C")
    drive(match, "m m")
    assert match.state.winner == "A"
    stats = match_stats(match.state)
    assert (stats["A"].average, stats["B"].average, stats["C"].average) == (
        "1.500", "1.000", "0.000",
    )  # fmt: skip
    table = standings([MatchResult.from_state(match.state)])
    assert [(s.player, s.match_points) for s in table] == [("A", 2), ("B", 0), ("C", 0)]
    assert table[0].best_average_text == "1.500" and table[1].best_average_text == "0.000"


# --- illegal input ------------------------------------------------------------------


def test_illegal_input_raises_and_changes_nothing() -> None:
    match = Match(many("ABC", target=2))
    drive(match, "p")
    before, n = match.state, len(match.records)
    attempts = [
        lambda: match.play(point(1, Ball.WHITE1)),
        lambda: match.correct(Correction(CorrectionKind.POINTS, "Z", 1)),
        lambda: match.correct(Correction(CorrectionKind.TURN, "A")),
        lambda: match.join(StartState()),
    ]
    for attempt in attempts:
        with pytest.raises((IllegalMoveError, UnknownBallError, RulesError)):
            attempt()
        assert match.state is before and len(match.records) == n
    drive(match, "p m m")
    over = match.state
    assert over.phase is Phase.OVER
    with pytest.raises(IllegalMoveError):
        match.play(miss(5, W))
    assert match.state is over
