"""Statistics: per-player match figures and tournament standings [rules.md §5].

Averages are points per inning with three decimals, truncated (not rounded), as
scoresheets print them. The general average (GA) is points over innings across
an event; the best average (BA) is the best single-match average in a match
the player won or drew; HR is the high run. Standings order players by match
points (2 a win, 1 a draw, 0 a loss), then GA, BA, HR. With more than two players
in a match, a draw gives 1 to the players who share it (``MatchResult.tied``) and
0 to the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from referee._errors import IllegalMoveError
from referee._state import MatchState, Phase

__all__ = ["MatchResult", "PlayerStats", "Standing", "average_text", "match_stats", "standings"]


def average_text(points: int, innings: int) -> str:
    """``points / innings`` truncated to three decimals, e.g. ``"1.333"`` (``"0.000"`` at 0)."""
    if innings <= 0:
        return "0.000"
    thousandths = points * 1000 // innings
    return f"{thousandths // 1000}.{thousandths % 1000:03d}"


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures over a whole match (all sets)."""

    player: str
    points: int
    innings: int
    high_run: int
    sets_won: int

    @property
    def average(self) -> str:
        """Truncated average, three decimals."""
        return average_text(self.points, self.innings)


def match_stats(state: MatchState) -> dict[str, PlayerStats]:
    """Figures per player over finished games and the game in progress."""
    out: dict[str, PlayerStats] = {}
    finished_last = state.phase is Phase.OVER
    for p in state.config.players:
        points = sum(g.points[p] for g in state.games)
        innings = sum(g.innings[p] for g in state.games)
        high = max((g.high_run[p] for g in state.games), default=0)
        if not finished_last:
            live = state.scores[p]
            points, innings = points + live.points, innings + live.innings
            high = max(high, live.high_run)
        out[p] = PlayerStats(p, points, innings, high, state.sets_won[p])
    return out


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match for the standings: per-player points, innings, high run.

    ``winner`` ``None`` is a draw, shared by ``tied`` (empty: by every player).
    """

    players: tuple[str, ...]
    points: Mapping[str, int]
    innings: Mapping[str, int]
    high_run: Mapping[str, int]
    winner: str | None
    tied: tuple[str, ...] = ()

    @classmethod
    def from_state(cls, state: MatchState, *, provisional: bool = False) -> MatchResult:
        """The result of a finished match.

        ``provisional``: also of a match still under way, as it stands (its match points
        mean nothing yet: it counts as a draw). Without it such a match raises: in the
        standings it counted as a draw [README: "Standings count finished matches only"].

        Raises:
            IllegalMoveError: the match is not over (and not ``provisional``).
        """
        if state.phase is not Phase.OVER and not provisional:
            raise IllegalMoveError(
                f"the match is not over ({state.phase}): no result yet; standings count "
                "finished matches only (provisional=True for the figures as they stand)"
            )
        stats = match_stats(state)
        return cls(
            players=state.config.players,
            points={p: s.points for p, s in stats.items()},
            innings={p: s.innings for p, s in stats.items()},
            high_run={p: s.high_run for p, s in stats.items()},
            winner=state.winner,
            tied=state.tied,
        )

    def match_points(self, player: str) -> int:
        """2 for a win, 1 for a share of a draw, 0 for a loss."""
        if self.winner is None:
            return 1 if not self.tied or player in self.tied else 0
        return 2 if self.winner == player else 0


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in the event table."""

    player: str
    matches: int
    match_points: int
    points: int
    innings: int
    best_average: Fraction
    high_run: int

    @property
    def general_average(self) -> str:
        """GA, truncated to three decimals."""
        return average_text(self.points, self.innings)

    @property
    def best_average_text(self) -> str:
        """BA, truncated to three decimals."""
        return average_text(self.best_average.numerator, self.best_average.denominator)

    def sort_key(self) -> tuple[int, Fraction, Fraction, int]:
        """Match points, then GA, BA, HR (all descending)."""
        ga = Fraction(self.points, self.innings) if self.innings else Fraction(0)
        return (self.match_points, ga, self.best_average, self.high_run)


def standings(results: Iterable[MatchResult]) -> list[Standing]:
    """The event table, best first."""
    table: dict[str, Standing] = {}
    for result in results:
        for p in result.players:
            table[p] = _add(table.get(p), p, result)
    return sorted(table.values(), key=Standing.sort_key, reverse=True)


def _add(prev: Standing | None, player: str, result: MatchResult) -> Standing:
    base = prev or Standing(player, 0, 0, 0, 0, Fraction(0), 0)
    innings = result.innings[player]
    avg = Fraction(result.points[player], innings) if innings else Fraction(0)
    counts_for_ba = result.match_points(player) > 0  # won or drew
    return Standing(
        player=player,
        matches=base.matches + 1,
        match_points=base.match_points + result.match_points(player),
        points=base.points + result.points[player],
        innings=base.innings + innings,
        best_average=max(base.best_average, avg) if counts_for_ba else base.best_average,
        high_run=max(base.high_run, result.high_run[player]),
    )
