"""Paths traced back through cushion noses: the ways a ball seen moving can have come.

A ball seen moving away from a cushion came off it: its path traced back meets that
cushion's nose, and before the bounce it ran in with the normal speed it left at over
the restitution (each of ``RESTITUTIONS`` tried: spin and the cushion's rubber make it
0.6-1.0). Traced back on from there, it may have come off the nose before, and so on.
The finders of hidden cushion contacts (a cue ball unseen from its rest, a ball unseen
in mid-flight) keep the ways that lead to where the ball was last seen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Cushion
from vision.events._cushion_contacts import NORMALS, normal_gap

__all__ = ["RESTITUTIONS", "WayBack", "back_miss", "back_to_nose", "ways_back"]

F64 = NDArray[np.float64]

#: Cushion restitutions tried when tracing a bounce back (the speed after over e).
RESTITUTIONS = np.linspace(0.6, 1.0, 9)


@dataclass(frozen=True, slots=True)
class WayBack:
    """A path traced back through one or more cushions.

    ``bounces``: ``(time, cushion, centre at its nose)`` of each, earlier first;
    ``v_first_mm_s``: the velocity (2,) of the leg before the first of them.
    """

    bounces: tuple[tuple[float, Cushion, F64], ...]
    v_first_mm_s: F64


def back_to_nose(
    xy: F64, v: F64, t_s: float, geometry: TableGeometry
) -> tuple[Cushion, float, F64] | None:
    """The cushion a path at ``xy`` (velocity ``v``, time ``t_s``) came off, traced back.

    The first nose the backward ray meets: ``(cushion, time, centre there)``; None if
    it meets none (it does not move away from any cushion).
    """
    best: tuple[Cushion, float, F64] | None = None
    for cushion, normal in NORMALS.items():
        v_out = float(v @ np.array(normal))
        if v_out <= 0.0:
            continue
        t_c = t_s - float(normal_gap(xy[None, :], cushion, geometry)[0]) / v_out
        if best is None or t_c > best[1]:
            best = (cushion, t_c, xy + v * (t_c - t_s))
    return best


def ways_back(
    xy: F64,
    v: F64,
    t_s: float,
    geometry: TableGeometry,
    min_off_mm_s: float = 0.0,
    max_noses: int = 2,
) -> list[WayBack]:
    """The ways a path at ``xy`` (velocity ``v`` at ``t_s``) came, through 1..``max_noses`` noses.

    Traced back to the nose its backward ray meets first, the bounce undone with each
    restitution tried (the normal speed after over it), then on to the nose before that
    (another cushion) and undone again, and so on. A bounce left at under
    ``min_off_mm_s`` along the cushion's normal is not undone (a ball running along a
    cushion).
    """
    ways: list[WayBack] = []
    _undo(xy, v, t_s, (), geometry, (min_off_mm_s, max_noses), ways)
    return ways


def _undo(
    xy: F64,
    v: F64,
    t_s: float,
    later: tuple[tuple[float, Cushion, F64], ...],
    geometry: TableGeometry,
    limits: tuple[float, int],
    ways: list[WayBack],
) -> None:
    """Append to ``ways`` each way through the nose before ``xy`` (and those before it).

    ``later``: the bounces already undone after this one; ``limits``: the least normal
    speed a bounce is undone at and the most noses.
    """
    min_off_mm_s, max_noses = limits
    back = back_to_nose(xy, v, t_s, geometry)
    if back is None or (later and back[0] == later[0][1]):
        return
    cushion, t_c, at_c = back
    normal = np.array(NORMALS[cushion])
    u = float(v @ normal)
    if u < min_off_mm_s:
        return
    bounces = ((t_c, cushion, at_c), *later)
    for e in RESTITUTIONS:
        v_in = v - u * normal - (u / e) * normal
        ways.append(WayBack(bounces, v_in))
        if len(bounces) < max_noses:
            _undo(at_c, v_in, t_c, bounces, geometry, limits, ways)


def back_miss(at_nose: F64, v_in: F64, rest: F64) -> float:
    """How far ``rest`` lies from the way in (velocity ``v_in``) to ``at_nose``; inf if ahead."""
    d = v_in / max(float(np.linalg.norm(v_in)), 1e-9)
    rel = rest - at_nose
    if float(rel @ d) >= 0.0:
        return float("inf")
    return abs(float(rel[0] * d[1] - rel[1] * d[0]))
