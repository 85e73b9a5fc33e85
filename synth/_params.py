"""Physical parameters, the stroke, scripted events and the simulator's error.

All parameters are SI (metres, seconds, radians) unless the name says ``_mm``.
The defaults describe a heated match table (Simonis-type cloth) with 61.5 mm,
210 g balls; the rolling resistance and the cushion model were tuned against
real tracked shots (``docs/physics.md`` says how, and on which shots).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from referee import Ball, CaromError

__all__ = ["JumpOff", "PhysicsParams", "SimulationError", "Stroke"]


class SimulationError(CaromError):
    """The simulator cannot run this input, or a run did not settle within its caps."""


# (name, low, high) limits checked when a PhysicsParams is built.
_LIMITS: dict[str, tuple[float, float]] = {
    "g_mps2": (1.0, 20.0),
    "mass_kg": (0.05, 1.0),
    "u_s": (0.01, 1.0),
    "u_r": (0.0005, 0.1),
    "u_sp": (0.0, 0.2),
    "e_b": (0.0, 1.0),
    "u_b": (0.0, 0.5),
    "e_c0": (0.0, 1.0),
    "e_c_slope_spm": (0.0, 0.5),
    "e_c_min": (0.0, 1.0),
    "u_c": (0.0, 1.0),
    "cushion_height_mm": (1.0, 100.0),
    "rest_speed_mps": (0.0, 0.5),
    "merge_gap_mm": (0.0, 50.0),
    "pin_radius_mm": (0.0, 30.0),
    "pin_speed_factor": (0.0, 1.0),
    "pocket_radius_mm": (10.0, 200.0),
    "max_events": (10.0, 1.0e6),
    "max_time_s": (1.0, 3600.0),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class PhysicsParams:
    """Coefficients of the motion and collision models (SI units unless ``_mm``).

    Motion on the cloth (Leckie & Greenspan's phase model):

    * ``u_s``: sliding friction ball-cloth; a sliding ball's contact point slows
      at ``3.5 * u_s * g``.
    * ``u_r``: rolling resistance; a rolling ball slows at ``u_r * g`` (m/s^2).
      Tuned on real shots: the median rolling deceleration of the first 30 shots.
    * ``u_sp``: spinning resistance; vertical spin decays at ``5 u_sp g / (2 R)``
      rad/s^2 (pooltool's convention: 0.0137 gives ~10.9 rad/s^2).

    Collisions:

    * ``e_b``, ``u_b``: ball-ball normal restitution and friction (throw).
    * ``e_c0``, ``e_c_slope_spm``, ``e_c_min``: cushion restitution
      ``max(e_c_min, e_c0 - e_c_slope_spm * v_n)`` for a normal speed ``v_n`` in m/s.
    * ``u_c``: cushion friction; ``cushion_height_mm``: height of the cushion
      nose above the cloth (contact above the ball's equator).
    * ``rest_speed_mps``: a cushion bounce slower than this ends the normal motion
      (the ball then runs along the cushion): the guard against endless bounces.
    * ``merge_gap_mm``: a repeated contact of the same pair (two balls, or a ball and
      a cushion) is no new event unless the pair separated by more than this.
    * ``pin_radius_mm``: a pin falls when a ball centre comes within
      ``R + pin_radius_mm`` of it; the ball's velocity and spin are then scaled
      by ``pin_speed_factor``.
    * ``pocket_radius_mm``: a ball whose centre enters this circle is pocketed.
    * ``max_events``, ``max_time_s``: caps after which SimulationError is raised.
    """

    g_mps2: float = 9.81
    mass_kg: float = 0.21
    u_s: float = 0.2
    u_r: float = 0.0049
    u_sp: float = 0.0137
    e_b: float = 0.93
    u_b: float = 0.05
    e_c0: float = 0.95
    e_c_slope_spm: float = 0.0
    e_c_min: float = 0.5
    u_c: float = 0.1
    cushion_height_mm: float = 37.0
    rest_speed_mps: float = 0.02
    merge_gap_mm: float = 2.0
    pin_radius_mm: float = 9.0
    pin_speed_factor: float = 0.95
    pocket_radius_mm: float = 55.0
    max_events: int = 20000
    max_time_s: float = 300.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = float(getattr(self, f.name))
            low, high = _LIMITS[f.name]
            if not (math.isfinite(value) and low <= value <= high):
                raise SimulationError(f"PhysicsParams.{f.name} must be {low}..{high}, got {value}")

    def cushion_restitution(self, v_n_mps: float) -> float:
        """Normal restitution of a cushion hit at normal speed ``v_n_mps`` (m/s)."""
        return max(self.e_c_min, self.e_c0 - self.e_c_slope_spm * v_n_mps)


@dataclass(frozen=True, slots=True)
class Stroke:
    """The cue strike: the cue ball's speed and direction just after the tip left it.

    Args:
        cue_ball: the ball struck.
        speed_mps: the cue ball's initial speed in m/s (0 < speed <= 15).
        heading_deg: direction of travel in the table frame, degrees
            counter-clockwise from +x: 0 toward the foot cushion (+x),
            90 toward the right cushion (+y).
        follow: vertical tip offset as a fraction of the radius, -0.8..0.8;
            positive is follow (topspin), negative draw; 0.4 is natural roll.
        side: horizontal tip offset, -0.8..0.8; positive is right english (tip
            right of centre as the shooter looks along the heading), which spins
            the ball counter-clockwise seen from above.

    The cue is level: no masse, no jump, no squirt (the heading is the ball's).
    """

    cue_ball: Ball
    speed_mps: float
    heading_deg: float
    follow: float = 0.0
    side: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.speed_mps) and 0.0 < self.speed_mps <= 15.0):
            raise SimulationError(f"Stroke.speed_mps must be in (0, 15], got {self.speed_mps}")
        if not math.isfinite(self.heading_deg):
            raise SimulationError(f"Stroke.heading_deg must be finite, got {self.heading_deg}")
        for name in ("follow", "side"):
            value = getattr(self, name)
            if not (math.isfinite(value) and -0.8 <= value <= 0.8):
                raise SimulationError(f"Stroke.{name} must be -0.8..0.8, got {value}")


@dataclass(frozen=True, slots=True)
class JumpOff:
    """A scripted jump: ``ball`` leaves the table at its ``cushion_contact``-th cushion.

    There is no 3-D flight: at that cushion contact (counted from 1 over the
    ball's CushionContact events) the simulator records the contact, then an
    OffTable event at the same time, and removes the ball (NaN positions after).
    """

    ball: Ball
    cushion_contact: int = 1

    def __post_init__(self) -> None:
        if self.cushion_contact < 1:
            raise SimulationError(
                f"JumpOff.cushion_contact must be >= 1, got {self.cushion_contact}"
            )
