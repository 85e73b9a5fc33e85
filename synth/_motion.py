"""Analytic motion of one ball on the cloth between two events.

Theory of operation (Leckie & Greenspan's event-based model, as pooltool uses it).
A ball is in one of four phases; within a phase its centre follows a quadratic in
time and its horizontal spin a line, so every event time is a polynomial root:

* SLIDING: the contact point with the cloth slips with velocity
  ``u = v + w x (-R k)``. Friction ``-u_s m g u/|u|`` keeps a constant direction
  while ``|u|`` falls at ``3.5 u_s g``, so the phase lasts ``2|u| / (7 u_s g)``
  and the path is a parabola (the curve of a masse or a drawn ball).
* ROLLING: ``v = w x (R k)``; the ball slows at ``u_r g`` along its velocity and
  stops after ``|v| / (u_r g)``.
* SPINNING: in place, only the vertical spin ``w_z`` is left.
* STATIONARY.

The vertical spin decays at ``5 u_sp g / (2R)`` in every phase, independently.
Frame: table frame, x toward the foot cushion, y toward the right cushion, z up;
positions in metres here (the public API speaks millimetres).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum

import numpy as np
from numpy.typing import NDArray

from synth._params import PhysicsParams

__all__ = ["BallState", "Cloth", "Phase", "Segment", "start_segment"]

Vec = NDArray[np.float64]

# Below these a velocity, slip or spin is zero (m/s, m/s, rad/s).
_EPS_V = 1e-9
_EPS_W = 1e-9


class Phase(IntEnum):
    """Motion phase of a ball, from quiet to lively."""

    STATIONARY = 0
    SPINNING = 1
    ROLLING = 2
    SLIDING = 3


@dataclass(frozen=True, slots=True)
class Cloth:
    """Constants of the cloth model for one ball size (SI)."""

    radius_m: float
    g_mps2: float
    u_s: float
    u_r: float
    spin_decel_radps2: float

    @classmethod
    def of(cls, params: PhysicsParams, radius_m: float) -> Cloth:
        """The cloth constants of ``params`` for balls of radius ``radius_m``."""
        decel = 5.0 * params.u_sp * params.g_mps2 / (2.0 * radius_m)
        return cls(radius_m, params.g_mps2, params.u_s, params.u_r, decel)


@dataclass(frozen=True, slots=True)
class BallState:
    """Position ``r_m`` (2,), velocity ``v_mps`` (2,), angular velocity ``w_radps`` (3,)."""

    r_m: Vec
    v_mps: Vec
    w_radps: Vec


def slip(v_mps: Vec, w_radps: Vec, radius_m: float) -> Vec:
    """Velocity (2,) of the point of the ball touching the cloth, m/s."""
    return np.array([v_mps[0] - radius_m * w_radps[1], v_mps[1] + radius_m * w_radps[0]])


def rolling_spin(v_mps: Vec, radius_m: float) -> Vec:
    """Horizontal spin (2,) of a ball rolling without slip at ``v_mps``: k x v / R."""
    return np.array([-v_mps[1] / radius_m, v_mps[0] / radius_m])


@dataclass(frozen=True, slots=True)
class Segment:
    """One phase of one ball: valid from ``t0_s`` for at most ``duration_s``.

    ``r(t) = r0 + v0 tau + a tau^2 / 2`` and ``w_xy(t) = w0_xy + dw_xy tau`` with
    ``tau = t - t0_s``; ``w_z`` decays toward 0 at ``wz_decel_radps2``.
    """

    t0_s: float
    duration_s: float
    phase: Phase
    r0_m: Vec
    v0_mps: Vec
    a_mps2: Vec
    w0_radps: Vec
    dw_radps2: Vec
    wz_decel_radps2: float
    radius_m: float

    @property
    def end_s(self) -> float:
        """When this phase ends by itself (``inf`` when stationary)."""
        return self.t0_s + self.duration_s

    @property
    def moving(self) -> bool:
        """True unless the ball is stationary."""
        return self.phase is not Phase.STATIONARY

    def position(self, t_s: float) -> Vec:
        """Centre (2,) at ``t_s`` in metres."""
        tau = min(max(t_s - self.t0_s, 0.0), self.duration_s)
        return self.r0_m + self.v0_mps * tau + 0.5 * self.a_mps2 * tau * tau

    def velocity(self, t_s: float) -> Vec:
        """Velocity (2,) at ``t_s`` in m/s."""
        tau = min(max(t_s - self.t0_s, 0.0), self.duration_s)
        return self.v0_mps + self.a_mps2 * tau

    def spin(self, t_s: float) -> Vec:
        """Angular velocity (3,) at ``t_s`` in rad/s, table frame."""
        tau = min(max(t_s - self.t0_s, 0.0), self.duration_s)
        wz0 = self.w0_radps[2]
        wz = math.copysign(max(abs(wz0) - self.wz_decel_radps2 * tau, 0.0), wz0)
        xy = self.w0_radps[:2] + self.dw_radps2 * tau
        return np.array([xy[0], xy[1], wz])

    def state(self, t_s: float) -> BallState:
        """The ball's state at ``t_s`` (within the segment)."""
        return BallState(self.position(t_s), self.velocity(t_s), self.spin(t_s))

    def end_state(self) -> BallState:
        """The state when the phase ends, snapped exactly onto the next phase."""
        t = self.end_s
        r, v, w = self.position(t), self.velocity(t), self.spin(t)
        if self.phase is Phase.SLIDING:
            w[:2] = rolling_spin(v, self.radius_m)
        elif self.phase is Phase.ROLLING:
            v = np.zeros(2)
            w[:2] = 0.0
        elif self.phase is Phase.SPINNING:
            w[2] = 0.0
        return BallState(r, v, w)


