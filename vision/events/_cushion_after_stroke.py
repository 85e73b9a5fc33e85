"""A cushion touched by a ball struck from rest before the camera saw it move.

A cue ball struck a hand's width from a cushion may reach it within one frame of the
stroke: its first moving sample is already on the way back, so the cushion finder has
no approach to fit. A ball set off from rest runs straight from its resting centre
until its first contact, so the straight path of its first moving samples, traced
back, must pass through that centre. When it does not, but passes through the
centre's image in a cushion (traced back to the nose and on, with the normal speed it
had before the bounce), the ball came off that cushion. The time is where the
traced-back path reaches the nose.

Thresholds were tuned on the tuning part of the independent set only
(``bench/independent_events.py``; ``docs/independent-events.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, BallContact, Cushion, CushionContact
from vision._types import ScoredEvent
from vision.events._cushion_after_kiss import cushion_contact_near
from vision.events._cushion_contacts import NORMALS, Tolerances, normal_gap
from vision.events._path_fit import PathFit, Samples

__all__ = ["cushions_after_strokes"]

F64 = NDArray[np.float64]

#: Slowest first path (mm/s) read as a stroke: slower, the way back is too uncertain.
_STRUCK_MM_S = 200.0

#: Cushion restitutions tried when tracing a bounce back (the speed after over e).
_RESTITUTIONS = np.linspace(0.6, 1.0, 9)


def cushions_after_strokes(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """Cushion contacts of balls set off from rest, hidden before their first moving frame."""
    out: list[ScoredEvent] = []
    for ball, s in samples.items():
        for i in _rests_before_moving(s, tol):
            if _kissed(found, ball, float(s.t_s[i]), float(s.t_s[i + 1])):
                continue  # set off by a ball: the ball contact's finders decide
            hit = _came_off(s, i, geometry, tol)
            if hit is not None and not cushion_contact_near([*found, *out], ball, hit[1], hit[0]):
                t_s, cushion, miss_mm = hit
                ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, t_err_s=0.5 * tol.dt_s)
                why = (f"its first path, traced back through the {cushion} cushion, passes "
                       f"{miss_mm:.1f} mm from its resting centre")  # fmt: skip
                out.append(ScoredEvent(ev, 0.7, why))
    return out


def _rests_before_moving(s: Samples, tol: Tolerances) -> list[int]:
    """Last still sample of each rest that is followed by clear motion."""
    still_mm, away_mm = max(1.0, 3.0 * tol.noise_mm), max(3.0, 6.0 * tol.noise_mm)
    out = []
    for i in range(1, len(s) - 3):
        rest = s.xy_mm[i]
        before = s.xy_mm[max(i - 3, 0) : i]
        settled = s.rests_after(i - 1) or (
            i >= 3 and bool(np.all(np.linalg.norm(before - rest, axis=1) < still_mm))
        )
        if settled and float(np.linalg.norm(s.xy_mm[i + 1] - rest)) > away_mm:
            out.append(i)
    return out


def _kissed(found: Sequence[ScoredEvent], ball: Ball, lo_s: float, hi_s: float) -> bool:
    return any(
        isinstance(e.event, BallContact)
        and ball in e.event.balls
        and lo_s - 0.05 <= e.event.t_s <= hi_s + 0.05
        for e in found
    )


def _line_miss(fit: PathFit, xy: F64) -> tuple[float, bool]:
    """Distance (mm) of ``xy`` from the fit's line, and whether it lies behind the start."""
    start = fit.at(fit.t_lo_s)[0]
    v = fit.velocity(fit.t_lo_s)
    d = v / max(float(np.linalg.norm(v)), 1e-9)
    rel = xy - start
    return abs(float(rel[0] * d[1] - rel[1] * d[0])), float(rel @ d) < 0.0


def _off_cushion(
    post: PathFit, rest: F64, wall: tuple[Cushion, F64], geometry: TableGeometry, allow: float
) -> tuple[float, Cushion, float] | None:
    """The touch of one cushion if the path, traced back through it, starts at ``rest``.

    Traced back to the nose, then on with the normal speed it had before the bounce
    (the speed after over the restitution, 0.6-1.0: the best of them), the path must
    pass within ``allow`` (and 8 % of the way back) of the resting centre.
    """
    cushion, n = wall
    v = post.velocity(post.t_lo_s)
    v_out = float(v @ n)
    if v_out <= 0.0:
        return None
    start = post.at(post.t_lo_s)[0]
    t_c = post.t_lo_s - float(normal_gap(start[None, :], cushion, geometry)[0]) / v_out
    at_nose = start + v * (t_c - post.t_lo_s)
    miss = min(_back_miss(at_nose, v - v_out * n - (v_out / e) * n, rest) for e in _RESTITUTIONS)
    # Spin and the cushion's friction turn the way off a plain reflection by a few
    # degrees, so the miss may grow with the way back.
    way_mm = float(np.linalg.norm(rest - at_nose))
    return (float(t_c), cushion, miss) if miss <= allow + 0.08 * way_mm else None


def _back_miss(at_nose: F64, v_in: F64, rest: F64) -> float:
    """How far ``rest`` lies from the way in (velocity ``v_in``) to ``at_nose``; inf if ahead."""
    d = v_in / max(float(np.linalg.norm(v_in)), 1e-9)
    rel = rest - at_nose
    if float(rel @ d) >= 0.0:
        return float("inf")
    return abs(float(rel[0] * d[1] - rel[1] * d[0]))


def _came_off(
    s: Samples, i: int, geometry: TableGeometry, tol: Tolerances
) -> tuple[float, Cushion, float] | None:
    """``(t_s, cushion, miss_mm)`` when the first path came off a cushion, else None."""
    rest = s.xy_mm[i]
    for j in (i + 1, i + 2):
        post = s.fit_after(j, 3)
        fast = post is not None and np.linalg.norm(post.velocity(post.t_lo_s)) >= _STRUCK_MM_S
        if post is None or post.n < 3 or not fast:
            continue
        straight, behind = _line_miss(post, rest)
        allow = max(4.0, 4.0 * tol.noise_mm)
        if behind and straight < 3.0 * allow:
            return None  # it runs straight from its rest: no cushion first
        for cushion, normal in NORMALS.items():
            hit = _off_cushion(post, rest, (cushion, np.array(normal)), geometry, allow)
            if hit is None or not s.t_s[i] < hit[0] <= post.t_lo_s:
                continue
            if j == i + 1 or s.t_s[i + 1] < hit[0]:
                return hit
    return None
