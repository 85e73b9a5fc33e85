"""Multi-stroke sequences: a match played by the simulator and judged by the referee.

Theory of operation. A :class:`SequenceSpec` gives a discipline, a starting layout
and one wanted *shape* per stroke ("clean-point", "kiss", "miss", ...). Strokes are
played in turn by whoever the referee says is at the table: for each, a stroke is
searched (a seeded shuffle of a heading/speed/spin grid) from the current layout
until its simulation has the wanted shape; it is then played into a
:class:`referee.Match`, whose verdict is the expected one. Balls off the table are
re-spotted as the verdict says, the break position or ball in hand is set up, and
the next stroke starts from there. The result is one motion over the whole clip
(:class:`Sequence`: the renderer's motion and pin source), the events on the clip's
time line, and a ``carom-shots/1`` shot log that ``carom score`` judges the same way.
A sequence may open with a lag (:mod:`synth._lag`): its winner breaks, from the
break position, and the beats follow.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from referee import (
    MATCH_TABLE,
    Ball,
    Discipline,
    Event,
    Match,
    MatchConfig,
    NextPosition,
    Pin,
    Shot,
    ShotRecord,
    Spot,
    Table,
    Verdict,
    apply_shot,
    judge,
    new_match,
    shot_context,
)
from synth._catalogue import SHAPES
from synth._lag import LagScenario, PlayedLag, play_lag
from synth._params import JumpOff, PhysicsParams, SimulationError
from synth._scenarios import (
    Scenario,
    Search,
    five_pins_layout,
    grid_strokes,
    pyramid_pockets,
    seven_pins_layout,
)
from synth._sim import simulate
from synth._trajectory import Simulation

__all__ = ["Beat", "Sequence", "SequenceSpec", "lag_sequence", "play_sequence"]

XY = tuple[float, float]
F64 = NDArray[np.float64]
Want = Callable[[Simulation, Verdict], bool]

_GENERIC: dict[str, Want] = {
    "point": lambda sim, v: v.points > 0 and not v.fouls and v.review is None,
    "miss": lambda sim, v: v.points == 0 and not v.fouls and v.review is None,
    "foul": lambda sim, v: bool(v.fouls) and v.review is None,
    "zone-limit": lambda sim, v: "zone_limit" in v.fouls and v.review is None,
    "zone-point": lambda sim, v: v.points > 0 and v.carry.zone is not None and v.review is None,
}


def shape(name: str) -> Want:
    """The shape predicate called ``name``; ``a+b`` wants both shapes.

    Names are generic (point, miss, foul, zone-point, zone-limit) or
    from the scenario catalogue (clean-point, kiss, thin, along-cushion, ...).
    """
    parts = [_GENERIC.get(part) or SHAPES.get(part) for part in name.split("+")]
    if not all(parts):
        known = ", ".join(sorted({*_GENERIC, *SHAPES}))
        raise SimulationError(f"unknown shape {name!r} (known: {known})")
    wants = [p for p in parts if p is not None]
    return lambda sim, verdict: all(w(sim, verdict) for w in wants)


@dataclass(frozen=True, slots=True)
class Beat:
    """One stroke of a sequence: the wanted shape and the grid searched for it.

    ``setup`` optionally re-places the balls before the stroke (as a coach sets up
    a drill), by role: ``"cue"`` (the shooter's ball), ``"opp"`` (the opponent's
    ball), ``"obj"`` (the red), in table mm.
    """

    shape: str
    search: Search
    jump_off: tuple[JumpOff, ...] = ()
    setup: tuple[tuple[str, XY], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SequenceSpec:
    """A scripted sequence. Positions in table mm; times in seconds.

    ``lead_s`` is the time before each stroke (the player steps in), ``hold_s``
    the time the balls rest before the next set-up. ``lag``: a lag is played first
    (from its own set-up, not ``start_mm``) and its winner breaks.
    """

    name: str
    description: str
    discipline: Discipline
    start_mm: tuple[tuple[Ball, XY], ...]
    beats: tuple[Beat, ...]
    table: Table = MATCH_TABLE
    cue_balls: tuple[Ball, Ball] = (Ball.WHITE, Ball.YELLOW)
    lead_s: float = 1.5
    hold_s: float = 0.7
    paths_hz: float | None = None
    lag: LagScenario | None = None


@dataclass(frozen=True, slots=True)
class Played:
    """A stroke of a sequence: its start on the clip time line, simulation and record."""

    t0_s: float
    sim: Simulation
    record: ShotRecord
    shot: Shot


@dataclass(frozen=True, slots=True)
class Sequence:
    """A played sequence: the renderer's motion and pin source, with its truth."""

    spec: SequenceSpec
    played: tuple[Played, ...]
    layouts: tuple[Mapping[Ball, XY], ...]
    config: MatchConfig
    lag: PlayedLag | None = None

    @property
    def motions(self) -> tuple[tuple[float, Simulation], ...]:
        """``(t0_s, simulation)`` of the lag (if any) and every stroke, in clip order."""
        lag = () if self.lag is None else ((self.lag.t0_s, self.lag.sim),)
        return lag + tuple((p.t0_s, p.sim) for p in self.played)

    @property
    def duration_s(self) -> float:
        """Clip length: the last stroke, its rest, and the hold after it."""
        t0, sim = self.motions[-1]
        return t0 + sim.duration_s + self.spec.hold_s

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event on the clip time line (seconds from the clip start)."""
        return tuple(
            dataclasses.replace(e, t_s=t0 + e.t_s) for t0, sim in self.motions for e in sim.events
        )

    def positions_mm(self, t_s: F64) -> dict[Ball, F64]:
        """Ball centres (n, 2) table mm at clip times ``t_s`` (n,); NaN while off the table."""
        t = np.asarray(t_s, dtype=np.float64)
        balls = {b for layout in self.layouts for b in layout}
        out = {b: np.full((t.size, 2), np.nan) for b in balls}
        motions = self.motions
        self._fill_layout(out, t, t < motions[0][0], self.layouts[0])
        for k, (t0, sim) in enumerate(motions):
            end = motions[k + 1][0] if k + 1 < len(motions) else np.inf
            window = (t >= t0) & (t < end)
            moving = window & (t - t0 <= sim.duration_s + self.spec.hold_s)
            if moving.any():
                for b, xy in sim.positions_mm(t[moving] - t0).items():
                    out[b][moving] = xy
            self._fill_layout(
                out, t, window & ~moving, self.layouts[min(k + 1, len(self.layouts) - 1)]
            )
        return out

    @staticmethod
    def _fill_layout(
        out: dict[Ball, F64], t: F64, mask: NDArray[np.bool_], layout: Mapping[Ball, XY]
    ) -> None:
        if mask.any():
            for b, xy in layout.items():
                out[b][mask] = xy

    def pins_mm(self, t_s: float) -> dict[Pin, tuple[float, float, bool]]:
        """Pins at clip time ``t_s``: as the current stroke left them, re-stood after it."""
        for t0, sim in reversed(self.motions):
            if t_s >= t0:
                if t_s - t0 <= sim.duration_s + self.spec.hold_s:
                    return sim.pins_mm(t_s - t0)
                break
        spots = pin_spots(self.spec.discipline, self.spec.table)
        return {pin: (x, y, True) for pin, (x, y) in spots.items()}

    def stroke_times(self) -> list[tuple[float, Ball]]:
        """(t_s, cue ball) of every stroke (both of a lag), for the players' arms and cues."""
        lag = []
        if self.lag is not None:
            lag = [(self.lag.t0_s, self.lag.sim.stroke.cue_ball)]
            lag += [(self.lag.t0_s + dt, s.cue_ball) for dt, s in self.lag.sim.also]
        return lag + [(p.t0_s, p.sim.stroke.cue_ball) for p in self.played]


