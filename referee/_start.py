"""The match as it stands when the record begins: joining a match in progress.

A recording or a camera switched on mid-match has not seen the lag, the break or
the score so far. :class:`StartState` is what the video (or a person) says about
the match at that moment; every field is optional and an unknown one stays
unknown: the referee then infers it from the balls (the first stroke's cue ball
names the shooter, the layout says whether it is a break) or marks the shot for
review, never assumes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee._errors import RulesError
from referee._frozen_dict import freeze_fields

__all__ = ["StartState"]


@dataclass(frozen=True, slots=True, kw_only=True)
class StartState:
    """Score and turn at the start of the record (all optional).

    ``board``: what the scoreboard shows per player (points; in the 7-pin game the
    remaining count). ``innings``: innings each player has begun. ``run``: points
    the player at the table has made in the inning under way (0: a new inning
    starts with the first stroke). ``shooter``: who is at the table (``None``: the
    first stroke's cue ball tells). ``breaker``: who broke this game (for the
    equalizing inning; ``None``: unknown). ``set_index``/``sets_won``: the set under
    way (0-based) and sets won so far. ``next_break``: the first stroke is a break
    (``True``), is not (``False``), or ``None``: the balls decide.
    """

    board: Mapping[str, int] = field(default_factory=dict)
    innings: Mapping[str, int] = field(default_factory=dict)
    run: int = 0
    shooter: str | None = None
    breaker: str | None = None
    set_index: int = 0
    sets_won: Mapping[str, int] = field(default_factory=dict)
    next_break: bool | None = None

    def __post_init__(self) -> None:
        freeze_fields(self, "board", "innings", "sets_won")

    def check(self, players: tuple[str, ...], sets: int) -> None:
        """Raise RulesError when a name is not a player or a number is out of range."""
        named = [*self.board, *self.innings, *self.sets_won]
        named += [p for p in (self.shooter, self.breaker) if p is not None]
        for name in named:
            if name not in players:
                raise RulesError(f"start: {name!r} is not one of the players {list(players)}")
        numbers = [*self.board.values(), *self.innings.values(), *self.sets_won.values()]
        numbers += [self.run, self.set_index]
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            raise RulesError(f"start: points, innings, run and sets are whole numbers, got "
                             f"{', '.join(repr(n) for n in numbers if not _whole(n))}")  # fmt: skip
        if self.next_break is not None and not isinstance(self.next_break, bool):
            raise RulesError(f"start: next_break is True, False or None, got {self.next_break!r}")
        if any(n < 0 for n in numbers):
            raise RulesError("start: points, innings, run, sets must not be negative")
        if self.run and self.shooter is None:
            raise RulesError("start: a run under way needs the shooter")
        if sum(self.sets_won.values()) > self.set_index:
            raise RulesError("start: more sets won than sets played before set_index")
        if any(w > sets // 2 for w in self.sets_won.values()):
            won = sets // 2 + 1
            raise RulesError(f"start: a player with {won} set{'s' if won > 1 else ''} has won "
                             "the match")  # fmt: skip
        if sets == 1 and self.set_index > 0:
            raise RulesError(f"start: set {self.set_index + 1} of a one-game match; give the "
                             "match's sets (sets = 3 in a match file)")  # fmt: skip


def _whole(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool)
