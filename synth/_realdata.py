"""Real tracked shots: loading and replay with the simulator's interface.

* :func:`load_real_shots` reads a recording (the JSON layout of
  ``realdata/three_cushion_match_dev.json``: per shot, per ball ``t_s``,
  ``x_mm``, ``y_mm``); the file lives outside the repository, so it takes a path.
* :class:`RecordedMotion` plays the samples back through ``positions_mm(t)``
  (linear or cubic Hermite), so a renderer draws real motion like simulated.
* :func:`replay_start` estimates where a recorded shot began (strike time,
  speed, heading) to start the simulator from the same place.

The measurements shared by real and simulated tracks are in ``_measure``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from referee import MATCH_TABLE, Ball, Table
from synth._params import SimulationError, Stroke

__all__ = [
    "RealShot",
    "RecordedMotion",
    "ReplayStart",
    "Track",
    "line_fit",
    "load_real_shots",
    "replay_start",
]

F64 = NDArray[np.float64]
_BALLS = {"white": Ball.WHITE, "yellow": Ball.YELLOW, "red": Ball.RED}


@dataclass(frozen=True, slots=True)
class Track:
    """One ball's samples: times ``t_s`` (n,) and centres ``xy_mm`` (n, 2), table mm."""

    t_s: F64
    xy_mm: F64

    def __post_init__(self) -> None:
        n = self.t_s.shape[0] if self.t_s.ndim == 1 else -1
        if n < 1 or self.xy_mm.shape != (n, 2):
            raise SimulationError(
                f"Track: expected t_s (n,) and xy_mm (n, 2), got {self.t_s.shape} "
                f"and {self.xy_mm.shape}"
            )
        if np.any(np.diff(self.t_s) <= 0.0):
            raise SimulationError("Track: t_s must increase strictly")


@dataclass(frozen=True, slots=True)
class RealShot:
    """A recorded shot: ``cue_ball`` moved first; ``tracks`` per ball."""

    shot_id: str
    cue_ball: Ball
    tracks: Mapping[Ball, Track]


