"""Instantaneous impulses: the cue strike, ball-ball and ball-cushion collisions.

Theory of operation. Every collision is one impulse, resolved in 3-D on the
ball's velocity ``v`` (the vertical part is dropped afterwards: the cloth keeps a
ball down, there is no flight) and its angular velocity ``w``.

* Cue strike: a level cue gives the ball its speed along the heading; the tip's
  offset ``(side, follow) * R`` from the centre gives the spin
  ``w = 5 v (offset x heading) / (2 R^2)`` (follow 0.4: natural roll).
* Ball-ball (equal masses): normal impulse with restitution ``e_b`` along the
  line of centres, then Coulomb friction ``u_b`` at the contact, opposing the
  contact points' relative slip, capped where the slip would stop: that cap is
  the "throw" model (cut-induced and spin-induced throw, spin transfer).
* Ball-cushion (after Han 2005, one impulse): the cushion nose touches the ball
  at height ``h`` above the cloth, i.e. at ``sin(theta) = (h - R) / R`` above the
  equator. The horizontal normal velocity reverses with restitution
  ``e_c(v_n)``; the cushion's friction ``u_c`` (bound: ``u_c`` times the normal
  impulse along the tilted contact normal) acts on the contact point's slip.
  Side spin makes that slip point along the cushion, so running english widens
  the rebound and reverse english shortens it; the vertical lever arm turns
  follow and draw into a change of the rebound, as on a real cushion.

Guards: a cushion bounce that leaves slower than ``rest_speed_mps`` ends the
normal motion and removes the spin that would press the ball into the cushion (the
ball runs along it); two balls that would separate slower than 1 mm/s separate at
1 mm/s, the energy that costs being taken back by scaling both balls' motion.
No impulse ever adds kinetic energy.
"""

from __future__ import annotations

import math

import numpy as np

from synth._motion import BallState, Vec
from synth._params import PhysicsParams, Stroke

__all__ = ["ball_ball", "cushion", "kinetic_energy_j", "pin_knock", "strike"]

_K = np.array([0.0, 0.0, 1.0])
_SEPARATION_MIN_MPS = 1e-3


def strike(stroke: Stroke, radius_m: float) -> tuple[Vec, Vec]:
    """The cue ball's velocity (2,) in m/s and angular velocity (3,) in rad/s."""
    h = math.radians(stroke.heading_deg)
    d = np.array([math.cos(h), math.sin(h)])
    v = stroke.speed_mps * d
    k_cross_d = np.array([-d[1], d[0]])
    scale = 5.0 * stroke.speed_mps / (2.0 * radius_m)
    w = np.array([*(scale * stroke.follow * k_cross_d), scale * stroke.side])
    return v, w


def kinetic_energy_j(state: BallState, mass_kg: float, radius_m: float) -> float:
    """Translational plus rotational energy of one ball in joules."""
    inertia = 0.4 * mass_kg * radius_m * radius_m
    v, w = state.v_mps, state.w_radps
    return 0.5 * mass_kg * float(v @ v) + 0.5 * inertia * float(w @ w)


def _with_z(v: Vec) -> Vec:
    return np.array([v[0], v[1], 0.0])


def ball_ball(
    a: BallState, b: BallState, params: PhysicsParams, radius_m: float
) -> tuple[BallState, BallState]:
    """States of balls ``a`` and ``b`` just after they collide (impulses per unit mass)."""
    n2 = b.r_m - a.r_m
    n = _with_z(n2 / float(np.hypot(*n2)))
    va, vb = _with_z(a.v_mps), _with_z(b.v_mps)
    approach = max(float((va - vb) @ n), 0.0)
    jn = 0.5 * max((1.0 + params.e_b) * approach, approach + _SEPARATION_MIN_MPS)
    va, vb = va - jn * n, vb + jn * n
    wa, wb = a.w_radps.copy(), b.w_radps.copy()
    slip = (va + np.cross(wa, radius_m * n)) - (vb + np.cross(wb, -radius_m * n))
    slip_t = slip - float(slip @ n) * n
    speed_t = float(np.linalg.norm(slip_t))
    if speed_t > 0.0:
        j_a = -min(params.u_b * jn, speed_t / 7.0) * slip_t / speed_t
        va, vb = va + j_a, vb - j_a
        dw = (5.0 / (2.0 * radius_m)) * np.cross(n, j_a)
        wa, wb = wa + dw, wb + dw
    after_a = BallState(a.r_m, va[:2].copy(), wa)
    after_b = BallState(b.r_m, vb[:2].copy(), wb)
    return _no_energy_gain((a, b), (after_a, after_b), params, radius_m)


def _no_energy_gain(
    before: tuple[BallState, BallState],
    after: tuple[BallState, BallState],
    params: PhysicsParams,
    radius_m: float,
) -> tuple[BallState, BallState]:
    e0 = sum(kinetic_energy_j(s, params.mass_kg, radius_m) for s in before)
    e1 = sum(kinetic_energy_j(s, params.mass_kg, radius_m) for s in after)
    if e1 <= e0:
        return after
    k = math.sqrt(e0 / e1) if e1 > 0.0 else 0.0
    a, b = after
    return (
        BallState(a.r_m, k * a.v_mps, k * a.w_radps),
        BallState(b.r_m, k * b.v_mps, k * b.w_radps),
    )


def cushion(state: BallState, normal: Vec, params: PhysicsParams, radius_m: float) -> BallState:
    """State just after a cushion hit; ``normal`` (2,) points from the ball into the cushion."""
    n = _with_z(normal)
    v_n = max(float(state.v_mps @ normal), 0.0)
    e = params.cushion_restitution(v_n)
    v = _with_z(state.v_mps) - (1.0 + e) * v_n * n
    w = state.w_radps.copy()
    sin_t = min(max((params.cushion_height_mm / 1000.0 - radius_m) / radius_m, -0.95), 0.95)
    cos_t = math.sqrt(1.0 - sin_t * sin_t)
    unit = cos_t * n + sin_t * _K  # centre -> contact point
    contact = radius_m * unit
    slip = v + np.cross(w, contact)
    slip_t = slip - float(slip @ unit) * unit
    speed_t = float(np.linalg.norm(slip_t))
    if speed_t > 0.0:
        bound = params.u_c * (1.0 + e) * v_n / cos_t
        j = -min(bound, 2.0 * speed_t / 7.0) * slip_t / speed_t
        v = v + j
        w = w + (5.0 / (2.0 * radius_m * radius_m)) * np.cross(contact, j)
    out = v[:2].copy()
    if -float(out @ normal) < params.rest_speed_mps:
        out = out - float(out @ normal) * normal
        along = np.cross(n, _K)  # spin about this axis rolls the ball into the cushion
        w = w - float(w @ along) * along
    return BallState(state.r_m, out, w)


def pin_knock(state: BallState, factor: float) -> BallState:
    """The ball after knocking a pin down: velocity and spin scaled by ``factor``."""
    return BallState(state.r_m, factor * state.v_mps, factor * state.w_radps)
