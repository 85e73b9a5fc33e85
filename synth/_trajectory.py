"""The result of a simulation: exact events and piecewise-polynomial trajectories.

Positions are evaluated from the same segments the event solver used, so a ball
contact's two centres are exactly ``2R`` apart at its time and a cushion contact's
centre exactly ``R`` from that cushion. Public positions are table millimetres
(x from the head cushion, y from the left cushion); velocities m/s; angular
velocities rad/s in the table frame (z up); times seconds from the cue strike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from referee import Ball, Event, Pin, PinDown, Shot, Table
from synth._motion import Phase, Segment
from synth._params import PhysicsParams, Stroke

__all__ = ["SegmentStack", "Simulation"]

F64 = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class SegmentStack:
    """One ball's segments as arrays (k segments), for vectorised evaluation."""

    t0_s: F64
    duration_s: F64
    phase: NDArray[np.int64]
    r0_m: F64
    v0_mps: F64
    a_mps2: F64
    w0_radps: F64
    dw_radps2: F64
    wz_decel_radps2: F64
    removed_s: float

    @classmethod
    def of(cls, segments: Sequence[Segment], removed_s: float = math.inf) -> SegmentStack:
        """Stack ``segments`` (sorted by start); NaN after ``removed_s``."""
        return cls(
            np.array([s.t0_s for s in segments]),
            np.array([s.duration_s for s in segments]),
            np.array([int(s.phase) for s in segments], dtype=np.int64),
            np.array([s.r0_m for s in segments]),
            np.array([s.v0_mps for s in segments]),
            np.array([s.a_mps2 for s in segments]),
            np.array([s.w0_radps for s in segments]),
            np.array([s.dw_radps2 for s in segments]),
            np.array([s.wz_decel_radps2 for s in segments]),
            removed_s,
        )

    def _index(self, t_s: F64) -> tuple[NDArray[np.intp], F64, NDArray[np.bool_]]:
        idx = np.clip(np.searchsorted(self.t0_s, t_s, side="right") - 1, 0, None)
        tau = np.clip(t_s - self.t0_s[idx], 0.0, self.duration_s[idx])
        return idx, tau, t_s > self.removed_s

    def positions_m(self, t_s: F64) -> F64:
        """Centres (n, 2) in metres at times ``t_s`` (n,); NaN once removed."""
        idx, tau, gone = self._index(t_s)
        t2 = tau[:, None]
        r = self.r0_m[idx] + self.v0_mps[idx] * t2 + 0.5 * self.a_mps2[idx] * t2 * t2
        r[gone] = np.nan
        return r

    def velocities_mps(self, t_s: F64) -> F64:
        """Velocities (n, 2) in m/s; NaN once removed."""
        idx, tau, gone = self._index(t_s)
        v = self.v0_mps[idx] + self.a_mps2[idx] * tau[:, None]
        v[gone] = np.nan
        return v

    def spins_radps(self, t_s: F64) -> F64:
        """Angular velocities (n, 3) in rad/s; NaN once removed."""
        idx, tau, gone = self._index(t_s)
        xy = self.w0_radps[idx, :2] + self.dw_radps2[idx] * tau[:, None]
        wz0 = self.w0_radps[idx, 2]
        wz = np.sign(wz0) * np.maximum(np.abs(wz0) - self.wz_decel_radps2[idx] * tau, 0.0)
        w = np.column_stack((xy, wz))
        w[gone] = np.nan
        return w

    def phases(self, t_s: F64) -> NDArray[np.int64]:
        """Phase (:class:`Phase` values) at each time; -1 once removed."""
        idx, _, gone = self._index(t_s)
        out = self.phase[idx].copy()
        out[gone] = -1
        return out


def _times(t_s: ArrayLike) -> F64:
    t = np.asarray(t_s, dtype=np.float64)
    if t.ndim != 1:
        raise ValueError(f"t_s: expected shape (n,), got {t.shape}")
    return t


