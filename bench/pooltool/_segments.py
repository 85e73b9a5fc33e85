"""A simulated pooltool shot as exact piecewise-quadratic motion in our table frame.

Between two pooltool events every ball moves with constant acceleration (sliding:
``-u_s g`` along the contact point's slip, which keeps its direction; rolling:
``-u_r g`` along the velocity; spinning and stationary: in place), so each ball's
history of event states becomes segments ``t0, t1, x0, y0, vx, vy, ax, ay`` with
``xy(t) = xy0 + v (t - t0) + a (t - t0)^2 / 2``.

Frames. pooltool: x across the table (0..w), y along it (0..l), z up; the three-cushion
rack puts the cue balls at y = l/4, so y = 0 is the head end. Ours
(``referee.Table``, ``docs/shot-log.md``): x from the head cushion to the foot
cushion, y from the left cushion to the right one as seen from the head looking at
the foot. Looking from pooltool's y = 0 towards +y with z up, +x is on the right, so
``x_ours = 1000 y_pt`` and ``y_ours = 1000 x_pt`` (mm): the real left and right are
kept (a mirror in the plane's algebra, not in the world). Cushions: pooltool ``18``
(y = 0) head, ``9`` (y = l) foot, ``3`` (x = 0) left, ``12`` (x = w) right.

Imports only pooltool, numpy and the standard library (runs in ``.venv-pooltool``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pooltool as pt

CUSHIONS = {"18": "head", "9": "foot", "3": "left", "12": "right"}
_SLIDING, _ROLLING = pt.constants.sliding, pt.constants.rolling
# Two segments are one when they join within these (mm, mm/s, mm/s^2).
_JOIN_MM, _JOIN_MMPS, _JOIN_MMPS2 = 1e-6, 1e-5, 1e-6
Segment = list[float]  # t0, t1, x0, y0, vx, vy, ax, ay (s, mm, mm/s, mm/s^2)


def _ours(v: np.ndarray) -> tuple[float, float]:
    """A pooltool (x, y) in metres as our (x, y) in millimetres."""
    return 1000.0 * float(v[1]), 1000.0 * float(v[0])


def _acceleration(state: Any, params: Any) -> tuple[float, float]:
    """Constant acceleration (our frame, mm/s^2) of a ball in ``state`` until its next event."""
    rvw, s = state.rvw, state.s
    if s == _SLIDING:
        u = pt.ptmath.rel_velocity(rvw, params.R)
        norm = float(np.hypot(u[0], u[1]))
        if norm == 0.0:
            return 0.0, 0.0
        return _ours(-params.u_s * params.g * u / norm)
    if s == _ROLLING:
        v = rvw[1]
        norm = float(np.hypot(v[0], v[1]))
        if norm == 0.0:
            return 0.0, 0.0
        return _ours(-params.u_r * params.g * v / norm)
    return 0.0, 0.0


def _segment(t0: float, t1: float, state: Any, params: Any) -> Segment:
    x0, y0 = _ours(state.rvw[0])
    vx, vy = _ours(state.rvw[1]) if state.s in (_SLIDING, _ROLLING) else (0.0, 0.0)
    ax, ay = _acceleration(state, params)
    return [t0, t1, x0, y0, vx, vy, ax, ay]


def at(seg: Segment, t: float) -> tuple[float, float, float, float]:
    """Position (mm) and velocity (mm/s) on ``seg`` at time ``t`` (s)."""
    tau = t - seg[0]
    x = seg[2] + seg[4] * tau + 0.5 * seg[6] * tau * tau
    y = seg[3] + seg[5] * tau + 0.5 * seg[7] * tau * tau
    return x, y, seg[4] + seg[6] * tau, seg[5] + seg[7] * tau


def _joins(a: Segment, b: Segment) -> bool:
    """True when ``b`` continues ``a`` with the same acceleration (no event for this ball)."""
    x, y, vx, vy = at(a, a[1])
    return (
        abs(x - b[2]) < _JOIN_MM and abs(y - b[3]) < _JOIN_MM
        and abs(vx - b[4]) < _JOIN_MMPS and abs(vy - b[5]) < _JOIN_MMPS
        and abs(a[6] - b[6]) < _JOIN_MMPS2 and abs(a[7] - b[7]) < _JOIN_MMPS2
    )  # fmt: skip


def ball_segments(ball: Any) -> list[Segment]:
    """One ball's motion from its event history: contiguous segments from t = 0.

    A state recorded at an event holds from that event to the next; several states at
    one time (the stroke, a null event) keep the last. Segments without an event of
    this ball between them are joined.
    """
    states = list(ball.history.states)
    out: list[Segment] = []
    for i, state in enumerate(states[:-1]):
        t0, t1 = float(state.t), float(states[i + 1].t)
        if t1 <= t0:
            continue
        seg = _segment(t0, t1, state, ball.params)
        if out and _joins(out[-1], seg):
            out[-1][1] = t1
        else:
            out.append(seg)
    if not out:  # never moved and no event after t = 0
        out.append(_segment(0.0, float(states[-1].t), states[-1], ball.params))
    return out


def shot_events(system: Any) -> list[dict[str, Any]]:
    """Ball-ball and ball-cushion events as shot-log event objects (our names)."""
    out: list[dict[str, Any]] = []
    for e in system.events:
        kind = str(e.event_type)
        if kind == "ball_ball":
            out.append({"t_s": float(e.time), "kind": "ball", "balls": list(e.ids)})
        elif kind == "ball_linear_cushion":
            ball, cushion = e.ids
            out.append({"t_s": float(e.time), "kind": "cushion", "ball": ball,
                        "cushion": CUSHIONS[cushion]})  # fmt: skip
        elif kind not in _IGNORED:
            raise ValueError(f"unexpected pooltool event {kind} at {e.time}")
    return out


_IGNORED = {"none", "stick_ball", "sliding_rolling", "rolling_stationary", "rolling_spinning",
            "spinning_stationary"}  # fmt: skip


def rounded(segments: list[Segment]) -> list[list[float]]:
    """Segments rounded for the file: times to 0.1 us, mm to 0.1 um, mm/s and mm/s^2 to 1e-4."""
    digits = (7, 7, 4, 4, 4, 4, 4, 4)
    return [[round(v, d) for v, d in zip(seg, digits, strict=True)] for seg in segments]


def deviation_mm(system: Any, segments: dict[str, list[list[float]]], dt_s: float) -> float:
    """Largest distance (mm) between the segments and ``pt.continuize`` samples every ``dt_s``."""
    cts = pt.continuize(system, dt=dt_s, inplace=False)
    worst = 0.0
    for name, ball in cts.balls.items():
        segs = segments[name]
        for state in ball.history_cts.states:
            x, y = _ours(state.rvw[0])
            px, py = position(segs, float(state.t))
            worst = max(worst, float(np.hypot(x - px, y - py)))
    return worst


def position(segs: list[list[float]], t: float) -> tuple[float, float]:
    """Position (mm) on contiguous segments at ``t``; before/after them, at their ends."""
    t = min(max(t, segs[0][0]), segs[-1][1])
    for seg in segs:
        if t <= seg[1]:
            x, y, _, _ = at(seg, t)
            return x, y
    raise AssertionError("unreachable")
