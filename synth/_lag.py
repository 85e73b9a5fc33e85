"""Lags: both players strike their cue balls at once to the foot cushion and back.

Theory of operation. A :class:`LagScenario` places the two cue balls behind the head
string, one in each long half of the table (player A's white on the left, y < W/2,
player B's yellow on the right), the red on its spot and, in five-pins, the pins; A
strikes at 0 s and B ``delay_s`` later (:func:`synth.simulate` with ``also``).
The simulation's exact events and rest positions become a :class:`referee.Lag`, and
:func:`referee.judge_lag` gives the expected result [rules.md §2]: the winner (or
``None``, lag again), the faults of each player and the reason. ``winner`` and
``faults`` of the scenario say what the lag was made to show; a test checks that the
referee's judgement of the simulation agrees, so the truth file's result is exact.

Each stroke was chosen by hand (the distances by a scan of speeds with the default
physics); ``carom synth --list`` shows the names.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee import (
    MATCH_TABLE,
    Ball,
    Discipline,
    Event,
    Lag,
    LagResult,
    MatchConfig,
    Pin,
    Table,
    event_json,
    judge_lag,
)
from synth._params import JumpOff, PhysicsParams, SimulationError, Stroke
from synth._scenarios import five_pins_layout
from synth._sim import simulate
from synth._trajectory import Simulation

__all__ = [
    "LAG_PLAYERS",
    "LagScenario",
    "PlayedLag",
    "lag_config",
    "lag_json",
    "lag_names",
    "lag_scenario",
    "lag_scenarios",
    "play_lag",
]

XY = tuple[float, float]
W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
THREE, FIVE = Discipline.THREE_CUSHION, Discipline.FIVE_PINS
#: The lag's players and their cue balls: A plays white (left half), B yellow (right).
LAG_PLAYERS: dict[str, Ball] = {"A": W, "B": Y}
_LEFT_Y, _RIGHT_Y, _STRING_X = 400.0, 1020.0, 650.0


def lag_config(discipline: Discipline, table: Table = MATCH_TABLE) -> MatchConfig:
    """The match the lags are judged in: A (white) against B (yellow), a lag decides."""
    return MatchConfig(
        discipline=discipline, players=("A", "B"), cue_balls=dict(LAG_PLAYERS),
        target={"A": 999, "B": 999}, first_player=None, equalizing=False, table=table,
    )  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class LagScenario:
    """One named lag: set-up, both strokes, and the result it was made to show.

    ``strokes`` are A's and B's (in that order; B strikes ``delay_s`` after A).
    ``winner`` is ``"A"``, ``"B"`` or ``None`` (lag again); ``faults`` the fault
    texts of :func:`referee.judge_lag` each player must get (at least these).
    Positions are ball centres in table mm.
    """

    name: str
    description: str
    discipline: Discipline
    positions_mm: tuple[tuple[Ball, XY], ...]
    strokes: tuple[Stroke, Stroke]
    winner: str | None
    faults: tuple[tuple[str, tuple[str, ...]], ...] = ()
    delay_s: float = 0.1
    table: Table = MATCH_TABLE
    pins_mm: tuple[tuple[Pin, XY], ...] = ()
    jump_off: tuple[JumpOff, ...] = ()

    def __post_init__(self) -> None:
        balls = tuple(s.cue_ball for s in self.strokes)
        if balls != (W, Y):
            raise SimulationError(f"lag {self.name}: strokes must be white's, yellow's: {balls}")
        if not 0.0 <= self.delay_s <= 1.0:
            raise SimulationError(f"lag {self.name}: delay_s must be 0..1 s, got {self.delay_s}")

    def simulate(self, params: PhysicsParams | None = None) -> Simulation:
        """Both strokes, until every ball has stopped (times from A's strike)."""
        first, second = self.strokes
        return simulate(
            dict(self.positions_mm), first, self.table, params,
            pins=dict(self.pins_mm) or None, jump_off=self.jump_off,
            also=((self.delay_s, second),),
        )  # fmt: skip

    def config(self) -> MatchConfig:
        """The match this lag decides."""
        return lag_config(self.discipline, self.table)

    def judge(self, sim: Simulation) -> LagResult:
        """The referee's result of a simulation of this lag."""
        return judge_lag(lag_of(sim), self.config())


@dataclass(frozen=True, slots=True)
class PlayedLag:
    """A lag on a clip's time line: A strikes at ``t0_s``; the referee's lag and result."""

    t0_s: float
    scenario: LagScenario
    sim: Simulation
    lag: Lag
    result: LagResult

    def strokes_json(self) -> list[dict[str, Any]]:
        """Both strokes: time on the clip, cue ball, speed, heading, spin."""
        first, second = self.scenario.strokes
        return [
            {"t_s": round(self.t0_s + dt, 6), "cue_ball": str(s.cue_ball),
             "speed_mps": s.speed_mps, "heading_deg": s.heading_deg,
             "follow": s.follow, "side": s.side}
            for dt, s in ((0.0, first), (self.scenario.delay_s, second))
        ]  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The truth of this lag (see :func:`lag_json`), with its start and end times."""
        times = {"t_s": self.t0_s, "end_s": round(self.t0_s + self.sim.duration_s, 6)}
        return times | lag_json(self.lag, self.result, self.strokes_json())


def play_lag(sc: LagScenario, t0_s: float, params: PhysicsParams | None = None) -> PlayedLag:
    """Simulate ``sc`` with A's strike at clip time ``t0_s`` and judge it."""
    sim = sc.simulate(params)
    lag = lag_of(sim, t0_s)
    return PlayedLag(t0_s, sc, sim, lag, judge_lag(lag, sc.config()))


def lag_of(sim: Simulation, t0_s: float = 0.0) -> Lag:
    """The referee's :class:`Lag` of a simulated lag, times shifted by ``t0_s``."""
    events: tuple[Event, ...] = tuple(_shifted(e, t0_s) for e in sim.events)
    return Lag(
        events=events,
        start_positions_mm=dict(sim.start_positions_mm),
        end_positions_mm=sim.end_positions_mm,
    )


def _shifted(event: Event, dt_s: float) -> Event:
    return dataclasses.replace(event, t_s=event.t_s + dt_s)


def lag_json(lag: Lag, result: LagResult, strokes: list[dict[str, Any]]) -> dict[str, Any]:
    """The truth of a lag: who won and why, each player's faults, events and positions."""
    return {
        "winner": result.winner,
        "breaker": result.breaker,
        "reason": result.reason,
        "faults": {p: list(f) for p, f in result.faults.items()},
        "cue_balls": {p: str(b) for p, b in LAG_PLAYERS.items()},
        "strokes": strokes,
        "events": [event_json(e) for e in lag.events],
        "start_positions_mm": _positions(lag.start_positions_mm),
        "end_positions_mm": _positions(lag.end_positions_mm),
    }


def _positions(xy: Mapping[Ball, XY]) -> dict[str, list[float]]:
    return {str(b): [round(p[0], 3), round(p[1], 3)] for b, p in sorted(xy.items())}


def _three(red_mm: XY = (2130.0, 710.0), **at: XY) -> tuple[tuple[Ball, XY], ...]:
    """White and yellow on the head string in their halves (or ``at``), the red on its spot."""
    w = at.get("white", (_STRING_X, _LEFT_Y))
    y = at.get("yellow", (_STRING_X, _RIGHT_Y))
    return ((W, w), (Y, y), (R, red_mm))


def _pair(w: tuple[float, float], y: tuple[float, float]) -> tuple[Stroke, Stroke]:
    """Strokes ``(speed m/s, heading deg)`` for white and yellow, natural roll."""
    return (Stroke(W, w[0], w[1], 0.4), Stroke(Y, y[0], y[1], 0.4))


_NEVER_FOOT = "never touched the foot cushion"
_CROSSED = "crossed into the opponent's half"


@functools.cache
def lag_scenarios() -> dict[str, LagScenario]:
    """Every registered lag by name."""
    lags = [*_won_lags(), *_faulted_lags(), *_five_pins_lags(), *_lags_again()]
    return {sc.name: sc for sc in lags}


def _won_lags() -> list[LagScenario]:
    """Three-cushion lags with no fault: the ball nearer the head cushion wins."""
    return [
        LagScenario(
            name="lag-clean", discipline=THREE, positions_mm=_three(),
            description="lag: both balls to the foot cushion and back, yellow (B) stops "
                        "clearly nearer the head cushion and wins",
            strokes=_pair((0.95, 0.0), (1.0, 0.0)), winner="B", delay_s=0.12,
        ),
        LagScenario(
            name="lag-close", discipline=THREE, positions_mm=_three(),
            description="lag: both balls come back within a few cm of each other; white (A) "
                        "is nearer the head cushion and wins",
            strokes=_pair((1.05, 0.0), (1.065, 0.0)), winner="A", delay_s=0.08,
        ),
    ]  # fmt: skip


def _faulted_lags() -> list[LagScenario]:
    """Three-cushion lags one player loses by a fault."""
    return [
        LagScenario(
            name="lag-crosses", discipline=THREE, positions_mm=_three(),
            description="lag: yellow (B) drifts across the long axis into white's half; it "
                        "stops nearer the head cushion but loses",
            strokes=_pair((0.98, 0.0), (1.0, -4.0)), winner="A",
            faults=(("B", (_CROSSED,)),), delay_s=0.15,
        ),
        LagScenario(
            name="lag-short", discipline=THREE, positions_mm=_three(),
            description="lag: white (A) is struck too softly and never reaches the foot "
                        "cushion; yellow (B) wins",
            strokes=_pair((0.4, 0.0), (0.98, 0.0)), winner="B",
            faults=(("A", (_NEVER_FOOT,)),), delay_s=0.1,
        ),
        LagScenario(
            name="lag-red", discipline=THREE,
            positions_mm=_three(white=(_STRING_X, 660.0)),
            description="lag: white (A) touches the red on its way to the foot cushion; "
                        "yellow (B) wins",
            strokes=_pair((1.0, 1.7), (1.0, 0.0)), winner="B",
            faults=(("A", ("touched the red",)),), delay_s=0.1,
        ),
        LagScenario(
            name="lag-off-table", discipline=THREE, positions_mm=_three(),
            description="lag: white (A) jumps off the table at the foot cushion; yellow (B) "
                        "wins",
            strokes=_pair((1.3, 0.0), (0.98, 0.0)), winner="B",
            faults=(("A", ("left the table",)),), jump_off=(JumpOff(W, 1),),
        ),
    ]  # fmt: skip


def _five_pins_lags() -> list[LagScenario]:
    """Five-pins lags lost by what five-pins forbids: a long cushion, a pin."""
    five = tuple(five_pins_layout().items())
    return [
        LagScenario(
            name="five-pins-lag-long-cushion", discipline=FIVE, positions_mm=_three(),
            pins_mm=five,
            description="five-pins lag: white (A) runs into the left long cushion on its way "
                        "back (legal in three-cushion, lost in five-pins); yellow (B) wins",
            strokes=_pair((1.06, -7.0), (0.98, 0.0)), winner="B",
            faults=(("A", ("touched a long cushion",)),), delay_s=0.1,
        ),
        LagScenario(
            name="five-pins-lag-pin", discipline=FIVE,
            positions_mm=_three(yellow=(_STRING_X, 800.0)),
            pins_mm=five,
            description="five-pins lag: yellow (B), set near the long axis, knocks a pin on "
                        "its way to the foot cushion; white (A) wins",
            strokes=_pair((0.98, 0.0), (1.0, 0.0)), winner="A",
            faults=(("B", ("knocked a pin",)),), delay_s=0.1,
        ),
    ]  # fmt: skip


def _lags_again() -> list[LagScenario]:
    """Both players lose: the lag is played again."""
    return [
        LagScenario(
            name="lag-both-lose", discipline=THREE, positions_mm=_three(),
            description="lag: white (A) never reaches the foot cushion and yellow (B) "
                        "crosses into white's half: both lose, lag again",
            strokes=_pair((0.4, 0.0), (1.0, -4.0)), winner=None,
            faults=(("A", (_NEVER_FOOT,)), ("B", (_CROSSED,))), delay_s=0.1,
        ),
    ]  # fmt: skip


def lag_names() -> tuple[str, ...]:
    """Names of the registered lags, sorted."""
    return tuple(sorted(lag_scenarios()))


def lag_scenario(name: str) -> LagScenario:
    """The registered lag ``name`` (raises SimulationError naming the known ones)."""
    lags = lag_scenarios()
    if name not in lags:
        raise SimulationError(f"unknown lag {name!r} (known: {', '.join(sorted(lags))})")
    return lags[name]
