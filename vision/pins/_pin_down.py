"""Pin-down events from the per-frame "is the pin standing" checks and the ball tracks.

A pin is down when it is missing from its spot for the rest of the shot (at least
``hold_s``): a ball passing over the spot hides it only for a moment. The ball that
knocked it is the ball whose centre came closest to the spot in the half second
before it went, if close enough to touch it; the event time is when that ball reached
the pin (a falling pin leaves its spot a little later). Otherwise another pin knocked
it (``ball`` None) at the first frame of its absence.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, Discipline, Pin, PinDown
from vision._types import BallTrack, ScoredEvent

__all__ = ["PinSeries", "pin_events"]

F64 = NDArray[np.float64]

_HOLD_S = 0.3
_LOOK_BACK_S = 0.5  # a knocked pin takes a while to leave its spot
_PIN_REACH_MM = 15.0  # pin radius at ball-centre height, beyond the ball's radius


class PinSeries:
    """Per-frame pin checks: ``add(t_s, {pin: standing})``, oldest dropped on demand.

    A pin missing from a frame's mapping could not be judged (a ball over its spot).
    """

    def __init__(self) -> None:
        self.t_s: list[float] = []
        self.standing: list[Mapping[Pin, bool]] = []

    def add(self, t_s: float, standing: Mapping[Pin, bool]) -> None:
        """One frame's check."""
        self.t_s.append(t_s)
        self.standing.append(dict(standing))

    def drop_before(self, t_s: float) -> None:
        """Forget checks older than ``t_s``."""
        keep = next((i for i, t in enumerate(self.t_s) if t >= t_s), len(self.t_s))
        del self.t_s[:keep], self.standing[:keep]

    def standing_at(self, t_s: float) -> frozenset[Pin]:
        """Pins standing in the last check at or before ``t_s`` (else the first)."""
        if not self.t_s:
            return frozenset()
        i = max(0, int(np.searchsorted(self.t_s, t_s, side="right")) - 1)
        known: dict[Pin, bool] = {}
        for checks in self.standing[: i + 1]:
            known |= checks
        return frozenset(p for p, up in known.items() if up)


def _fell_at(series: PinSeries, pin: Pin) -> float | None:
    """Start of the final absence of ``pin`` if it lasts ``_HOLD_S`` and it stood before."""
    ups: list[bool] = []
    for s in series.standing:  # a pin hidden by a ball (absent) keeps its last state
        ups.append(s.get(pin, ups[-1] if ups else True))
    if not ups or ups[-1] or not any(ups):
        return None
    last_up = max(i for i, up in enumerate(ups) if up)
    t_fell = series.t_s[last_up + 1]
    return t_fell if series.t_s[-1] - t_fell >= _HOLD_S else None


def _knocker(
    tracks: Mapping[Ball, BallTrack], xy_mm: tuple[float, float], t_s: float, reach_mm: float
) -> tuple[Ball | None, float, float]:
    """The ball that came within ``reach_mm`` of the spot before ``t_s``: (ball, gap, time).

    The time is when its centre first crossed ``reach_mm`` from the spot (interpolated
    between samples): the moment of contact, before the pin is seen gone.
    """
    best: tuple[Ball | None, float, float] = (None, np.inf, t_s)
    for ball, tr in tracks.items():
        near = (tr.t_s >= t_s - _LOOK_BACK_S) & (tr.t_s <= t_s + 0.05)
        if not near.any():
            continue
        d = np.hypot(*(tr.xy_mm[near] - np.asarray(xy_mm)).T)
        if np.all(np.isnan(d)) or np.nanmin(d) >= best[1]:
            continue
        best = (ball, float(np.nanmin(d)), _crossing(tr.t_s[near], d, reach_mm, t_s))
    return best if best[1] <= reach_mm else (None, best[1], t_s)


def _crossing(t_s: F64, d_mm: F64, reach_mm: float, default_s: float) -> float:
    inside = np.flatnonzero(d_mm <= reach_mm)
    if len(inside) == 0 or inside[0] == 0:
        return default_s if len(inside) == 0 else float(t_s[0])
    i = int(inside[0])
    f = (d_mm[i - 1] - reach_mm) / max(d_mm[i - 1] - d_mm[i], 1e-9)
    return float(t_s[i - 1] + f * (t_s[i] - t_s[i - 1]))


def pin_events(
    series: PinSeries,
    tracks: Mapping[Ball, BallTrack],
    geometry: TableGeometry,
    discipline: Discipline,
) -> list[ScoredEvent]:
    """Pin-down events of the shot whose checks ``series`` holds."""
    out: list[ScoredEvent] = []
    reach_mm = geometry.radius_mm + _PIN_REACH_MM
    dt = float(np.median(np.diff(series.t_s))) if len(series.t_s) > 1 else 0.0
    for pin, xy in geometry.pins_mm(discipline).items():
        t_fell = _fell_at(series, pin)
        if t_fell is None:
            continue
        ball, d_mm, t_hit = _knocker(tracks, xy, t_fell, reach_mm)
        if ball is None:
            who = f"no ball within {reach_mm:.0f} mm"
            event = PinDown(t_s=t_fell - dt / 2, pin=pin, ball=None, t_err_s=dt / 2)
        else:
            who = f"{ball} reached the pin ({d_mm:.0f} mm from its spot)"
            event = PinDown(t_s=t_hit, pin=pin, ball=ball, t_err_s=max(dt / 2, 0.005))
        out.append(ScoredEvent(event, 0.9, f"pin gone from its spot; {who}"))
    return out