@dataclass(frozen=True, slots=True, kw_only=True)
class Simulation:
    """One simulated shot: its contact events and every ball's motion.

    Attributes:
        events: referee events sorted by ``t_s`` (seconds from the strike).
        duration_s: when the last ball stopped (or left the table).
        stroke: the stroke simulated.
        table: the table (its ball diameter sets R).
        params: the physics used.
        start_positions_mm: where the balls stood (table mm).
        pins_standing: pins up at the start (a pin whose spot a ball covers is off).
        pin_spots_mm: where those pins stand, table mm.
        removed_s: balls that left the table or were pocketed, with the time.
        also: later strikes of other balls ``(t_s, stroke)`` (the lag's second ball).
    """

    events: tuple[Event, ...]
    duration_s: float
    stroke: Stroke
    table: Table
    params: PhysicsParams
    start_positions_mm: Mapping[Ball, tuple[float, float]]
    pins_standing: frozenset[Pin]
    pin_spots_mm: Mapping[Pin, tuple[float, float]]
    removed_s: Mapping[Ball, float]
    stacks: Mapping[Ball, SegmentStack] = field(repr=False)
    also: tuple[tuple[float, Stroke], ...] = ()

    @property
    def balls(self) -> tuple[Ball, ...]:
        """The balls on the table at the start."""
        return tuple(self.stacks)

    def positions_mm(self, t_s: ArrayLike) -> dict[Ball, F64]:
        """Every ball's centre (n, 2) in table mm at times ``t_s`` (n,); NaN once removed."""
        t = _times(t_s)
        return {b: 1000.0 * s.positions_m(t) for b, s in self.stacks.items()}

    def position_mm(self, ball: Ball, t_s: float) -> tuple[float, float]:
        """Centre of ``ball`` at ``t_s`` in table mm (NaN once removed)."""
        x, y = 1000.0 * self.stacks[ball].positions_m(np.array([t_s]))[0]
        return float(x), float(y)

    def velocities_mps(self, t_s: ArrayLike) -> dict[Ball, F64]:
        """Every ball's velocity (n, 2) in m/s at times ``t_s``."""
        t = _times(t_s)
        return {b: s.velocities_mps(t) for b, s in self.stacks.items()}

    def velocity_mps(self, ball: Ball, t_s: float) -> tuple[float, float]:
        """Velocity of ``ball`` at ``t_s`` in m/s, table frame."""
        vx, vy = self.stacks[ball].velocities_mps(np.array([t_s]))[0]
        return float(vx), float(vy)

    def angular_velocities_radps(self, t_s: ArrayLike) -> dict[Ball, F64]:
        """Every ball's angular velocity (n, 3) in rad/s (table frame, z up)."""
        t = _times(t_s)
        return {b: s.spins_radps(t) for b, s in self.stacks.items()}

    def angular_velocity_radps(self, ball: Ball, t_s: float) -> tuple[float, float, float]:
        """Angular velocity of ``ball`` at ``t_s`` in rad/s (table frame, z up)."""
        wx, wy, wz = self.stacks[ball].spins_radps(np.array([t_s]))[0]
        return float(wx), float(wy), float(wz)

    def phase(self, ball: Ball, t_s: float) -> Phase | None:
        """Motion phase of ``ball`` at ``t_s`` (None once removed)."""
        value = int(self.stacks[ball].phases(np.array([t_s]))[0])
        return None if value < 0 else Phase(value)

    def moving(self, ball: Ball, t_s: float) -> bool:
        """True while ``ball`` slides, rolls or spins in place at ``t_s``."""
        phase = self.phase(ball, t_s)
        return phase is not None and phase is not Phase.STATIONARY

    def pins_mm(self, t_s: float) -> dict[Pin, tuple[float, float, bool]]:
        """Each pin standing at the start: ``(x_mm, y_mm, standing)`` at ``t_s``."""
        down = {e.pin: e.t_s for e in self.events if isinstance(e, PinDown)}
        return {
            pin: (x, y, t_s < down.get(pin, math.inf)) for pin, (x, y) in self.pin_spots_mm.items()
        }

    def energy_j(self, t_s: float) -> float:
        """Total kinetic energy (translation and rotation) of the balls on the table, J."""
        t = np.array([t_s])
        radius_m = self.table.radius_mm / 1000.0
        inertia = 0.4 * self.params.mass_kg * radius_m**2
        total = 0.0
        for s in self.stacks.values():
            v, w = s.velocities_mps(t)[0], s.spins_radps(t)[0]
            if np.all(np.isfinite(v)):
                total += 0.5 * self.params.mass_kg * float(v @ v) + 0.5 * inertia * float(w @ w)
        return total

    @property
    def end_positions_mm(self) -> dict[Ball, tuple[float, float]]:
        """Where the balls still on the table came to rest, in table mm."""
        return {
            b: self.position_mm(b, self.duration_s + 1.0)
            for b in self.stacks
            if b not in self.removed_s
        }

    def to_shot(self, index: int = 0, *, paths_hz: float | None = None) -> Shot:
        """The referee's view of this shot (events, rest positions, optional paths).

        Args:
            index: the shot's index in its match.
            paths_hz: if given, sample ``paths_mm`` at this rate (balkline zones).
        """
        paths: dict[Ball, tuple[tuple[float, float, float], ...]] = {}
        if paths_hz is not None:
            t = np.arange(0.0, self.duration_s + 1.0 / paths_hz, 1.0 / paths_hz)
            for ball, xy in self.positions_mm(t).items():
                ok = np.all(np.isfinite(xy), axis=1)
                paths[ball] = tuple(
                    (float(ti), float(p[0]), float(p[1]))
                    for ti, p in zip(t[ok], xy[ok], strict=True)
                )
        return Shot(
            index=index,
            cue_ball=self.stroke.cue_ball,
            events=self.events,
            start_s=0.0,
            end_s=self.duration_s,
            start_positions_mm=dict(self.start_positions_mm),
            end_positions_mm=self.end_positions_mm,
            paths_mm=paths,
            pins_standing=self.pins_standing or None,
        )
