"""Local fits of a ball's path on each side of a contact, for sub-frame contact times.

Theory of operation. Between contacts a ball's centre moves on a smooth curve (a line
with slow rolling deceleration, or a parabola while it slides), so a contact is a kink
between two smooth pieces. :class:`Samples` holds one ball's finite samples and gives a
short polynomial fit of the path on either side of a time (:meth:`Samples.fit_before`,
:meth:`Samples.fit_after`); extrapolating those fits to the instant the geometry says
the contact happened (centre ``R`` from the cushion nose, centres ``2R`` apart) gives a
time between frames instead of a frame number.

A ball at rest may be sampled rarely (real trackers keep only the first and last sample
of a rest): a gap much longer than the usual sample step is read as "stood still until
just before the next sample", never as a slow straight move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision._types import BallTrack

__all__ = ["PathFit", "Samples", "first_crossing"]

F64 = NDArray[np.float64]
B1 = NDArray[np.bool_]

#: A gap longer than this many median steps is a rest, not a move.
REST_GAP_STEPS = 3.0


@dataclass(frozen=True, slots=True)
class PathFit:
    """A local polynomial model of a ball's centre: ``xy(t) = sum c_k (t - t0)^k``.

    Args:
        t0_s: reference time of the fit, s.
        coef_mm: (deg + 1, 2) coefficients, constant first (mm, mm/s, mm/s^2).
        t_lo_s: first sample time used.
        t_hi_s: last sample time used.
        n: number of samples used.
        rms_mm: rms residual of the fit (0 with two samples or fewer).
    """

    t0_s: float
    coef_mm: F64
    t_lo_s: float
    t_hi_s: float
    n: int
    rms_mm: float

    def at(self, t_s: F64 | float) -> F64:
        """Centres (m, 2) mm at times ``t_s`` (m,) (a float gives shape (1, 2))."""
        dt = np.atleast_1d(np.asarray(t_s, np.float64)) - self.t0_s
        powers = dt[:, None] ** np.arange(len(self.coef_mm))[None, :]
        out: F64 = powers @ self.coef_mm
        return out

    def velocity(self, t_s: float) -> F64:
        """Velocity (2,) mm/s at ``t_s``."""
        dt = t_s - self.t0_s
        k = np.arange(1, len(self.coef_mm))
        out: F64 = (k * dt ** (k - 1)) @ self.coef_mm[1:] if len(k) else np.zeros(2)
        return out


class Samples:
    """One ball's finite samples with rest-aware interpolation and local fits.

    Args:
        track: the ball's track; non-finite and unseen (predicted) samples are dropped.
        dt_s: the usual sample step of the recording (default: this track's median);
            give the shortest step of all balls when a slow ball is sampled sparsely.
    """

    __slots__ = ("dt_s", "rest", "seen", "start_s", "t_s", "xy_mm")

    def __init__(self, track: BallTrack, dt_s: float | None = None) -> None:
        ok = np.all(np.isfinite(track.xy_mm), axis=1) & track.seen
        self.t_s: F64 = track.t_s[ok]
        self.xy_mm: F64 = track.xy_mm[ok]
        # Predicted (unseen) positions are no evidence: they are left out, and the
        # samples next to such a hidden stretch are marked not ``seen``.
        before = np.searchsorted(track.t_s[~track.seen], self.t_s)
        hidden = np.diff(np.r_[before, int(np.sum(~track.seen))]) > 0  # after each sample
        self.seen: B1 = ~(hidden | np.r_[False, hidden[:-1]])
        steps = np.diff(self.t_s)
        own = float(np.median(steps)) if len(steps) else 1.0 / 30.0
        self.dt_s = own if dt_s is None else float(dt_s)
        self.rest, self.start_s = self._rests(steps, hidden[:-1])

    def _rests(self, steps: F64, hidden: B1) -> tuple[B1, F64]:
        """Which gaps (n - 1,) are rests, and when the ball set off at the end of each.

        A long gap that was not hidden (``hidden`` (n - 1,)) is a rest if the ball
        hardly moved across it, or if it crossed it much slower than it moved right
        after (it stood, then was struck).
        """
        disp = np.linalg.norm(np.diff(self.xy_mm, axis=0), axis=1)
        implied = disp / np.maximum(steps, 1e-9)
        after = np.r_[implied[1:], 0.0]
        long = (steps > REST_GAP_STEPS * self.dt_s) & ~hidden
        rest = long & ((disp < 3.0) | (implied < 0.5 * after))
        travel = np.where(after > 0.0, disp / np.maximum(after, 1e-9), self.dt_s)
        start = self.t_s[1:] - np.minimum(travel, steps) if len(steps) else np.zeros(0)
        return rest, start

    def __len__(self) -> int:
        return len(self.t_s)

    def at(self, t_s: F64) -> F64:
        """Centres (m, 2) mm at times ``t_s`` (m,): linear, but a rest gap holds still."""
        t, xy = self.t_s, self.xy_mm
        if len(t) == 1:
            return np.repeat(xy, len(t_s), axis=0)
        tq = np.clip(t_s, t[0], t[-1])
        i = np.clip(np.searchsorted(t, tq, side="right") - 1, 0, len(t) - 2)
        start = np.where(self.rest[i], self.start_s[i], t[i])
        frac = np.clip((tq - start) / np.maximum(t[i + 1] - start, 1e-12), 0.0, 1.0)
        out: F64 = xy[i] + frac[:, None] * (xy[i + 1] - xy[i])
        return out

    def rests_after(self, idx: int) -> bool:
        """True if the ball stood still from sample ``idx`` (a rest gap follows it)."""
        if idx < 0 or idx + 1 >= len(self.t_s):
            return False
        return bool(self.rest[idx])

    def index_before(self, t_s: float) -> int:
        """Index of the last sample at or before ``t_s`` (-1 if none)."""
        return int(np.searchsorted(self.t_s, t_s, side="right")) - 1

    def fit_range(self, lo: int, hi: int, deg: int = 1) -> PathFit | None:
        """Fit samples ``lo..hi`` inclusive (cut at rest gaps); None if none."""
        lo, hi = max(lo, 0), min(hi, len(self.t_s) - 1)
        if hi < lo:
            return None
        t, xy = self.t_s[lo : hi + 1], self.xy_mm[lo : hi + 1]
        deg = min(deg, len(t) - 1)
        t0 = float(t[-1])
        if deg <= 0:
            return PathFit(t0, xy.mean(axis=0)[None, :], float(t[0]), t0, len(t), 0.0)
        a = (t - t0)[:, None] ** np.arange(deg + 1)[None, :]
        coef: F64 = np.linalg.lstsq(a, xy, rcond=None)[0].astype(np.float64)
        resid = xy - a @ coef
        dof = max(len(t) - deg - 1, 1)
        rms = float(np.sqrt(np.sum(resid**2) / (2 * dof))) if len(t) > deg + 1 else 0.0
        return PathFit(t0, coef, float(t[0]), t0, len(t), rms)

    def fit_before(self, idx: int, k: int = 3, deg: int = 1, lo_min: int = 0) -> PathFit | None:
        """Fit up to ``k`` samples ending at index ``idx`` (none before ``lo_min``).

        A rest gap in the window cuts it, so a ball at rest gives a still fit.
        """
        if idx < max(lo_min, 0):
            return None
        lo = max(idx - k + 1, lo_min, 0)
        gaps = np.nonzero(self.rest[lo:idx])[0]
        if len(gaps):
            lo = lo + int(gaps[-1]) + 1
        return self.fit_range(lo, idx, deg)

    def fit_after(
        self, idx: int, k: int = 3, deg: int = 1, hi_max: int | None = None
    ) -> PathFit | None:
        """Fit up to ``k`` samples from index ``idx`` (none after ``hi_max``, cut at rests)."""
        last = len(self.t_s) - 1 if hi_max is None else min(hi_max, len(self.t_s) - 1)
        if idx > last:
            return None
        hi = min(idx + k - 1, last)
        gaps = np.nonzero(self.rest[idx:hi])[0]
        if len(gaps):
            hi = idx + int(gaps[0])
        return self.fit_range(idx, hi, deg)


def first_crossing(values: F64, t_s: F64) -> float | None:
    """First time the sampled function ``values`` (m,) at ``t_s`` (m,) drops to <= 0.

    Linear interpolation between the two samples around the crossing; None if it never
    drops to zero (``t_s[0]`` if it starts at or below zero).
    """
    below = np.nonzero(values <= 0.0)[0]
    if not len(below):
        return None
    j = int(below[0])
    if j == 0:
        return float(t_s[0])
    v0, v1 = float(values[j - 1]), float(values[j])
    return float(t_s[j - 1] + (t_s[j] - t_s[j - 1]) * v0 / (v0 - v1))
