"""Real recordings: loading, replay, and the measurements shared with the simulator.

The recording lives outside the repository (``../shared/realdata``); the tests that
need it skip cleanly without it. The measurement tests run on simulations.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from referee import Ball, Cushion
from synth import (
    PhysicsParams,
    RecordedMotion,
    SimulationError,
    Stroke,
    Track,
    cushion_hits,
    load_real_shots,
    motion_end_s,
    replay_start,
    rolling_decelerations,
    sample_tracks,
    simulate,
)

REALDATA = Path(__file__).parents[3] / "shared" / "realdata" / "three_cushion_match_dev.json"
needs_realdata = pytest.mark.skipif(not REALDATA.exists(), reason="realdata not present")
W, R = Ball.WHITE, Ball.RED


def test_track_checks_its_shapes() -> None:
    with pytest.raises(SimulationError, match=r"expected t_s \(n,\) and xy_mm \(n, 2\)"):
        Track(np.zeros(3), np.zeros((3, 3)))
    with pytest.raises(SimulationError, match="increase"):
        Track(np.array([0.0, 0.0]), np.zeros((2, 2)))


def test_loader_reads_a_small_file(tmp_path: Path) -> None:
    doc = {
        "shots": [
            {
                "shot_id": 7,
                "ball_order_in_source": ["yellow", "red", "white"],
                "balls": {
                    "yellow": {
                        "t_s": [0.0, 0.02, 0.04],
                        "x_mm": [100, 110, 120],
                        "y_mm": [50, 50, 50],
                    },
                    "red": {"t_s": [0.0, 1.0], "x_mm": [500, 500], "y_mm": [60, 60]},
                },
            }
        ]
    }
    path = tmp_path / "shots.json"
    path.write_text(json.dumps(doc))
    (shot,) = load_real_shots(path)
    assert shot.shot_id == "7" and shot.cue_ball is Ball.YELLOW
    assert shot.tracks[Ball.YELLOW].xy_mm.shape == (3, 2)
    with pytest.raises(SimulationError, match="cannot read real shots"):
        load_real_shots(tmp_path / "missing.json")


def test_recorded_motion_interpolates() -> None:
    track = Track(
        np.array([0.0, 1.0, 2.0, 3.0]), np.array([[100.0, 100], [200, 100], [300, 100], [400, 100]])
    )
    for cubic in (False, True):
        motion = RecordedMotion({W: track}, cubic=cubic)
        xy = motion.positions_mm(np.array([-1.0, 0.5, 2.5, 9.0]))[W]
        assert np.allclose(xy, [[100, 100], [150, 100], [350, 100], [400, 100]])
        assert motion.velocity_mps(W, 1.5) == pytest.approx((0.1, 0.0))
        assert motion.moving(W, 1.5) and not motion.moving(W, 5.0)
    assert RecordedMotion({W: track}).duration_s == 3.0


def test_rolling_deceleration_measured_on_a_simulation() -> None:
    params = PhysicsParams()
    sim = simulate({W: (300.0, 300.0)}, Stroke(W, 3.0, 20.0, follow=0.4))
    decel = rolling_decelerations(sample_tracks(sim), W)
    assert decel
    assert np.allclose(decel, params.u_r * params.g_mps2, rtol=0.02)


def test_cushion_hit_measured_on_a_simulation() -> None:
    sim = simulate({W: (2300.0, 300.0)}, Stroke(W, 2.0, 30.0, follow=0.4))
    hits = cushion_hits(sample_tracks(sim), W)
    assert hits[0].cushion is Cushion.FOOT
    assert hits[0].in_angle_deg == pytest.approx(30.0, abs=0.5)
    assert hits[0].in_speed_mps == pytest.approx(2.0, abs=0.05)
    assert 0.3 < hits[0].speed_ratio < 1.0
    params = PhysicsParams()
    slow_tail_s = 0.05 / (params.u_r * params.g_mps2)  # from 5 cm/s to rest
    assert motion_end_s(sample_tracks(sim)) == pytest.approx(sim.duration_s - slow_tail_s, abs=0.2)


@needs_realdata
def test_real_shots_load_and_replay() -> None:
    shots = load_real_shots(REALDATA)
    assert len(shots) == 60
    shot = shots[0]
    motion = RecordedMotion(shot.tracks)
    t = shot.tracks[shot.cue_ball].t_s
    assert np.allclose(motion.positions_mm(t)[shot.cue_ball], shot.tracks[shot.cue_ball].xy_mm)
    start = replay_start(shot)
    assert 0.0 <= start.t_strike_s < 0.05 and 3.0 < start.stroke.speed_mps < 6.0
    sim = simulate(start.positions_mm, start.stroke)
    assert sim.duration_s > 3.0


@needs_realdata
def test_real_shots_have_measurable_rebounds_and_rolling() -> None:
    shots = load_real_shots(REALDATA)[:10]
    hits = [h for s in shots for b in s.tracks for h in cushion_hits(s.tracks, b)]
    decel = [d for s in shots for b in s.tracks for d in rolling_decelerations(s.tracks, b)]
    assert len(hits) > 20 and len(decel) > 10
    assert 0.03 < float(np.median(decel)) < 0.08
    assert all(0.0 <= h.in_angle_deg <= 90.0 for h in hits)
