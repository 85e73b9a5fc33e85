"""How a match is set up: discipline, players, balls, targets, sets, options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee._errors import RulesError, UnknownBallError
from referee._names import Ball, Discipline
from referee._options import RuleOptions
from referee._start import StartState
from referee._table import MATCH_TABLE, Table

__all__ = ["DEFAULT_TARGETS", "MatchConfig"]

#: Points per game (or per set) when the log names none; the 7-pin game counts
#: down from ``start_count`` instead.
DEFAULT_TARGETS: dict[Discipline, int] = {
    Discipline.THREE_CUSHION: 40,
    Discipline.ONE_CUSHION: 100,
    Discipline.STRAIGHT_RAIL: 300,
    Discipline.FIVE_PINS: 60,
    Discipline.PIN_CAROM_7: 300,
}
_BALKLINE_TARGET = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchConfig:
    """A match between two players.

    ``target`` maps each player to the points they need per game or set (handicap
    when they differ). ``first_player`` breaks first; ``None`` means a lag decides.
    ``sets`` is the N of best-of-N sets (1: a single game). ``start_count`` is the
    7-pin starting count (300 or 500 usually). ``equalizing`` gives the player who
    did not break an equalizing inning when the breaker reaches the target first;
    ``equalizing_from_break`` starts it from the break position (UMB practice).
    ``start`` joins a match in progress (score, turn, set when the record begins);
    ``None``: the record starts with the match (a lag, or ``first_player`` breaks).
    """

    discipline: Discipline
    players: tuple[str, str]
    cue_balls: Mapping[str, Ball]
    target: Mapping[str, int]
    first_player: str | None = None
    innings_limit: int | None = None
    sets: int = 1
    equalizing: bool = True
    equalizing_from_break: bool = True
    start_count: int | None = None
    table: Table = MATCH_TABLE
    options: RuleOptions = field(default_factory=RuleOptions)
    start: StartState | None = None

    def __post_init__(self) -> None:
        a, b = self.players
        if not a or not b or a == b:
            raise RulesError(f"players must be two different names, got {self.players!r}")
        for name in (*self.cue_balls, *self.target):
            if name not in self.players:
                raise UnknownBallError(f"player {name!r} is not one of {a!r}, {b!r}")
        self._check_balls()
        if self.first_player is not None and self.first_player not in self.players:
            raise UnknownBallError(f"first_player {self.first_player!r} is not one of {a!r}, {b!r}")
        if any(t <= 0 for t in self.target.values()) or set(self.target) != set(self.players):
            raise RulesError("target must give every player a positive number of points")
        if self.sets < 1 or self.sets % 2 == 0:
            raise RulesError(f"sets must be an odd number (best of N), got {self.sets}")
        if self.innings_limit is not None and self.innings_limit < 1:
            raise RulesError(f"innings_limit must be at least 1, got {self.innings_limit}")
        if self.start is not None:
            self.start.check(self.players, self.sets)

    def _check_balls(self) -> None:
        if self.discipline is Discipline.PIN_CAROM_7:
            return  # both players shoot the red; cue_balls is not used
        if set(self.cue_balls) != set(self.players):
            raise RulesError("cue_balls must name a cue ball for each player")
        balls = set(self.cue_balls.values())
        allowed = {Ball.WHITE, Ball.YELLOW, Ball.DOTTED}
        if len(balls) != 2 or not balls <= allowed or balls == {Ball.YELLOW, Ball.DOTTED}:
            raise RulesError(
                "cue_balls must be white and yellow (or white and dotted), one per player"
            )

    def opponent(self, player: str) -> str:
        """The other player."""
        if player not in self.players:
            raise UnknownBallError(f"player {player!r} is not in this match")
        return self.players[1] if player == self.players[0] else self.players[0]

    def ball_of(self, player: str) -> Ball:
        """The player's cue ball (the red in the 7-pin game)."""
        if self.discipline is Discipline.PIN_CAROM_7:
            return Ball.RED
        return self.cue_balls[player]

    def owner_of(self, ball: Ball) -> str | None:
        """The player whose cue ball ``ball`` is (``None``: nobody's, or both's in 7-pin)."""
        if self.discipline is Discipline.PIN_CAROM_7:
            return None
        return next((p for p, b in self.cue_balls.items() if b == ball), None)

    @property
    def countdown_from(self) -> int | None:
        """The 7-pin starting count (default 300); ``None`` in the other games."""
        if self.discipline is not Discipline.PIN_CAROM_7:
            return None
        return self.start_count or DEFAULT_TARGETS[Discipline.PIN_CAROM_7]

    @classmethod
    def default_target(cls, discipline: Discipline) -> int:
        """The target used when a log gives none."""
        return DEFAULT_TARGETS.get(discipline, _BALKLINE_TARGET)
