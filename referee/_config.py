"""How a match is set up: discipline, players, balls, targets, sets, options.

Two players or more [rules.md §1]. ``players`` is the order of play. With two
players each keeps a cue ball for the whole match (``cue_balls``). With more,
either every player keeps a ball (an even number of players, ``cue_balls`` given
for all of them), or the two whites rotate: each stroke (or, by default, each
inning) is played with the white that was not the cue ball of the previous one
(``rotation_balls``; the rule option ``rotate_cue_ball_every_stroke``). Five-pins
stays a two-player game: its fouls give their points to the opponent [§6].
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from referee._disciplines import DISCIPLINES, discipline_named, rules_of
from referee._errors import RulesError, UnknownBallError
from referee._frozen_dict import freeze_fields
from referee._names import Ball, Discipline
from referee._options import RuleOptions
from referee._start import StartState
from referee._table import MATCH_TABLE, Table

__all__ = ["DEFAULT_TARGETS", "MAX_PLAYERS", "MatchConfig"]

#: The most players one match takes (a scoreboard shows them all).
MAX_PLAYERS = 8
_CUE_BALLS = frozenset({Ball.WHITE, Ball.YELLOW, Ball.DOTTED})

#: Points per game (or per set) when the log names none; the 7-pin game counts
#: down from ``start_count`` instead (the discipline registry's ``default_target``).
DEFAULT_TARGETS: Mapping[Discipline, int] = MappingProxyType(
    {d: r.default_target for d, r in DISCIPLINES.items()}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchConfig:
    """A match between two or more players, who play in the order of ``players``.

    ``cue_balls`` maps each player to the cue ball they keep; empty when the two
    whites ``rotation_balls`` rotate (three players or more, see the module doc;
    the 7-pin game: everybody plays the red and it is not used).
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
    players: tuple[str, ...]
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
    rotation_balls: tuple[Ball, Ball] = (Ball.WHITE, Ball.YELLOW)

    def __post_init__(self) -> None:
        object.__setattr__(self, "discipline", discipline_named(self.discipline))
        self._check_types()
        freeze_fields(self, "cue_balls", "target")
        self._check_players()
        shown = ", ".join(repr(p) for p in self.players)
        for name in (*self.cue_balls, *self.target):
            if name not in self.players:
                raise UnknownBallError(f"player {name!r} is not one of {shown}")
        self._check_balls()
        if self.first_player is not None and self.first_player not in self.players:
            raise UnknownBallError(f"first_player {self.first_player!r} is not one of {shown}")
        whole = all(isinstance(t, int) and not isinstance(t, bool) for t in self.target.values())
        if not whole or any(t <= 0 for t in self.target.values()):
            raise RulesError(f"target must give every player a positive whole number of points, "
                             f"got {dict(self.target)!r}")  # fmt: skip
        if set(self.target) != set(self.players):
            raise RulesError("target must give every player a positive number of points")
        self._check_fields()
        self._check_count()
        if self.sets < 1 or self.sets % 2 == 0:
            raise RulesError(f"sets must be an odd number (best of N), got {self.sets}")
        if self.innings_limit is not None and self.innings_limit < 1:
            raise RulesError(f"innings_limit must be at least 1, got {self.innings_limit}")
        if self.start is not None:
            self.start.check(self.players, self.sets)

    def _check_types(self) -> None:
        """Players a sequence of names, cue balls and targets mappings (a raw TypeError)."""
        if isinstance(self.players, list):
            object.__setattr__(self, "players", tuple(self.players))
        if not (isinstance(self.players, tuple) and all(isinstance(p, str) for p in self.players)):
            raise RulesError(f"players: expected a tuple of names, got {self.players!r}")
        for name in ("cue_balls", "target"):
            value = getattr(self, name)
            if not isinstance(value, Mapping):
                way = self._target_way(value) if name == "target" else ""
                raise RulesError(f"{name}: expected a mapping of player names, got {value!r}{way}")

    def _check_fields(self) -> None:
        """Each field of its kind.

        ``sets=nan`` made a match that never ended, ``sets="3"`` a raw TypeError and
        ``options="x"`` an AttributeError at the first shot.
        """
        for name in ("sets", "innings_limit", "start_count"):
            value = getattr(self, name)
            if not (_whole(value) or (value is None and name != "sets")):
                raise RulesError(f"{name}: expected a whole number, got {value!r}")
        if self.start_count is not None and self.start_count < 1:
            raise RulesError(f"start_count must be at least 1, got {self.start_count}")
        for name in ("equalizing", "equalizing_from_break"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name}: expected True or False, got {getattr(self, name)!r}")
        kinds = (("table", Table, False), ("options", RuleOptions, False),
                 ("start", StartState, True))  # fmt: skip
        for name, kind, optional in kinds:
            value = getattr(self, name)
            if not (isinstance(value, kind) or (optional and value is None)):
                raise RulesError(f"{name}: expected a {kind.__name__}, got {value!r}")

    def _target_way(self, value: object) -> str:
        """The way out of one number given as ``target`` (none for a number no target is)."""
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            return ""
        same = f"dict.fromkeys(players, {value})"
        if rules_of(self.discipline).countdown and self.start_count is None:
            # The board counts down from start_count; the target (still one a player) is not used.
            return (f"; {self.discipline} counts down from start_count: give start_count={value} "
                    f"and target={same}")  # fmt: skip
        return f"; the same for all: {same}"

    def _check_count(self) -> None:
        """``start_count`` only where the board counts down; no handicap nor innings limit there."""
        rules = rules_of(self.discipline)
        if self.start_count is not None and not rules.countdown:
            raise RulesError(f"start_count is the 7-pin starting count; {self.discipline} "
                             "counts up to its target (give target instead)")  # fmt: skip
        if rules.countdown and self.innings_limit is not None:
            raise RulesError(f"{self.discipline}: the game ends when a player's count reaches "
                             f"zero; an innings limit is not used, got "
                             f"{self.innings_limit}")  # fmt: skip
        if rules.countdown and len(set(self.target.values())) > 1:
            raise RulesError(f"{self.discipline}: every player counts down from start_count; "
                             f"a target per player (a handicap) is not used, got "
                             f"{dict(self.target)!r}")  # fmt: skip

    def _check_players(self) -> None:
        n = len(self.players)
        if not 2 <= n <= MAX_PLAYERS:
            raise RulesError(f"players: 2 to {MAX_PLAYERS} names, got {n}: {self.players!r}")
        if not all(self.players) or len(set(self.players)) != n:
            raise RulesError(f"players must be different names, got {self.players!r}")
        for name in self.players:
            _check_printable(name)
        most = rules_of(self.discipline).max_players
        if most is not None and n > most:
            word = {2: "two", 3: "three", 4: "four"}.get(most, str(most))
            raise RulesError(
                f"{self.discipline} is a {word}-player game (a foul's points go to the "
                f"opponent, rules.md §6), got {n} players"
            )

    def _check_balls(self) -> None:
        if self.shared_cue_ball is not None:
            return  # everybody shoots the red; cue_balls is not used
        _check_pair(set(self.rotation_balls), "rotation_balls")
        n = len(self.players)
        if n > 2 and not self.cue_balls:
            return  # the whites rotate
        if set(self.cue_balls) != set(self.players):
            raise RulesError(
                "cue_balls must name a cue ball for each player"
                + ("" if n == 2 else " (or none: the two whites rotate)")
            )
        if n % 2:
            raise RulesError(
                f"with an odd number of players ({n}) the cue balls rotate (rules.md §1): "
                "give no cue_balls"
            )
        _check_pair(set(self.cue_balls.values()), "cue_balls")

    @property
    def rotates(self) -> bool:
        """The two whites rotate between the players (no player keeps a ball)."""
        return self.shared_cue_ball is None and not self.cue_balls

    @property
    def cue_ball_pair(self) -> tuple[Ball, Ball]:
        """The two cue balls in play, the white first (the 7-pin game: the red twice)."""
        if (shared := self.shared_cue_ball) is not None:
            return (shared, shared)
        balls = set(self.cue_balls.values()) if self.cue_balls else set(self.rotation_balls)
        (other,) = balls - {Ball.WHITE}
        return (Ball.WHITE, other)

    def other_cue_ball(self, ball: Ball) -> Ball:
        """The cue ball of the pair that is not ``ball`` (the other white)."""
        a, b = self.cue_ball_pair
        return b if ball == a else a

    def next_player(self, player: str) -> str:
        """The player after ``player`` in the order of play (wrapping round)."""
        i = self._index(player)
        return self.players[(i + 1) % len(self.players)]

    def previous_player(self, player: str) -> str:
        """The player before ``player`` in the order of play (wrapping round)."""
        i = self._index(player)
        return self.players[i - 1]

    def order_from(self, player: str) -> tuple[str, ...]:
        """The players in the order of play, starting with ``player``."""
        i = self._index(player)
        return self.players[i:] + self.players[:i]

    def _index(self, player: str) -> int:
        if player not in self.players:
            raise UnknownBallError(f"player {player!r} is not in this match")
        return self.players.index(player)

    def opponent(self, player: str) -> str:
        """The other player of a two-player match (RulesError with more players)."""
        if len(self.players) != 2:
            raise RulesError(
                f"{len(self.players)} players: nobody is the opponent; next_player gives the turn"
            )
        i = self._index(player)
        return self.players[1 - i]

    def ball_of(self, player: str) -> Ball:
        """The cue ball ``player`` keeps (the red in the 7-pin game).

        RulesError when the whites rotate: the match state says which ball is due
        (:func:`referee.cue_ball_due`).
        """
        self._index(player)
        if (shared := self.shared_cue_ball) is not None:
            return shared
        if self.rotates:
            raise RulesError(f"{player} keeps no cue ball: the whites rotate (rules.md §1)")
        return self.cue_balls[player]

    def owner_of(self, ball: Ball) -> str | None:
        """The only player whose cue ball ``ball`` is (``None``: nobody's, or shared)."""
        owners = [p for p, b in self.cue_balls.items() if b == ball]
        if self.shared_cue_ball is not None or len(owners) != 1:
            return None
        return owners[0]

    @property
    def shared_cue_ball(self) -> Ball | None:
        """The ball every player shoots (the 7-pin game's red); ``None``: each has one."""
        return rules_of(self.discipline).shared_cue_ball

    @property
    def equalizes(self) -> bool:
        """Whether reaching the target first gives those behind an equalizing inning.

        ``equalizing`` asks for it; the discipline must have one (not five-pins, where
        the first to reach the target wins [rules.md §6], nor the 7-pin game).
        """
        return self.equalizing and rules_of(self.discipline).equalizing_inning

    @property
    def countdown_from(self) -> int | None:
        """The starting count of a count-down game (7-pin, default 300); else ``None``."""
        rules = rules_of(self.discipline)
        if not rules.countdown:
            return None
        return self.start_count or rules.default_target

    @classmethod
    def default_target(cls, discipline: Discipline) -> int:
        """The target used when a log gives none."""
        return rules_of(discipline).default_target


def _check_pair(balls: set[Ball], what: str) -> None:
    if len(balls) != 2 or not balls <= _CUE_BALLS or balls == {Ball.YELLOW, Ball.DOTTED}:
        each = ", one per player" if what == "cue_balls" else ""
        raise RulesError(f"{what} must be white and yellow (or white and dotted){each}")


def _check_printable(name: str) -> None:
    """A player's name is text a scoresheet prints (a terminal, a file, a board).

    No control character, no half of a UTF-16 pair (a lone surrogate escape in JSON).
    """
    for ch in name:
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Cs"):
            what = "half of a UTF-16 pair" if kind == "Cs" else "a control character"
            raise RulesError(
                f"players: {name!r} holds {what} (U+{ord(ch):04X}); give names of printable letters"
            )


def _whole(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool)
