"""What the tracker reports after each frame: every ball's centre, speed and flags."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from referee import Ball
from vision._types import VisionError

__all__ = ["LAG_MM", "BallState", "TrackStep", "reported_xy"]

F64 = NDArray[np.float64]
B1 = NDArray[np.bool_]

#: A moving ball's estimate this far from its measurement lags a turn the motion model
#: did not foresee (tuning shots of the independent set: 1 to 4 mm alike).
LAG_MM = 2.0


def reported_xy(estimate: tuple[float, float], measured: tuple[float, float] | None
                ) -> tuple[float, float]:  # fmt: skip
    """A moving ball's centre this frame: the filter's estimate, or the measurement where it lags.

    The estimate smooths the measurements along the motion model. At a turn the model did
    not foresee (a kick from a fast ball, a bounce just after one, a blurred streak it
    trusts little) it lags the ball, up to 40 mm at 7 m/s on the independent set, and the
    contacts found from the path came late or not at all; more than ``LAG_MM`` from the
    measurement, the measurement itself is the sample.
    """
    if measured is None or math.dist(estimate, measured) <= LAG_MM:
        return estimate
    return measured


@dataclass(frozen=True, slots=True)
class BallState:
    """One ball in one frame: centre (mm), detected or predicted, speed and flags."""

    xy_mm: tuple[float, float]
    seen: bool
    speed_mm_s: float
    at_rest: bool
    ambiguous: bool


@dataclass(frozen=True, slots=True)
class TrackStep:
    """Every tracked ball after one frame (k balls, in the tracker's order).

    Args:
        frame_idx: The frame.
        t_s: Its time.
        balls: (k,) the balls.
        xy_mm: (k, 2) centres at ball height, measured or predicted (NaN: never seen).
        seen: (k,) detected in this frame.
        speed_mm_s: (k,) filter speed (0 at rest).
        at_rest: (k,) the ball is at rest (its position is a running mean).
        ambiguous: (k,) the identity was in doubt this frame (two balls could swap, or
            the ball was re-acquired far from where it was).
    """

    frame_idx: int
    t_s: float
    balls: tuple[Ball, ...]
    xy_mm: F64
    seen: B1
    speed_mm_s: F64
    at_rest: B1
    ambiguous: B1

    def of(self, ball: Ball) -> BallState:
        """The state of one ball; VisionError when it is not tracked."""
        if ball not in self.balls:
            raise VisionError(f"ball {ball.value} is not tracked; pass it in Tracker(balls=...)")
        i = self.balls.index(ball)
        xy = (float(self.xy_mm[i, 0]), float(self.xy_mm[i, 1]))
        return BallState(
            xy, bool(self.seen[i]), float(self.speed_mm_s[i]), bool(self.at_rest[i]),
            bool(self.ambiguous[i]),
        )  # fmt: skip