def start_segment(t0_s: float, state: BallState, cloth: Cloth) -> Segment:
    """The phase that ``state`` starts at ``t0_s``, with its polynomials."""
    r, v, w = state.r_m, state.v_mps, state.w_radps
    u = slip(v, w, cloth.radius_m)
    spin_z = abs(float(w[2]))
    if float(np.hypot(*u)) > _EPS_V:
        return _sliding(t0_s, r, v, w, u, cloth)
    if float(np.hypot(*v)) > _EPS_V:
        return _rolling(t0_s, r, v, w, cloth)
    zero2 = np.zeros(2)
    if spin_z > _EPS_W:
        w_spin = np.array([0.0, 0.0, w[2]])
        duration = spin_z / cloth.spin_decel_radps2 if cloth.spin_decel_radps2 > 0 else math.inf
        decel = cloth.spin_decel_radps2
        return Segment(
            t0_s, duration, Phase.SPINNING, r, zero2, zero2, w_spin, zero2, decel, cloth.radius_m
        )
    return Segment(
        t0_s, math.inf, Phase.STATIONARY, r, zero2, zero2, np.zeros(3), zero2, 0.0, cloth.radius_m
    )


def _sliding(t0_s: float, r: Vec, v: Vec, w: Vec, u: Vec, cloth: Cloth) -> Segment:
    speed_u = float(np.hypot(*u))
    u_hat = u / speed_u
    a = -cloth.u_s * cloth.g_mps2 * u_hat
    # Torque of the cloth friction about the centre: dw_xy = (5 / 2R) * (a_y, -a_x).
    dw = (5.0 / (2.0 * cloth.radius_m)) * np.array([a[1], -a[0]])
    duration = 2.0 * speed_u / (7.0 * cloth.u_s * cloth.g_mps2)
    decel = cloth.spin_decel_radps2
    return Segment(t0_s, duration, Phase.SLIDING, r, v, a, w, dw, decel, cloth.radius_m)


def _rolling(t0_s: float, r: Vec, v: Vec, w: Vec, cloth: Cloth) -> Segment:
    speed = float(np.hypot(*v))
    decel = cloth.u_r * cloth.g_mps2
    a = -decel * v / speed
    w_roll = np.array([*rolling_spin(v, cloth.radius_m), w[2]])
    dw = rolling_spin(a, cloth.radius_m)
    duration = speed / decel
    decel_w = cloth.spin_decel_radps2
    return Segment(t0_s, duration, Phase.ROLLING, r, v, a, w_roll, dw, decel_w, cloth.radius_m)