def play_sequence(spec: SequenceSpec, params: PhysicsParams | None = None) -> Sequence:
    """Play every beat of ``spec`` (deterministic: same spec, same sequence).

    Raises:
        SimulationError: a beat's shape was not found on its grid.
    """
    a, b = spec.cue_balls
    seven = spec.discipline is Discipline.PIN_CAROM_7  # both players shoot the red
    config = MatchConfig(
        discipline=spec.discipline, players=("A", "B"),
        cue_balls={} if seven else {"A": a, "B": b},
        target={"A": 999, "B": 999}, first_player=None if spec.lag else "A", equalizing=False,
        table=spec.table,
    )  # fmt: skip
    match = Match(config)
    layout: dict[Ball, XY] = dict(spec.start_mm)
    layouts: list[Mapping[Ball, XY]] = [dict(layout)]
    played: list[Played] = []
    t0 = spec.lead_s
    lag = None
    if spec.lag is not None:
        lag, layout = _lag_first(spec, spec.lag, match, t0, params)
        layouts = [dict(spec.lag.positions_mm), dict(layout)]
        t0 += lag.sim.duration_s + spec.hold_s + spec.lead_s
    for index, beat in enumerate(spec.beats):
        if beat.setup:
            layout = _set_up(beat, match)
            layouts[-1] = dict(layout)
        sim, shot = _search(spec, beat, layout, match, index, params)
        record = match.play(shot)
        played.append(Played(t0, sim, record, shot))
        layout = _next_layout(spec, sim, record.verdict, match)
        layouts.append(dict(layout))
        t0 += sim.duration_s + spec.hold_s + spec.lead_s
    return Sequence(spec, tuple(played), tuple(layouts), config, lag)


