"""Pin-down events from the per-frame "is the pin standing" checks and the ball tracks.

A pin is down when it is missing from its spot for the rest of the shot (at least
``hold_s``): a ball passing over the spot hides it only for a moment. The pin fell at
the first frame of that final absence; the ball that knocked it is the ball whose
centre came closest to the spot just before, if close enough to touch it, else
another pin knocked it (``ball`` None).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from calibration import TableGeometry
from referee import Ball, Discipline, Pin, PinDown
from vision._types import BallTrack, ScoredEvent

__all__ = ["PinSeries", "pin_events"]

_HOLD_S = 0.3
_LOOK_BACK_S = 0.25
_PIN_REACH_MM = 30.0  # pin base radius plus tracking slack, beyond the ball's radius


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
) -> tuple[Ball | None, float]:
    best: tuple[Ball | None, float] = (None, np.inf)
    for ball, tr in tracks.items():
        near = (tr.t_s >= t_s - _LOOK_BACK_S) & (tr.t_s <= t_s + 0.05)
        if near.any():
            d = np.hypot(*(tr.xy_mm[near] - np.asarray(xy_mm)).T)
            if np.nanmin(d) < best[1]:
                best = (ball, float(np.nanmin(d)))
    return best if best[1] <= reach_mm else (None, best[1])


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
        ball, d_mm = _knocker(tracks, xy, t_fell, reach_mm)
        who = f"{ball} {d_mm:.0f} mm from the spot" if ball else f"no ball within {reach_mm:.0f} mm"
        event = PinDown(t_s=t_fell - dt / 2, pin=pin, ball=ball, t_err_s=dt / 2)
        out.append(ScoredEvent(event, 0.9, f"pin gone from its spot; {who}"))
    return out
