"""Statistics and standings [rules.md §5 "Tournament results"]."""

from __future__ import annotations

from referee import Match, MatchResult, average_text, match_stats, standings
from tests.referee.factories import config, drive


def test_average_is_truncated_to_three_decimals() -> None:
    assert average_text(5, 3) == "1.666"  # not rounded up to 1.667
    assert average_text(2, 3) == "0.666"
    assert average_text(40, 25) == "1.600"
    assert average_text(0, 0) == "0.000"


def test_match_stats_points_innings_high_run() -> None:
    match = Match(config(target=10))
    drive(match, "ppm pm pppm")
    stats = match_stats(match.state)
    assert (stats["A"].points, stats["A"].innings, stats["A"].high_run) == (5, 2, 3)
    assert stats["A"].average == "2.500"
    assert (stats["B"].points, stats["B"].innings, stats["B"].high_run) == (1, 1, 1)


def _result(
    winner: str | None, pts: dict[str, int], inns: dict[str, int], hr: dict[str, int]
) -> MatchResult:
    players = tuple(pts)
    assert len(players) == 2
    return MatchResult((players[0], players[1]), pts, inns, hr, winner)


def test_match_points_two_for_a_win_one_for_a_draw() -> None:
    won = _result("A", {"A": 40, "B": 30}, {"A": 20, "B": 20}, {"A": 5, "B": 4})
    drawn = _result(None, {"A": 40, "B": 40}, {"A": 20, "B": 20}, {"A": 5, "B": 4})
    assert (won.match_points("A"), won.match_points("B")) == (2, 0)
    assert (drawn.match_points("A"), drawn.match_points("B")) == (1, 1)


def test_standings_tie_break_order_ga_then_ba_then_hr() -> None:
    # C and D both 2 match points; C has the better general average.
    results = [
        _result("C", {"C": 40, "X": 10}, {"C": 20, "X": 20}, {"C": 6, "X": 2}),
        _result("X", {"D": 30, "X": 40}, {"D": 40, "X": 40}, {"D": 9, "X": 3}),
        _result("D", {"D": 40, "Y": 10}, {"D": 10, "Y": 10}, {"D": 9, "Y": 1}),
        _result("Y", {"C": 20, "Y": 40}, {"C": 40, "Y": 40}, {"C": 3, "Y": 2}),
    ]
    table = standings(results)
    order = [s.player for s in table]
    ga = {s.player: s.general_average for s in table}
    assert ga["C"] == "1.000" and ga["D"] == "1.400"
    assert order.index("D") < order.index("C")  # equal MP, D better GA


def test_best_average_counts_only_won_or_drawn_matches() -> None:
    results = [
        _result("B", {"A": 39, "B": 40}, {"A": 10, "B": 10}, {"A": 9, "B": 9}),  # A lost, avg 3.9
        _result("A", {"A": 20, "C": 5}, {"A": 10, "C": 10}, {"A": 4, "C": 1}),  # A won, avg 2.0
    ]
    a = next(s for s in standings(results) if s.player == "A")
    assert a.best_average_text == "2.000"
    assert a.high_run == 9


def test_standings_equal_ga_broken_by_best_average_then_high_run() -> None:
    results = [
        _result("P", {"P": 30, "Z": 0}, {"P": 10, "Z": 10}, {"P": 5, "Z": 0}),
        _result("Q", {"P": 10, "Q": 30}, {"P": 10, "Q": 10}, {"P": 2, "Q": 7}),
        _result("Q", {"Q": 10, "Z": 0}, {"Q": 10, "Z": 10}, {"Q": 2, "Z": 0}),
        _result("P", {"P": 10, "Z": 5}, {"P": 10, "Z": 10}, {"P": 9, "Z": 1}),
    ]
    table = {s.player: s for s in standings(results)}
    assert table["P"].match_points == table["Q"].match_points == 4
    # GA: P 50/30, Q 40/20 -> Q ahead on GA.
    assert [s.player for s in standings(results)][:2] == ["Q", "P"]


def test_a_match_under_way_has_no_result_and_is_no_draw_in_the_standings() -> None:
    """It counted as a draw: one point each in the standings for a match still played
    (found by a review as a library user); the figures as they stand on request."""
    import pytest

    from referee import IllegalMoveError

    match = Match(config(target=10))
    drive(match, "p")
    before = match.state
    with pytest.raises(IllegalMoveError, match=r"the match is not over \(playing\)"):
        standings([MatchResult.from_state(match.state)])
    assert match.state is before
    provisional = MatchResult.from_state(match.state, provisional=True)
    assert provisional.points == {"A": 1, "B": 0} and provisional.winner is None
