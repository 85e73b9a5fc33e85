"""A ball a kiss sends into a cushion a few mm away, told from the kick alone.

The kick is given (``Kick``: where the ball was, its velocity, the line of centres,
the other ball's velocity) and the ball's samples are a straight run at 60 fps; the
finder (``vision/events/_pushed_into_cushion.py``) must claim the cushion only for a
real kick pointed into it that gets there within the frame, and not when the path
after runs straight on. The pooltool shots it was made on are in
``test_kicked_into_cushion.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, Cushion, Table
from vision import BallTrack
from vision.events._cushion_contacts import Tolerances
from vision.events._kick import Kick
from vision.events._path_fit import Samples
from vision.events._pushed_into_cushion import pushed_on

_GEOMETRY = TableGeometry(Table())
_TOL = Tolerances(noise_mm=0.3, dt_s=1.0 / 60.0)
_T_KICK_S = 0.5 + 0.004  # 4 ms after a sample
_XY_MM = np.array([1000.0, _GEOMETRY.radius_mm + 12.0])  # 12 mm from the left cushion
_V0_MM_S = np.array([400.0, 0.0])  # rolling along it


def _samples(after_mm_s: np.ndarray | None, v0_mm_s: np.ndarray = _V0_MM_S) -> Samples:
    """The ball's samples: its run up to the kick, then ``after_mm_s`` (None: unseen)."""
    t = np.arange(0.0, 1.0, 1.0 / 60.0)
    xy = _XY_MM + np.outer(t - _T_KICK_S, v0_mm_s)
    later = t > _T_KICK_S
    if after_mm_s is not None:
        xy[later] = _XY_MM + np.outer(t[later] - _T_KICK_S, after_mm_s)
        return Samples(BallTrack.from_samples(t, xy))
    return Samples(BallTrack.from_samples(t[~later], xy[~later]))


def _kick(
    axis: tuple[float, float], v_other_mm_s: tuple[float, float], v0_mm_s: np.ndarray = _V0_MM_S
) -> Kick:
    return Kick(Ball.RED, _T_KICK_S, _XY_MM, v0_mm_s, np.array(axis), np.array(v_other_mm_s))


def test_a_moving_ball_kicked_into_a_cushion_12_mm_away_touched_it() -> None:
    # The white closes at 1500 mm/s along the line of centres, which points into the
    # left cushion: the red goes on at (400, -1350) mm/s, on the cushion 8.9 ms later.
    kick = _kick((0.0, -1.0), (0.0, -1500.0))
    hit = pushed_on(_samples(None), kick, (len(_samples(None)) - 1, np.inf), _GEOMETRY, _TOL)
    assert hit is not None
    t_c, cushion, confidence = hit
    assert cushion is Cushion.LEFT and confidence < 1.0
    assert t_c - _T_KICK_S == pytest.approx(12.0 / (0.9 * 1500.0), abs=1e-6)


def test_no_kick_when_the_other_ball_moves_away() -> None:
    # The red runs into the cushion by itself (there 13 ms later): no kick says so, the
    # cushion finder does, off its path.
    into = np.array([400.0, -900.0])
    kick = _kick((0.0, -1.0), (0.0, 500.0), into)
    unseen = _samples(None, into)
    assert pushed_on(unseen, kick, (len(unseen) - 1, np.inf), _GEOMETRY, _TOL) is None


def test_a_kick_not_pointed_into_the_cushion_gives_it_no_contact() -> None:
    # Struck along the cushion: whatever the ball's own run does there is the cushion
    # finder's to see.
    into = np.array([0.0, -1200.0])
    kick = _kick((1.0, 0.0), (2000.0, -1200.0), into)
    unseen = _samples(None, into)
    assert pushed_on(unseen, kick, (len(unseen) - 1, np.inf), _GEOMETRY, _TOL) is None


def test_a_path_after_that_runs_straight_on_as_kicked_says_no_touch() -> None:
    kick = _kick((0.0, -1.0), (0.0, -1500.0))
    ran_on = _samples(np.array([400.0, -1350.0]))
    assert pushed_on(ran_on, kick, (len(ran_on) - 1, np.inf), _GEOMETRY, _TOL) is None


def test_a_cushion_after_the_next_kiss_is_not_claimed() -> None:
    kick = _kick((0.0, -1.0), (0.0, -1500.0))
    unseen = _samples(None)
    assert pushed_on(unseen, kick, (len(unseen) - 1, _T_KICK_S + 0.005), _GEOMETRY, _TOL) is None
