"""The lag: who breaks [rules.md §2].

Both players shoot their cue balls at once from behind the head string to the
foot cushion and back; the ball that stops nearer the head cushion wins. A lag is
lost when the ball crosses into the opponent's half (seen as a touch of the far long
cushion, a rest in the other half, or a contact with the other lag ball unless that
one is seen across by itself), never touches the foot cushion, leaves the table or
touches the red; in five-pins also when it knocks a pin or touches a long cushion.
Both lose, or a tie within ``TIE_MM``: lag again. The winner chooses who breaks
(default: the winner). A lag by events is played by two players; with more, give
its winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee._config import MatchConfig
from referee._disciplines import LagRule, rules_of
from referee._errors import RulesError
from referee._event_checks import check_lag
from referee._events import BallContact, CushionContact, Event, OffTable, PinDown
from referee._filters import by_ball, by_type, filter_events
from referee._frozen_dict import freeze_fields
from referee._names import Ball, Cushion
from referee._table import XY

__all__ = ["TIE_MM", "Lag", "LagResult", "judge_lag"]

#: Rest positions closer than this to the same distance from the head cushion tie.
TIE_MM = 1.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Lag:
    """A lag as recorded: either its ``winner`` typed in, or its events and positions."""

    winner: str | None = None
    breaker: str | None = None
    events: tuple[Event, ...] = ()
    start_positions_mm: Mapping[Ball, XY] = field(default_factory=dict)
    end_positions_mm: Mapping[Ball, XY] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze_fields(self, "start_positions_mm", "end_positions_mm")


@dataclass(frozen=True, slots=True)
class LagResult:
    """``winner`` (``None``: lag again), who breaks, and each player's lag faults."""

    winner: str | None
    breaker: str | None
    faults: Mapping[str, tuple[str, ...]]
    reason: str

    def __post_init__(self) -> None:
        freeze_fields(self, "faults")


def judge_lag(lag: Lag, config: MatchConfig) -> LagResult:
    """Decide a lag.

    Raises:
        RulesError: neither a winner nor positions are given, or a winner or breaker
            given who is not one of the match's players.
    """
    check_lag(lag)
    for role, name in (("winner", lag.winner), ("breaker", lag.breaker)):
        if name is not None and name not in config.players:
            players = ", ".join(config.players)
            raise RulesError(f"lag.{role}: {name!r} is not a player of this match ({players})")
    if lag.winner is not None:
        breaker = lag.breaker or lag.winner
        return LagResult(lag.winner, breaker, {}, f"{lag.winner} won the lag (entered)")
    if rules_of(config.discipline).lag is LagRule.ENTERED:
        raise RulesError(f"lag: {config.discipline} has no lag by events; give lag.winner")
    if len(config.players) != 2:
        n = len(config.players)
        raise RulesError(f"lag: a lag by events is played by two, not {n} players; give lag.winner")
    faults = {p: _faults(lag, config, p) for p in config.players}
    clean = [p for p in config.players if not faults[p]]
    if not clean:
        return LagResult(None, None, faults, "both players lost the lag: lag again")
    if len(clean) == 1:
        (winner,) = clean
        loser = config.opponent(winner)
        why = "; ".join(faults[loser])
        return LagResult(winner, lag.breaker or winner, faults, f"{winner} won: {loser} {why}")
    return _nearer_head(lag, config, faults)


def _rest_x(lag: Lag, config: MatchConfig, player: str) -> float:
    ball = config.ball_of(player)
    if ball not in lag.end_positions_mm:
        raise RulesError(
            f"lag.end_positions_mm.{ball}: needed to decide the lag, or give lag.winner"
        )
    return lag.end_positions_mm[ball][0]


def _nearer_head(lag: Lag, config: MatchConfig, faults: Mapping[str, tuple[str, ...]]) -> LagResult:
    a, b = config.players
    xa, xb = _rest_x(lag, config, a), _rest_x(lag, config, b)
    if abs(xa - xb) <= TIE_MM:
        return LagResult(None, None, faults, "equal distance from the head cushion: lag again")
    winner = a if xa < xb else b
    gap = abs(xa - xb)
    return LagResult(
        winner, lag.breaker or winner, faults, f"{winner} won: {gap:.0f} mm nearer the head cushion"
    )


def _faults(lag: Lag, config: MatchConfig, player: str) -> tuple[str, ...]:
    ball = config.ball_of(player)
    other = config.ball_of(config.opponent(player))
    mine = filter_events(lag.events, by_ball(ball))
    cushions = {e.cushion for e in mine if isinstance(e, CushionContact)}
    touched = {e.other(ball) for e in mine if isinstance(e, BallContact)}
    out: list[str] = []
    if Cushion.FOOT not in cushions:
        out.append("never touched the foot cushion")
    if filter_events(mine, by_type(OffTable)):
        out.append("left the table")
    if Ball.RED in touched:
        out.append("touched the red")
    if _crossed(lag, config, ball) or (other in touched and not _crossed(lag, config, other)):
        out.append("crossed into the opponent's half")
    if rules_of(config.discipline).lag is LagRule.FIVE_PINS:
        if filter_events(mine, by_type(PinDown)):
            out.append("knocked a pin")
        if cushions & {Cushion.LEFT, Cushion.RIGHT}:
            out.append("touched a long cushion")
    return tuple(out)


def _crossed(lag: Lag, config: MatchConfig, ball: Ball) -> bool:
    """Shown across by itself: a touch of the far long cushion or a rest in the other half.

    A contact of the two lag balls shows that one of them crossed; it counts against a
    ball unless the other one is shown across by itself (then that one crossed into
    its opponent's half and hit the ball there), else against both.
    """
    cushions = {
        e.cushion for e in filter_events(lag.events, by_ball(ball)) if isinstance(e, CushionContact)
    }
    start = lag.start_positions_mm.get(ball)
    if start is None:
        return False
    mid = config.table.width_mm / 2.0
    own_left = start[1] < mid
    far = Cushion.RIGHT if own_left else Cushion.LEFT
    end = lag.end_positions_mm.get(ball)
    ended_across = end is not None and (end[1] < mid) != own_left
    return far in cushions or ended_across
