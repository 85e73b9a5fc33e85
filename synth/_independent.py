"""Shots from a simulator we did not write (pooltool), as exact motion and events.

``bench/pooltool/generate.py`` (run in its own venv) simulates random three-cushion
shots with pooltool and stores them as ``carom-independent-shots/1``
(``bench/data/pooltool_shots.json.gz``; ``docs/independent-events.md``): per shot its
id, seed, fixed split (held-out when ``id % 3 == 0``), the hard situations it holds,
the stroke, per ball contiguous constant-acceleration segments
``t0_s, t1_s, x0_mm, y0_mm, vx_mmps, vy_mmps, ax_mmps2, ay_mmps2`` in our table frame,
and the contact events (shot-log event objects). This module reads it:

* :func:`load_independent_shots` -> :class:`IndependentSet` of :class:`IndependentShot`;
* :class:`SegmentMotion` plays the segments with the simulator's interface
  (``positions_mm(t)``, like :class:`RecordedMotion`), exactly;
* :class:`IndependentReplay` puts a shot on a clip's time line (stillness before the
  stroke, rest after) for :func:`render_clip`, with its events, the player's stroke and
  a ``carom-shots/1`` log whose verdict is the truth's.

Times of a shot start at the stroke (0 s); nothing here imports pooltool.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from referee import FORMAT, MATCH_TABLE, Ball, Event, ShotLogError, Table, event_json, parse_event
from synth._params import SimulationError
from synth._scene import PlayerStroke

__all__ = [
    "INDEPENDENT_FORMAT",
    "IndependentReplay",
    "IndependentSet",
    "IndependentShot",
    "SegmentMotion",
    "load_independent_shots",
    "split_of",
]

F64 = NDArray[np.float64]
INDEPENDENT_FORMAT = "carom-independent-shots/1"
_SPLITS = ("tuning", "held-out")


def split_of(shot_id: int) -> str:
    """The fixed split of a shot: ``held-out`` when ``shot_id % 3 == 0``, else ``tuning``."""
    return "held-out" if shot_id % 3 == 0 else "tuning"


class SegmentMotion:
    """Exact piecewise-quadratic motion of each ball, table mm, shot time (s).

    Args:
        segments: per ball an (n, 8) array of contiguous segments ``t0, t1, x0, y0,
            vx, vy, ax, ay`` (s, mm, mm/s, mm/s^2). Before the first a ball stands at
            its start, after the last at its end.
    """

    def __init__(self, segments: Mapping[Ball, F64]) -> None:
        for ball, s in segments.items():
            if s.ndim != 2 or s.shape[1] != 8 or s.shape[0] < 1:
                raise SimulationError(f"segments of {ball}: expected (n, 8), got {s.shape}")
            if np.any(s[:, 1] < s[:, 0]) or np.any(np.abs(s[1:, 0] - s[:-1, 1]) > 1e-6):
                raise SimulationError(f"segments of {ball}: not contiguous in time")
        self._segs = dict(segments)

    @property
    def balls(self) -> tuple[Ball, ...]:
        """The balls, in the file's order."""
        return tuple(self._segs)

    @property
    def duration_s(self) -> float:
        """End of the last segment of any ball (every ball is still from then on)."""
        return max(float(s[-1, 1]) for s in self._segs.values())

    def segments(self, ball: Ball) -> F64:
        """The (n, 8) segments of ``ball``."""
        return self._segs[ball]

    def positions_mm(self, t_s: ArrayLike) -> dict[Ball, F64]:
        """Every ball's centre (n, 2) in table mm at times ``t_s`` (n,)."""
        t = np.asarray(t_s, dtype=np.float64)
        return {b: self._state(s, t)[0] for b, s in self._segs.items()}

    def position_mm(self, ball: Ball, t_s: float) -> tuple[float, float]:
        """Centre of ``ball`` at ``t_s`` in table mm."""
        x, y = self._state(self._segs[ball], np.array([t_s]))[0][0]
        return float(x), float(y)

    def velocity_mmps(self, ball: Ball, t_s: float) -> tuple[float, float]:
        """Velocity of ``ball`` at ``t_s`` in mm/s (on the segment starting at or before)."""
        vx, vy = self._state(self._segs[ball], np.array([t_s]))[1][0]
        return float(vx), float(vy)

    def moving(self, ball: Ball, t_s: float) -> bool:
        """True if ``ball`` moves faster than 1 cm/s at ``t_s``."""
        return bool(np.hypot(*self.velocity_mmps(ball, t_s)) > 10.0)

    @staticmethod
    def _state(s: F64, t: F64) -> tuple[F64, F64]:
        inside = (t >= s[0, 0]) & (t <= s[-1, 1])
        tc = np.clip(t, s[0, 0], s[-1, 1])
        i = np.clip(np.searchsorted(s[:, 0], tc, side="right") - 1, 0, len(s) - 1)
        tau = (tc - s[i, 0])[:, None]
        xy = s[i, 2:4] + s[i, 4:6] * tau + 0.5 * s[i, 6:8] * tau * tau
        v = np.where(inside[:, None], s[i, 4:6] + s[i, 6:8] * tau, 0.0)
        return xy, v


@dataclass(frozen=True, slots=True)
class IndependentShot:
    """One pooltool shot: its id, split, situations, stroke, exact motion and events.

    ``situations`` are the generator's findings (``{"tag", "t_s", ...}``, shot time);
    ``stroke`` holds pooltool's cue parameters (``V0`` m/s, ``phi``/``theta`` degrees,
    ``a``/``b`` of R) and the layout; ``point`` is the generator's own three-cushion
    count of the exact events (the referee's verdict is what the benches compare).
    """

    shot_id: int
    seed: int
    split: str
    tags: tuple[str, ...]
    situations: tuple[Mapping[str, Any], ...]
    cue_ball: Ball
    stroke: Mapping[str, Any]
    point: bool
    events: tuple[Event, ...]
    motion: SegmentMotion

    @property
    def name(self) -> str:
        """A file-friendly name: ``pt0042``."""
        return f"pt{self.shot_id:04d}"


