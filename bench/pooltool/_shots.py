"""Random three-cushion shots for pooltool, one per seed.

A seed gives the layout and the stroke (``numpy.random.default_rng(seed)``):

* layout: ``open`` (half: three balls anywhere, surfaces at least 5 mm apart and 3 mm
  off the cushions), ``by_cushion`` (a quarter: one object ball 0-15 mm off a cushion)
  or ``close_pair`` (a quarter: the two object balls 0-40 mm apart), the rest anywhere;
* cue ball white (70 %) or yellow;
* aim: two thirds at an object ball, the line passing its centre 0 to 2R + 25 mm to
  either side (full hits to thin cuts and near misses), else any direction;
* cue speed ``V0`` 1-7 m/s, elevation ``theta`` 0-10 degrees, tip offsets ``a`` (side)
  and ``b`` (follow/draw) within 0.5 R of the centre.

Positions here are pooltool's (metres, x across, y along); ``_segments`` maps them
onto our frame. Imports only pooltool, numpy and the standard library.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pooltool as pt
from pooltool.physics.resolve.resolver import default_resolver

NAMES = ("white", "yellow", "red")
_CLEAR_M = 0.003  # off the cushions
_GAP_M = 0.005  # between ball surfaces (open layout)


def engine() -> Any:
    """Pooltool's default physics, built here rather than read from ~/.config."""
    return pt.physics.PhysicsEngine(resolver=default_resolver())


def resolver_config() -> dict[str, Any]:
    """The resolver's models and parameters, for the data file."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "resolver.json"
        pt.serialize.conversion.unstructure_to(default_resolver(), path)
        return dict(json.loads(path.read_text()))


def _free(p: np.ndarray, placed: list[np.ndarray], radius: float, gap: float) -> bool:
    return all(float(np.hypot(*(p - q))) >= 2 * radius + gap for q in placed)


def _anywhere(rng: np.random.Generator, table: Any, radius: float) -> np.ndarray:
    lo = radius + _CLEAR_M
    return rng.uniform([lo, lo], [table.w - lo, table.l - lo])


def _by_cushion(rng: np.random.Generator, table: Any, radius: float) -> np.ndarray:
    p = _anywhere(rng, table, radius)
    off = radius + rng.uniform(0.0, 0.015)
    side = int(rng.integers(4))
    axis, far = divmod(side, 2)
    size = (table.w, table.l)[axis]
    p[axis] = size - off if far else off
    return p


def layout(rng: np.random.Generator, table: Any, radius: float, cue: str) -> tuple[str, dict]:
    """The layout's name and each ball's (x, y) in pooltool metres."""
    kind = str(rng.choice(["open", "open", "by_cushion", "close_pair"]))
    objects = [n for n in NAMES if n != cue]
    pos: dict[str, np.ndarray] = {}
    if kind == "by_cushion":
        pos[objects[int(rng.integers(2))]] = _by_cushion(rng, table, radius)
    elif kind == "close_pair":
        first = _anywhere(rng, table, radius)
        pos[objects[0]] = first
        for _ in range(200):
            ang, gap = rng.uniform(0, 2 * math.pi), rng.uniform(0.0, 0.040)
            d = 2 * radius + gap
            p = first + d * np.array([math.cos(ang), math.sin(ang)])
            lo = radius + _CLEAR_M
            if lo <= p[0] <= table.w - lo and lo <= p[1] <= table.l - lo:
                pos[objects[1]] = p
                break
    for name in NAMES:
        while name not in pos:
            p = _anywhere(rng, table, radius)
            if _free(p, list(pos.values()), radius, _GAP_M):
                pos[name] = p
    return kind, {n: pos[n] for n in NAMES}


def stroke(rng: np.random.Generator, pos: dict, cue: str, radius: float) -> dict[str, Any]:
    """Cue speed, aim and tip offsets (pooltool's V0 m/s, phi/theta degrees, a/b of R)."""
    objects = [n for n in NAMES if n != cue]
    if rng.random() < 2 / 3:
        target = objects[int(rng.integers(2))]
        d = pos[target] - pos[cue]
        dist = float(np.hypot(*d))
        off = rng.uniform(-(2 * radius + 0.025), 2 * radius + 0.025)
        phi = math.degrees(math.atan2(d[1], d[0]) + math.asin(max(-1.0, min(1.0, off / dist))))
        aim = {"aim": "ball", "target": target, "offset_mm": round(1000 * off, 3)}
    else:
        phi = float(rng.uniform(0.0, 360.0))
        aim = {"aim": "any"}
    while True:
        a, b = rng.uniform(-0.5, 0.5, size=2)
        if a * a + b * b <= 0.25:
            break
    return {"cue_ball": cue, "V0": round(float(rng.uniform(1.0, 7.0)), 4),
            "phi": round(phi % 360.0, 4), "theta": round(float(rng.uniform(0.0, 10.0)), 4),
            "a": round(float(a), 4), "b": round(float(b), 4), **aim}  # fmt: skip


def build(seed: int, table: Any) -> tuple[Any, dict[str, Any]]:
    """The pooltool system of shot ``seed`` (not yet simulated) and its parameters."""
    rng = np.random.default_rng(seed)
    balls = pt.get_rack(pt.GameType.THREECUSHION, table)
    radius = float(balls["white"].params.R)
    cue = "white" if rng.random() < 0.7 else "yellow"
    kind, pos = layout(rng, table, radius, cue)
    for name, p in pos.items():
        balls[name].state.rvw[0, :2] = p
    params = {"layout": kind, **stroke(rng, pos, cue, radius)}
    system = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id=cue))
    system.cue.set_state(V0=params["V0"], phi=params["phi"], theta=params["theta"],
                         a=params["a"], b=params["b"])  # fmt: skip
    return system, params
