"""Near misses: two balls that passed so close that a thin contact cannot be ruled out.

A very thin kiss moves a resting ball by less than the camera's noise (a fraction of a
millimetre) and bends the moving ball's path by less than a degree: nothing in the
tracks proves it. When two balls came within ``gap_mm`` of touching and no contact
was found, vision reports the contact with low confidence and a ``doubt``; the referee
then judges the shot with and without it and asks for review if the call depends on
it [guide: "doubt is reported, not hidden"].
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np

from referee import Ball, BallContact
from vision._types import ScoredEvent
from vision.events._path_fit import Samples

__all__ = ["near_misses"]

_EXCLUDE_S = 0.15  # a found contact of the pair this close in time explains the approach
_WINDOW_S = 0.1  # half-width of the window that tells a moving ball from jitter
_MIN_TRAVEL_MM = 5.0


def near_misses(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    radius_mm: float,
    noise_mm: float,
    dt_s: float,
) -> list[ScoredEvent]:
    """Doubtful ball contacts where two balls passed within a few mm and none was found."""
    gap_mm = max(2.5, 3.0 * noise_mm)
    out: list[ScoredEvent] = []
    for a, b in itertools.combinations(sorted(samples), 2):
        sa, sb = samples[a], samples[b]
        if len(sa) == 0 or len(sb) == 0:
            continue
        t0, t1 = max(sa.t_s[0], sb.t_s[0]), min(sa.t_s[-1], sb.t_s[-1])
        if t1 <= t0:
            continue
        t = np.arange(t0, t1, dt_s / 2.0)
        pa, pb = sa.at(t), sb.at(t)
        gap = np.hypot(*(pa - pb).T) - 2.0 * radius_mm
        for i in _valleys(gap, gap_mm):
            if _moving(pa, pb, i, dt_s, noise_mm) and not _explained(found, a, b, float(t[i])):
                apart = f"{a} and {b} passed {max(gap[i], 0.0):.1f} mm apart"
                why = f"{apart}: a thin contact cannot be ruled out"
                ev = BallContact(t_s=float(t[i]), balls=(a, b), doubt=why, t_err_s=dt_s)
                out.append(ScoredEvent(ev, 0.3, f"near miss, gap {gap[i]:.1f} mm"))
    return out


def _valleys(gap: np.ndarray, below_mm: float) -> list[int]:
    """Index of the smallest gap of each stretch where the gap stays below ``below_mm``."""
    close = gap < below_mm
    edges = np.flatnonzero(np.diff(np.r_[0, close.astype(np.int8), 0]))
    return [int(lo + np.argmin(gap[lo:hi])) for lo, hi in zip(edges[::2], edges[1::2], strict=True)]


def _moving(pa: np.ndarray, pb: np.ndarray, i: int, dt_s: float, noise_mm: float) -> bool:
    """Either ball travelled clearly more than the noise in the 0.2 s around sample ``i``."""
    k = max(1, round(_WINDOW_S / (dt_s / 2.0)))
    lo, hi = max(i - k, 0), min(i + k, len(pa) - 1)
    travel = max(float(np.hypot(*(p[hi] - p[lo]))) for p in (pa, pb))
    return travel > max(_MIN_TRAVEL_MM, 5.0 * noise_mm)


def _explained(found: Sequence[ScoredEvent], a: Ball, b: Ball, t_s: float) -> bool:
    for s in found:
        e = s.event
        if isinstance(e, BallContact) and set(e.balls) == {a, b} and abs(e.t_s - t_s) < _EXCLUDE_S:
            return True
    return False
