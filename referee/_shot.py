"""A shot as the referee sees it, and the context the rules judge it in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee._events import Event
from referee._frozen_dict import freeze_fields
from referee._names import Ball, Discipline, Pin
from referee._options import RuleOptions
from referee._table import MATCH_TABLE, XY, Table

__all__ = ["Carry", "Shot", "ShotContext", "TimedXY"]

#: One path sample: (t_s, x_mm, y_mm) in table millimetres.
TimedXY = tuple[float, float, float]


@dataclass(frozen=True, slots=True, kw_only=True)
class Shot:
    """One stroke: from the cue tip touching the cue ball until every ball stopped.

    ``cue_ball`` is the ball the camera saw move first. ``events`` are judged in
    ``t_s`` order (:meth:`referee.Match.play` sorts them, equal times kept in their
    order, as the shot-log reader does). Positions are ball centres in table mm;
    ``paths_mm`` optionally gives sampled centre paths (used for zone crossings).
    ``pins_standing`` lists the pins up at the start (``None``: all pins of the
    discipline). ``doubt`` is a shot-level reason for review that no single event
    carries. ``safety`` is a person's declaration that the stroke was an intentional
    safety [rules.md §4].
    ``is_break``: a person or the log says the stroke is (or is not) a break;
    ``None``: the match decides from the start positions (rules.md §3).
    ``decided_points``: a person decided the stroke (held for review) scored this
    many points for the shooter, whatever its events say (:mod:`referee._decided`).
    """

    index: int
    cue_ball: Ball
    events: tuple[Event, ...] = ()
    start_s: float | None = None
    end_s: float | None = None
    start_positions_mm: Mapping[Ball, XY] = field(default_factory=dict)
    end_positions_mm: Mapping[Ball, XY] = field(default_factory=dict)
    paths_mm: Mapping[Ball, tuple[TimedXY, ...]] = field(default_factory=dict)
    pins_standing: frozenset[Pin] | None = None
    doubt: str | None = None
    safety: bool = False
    is_break: bool | None = None
    decided_points: int | None = None

    def __post_init__(self) -> None:
        freeze_fields(self, "start_positions_mm", "end_positions_mm", "paths_mm")


@dataclass(frozen=True, slots=True)
class Carry:
    """What a rule remembers from one stroke to the next within an inning.

    ``zone``: the restricted zone (balkline zone, anchor square, straight-rail
    corner) in which the previous counted caroms were made with both object
    balls inside, and ``zone_caroms`` how many in a row; ``zone_unknown``: the run
    began before the record (a match joined with a run under way), so how many caroms
    were made in a zone is not known until the balls leave it or the inning ends.
    ``frozen_restart``: in
    five-pins, the stroke is played from the break position the referee set
    because frozen balls left no legal stroke (a correction), which may not score
    [000 five-pins §10.4].
    """

    zone: str | None = None
    zone_caroms: int = 0
    frozen_restart: bool = False
    zone_unknown: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotContext:
    """Everything outside the shot that a rule needs.

    ``cue_ball`` is the shooter's own ball, ``opponent_ball`` the other player's.
    In the 7-pin game the cue ball is the red for both players, ``opponent_ball``
    and ``object_ball`` are ``white1`` and ``white2``, ``remaining`` is the
    shooter's count before the stroke and ``start_count`` the game's starting count.
    ``must_attempt``: the shooter's previous inning ended with a declared safety or
    a foul, so this stroke may not be a safety [001 §24-25].
    """

    discipline: Discipline
    cue_ball: Ball
    opponent_ball: Ball
    object_ball: Ball = Ball.RED
    table: Table = MATCH_TABLE
    is_break: bool = False
    options: RuleOptions = field(default_factory=RuleOptions)
    carry: Carry = field(default_factory=Carry)
    remaining: int | None = None
    start_count: int | None = None
    must_attempt: bool = False

    @property
    def object_balls(self) -> tuple[Ball, Ball]:
        """The two balls the shooter must contact: (opponent's ball, object ball)."""
        return (self.opponent_ball, self.object_ball)