@dataclass(frozen=True, slots=True)
class IndependentSet:
    """The whole file: how it was made (``header``), the table and the shots."""

    header: Mapping[str, Any]
    table: Table
    shots: tuple[IndependentShot, ...]

    def shot(self, shot_id: int) -> IndependentShot:
        """The shot with id ``shot_id``."""
        for s in self.shots:
            if s.shot_id == shot_id:
                return s
        raise SimulationError(f"no independent shot with id {shot_id}")


def load_independent_shots(path: str | Path) -> IndependentSet:
    """Read a ``carom-independent-shots/1`` file (gzipped JSON).

    Raises:
        SimulationError: the file is missing, not in that format, or a shot's split
            is not the fixed one.
    """
    try:
        with gzip.open(Path(path), "rt") as f:
            doc = json.load(f)
        if doc.get("format") != INDEPENDENT_FORMAT:
            raise ValueError(f"format: expected {INDEPENDENT_FORMAT!r}, got {doc.get('format')!r}")
        t = doc["table"]
        table = Table(t["length_mm"], t["width_mm"], 2.0 * t["ball_radius_mm"])
        shots = tuple(_shot(s) for s in doc["shots"])
    except (OSError, ValueError, KeyError, TypeError, ShotLogError) as exc:
        raise SimulationError(f"{path}: cannot read independent shots: {exc}") from exc
    header = {k: v for k, v in doc.items() if k != "shots"}
    return IndependentSet(header, table, shots)


def _shot(raw: Mapping[str, Any]) -> IndependentShot:
    shot_id = int(raw["id"])
    if raw["split"] != split_of(shot_id):
        raise ValueError(f"shot {shot_id}: split {raw['split']!r}, the fixed rule says "
                         f"{split_of(shot_id)!r}")  # fmt: skip
    where = f"shots[id={shot_id}].events"
    events = tuple(parse_event(e, f"{where}[{i}]") for i, e in enumerate(raw["events"]))
    segments = {Ball(n): np.asarray(s, dtype=np.float64) for n, s in raw["segments"].items()}
    return IndependentShot(
        shot_id=shot_id, seed=int(raw["seed"]), split=str(raw["split"]),
        tags=tuple(raw["tags"]), situations=tuple(raw["situations"]),
        cue_ball=Ball(raw["stroke"]["cue_ball"]), stroke=dict(raw["stroke"]),
        point=bool(raw["point"]), events=events, motion=SegmentMotion(segments),
    )  # fmt: skip


class IndependentReplay:
    """A shot on a clip's time line: ``lead_s`` of stillness, the shot, ``rest_s`` still.

    The player steps in for the stroke at ``lead_s`` (the arm and cue, when the render
    settings draw players); events and the shot log are on the clip's time line.
    """

    def __init__(
        self, shot: IndependentShot, table: Table = MATCH_TABLE, *,
        lead_s: float = 1.5, rest_s: float = 1.0,
    ) -> None:  # fmt: skip
        self.shot, self.table, self.lead_s, self.rest_s = shot, table, lead_s, rest_s

    @property
    def duration_s(self) -> float:
        """Lead, the motion, and the rest after it."""
        return self.lead_s + self.shot.motion.duration_s + self.rest_s

    @property
    def events(self) -> tuple[Event, ...]:
        """The shot's contact events, clip time."""
        return tuple(replace(e, t_s=e.t_s + self.lead_s) for e in self.shot.events)

    @property
    def strokes(self) -> list[PlayerStroke]:
        """The one stroke: the cue ball at ``lead_s``."""
        return [PlayerStroke(self.lead_s, self.shot.cue_ball)]

    def positions_mm(self, t_s: ArrayLike) -> dict[Ball, F64]:
        """Centres (n, 2) table mm at clip times ``t_s``."""
        return self.shot.motion.positions_mm(np.asarray(t_s, dtype=np.float64) - self.lead_s)

    def shot_log(self) -> dict[str, Any]:
        """The shot as a ``carom-shots/1`` document (three-cushion, A white, B yellow)."""
        m, end = self.shot.motion, self.shot.motion.duration_s
        first = {str(b): list(m.position_mm(b, 0.0)) for b in m.balls}
        last = {str(b): list(m.position_mm(b, end)) for b in m.balls}
        t = self.table
        return {
            "format": FORMAT, "discipline": "three-cushion",
            "table": {"length_mm": t.length_mm, "width_mm": t.width_mm,
                      "ball_diameter_mm": t.ball_diameter_mm},
            "match": {"players": ["A", "B"], "cue_balls": {"A": "white", "B": "yellow"},
                      "first_player": "A" if self.shot.cue_ball is Ball.WHITE else "B"},
            "shots": [{"index": 0, "start_s": self.lead_s, "end_s": self.lead_s + end,
                       "cue_ball": str(self.shot.cue_ball),
                       "events": [event_json(e) for e in self.events],
                       "start_positions_mm": first, "end_positions_mm": last}],
        }  # fmt: skip

    def extra(self) -> dict[str, Any]:
        """What a truth file's ``extra`` says of the shot."""
        s = self.shot
        return {"source": "pooltool", "shot_id": s.shot_id, "split": s.split,
                "tags": list(s.tags), "discipline": "three-cushion", "lead_s": self.lead_s,
                "stroke": dict(s.stroke), "point": s.point,
                "situations": [dict(x) for x in s.situations]}  # fmt: skip
