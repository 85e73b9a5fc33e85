"""The kick a ball at rest is given: along the line of centres where the striker touched it.

At 30 fps a contact may be timed several ms late (tuning pt0029: 7 ms, the struck
yellow's first sample already back off the cushion it was sent into). The striker's
path run on to that time passes the ball at rest, and the line of centres from there
sent the kick 40 degrees astray, so that the cushion in between was never found. The
touch is where the striker's path first comes within two radii of the ball at rest.
Tracks are sampled at 30 fps with 0.3 mm of noise; no renderer, no tracker.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, Table
from vision import BallTrack
from vision.events._cushion_contacts import Tolerances
from vision.events._kick import kick_at
from vision.events._path_fit import Samples

_FPS = 30.0
_REST_MM = np.array([1400.0, 500.0])
_SPEED_MM_S = 6000.0


def _shot(cut_deg: float) -> tuple[dict[Ball, Samples], float, np.ndarray]:
    """The white struck at the yellow at rest, ``cut_deg`` off full; samples, touch, axis.

    The touch is 15 ms after a sample; ``axis`` is the line of centres (white to yellow).
    """
    two_r = 2.0 * TableGeometry(Table()).radius_mm
    t = np.arange(0.0, 0.4, 1.0 / _FPS)
    hit = 6.0 / _FPS + 0.015
    way = np.array([-math.cos(math.radians(20.0)), -math.sin(math.radians(20.0))])
    cut = math.radians(cut_deg)
    axis = np.array(
        [
            way[0] * math.cos(cut) - way[1] * math.sin(cut),
            way[0] * math.sin(cut) + way[1] * math.cos(cut),
        ]
    )
    touch = _REST_MM - two_r * axis
    v = _SPEED_MM_S * way
    push = float(v @ axis)
    after = np.where(t[:, None] < hit, 0.0, 1.0)
    white = touch + np.outer(t - hit, v) - after * np.outer(t - hit, push * axis)
    yellow = _REST_MM + after * np.outer(t - hit, push * axis)
    rng = np.random.default_rng(int(cut_deg))
    samples = {
        ball: Samples(BallTrack.from_samples(t, xy + rng.normal(0.0, 0.3, xy.shape)))
        for ball, xy in ((Ball.WHITE, white), (Ball.YELLOW, yellow))
    }
    return samples, hit, axis


@pytest.mark.parametrize("late_ms", [0.0, 4.0, 7.0, 10.0])
@pytest.mark.parametrize("cut_deg", [0.0, 30.0, 50.0])
def test_a_kick_from_rest_runs_along_the_line_of_centres_at_the_touch(
    late_ms: float, cut_deg: float
) -> None:
    samples, hit, axis = _shot(cut_deg)
    geometry, tol = TableGeometry(Table()), Tolerances(0.3, 1.0 / _FPS)
    for ball, other, sign in ((Ball.YELLOW, Ball.WHITE, 1.0), (Ball.WHITE, Ball.YELLOW, -1.0)):
        kick = kick_at(samples, ball, other, hit + late_ms / 1000.0, geometry, tol)
        assert kick is not None
        off_deg = math.degrees(math.acos(min(1.0, float(kick.axis @ (sign * axis)))))
        assert off_deg < 2.0, f"{ball}: the kick {off_deg:.1f} degrees off the line of centres"
        assert abs(kick.t_s - hit) < 0.001, f"{ball}: kicked {1000 * (kick.t_s - hit):.1f} ms off"
