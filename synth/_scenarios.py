"""Named, scriptable shots: the hard cases of the referee, made on purpose.

Theory of operation. A :class:`Scenario` is a table set-up (balls, pins,
pockets, a scripted jump), a stroke, the event shape it stands for (``want``, a
predicate over the simulation and the referee's verdict) and the verdict
expected. Strokes for hard shapes (a third cushion 10 ms after the second ball,
a thin hit) are found by :func:`search_stroke`: every combination of a small
grid of headings, speeds, follow and side, visited in an order shuffled by a
fixed seed, is simulated until one gives the wanted shape. The stroke found is
written into the registry, so a scenario costs one simulation; ``search`` keeps
the grid so the search can be run again (:func:`research`) after the physics
changed, and a test checks that each stored stroke still has its shape.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from calibration import PYRAMID_TABLE, TableGeometry
from referee import (
    MATCH_TABLE,
    Ball,
    Discipline,
    Foul,
    Pin,
    Pocket,
    Shot,
    ShotContext,
    Table,
    Verdict,
    judge,
)
from synth._params import JumpOff, PhysicsParams, SimulationError, Stroke
from synth._sim import simulate
from synth._trajectory import Simulation

__all__ = [
    "PYRAMID_TABLE",
    "Expect",
    "Scenario",
    "Search",
    "UnknownScenarioError",
    "five_pins_layout",
    "grid_strokes",
    "pyramid_pockets",
    "research",
    "scenario",
    "scenario_names",
    "search_stroke",
    "seven_pins_layout",
]

XY = tuple[float, float]
Want = Callable[[Simulation, Verdict], bool]


class UnknownScenarioError(SimulationError):
    """No scenario has this name."""


@dataclass(frozen=True, slots=True)
class Search:
    """The grid a scenario's stroke was found on; ``seed`` shuffles the visit order."""

    headings_deg: tuple[float, ...]
    speeds_mps: tuple[float, ...]
    follows: tuple[float, ...] = (0.0,)
    sides: tuple[float, ...] = (0.0,)
    seed: int = 0


@dataclass(frozen=True, slots=True)
class Expect:
    """The verdict a scenario must get (fields of :class:`referee.Verdict`)."""

    points: int = 0
    opponent_points: int = 0
    penalty: int = 0
    fouls: frozenset[Foul] = frozenset()

    def matches(self, verdict: Verdict) -> bool:
        """True if ``verdict`` has these points, opponent points, penalty and fouls."""
        return (
            verdict.points == self.points
            and verdict.opponent_points == self.opponent_points
            and verdict.penalty == self.penalty
            and frozenset(verdict.fouls) == self.fouls
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Scenario:
    """One named shot: set-up, stroke, the shape it shows, the verdict it gets.

    Positions are ball centres in table mm (x from the head cushion, y from the
    left cushion). ``opponent_ball`` and ``object_ball`` are the referee's roles.
    """

    name: str
    description: str
    discipline: Discipline
    positions_mm: tuple[tuple[Ball, XY], ...]
    stroke: Stroke
    opponent_ball: Ball
    want: Want
    search: Search
    expect: Expect
    object_ball: Ball = Ball.RED
    table: Table = MATCH_TABLE
    pins_mm: tuple[tuple[Pin, XY], ...] = ()
    pockets_mm: tuple[tuple[Pocket, XY], ...] = ()
    jump_off: tuple[JumpOff, ...] = ()
    is_break: bool = False
    remaining: int | None = None
    start_count: int | None = None

    def simulate(
        self, params: PhysicsParams | None = None, stroke: Stroke | None = None
    ) -> Simulation:
        """Run the scenario (or the same set-up with another ``stroke``)."""
        return simulate(
            dict(self.positions_mm),
            self.stroke if stroke is None else stroke,
            self.table,
            params,
            pins=dict(self.pins_mm) or None,
            pockets=dict(self.pockets_mm) or None,
            jump_off=self.jump_off,
        )

    def context(self) -> ShotContext:
        """The referee's context for this shot."""
        return ShotContext(
            discipline=self.discipline,
            cue_ball=self.stroke.cue_ball,
            opponent_ball=self.opponent_ball,
            object_ball=self.object_ball,
            table=self.table,
            is_break=self.is_break,
            remaining=self.remaining,
            start_count=self.start_count,
        )

    def shot(self, sim: Simulation, index: int = 0) -> Shot:
        """The referee's shot from a simulation of this scenario."""
        return sim.to_shot(index)

    def judge(self, sim: Simulation) -> Verdict:
        """The referee's verdict on a simulation of this scenario."""
        return judge(self.shot(sim), self.context())


def search_stroke(
    base: Scenario, search: Search | None = None, params: PhysicsParams | None = None
) -> Stroke:
    """The first stroke of the (shuffled) grid whose simulation ``base.want`` accepts.

    Raises:
        SimulationError: no stroke of the grid gives the wanted shape.
    """
    grid = search or base.search
    for stroke in grid_strokes(base.stroke.cue_ball, grid):
        sim = base.simulate(params, stroke)
        if base.want(sim, base.judge(sim)):
            return stroke
    raise SimulationError(f"scenario {base.name}: no stroke of the search grid fits")


def grid_strokes(cue: Ball, grid: Search) -> Iterator[Stroke]:
    """Every stroke of ``grid`` for ``cue``, in the order shuffled by ``grid.seed``."""
    combos = list(itertools.product(grid.headings_deg, grid.speeds_mps, grid.follows, grid.sides))
    order = np.random.default_rng(grid.seed).permutation(len(combos))
    for i in order.tolist():
        heading, speed, follow, side = combos[i]
        yield Stroke(cue, speed, heading, follow, side)


def research(name: str, params: PhysicsParams | None = None) -> Scenario:
    """Scenario ``name`` with its stroke searched again (after a physics change)."""
    base = scenario(name)
    return dataclasses.replace(base, stroke=search_stroke(base, params=params))


def scenario(name: str) -> Scenario:
    """The registered scenario ``name``.

    Raises:
        UnknownScenarioError: with the known names.
    """
    registry = _registry()
    if name not in registry:
        known = ", ".join(sorted(registry))
        raise UnknownScenarioError(f"unknown scenario {name!r} (known: {known})")
    return registry[name]


def scenario_names() -> tuple[str, ...]:
    """Names of every registered scenario, sorted."""
    return tuple(sorted(_registry()))


# --- layouts ----------------------------------------------------------------------


def five_pins_layout(table: Table = MATCH_TABLE) -> dict[Pin, XY]:
    """Five pins: a cross at the table centre (the shared calibration geometry)."""
    return TableGeometry(table).five_pins_mm()


def seven_pins_layout(table: Table = PYRAMID_TABLE) -> dict[Pin, XY]:
    """7-pin game: the king's cross at the centre, spot pins on spots 1 and 3."""
    return TableGeometry(table).seven_pins_mm()


def pyramid_pockets(table: Table = PYRAMID_TABLE) -> dict[Pocket, XY]:
    """Pocket circle centres: the four corners and the middles of the long cushions."""
    return TableGeometry(table, pockets=True).pockets_mm()


def _registry() -> dict[str, Scenario]:
    from synth._catalogue import catalogue

    return catalogue()