def load_real_shots(path: str | Path) -> tuple[RealShot, ...]:
    """Read the shots of a recording (``three_cushion_match_dev.json`` layout).

    Args:
        path: the JSON file (kept outside the repository).

    Raises:
        SimulationError: the file is missing or not in that layout.
    """
    try:
        doc = json.loads(Path(path).read_text())
        return tuple(_shot(s) for s in doc["shots"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SimulationError(f"{path}: cannot read real shots: {exc}") from exc


def _shot(raw: Mapping[str, object]) -> RealShot:
    balls = raw["balls"]
    order = raw["ball_order_in_source"]
    if not (isinstance(balls, dict) and isinstance(order, list)):
        raise TypeError("balls must be an object and ball_order_in_source a list")
    tracks = {
        _BALLS[name]: Track(
            np.asarray(b["t_s"], dtype=np.float64),
            np.column_stack((b["x_mm"], b["y_mm"])).astype(np.float64),
        )
        for name, b in balls.items()
    }
    return RealShot(str(raw["shot_id"]), _BALLS[str(order[0])], tracks)


class RecordedMotion:
    """Replay of sampled tracks with the simulator's ``positions_mm(t)`` interface.

    Args:
        tracks: samples per ball (times in seconds, centres in table mm).
        cubic: cubic Hermite interpolation (3-point slopes) instead of linear.
        table: positions are clamped to ``[R, L - R] x [R, W - R]`` of this table.

    Before its first sample a ball stands at it; after its last, at the last.
    """

    def __init__(
        self, tracks: Mapping[Ball, Track], *, cubic: bool = False, table: Table = MATCH_TABLE
    ) -> None:
        self._tracks = dict(tracks)
        self._cubic = cubic
        r = table.radius_mm
        self._low = np.array([r, r])
        self._high = np.array([table.length_mm - r, table.width_mm - r])

    @property
    def balls(self) -> tuple[Ball, ...]:
        """The recorded balls."""
        return tuple(self._tracks)

    @property
    def duration_s(self) -> float:
        """Time of the last sample of any ball."""
        return max(float(tr.t_s[-1]) for tr in self._tracks.values())

    def positions_mm(self, t_s: ArrayLike) -> dict[Ball, F64]:
        """Every ball's centre (n, 2) in table mm at times ``t_s`` (n,)."""
        t = np.asarray(t_s, dtype=np.float64)
        return {b: self._at(tr, t) for b, tr in self._tracks.items()}

    def position_mm(self, ball: Ball, t_s: float) -> tuple[float, float]:
        """Centre of ``ball`` at ``t_s`` in table mm."""
        x, y = self._at(self._tracks[ball], np.array([t_s]))[0]
        return float(x), float(y)

    def velocity_mps(self, ball: Ball, t_s: float, dt_s: float = 0.01) -> tuple[float, float]:
        """Central-difference velocity of the interpolant in m/s."""
        a, b = self._at(self._tracks[ball], np.array([t_s - dt_s, t_s + dt_s]))
        vx, vy = (b - a) / (2.0 * dt_s) / 1000.0
        return float(vx), float(vy)

    def moving(self, ball: Ball, t_s: float) -> bool:
        """True if ``ball`` moves faster than 1 cm/s at ``t_s``."""
        return math.hypot(*self.velocity_mps(ball, t_s)) > 0.01

    def _at(self, tr: Track, t: F64) -> F64:
        if self._cubic and tr.t_s.size >= 3:
            xy = _hermite(tr, t)
        else:
            xy = np.column_stack(
                (np.interp(t, tr.t_s, tr.xy_mm[:, 0]), np.interp(t, tr.t_s, tr.xy_mm[:, 1]))
            )
        return np.clip(xy, self._low, self._high)


def _hermite(tr: Track, t: F64) -> F64:
    """Cubic Hermite through the samples, slopes from three-point differences."""
    ts, p = tr.t_s, tr.xy_mm
    h = np.diff(ts)
    d = np.diff(p, axis=0) / h[:, None]
    m = np.empty_like(p)
    m[0], m[-1] = d[0], d[-1]
    w0, w1 = h[1:, None], h[:-1, None]
    m[1:-1] = (w0 * d[:-1] + w1 * d[1:]) / (w0 + w1)
    tc = np.clip(t, ts[0], ts[-1])
    i = np.clip(np.searchsorted(ts, tc, side="right") - 1, 0, ts.size - 2)
    s = ((tc - ts[i]) / h[i])[:, None]
    hi = h[i][:, None]
    h00, h10 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s
    h01, h11 = -2 * s**3 + 3 * s**2, s**3 - s**2
    return h00 * p[i] + h10 * hi * m[i] + h01 * p[i + 1] + h11 * hi * m[i + 1]


def line_fit(t: F64, xy: F64) -> tuple[F64, F64]:
    """Least-squares ``xy ~ p + v (t - t_mean)``: (p at t_mean, v) in mm and mm/s."""
    tm = t - t.mean()
    v = (tm @ (xy - xy.mean(axis=0))) / float(tm @ tm)
    return xy.mean(axis=0), v


@dataclass(frozen=True, slots=True)
class ReplayStart:
    """How a recorded shot began: the strike time, the balls' places and the stroke."""

    t_strike_s: float
    positions_mm: Mapping[Ball, tuple[float, float]]
    stroke: Stroke


def replay_start(shot: RealShot, table: Table = MATCH_TABLE, samples: int = 3) -> ReplayStart:
    """Estimate the stroke of ``shot`` from its cue ball's first moving samples.

    The first sample is the ball at rest; a straight-line fit of the next
    ``samples`` gives speed and heading (no spin: the camera cannot see it), and
    the strike time is when that line leaves the rest position.
    """
    tr = shot.tracks[shot.cue_ball]
    if tr.t_s.size < samples + 2:
        raise SimulationError(f"shot {shot.shot_id}: too few cue ball samples")
    rest = tr.xy_mm[0]
    sel = slice(1, 1 + samples)
    _, v = line_fit(tr.t_s[sel], tr.xy_mm[sel])
    speed_mmps = float(np.hypot(*v))
    dist = np.hypot(*(tr.xy_mm[sel] - rest).T)
    t_strike = float(np.clip(np.mean(tr.t_s[sel] - dist / speed_mmps), tr.t_s[0], tr.t_s[1]))
    r = table.radius_mm
    lows, highs = (r, r), (table.length_mm - r, table.width_mm - r)
    positions = {
        b: (
            float(np.clip(t.xy_mm[0, 0], lows[0], highs[0])),
            float(np.clip(t.xy_mm[0, 1], lows[1], highs[1])),
        )
        for b, t in shot.tracks.items()
    }
    heading = math.degrees(math.atan2(v[1], v[0]))
    stroke = Stroke(shot.cue_ball, min(speed_mmps / 1000.0, 15.0), heading)
    return ReplayStart(t_strike, positions, stroke)
