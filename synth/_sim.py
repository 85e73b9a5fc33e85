"""The event loop: from a stroke to every contact and every ball's motion.

Theory of operation. Each ball holds its current :class:`Segment` (one motion
phase, a quadratic in time). At every step the loop asks, from the current time,
when the next thing happens: a ball's phase ends by itself; two balls touch; a
ball reaches a cushion, a standing pin or a pocket. All of these are polynomial
roots (``_collide``), valid until the earlier of the phases involved ends. The
earliest one is applied: the balls it touches get new states (``_impulse``) and
start new segments; every other ball keeps its segment. The loop ends when no
ball moves, so the last event time is the shot's duration.

Events for the referee are recorded as they happen, with two rules:

* a repeated contact of the same pair (two balls, or a ball and a cushion) in
  which the pair never opened by more than ``merge_gap_mm`` since its previous
  contact is the same contact (a ball running along a cushion, pressed balls);
* a scripted jump (:class:`JumpOff`) turns the chosen cushion contact into
  that contact plus an :class:`OffTable` at the same instant.

A second ball may be struck later (``also``: the lag, where both players strike at
about the same time): its strike is one more candidate event at a fixed time.

Caps on the number of steps and on the time raise :class:`SimulationError`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from referee import (
    MATCH_TABLE,
    Ball,
    BallContact,
    Cushion,
    CushionContact,
    Event,
    OffTable,
    Pin,
    PinDown,
    Pocket,
    Pocketed,
    Table,
)
from synth import _impulse
from synth._collide import circle_contact, first_contact, line_gap, pair_contact
from synth._motion import BallState, Cloth, Phase, Segment, start_segment
from synth._params import JumpOff, PhysicsParams, SimulationError, Stroke
from synth._trajectory import SegmentStack, Simulation

__all__ = ["simulate"]

XY = tuple[float, float]
_TOL_M = 1e-9  # a gap this small (1 nm) is contact
_PLACE_TOL_MM = 0.01  # placement tolerance for touching balls and cushions
# Cushion -> (axis, is the high side, outward normal).
_CUSHIONS: dict[Cushion, tuple[int, bool, tuple[float, float]]] = {
    Cushion.HEAD: (0, False, (-1.0, 0.0)),
    Cushion.FOOT: (0, True, (1.0, 0.0)),
    Cushion.LEFT: (1, False, (0.0, -1.0)),
    Cushion.RIGHT: (1, True, (0.0, 1.0)),
}


@dataclass(slots=True)
class _Track:
    segments: list[Segment]
    removed_s: float | None = None
    cushions: int = 0

    @property
    def now(self) -> Segment:
        return self.segments[-1]

    @property
    def rolling_or_sliding(self) -> bool:
        return self.removed_s is None and self.now.phase >= Phase.ROLLING


@dataclass(frozen=True, slots=True)
class _Next:
    t_s: float
    kind: str  # "phase", "pair", "cushion", "pin", "pocket", "strike"
    ball: Ball
    other: Ball | Cushion | Pin | Pocket | None = None


@dataclass(slots=True)
class _World:
    table: Table
    params: PhysicsParams
    cloth: Cloth
    tracks: dict[Ball, _Track]
    pins: dict[Pin, np.ndarray]
    pockets: dict[Pocket, np.ndarray]
    jump_off: tuple[JumpOff, ...]
    pin_spots_mm: dict[Pin, XY]
    pending: list[tuple[float, Stroke]] = field(default_factory=list)
    t_s: float = 0.0
    events: list[Event] = field(default_factory=list)
    last_contact: dict[tuple[Ball, Ball | Cushion], float] = field(default_factory=dict)

    @property
    def r_m(self) -> float:
        return self.cloth.radius_m

    def live(self) -> list[Ball]:
        return [b for b, tr in self.tracks.items() if tr.removed_s is None]

    def candidates(self) -> Iterator[_Next]:
        live = self.live()
        for t_s, stroke in self.pending:
            yield _Next(t_s, "strike", stroke.cue_ball)
        for b in live:
            seg = self.tracks[b].now
            if seg.moving and math.isfinite(seg.end_s):
                yield _Next(seg.end_s, "phase", b)
        for a, b in combinations(live, 2):
            found = self._pair(a, b)
            if found is not None:
                yield found
        for b in live:
            if self.tracks[b].rolling_or_sliding:
                yield from self._fixed(b)

    def _pair(self, a: Ball, b: Ball) -> _Next | None:
        ta, tb = self.tracks[a], self.tracks[b]
        if not (ta.rolling_or_sliding or tb.rolling_or_sliding):
            return None
        t_max = min(ta.now.end_s, tb.now.end_s) - self.t_s
        tau = pair_contact(ta.now, tb.now, self.t_s, 2.0 * self.r_m, t_max, 4.0 * self.r_m * _TOL_M)
        return None if tau is None else _Next(self.t_s + tau, "pair", a, b)

    def _fixed(self, b: Ball) -> Iterator[_Next]:
        seg = self.tracks[b].now
        t_max = seg.end_s - self.t_s
        size = (self.table.length_mm / 1000.0, self.table.width_mm / 1000.0)
        for cushion, (axis, high, _) in _CUSHIONS.items():
            limit = size[axis] - self.r_m if high else self.r_m
            tau = first_contact(line_gap(seg, self.t_s, axis, limit, high), t_max, _TOL_M)
            if tau is not None:
                yield _Next(self.t_s + tau, "cushion", b, cushion)
        reach_pin = self.r_m + self.params.pin_radius_mm / 1000.0
        for pin, xy in self.pins.items():
            tau = circle_contact(seg, xy, self.t_s, reach_pin, t_max, _TOL_M)
            if tau is not None:
                yield _Next(self.t_s + tau, "pin", b, pin)
        reach_pocket = self.params.pocket_radius_mm / 1000.0
        for pocket, xy in self.pockets.items():
            tau = circle_contact(seg, xy, self.t_s, reach_pocket, t_max, _TOL_M)
            if tau is not None:
                yield _Next(self.t_s + tau, "pocket", b, pocket)

    def step(self) -> bool:
        """Apply the earliest next event; False when nothing moves any more."""
        best: _Next | None = None
        for c in self.candidates():
            if best is None or c.t_s < best.t_s:
                best = c
        if best is None:
            return False
        if best.t_s > self.params.max_time_s:
            raise SimulationError(f"balls still moving after max_time_s={self.params.max_time_s}")
        self.t_s = max(self.t_s, best.t_s)
        self._apply(best)
        return True

    def _apply(self, nxt: _Next) -> None:
        match nxt.kind, nxt.other:
            case "phase", _:
                self._restart(nxt.ball, self.tracks[nxt.ball].now.end_state())
            case "pair", Ball() as other:
                self._collide_balls(nxt.ball, other)
            case "cushion", Cushion() as cushion:
                self._hit_cushion(nxt.ball, cushion)
            case "pin", Pin() as pin:
                self._knock_pin(nxt.ball, pin)
            case "pocket", Pocket() as pocket:
                self.events.append(Pocketed(t_s=self.t_s, ball=nxt.ball, pocket=pocket))
                self._remove(nxt.ball)
            case "strike", _:
                self._strike(nxt.ball)

    def _strike(self, ball: Ball) -> None:
        stroke = next(s for t, s in self.pending if s.cue_ball == ball)
        self.pending = [(t, s) for t, s in self.pending if s.cue_ball != ball]
        if self.tracks[ball].removed_s is None:
            v, w = _impulse.strike(stroke, self.r_m)
            self._restart(ball, BallState(self._state(ball).r_m, v, w))

    def _state(self, ball: Ball) -> BallState:
        return self.tracks[ball].now.state(self.t_s)

    def _restart(self, ball: Ball, state: BallState) -> None:
        self.tracks[ball].segments.append(start_segment(self.t_s, state, self.cloth))

    def _remove(self, ball: Ball) -> None:
        track = self.tracks[ball]
        track.removed_s = self.t_s
        track.segments.append(start_segment(self.t_s, _at_rest(self._state(ball)), self.cloth))

    def _collide_balls(self, a: Ball, b: Ball) -> None:
        sa, sb = _impulse.ball_ball(self._state(a), self._state(b), self.params, self.r_m)
        if self._is_new_contact(a, b):
            self.events.append(BallContact(t_s=self.t_s, balls=(a, b)))
        self._restart(a, sa)
        self._restart(b, sb)

    def _hit_cushion(self, ball: Ball, cushion: Cushion) -> None:
        normal = np.array(_CUSHIONS[cushion][2])
        self._restart(ball, _impulse.cushion(self._state(ball), normal, self.params, self.r_m))
        if not self._is_new_contact(ball, cushion):
            return
        self.events.append(CushionContact(t_s=self.t_s, ball=ball, cushion=cushion))
        track = self.tracks[ball]
        track.cushions += 1
        if any(j.ball == ball and j.cushion_contact == track.cushions for j in self.jump_off):
            self.events.append(OffTable(t_s=self.t_s, ball=ball))
            self._remove(ball)

    def _knock_pin(self, ball: Ball, pin: Pin) -> None:
        del self.pins[pin]
        self.events.append(PinDown(t_s=self.t_s, pin=pin, ball=ball))
        self._restart(ball, _impulse.pin_knock(self._state(ball), self.params.pin_speed_factor))

    def _is_new_contact(self, ball: Ball, other: Ball | Cushion) -> bool:
        key = (ball, other)
        if isinstance(other, Ball) and other < ball:
            key = (other, ball)
        previous = self.last_contact.get(key)
        self.last_contact[key] = self.t_s
        if previous is None:
            return True
        return self._max_gap_m(ball, other, previous) > self.params.merge_gap_mm / 1000.0

    def _max_gap_m(self, ball: Ball, other: Ball | Cushion, since_s: float) -> float:
        t = np.linspace(since_s, self.t_s, 257)
        r = SegmentStack.of(self.tracks[ball].segments).positions_m(t)
        if isinstance(other, Ball):
            q = SegmentStack.of(self.tracks[other].segments).positions_m(t)
            return float(np.max(np.hypot(*(r - q).T))) - 2.0 * self.r_m
        axis, high, _ = _CUSHIONS[other]
        size = self.table.length_mm if axis == 0 else self.table.width_mm
        coord = r[:, axis]
        gap = (size / 1000.0 - coord) if high else coord
        return float(np.max(gap)) - self.r_m


def _at_rest(state: BallState) -> BallState:
    return BallState(state.r_m, np.zeros(2), np.zeros(3))


def simulate(
    positions_mm: Mapping[Ball, XY],
    stroke: Stroke,
    table: Table = MATCH_TABLE,
    params: PhysicsParams | None = None,
    *,
    pins: Mapping[Pin, XY] | None = None,
    pockets: Mapping[Pocket, XY] | None = None,
    jump_off: JumpOff | Sequence[JumpOff] = (),
    also: Sequence[tuple[float, Stroke]] = (),
) -> Simulation:
    """Simulate one stroke (and any later strikes) until every ball has stopped.

    Args:
        positions_mm: ball centres in table mm (x from the head cushion, y from the
            left cushion); balls may touch (frozen) but not overlap.
        stroke: the cue strike; ``stroke.cue_ball`` must be in ``positions_mm``.
        table: playing surface and ball size.
        params: physics; the tuned defaults when None.
        pins: standing pins' centres in table mm (five-pins, 7-pin game). A pin
            whose spot a ball covers at the start is not standing.
        pockets: pocket circle centres in table mm (pocket table), radius
            ``params.pocket_radius_mm``.
        jump_off: scripted jumps off the table at a given cushion contact.
        also: further strikes ``(t_s, stroke)`` of other balls, ``t_s`` >= 0 seconds
            after ``stroke`` (the lag: the second player strikes a moment later).

    Returns:
        The simulation: events and trajectories.

    Raises:
        SimulationError: bad placement, or the caps on steps or time were hit.
    """
    params = PhysicsParams() if params is None else params
    jumps = (jump_off,) if isinstance(jump_off, JumpOff) else tuple(jump_off)
    world = _build(positions_mm, stroke, table, params, pins or {}, pockets or {}, jumps)
    world.pending = _later_strikes(positions_mm, stroke, also)
    steps = 0
    while world.step():
        steps += 1
        if steps > params.max_events:
            raise SimulationError(f"more than max_events={params.max_events} steps")
    return _result(world, positions_mm, stroke, tuple(also))


def _later_strikes(
    positions_mm: Mapping[Ball, XY], stroke: Stroke, also: Sequence[tuple[float, Stroke]]
) -> list[tuple[float, Stroke]]:
    struck = [stroke.cue_ball, *(s.cue_ball for _, s in also)]
    if len(set(struck)) != len(struck):
        raise SimulationError(f"also: each ball may be struck once, got {struck}")
    for t_s, s in also:
        if s.cue_ball not in positions_mm:
            raise SimulationError(f"also: struck ball {s.cue_ball} has no position")
        if not (math.isfinite(t_s) and t_s >= 0.0):
            raise SimulationError(f"also: strike time must be >= 0 s, got {t_s}")
    return sorted(also, key=lambda ts: ts[0])


def _build(
    positions_mm: Mapping[Ball, XY],
    stroke: Stroke,
    table: Table,
    params: PhysicsParams,
    pins: Mapping[Pin, XY],
    pockets: Mapping[Pocket, XY],
    jumps: tuple[JumpOff, ...],
) -> _World:
    _check_placement(positions_mm, stroke, table, pockets, params)
    cloth = Cloth.of(params, table.radius_mm / 1000.0)
    tracks = {}
    for ball, xy in positions_mm.items():
        state = BallState(np.array(xy, dtype=np.float64) / 1000.0, np.zeros(2), np.zeros(3))
        if ball == stroke.cue_ball:
            v, w = _impulse.strike(stroke, cloth.radius_m)
            state = BallState(state.r_m, v, w)
        tracks[ball] = _Track([start_segment(0.0, state, cloth)])
    reach_mm = table.radius_mm + params.pin_radius_mm
    standing = {
        pin: np.array(xy, dtype=np.float64) / 1000.0
        for pin, xy in pins.items()
        if all(math.dist(xy, b) >= reach_mm for b in positions_mm.values())
    }
    holes = {p: np.array(xy, dtype=np.float64) / 1000.0 for p, xy in pockets.items()}
    spots = {pin: (float(pins[pin][0]), float(pins[pin][1])) for pin in standing}
    return _World(table, params, cloth, tracks, standing, holes, jumps, spots)


def _check_placement(
    positions_mm: Mapping[Ball, XY],
    stroke: Stroke,
    table: Table,
    pockets: Mapping[Pocket, XY],
    params: PhysicsParams,
) -> None:
    if stroke.cue_ball not in positions_mm:
        raise SimulationError(f"cue ball {stroke.cue_ball} has no position")
    if params.cushion_height_mm <= table.radius_mm:
        raise SimulationError(
            f"cushion_height_mm must exceed the ball radius {table.radius_mm}, "
            f"got {params.cushion_height_mm}"
        )
    r = table.radius_mm
    for ball, (x, y) in positions_mm.items():
        inside_x = r - _PLACE_TOL_MM <= x <= table.length_mm - r + _PLACE_TOL_MM
        if not (inside_x and r - _PLACE_TOL_MM <= y <= table.width_mm - r + _PLACE_TOL_MM):
            raise SimulationError(f"{ball} at ({x}, {y}) mm is not on the table")
        for pocket, xy in pockets.items():
            if math.dist((x, y), xy) < params.pocket_radius_mm:
                raise SimulationError(f"{ball} at ({x}, {y}) mm is in the {pocket} pocket")
    for (a, pa), (b, pb) in combinations(positions_mm.items(), 2):
        if math.dist(pa, pb) < 2.0 * r - _PLACE_TOL_MM:
            raise SimulationError(f"{a} and {b} overlap: centres {math.dist(pa, pb):.3f} mm apart")


def _result(
    world: _World,
    positions_mm: Mapping[Ball, XY],
    stroke: Stroke,
    also: tuple[tuple[float, Stroke], ...],
) -> Simulation:
    stacks = {
        b: SegmentStack.of(tr.segments, math.inf if tr.removed_s is None else tr.removed_s)
        for b, tr in world.tracks.items()
    }
    removed = {b: tr.removed_s for b, tr in world.tracks.items() if tr.removed_s is not None}
    events = tuple(sorted(world.events, key=lambda e: e.t_s))
    pins_standing = frozenset(world.pin_spots_mm)
    return Simulation(
        events=events,
        duration_s=world.t_s,
        stroke=stroke,
        table=world.table,
        params=world.params,
        start_positions_mm={b: (float(x), float(y)) for b, (x, y) in positions_mm.items()},
        pins_standing=pins_standing,
        pin_spots_mm=world.pin_spots_mm,
        removed_s=removed,
        stacks=stacks,
        also=also,
    )