def _lag_first(
    spec: SequenceSpec, sc: LagScenario, match: Match, t0_s: float, params: PhysicsParams | None
) -> tuple[PlayedLag, dict[Ball, XY]]:
    """Play the lag into ``match``; the layout after it: the break position (or the rest)."""
    if sc.discipline is not spec.discipline or spec.cue_balls != (Ball.WHITE, Ball.YELLOW):
        raise SimulationError(f"sequence {spec.name}: the lag must be of its discipline")
    lag = play_lag(sc, t0_s, params)
    match.lag(lag.lag)
    state = match.state
    if state.shooter is None or lag.result.winner is None:
        if spec.beats:
            raise SimulationError(f"sequence {spec.name}: the lag must have a winner")
        return lag, dict(lag.sim.end_positions_mm)
    breaker = state.config.ball_of(state.shooter)
    other = state.config.ball_of(state.config.opponent(state.shooter))
    return lag, break_layout(spec.discipline, spec.table, breaker, other)


def _search(
    spec: SequenceSpec,
    beat: Beat,
    layout: Mapping[Ball, XY],
    match: Match,
    index: int,
    params: PhysicsParams | None,
) -> tuple[Simulation, Shot]:
    ctx = shot_context(match.state)
    want = shape(beat.shape)
    pins = pin_spots(spec.discipline, spec.table) or None  # re-stood before every stroke
    pockets = pyramid_pockets(spec.table) if spec.discipline is Discipline.PIN_CAROM_7 else None
    for stroke in grid_strokes(ctx.cue_ball, beat.search):
        try:
            sim = simulate(
                layout, stroke, spec.table, params, pins=pins, pockets=pockets,
                jump_off=beat.jump_off,
            )  # fmt: skip
        except SimulationError:
            continue  # an unlucky grid point (caps); the next one will do
        shot = sim.to_shot(index, paths_hz=spec.paths_hz)
        if want(sim, judge(shot, ctx)):
            return sim, shot
    raise SimulationError(
        f"sequence {spec.name}: stroke {index} ({beat.shape}) not found on its search grid"
    )


def _set_up(beat: Beat, match: Match) -> dict[Ball, XY]:
    ctx = shot_context(match.state)
    roles = {"cue": ctx.cue_ball, "opp": ctx.opponent_ball, "obj": ctx.object_ball}
    return {roles[role]: xy for role, xy in beat.setup}


def pin_spots(discipline: Discipline, table: Table) -> dict[Pin, XY]:
    """The pins standing before each stroke: five-pins, the 7-pin game, else none."""
    if discipline is Discipline.FIVE_PINS:
        return five_pins_layout(table)
    if discipline is Discipline.PIN_CAROM_7:
        return seven_pins_layout(table)
    return {}


