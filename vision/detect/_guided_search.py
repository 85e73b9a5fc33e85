"""Where to look next: predicted ball windows for the detector's guided mode.

A full-frame search costs several milliseconds at 1080p; searching only around where
each ball will be is several times cheaper. The guide asks for a full search every
``full_every`` frames, and whenever a ball was not seen or its identity was in doubt
in the last frame (a ball under the arm, a ball just re-placed), so guided mode never
hides a ball for long. Predictions extrapolate the last two tracked positions; the
reach covers a bounce (the ball may be up to twice its frame step off the straight
line) and the first frame of a struck ball at rest.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration, MmToPx
from vision.track import TrackStep

__all__ = ["Guide"]

F64 = NDArray[np.float64]


class Guide:
    """Feed tracker steps; ``windows()`` gives (near_px (k, 2), reach_px (k,)) or None."""

    def __init__(self, calibration: Calibration, full_every: int = 60) -> None:
        self.calibration = calibration
        self.full_every = full_every
        radius_mm = calibration.geometry.radius_mm
        self._radius_mm = radius_mm
        centre = np.array([[calibration.geometry.length_mm / 2, calibration.geometry.width_mm / 2]])
        a = calibration.mm_to_px(centre, radius_mm)
        b = calibration.mm_to_px(centre + np.array([radius_mm, 0.0]), radius_mm)
        self._px_per_mm = float(np.hypot(*(b - a)[0])) / radius_mm * 1.15  # edge margin
        self._to_px = MmToPx(calibration, radius_mm)
        self._last: TrackStep | None = None
        self._prev: TrackStep | None = None
        self._since_full = full_every

    def record(self, step: TrackStep, was_full: bool) -> None:
        """The tracker's step after a frame (``was_full``: that frame had a full search)."""
        self._prev, self._last = self._last, step
        self._since_full = 0 if was_full else self._since_full + 1

    def windows(self) -> tuple[F64, F64] | None:
        """Predicted centres and reaches for the next frame, or None for a full search."""
        last, prev = self._last, self._prev
        if last is None or prev is None or self._since_full + 1 >= self.full_every:
            return None
        if not (bool(last.seen.all()) and not bool(last.ambiguous.any())):
            return None
        if not np.isfinite(last.xy_mm).all() or not np.isfinite(prev.xy_mm).all():
            return None
        step_mm = last.xy_mm - prev.xy_mm
        near_mm = last.xy_mm + step_mm
        moved = np.hypot(step_mm[:, 0], step_mm[:, 1])
        reach_mm = np.where(moved > 1.0, 2.5 * self._radius_mm + 2.0 * moved, 4.0 * self._radius_mm)
        near_px = self._to_px.points(near_mm)
        return near_px, reach_mm * self._px_per_mm