def _next_layout(
    spec: SequenceSpec, sim: Simulation, verdict: Verdict, match: Match
) -> dict[Ball, XY]:
    layout = dict(sim.end_positions_mm)
    for respot in verdict.respots:
        layout[respot.ball] = respot.xy_mm
    state = match.state
    if state.shooter is None:
        return layout
    shooter_ball = state.config.ball_of(state.shooter)
    other_ball = state.config.ball_of(state.config.opponent(state.shooter))
    if state.next_position is NextPosition.BREAK:
        return break_layout(spec.discipline, spec.table, shooter_ball, other_ball)
    if state.next_position is NextPosition.BALL_IN_HAND:
        layout[shooter_ball] = _in_hand(spec.table, layout, shooter_ball, other_ball)
    return layout


def break_layout(
    discipline: Discipline, table: Table, breaker: Ball, other: Ball
) -> dict[Ball, XY]:
    """The break position [rules.md §3], table mm.

    Red on the foot spot, ``other`` on the head spot (five-pins: red on its spot,
    ``other`` on the top spot), ``breaker`` on the head string 152 mm from the head spot.
    """
    hx, hy = table.spot(Spot.HEAD)
    if discipline is Discipline.FIVE_PINS:
        return {
            Ball.RED: table.spot(Spot.RED_FIVE_PINS),
            other: table.spot(Spot.TOP),
            breaker: (hx, hy - 152.4),
        }
    return {Ball.RED: table.spot(Spot.FOOT), other: (hx, hy), breaker: (hx, hy - 152.4)}


def _in_hand(table: Table, layout: Mapping[Ball, XY], ball: Ball, fouler: Ball) -> XY:
    """Five-pins ball in hand [rules.md §6]: a free place in the half opposite the fouler."""
    fx = layout.get(fouler, (0.0, 0.0))[0]
    head_half = fx >= table.length_mm / 2.0
    x = table.length_mm * (0.25 if head_half else 0.75)
    others = [xy for b, xy in layout.items() if b != ball]
    for dx, dy in itertools.product((0.0, -150.0, 150.0), (-250.0, 250.0, 0.0, -450.0, 450.0)):
        xy = (x + dx, table.width_mm / 2.0 + dy)
        if table.is_free(xy, others):
            return xy
    raise SimulationError("no free place for the ball in hand")  # pragma: no cover


def single_stroke(sc: Scenario, lead_s: float = 1.5, hold_s: float = 1.0) -> Sequence:
    """A one-stroke sequence from a registered scenario, judged by the referee."""
    a = sc.stroke.cue_ball
    b = sc.opponent_ball
    spec = SequenceSpec(
        name=sc.name, description=sc.description, discipline=sc.discipline,
        start_mm=sc.positions_mm, beats=(), table=sc.table, cue_balls=(a, b),
        lead_s=lead_s, hold_s=hold_s,
    )  # fmt: skip
    sim = sc.simulate()
    shot = sim.to_shot(0)
    config = MatchConfig(
        discipline=sc.discipline, players=("A", "B"),
        cue_balls={} if sc.discipline is Discipline.PIN_CAROM_7 else {"A": a, "B": b},
        target={"A": 999, "B": 999}, first_player="A", equalizing=False, table=sc.table,
        start_count=sc.start_count,
    )  # fmt: skip
    state = new_match(config)
    if not sc.is_break:  # scenarios other than the break start mid-game
        state = dataclasses.replace(state, next_position=NextPosition.PLAY_ON)
    record, _ = apply_shot(state, shot)
    layouts = (dict(sc.positions_mm), dict(sim.end_positions_mm))
    return Sequence(spec, (Played(lead_s, sim, record, shot),), layouts, config)


def lag_sequence(sc: LagScenario, lead_s: float = 1.5, hold_s: float = 1.0) -> Sequence:
    """A clip of the lag ``sc`` alone (no strokes after it), judged by the referee."""
    spec = SequenceSpec(
        name=sc.name, description=sc.description, discipline=sc.discipline,
        start_mm=sc.positions_mm, beats=(), table=sc.table, lead_s=lead_s, hold_s=hold_s,
        lag=sc,
    )  # fmt: skip
    return play_sequence(spec)
