"""The simulator's physics: events agree with trajectories, energy, spin, friction."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from referee import (
    MATCH_TABLE,
    Ball,
    BallContact,
    Cushion,
    CushionContact,
    OffTable,
    Pin,
    PinDown,
    Pocket,
    Pocketed,
)
from synth import JumpOff, Phase, PhysicsParams, Simulation, SimulationError, Stroke, simulate

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
RADIUS = MATCH_TABLE.radius_mm
L, WIDTH = MATCH_TABLE.length_mm, MATCH_TABLE.width_mm
OPEN = {W: (700.0, 400.0), R: (1500.0, 1000.0), Y: (2400.0, 300.0)}
STROKES = [
    Stroke(W, 4.0, 220.0, 0.2, -0.3),
    Stroke(W, 6.0, 35.0, -0.6, 0.6),
    Stroke(W, 2.0, 36.9, 0.8, 0.0),
    Stroke(W, 8.0, 100.0, 0.0, -0.8),
]


def cushion_distance(sim: Simulation, e: CushionContact) -> float:
    x, y = sim.position_mm(e.ball, e.t_s)
    return {
        Cushion.HEAD: x,
        Cushion.FOOT: L - x,
        Cushion.LEFT: y,
        Cushion.RIGHT: WIDTH - y,
    }[e.cushion]


@pytest.mark.parametrize("stroke", STROKES)
def test_events_agree_with_trajectories(stroke: Stroke) -> None:
    sim = simulate(OPEN, stroke)
    assert [e.t_s for e in sim.events] == sorted(e.t_s for e in sim.events)
    assert any(isinstance(e, CushionContact) for e in sim.events)
    for e in sim.events:
        if isinstance(e, BallContact):
            a, b = e.balls
            d = math.dist(sim.position_mm(a, e.t_s), sim.position_mm(b, e.t_s))
            assert d == pytest.approx(2 * RADIUS, abs=1e-3)
        elif isinstance(e, CushionContact):
            assert cushion_distance(sim, e) == pytest.approx(RADIUS, abs=1e-3)


@pytest.mark.parametrize("stroke", STROKES)
def test_energy_never_increases(stroke: Stroke) -> None:
    sim = simulate(OPEN, stroke)
    times = np.linspace(0.0, sim.duration_s, 400)
    step_times = sorted({t for s in sim.stacks.values() for t in s.t0_s.tolist()})
    energy = [sim.energy_j(t) for t in sorted([*times, *step_times])]
    assert all(b <= a + 1e-12 for a, b in itertools.pairwise(energy))
    for t in step_times[1:]:
        assert sim.energy_j(t) <= sim.energy_j(t - 1e-9) + 1e-12


@pytest.mark.parametrize("stroke", STROKES)
def test_balls_stop(stroke: Stroke) -> None:
    sim = simulate(OPEN, stroke)
    assert 0.0 < sim.duration_s < 60.0
    after = sim.duration_s + 0.001
    for ball in sim.balls:
        assert not sim.moving(ball, after)
        assert sim.velocity_mps(ball, after) == (0.0, 0.0)
        assert sim.position_mm(ball, after) == sim.position_mm(ball, after + 10.0)
    assert sim.end_positions_mm == {b: sim.position_mm(b, after) for b in sim.balls}


def test_square_shot_comes_back_on_its_line() -> None:
    sim = simulate({W: (1000.0, 500.0)}, Stroke(W, 3.0, 0.0))
    hit = next(e for e in sim.events if isinstance(e, CushionContact))
    assert hit.cushion is Cushion.FOOT
    t = np.linspace(hit.t_s + 0.01, sim.duration_s, 50)
    xy = sim.positions_mm(t)[W]
    assert np.allclose(xy[:, 1], 500.0, atol=1e-9)
    assert sim.velocity_mps(W, hit.t_s + 0.01)[0] < 0.0


def rebound_angle_deg(side: float) -> float:
    """Angle to the foot cushion's normal 0.15 s after a 20-degree hit."""
    sim = simulate({W: (2300.0, 300.0)}, Stroke(W, 2.0, 20.0, follow=0.4, side=side))
    first, second, *_ = (e for e in sim.events if isinstance(e, CushionContact))
    assert first.cushion is Cushion.FOOT and second.t_s > first.t_s + 0.15
    vx, vy = sim.velocity_mps(W, first.t_s + 0.15)
    return math.degrees(math.atan2(vy, -vx))


def test_side_spin_changes_the_rebound_the_expected_way() -> None:
    # Heading 20 deg into the foot cushion the ball comes off toward +y, the shooter's
    # left: left english (side < 0) is running english and widens the angle.
    running, plain, reverse = (rebound_angle_deg(s) for s in (-0.5, 0.0, 0.5))
    assert running > plain + 3.0
    assert reverse < plain - 3.0


def test_rolling_deceleration_is_u_r_g() -> None:
    params = PhysicsParams()
    sim = simulate({W: (300.0, 700.0)}, Stroke(W, 1.5, 0.0, follow=0.4))
    assert sim.phase(W, 0.1) is Phase.ROLLING
    (v0, _), (v1, _) = sim.velocity_mps(W, 0.2), sim.velocity_mps(W, 1.2)
    assert (v0 - v1) / 1.0 == pytest.approx(params.u_r * params.g_mps2, rel=1e-9)


def test_stun_ball_slides_then_rolls_at_five_sevenths() -> None:
    sim = simulate({W: (300.0, 700.0)}, Stroke(W, 2.0, 0.0))
    assert sim.phase(W, 0.01) is Phase.SLIDING
    t_roll = 2 * 2.0 / (7 * 0.2 * 9.81)
    assert sim.phase(W, t_roll + 1e-6) is Phase.ROLLING
    assert sim.velocity_mps(W, t_roll)[0] == pytest.approx(2.0 * 5 / 7, rel=1e-9)


def test_stun_with_side_spin_leaves_the_cue_ball_spinning_in_place() -> None:
    sim = simulate({W: (1000.0, 700.0), R: (1100.0, 700.0)}, Stroke(W, 2.0, 0.0, side=0.8))
    t = np.linspace(0.0, sim.duration_s, 2001)
    phases = [sim.phase(W, x) for x in t]
    assert Phase.SPINNING in phases
    spinning = t[phases.index(Phase.SPINNING)]
    assert sim.moving(W, spinning)
    assert sim.velocity_mps(W, spinning) == (0.0, 0.0)
    assert sim.angular_velocity_radps(W, spinning)[2] > 0.0


def test_deterministic() -> None:
    a, b = simulate(OPEN, STROKES[0]), simulate(OPEN, STROKES[0])
    assert a.events == b.events
    t = np.linspace(0, a.duration_s, 333)
    pa, pb = a.positions_mm(t), b.positions_mm(t)
    assert all(np.array_equal(pa[k], pb[k]) for k in pa)


def test_frozen_balls_touch_at_once() -> None:
    sim = simulate({W: (1000.0, 500.0), R: (1061.5, 500.0)}, Stroke(W, 2.0, 0.0))
    first = sim.events[0]
    assert isinstance(first, BallContact) and first.t_s == 0.0
    assert set(first.balls) == {W, R}


def test_frozen_ball_played_away_has_no_contact() -> None:
    sim = simulate({W: (1000.0, 500.0), R: (1061.5, 500.0)}, Stroke(W, 2.0, 180.0))
    assert not any(isinstance(e, BallContact) and e.t_s < 0.5 for e in sim.events)
    assert sim.position_mm(R, 0.5) == (1061.5, 500.0)


def test_running_along_a_cushion_is_one_contact() -> None:
    sim = simulate({W: (300.0, 1380.0)}, Stroke(W, 4.0, 0.25, follow=0.2, side=-0.3))
    right = [e for e in sim.events if isinstance(e, CushionContact) and e.cushion is Cushion.RIGHT]
    assert len(right) == 1
    t = np.linspace(right[0].t_s, right[0].t_s + 0.1, 50)
    assert np.allclose(sim.positions_mm(t)[W][:, 1], WIDTH - RADIUS, atol=1e-6)


def test_pin_falls_and_ball_goes_on_slower() -> None:
    pins = {Pin.CENTER: (1420.0, 700.0)}
    sim = simulate({W: (900.0, 700.0)}, Stroke(W, 2.0, 0.0, follow=0.4), pins=pins)
    down = [e for e in sim.events if isinstance(e, PinDown)]
    assert [(e.pin, e.ball) for e in down] == [(Pin.CENTER, W)]
    t = down[0].t_s
    reach = RADIUS + PhysicsParams().pin_radius_mm
    assert math.dist(sim.position_mm(W, t), pins[Pin.CENTER]) == pytest.approx(reach, abs=1e-3)
    before, after = sim.velocity_mps(W, t - 1e-9)[0], sim.velocity_mps(W, t)[0]
    assert after == pytest.approx(before * PhysicsParams().pin_speed_factor, rel=1e-6)
    assert sim.pins_mm(t - 0.01)[Pin.CENTER][2] and not sim.pins_mm(t + 0.01)[Pin.CENTER][2]


def test_pin_under_a_ball_is_not_standing() -> None:
    sim = simulate(
        {W: (900.0, 700.0), R: (1420.0, 700.0)},
        Stroke(W, 1.0, 90.0),
        pins={Pin.CENTER: (1420.0, 700.0)},
    )
    assert sim.pins_standing == frozenset()


def test_pocketed_ball_is_removed() -> None:
    pockets = {Pocket.FOOT_LEFT: (L, 0.0)}
    sim = simulate(
        {W: (2000.0, 700.0)}, Stroke(W, 3.0, math.degrees(math.atan2(-700, 840))), pockets=pockets
    )
    pocketed = [e for e in sim.events if isinstance(e, Pocketed)]
    assert len(pocketed) == 1 and pocketed[0].pocket is Pocket.FOOT_LEFT
    t = pocketed[0].t_s
    assert np.all(np.isnan(sim.positions_mm([t + 0.01])[W]))
    assert W in sim.removed_s and W not in sim.end_positions_mm


def test_scripted_jump_off_at_second_cushion() -> None:
    sim = simulate(OPEN, STROKES[0], jump_off=JumpOff(W, 2))
    cushions = [e for e in sim.events if isinstance(e, CushionContact) and e.ball == W]
    off = [e for e in sim.events if isinstance(e, OffTable)]
    assert len(cushions) == 2 and len(off) == 1
    assert off[0].t_s == cushions[1].t_s and sim.events.index(off[0]) > sim.events.index(
        cushions[1]
    )
    assert math.isnan(sim.position_mm(W, off[0].t_s + 0.001)[0])


@pytest.mark.parametrize(
    ("positions", "stroke", "message"),
    [
        ({W: (10.0, 500.0)}, Stroke(W, 1.0, 0.0), "not on the table"),
        ({W: (500.0, 500.0), R: (540.0, 500.0)}, Stroke(W, 1.0, 0.0), "overlap"),
        ({R: (500.0, 500.0)}, Stroke(W, 1.0, 0.0), "no position"),
    ],
)
def test_bad_placement_is_refused(
    positions: dict[Ball, tuple[float, float]], stroke: Stroke, message: str
) -> None:
    with pytest.raises(SimulationError, match=message):
        simulate(positions, stroke)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SimulationError, match=r"Stroke.follow must be -0.8..0.8"):
        Stroke(W, 1.0, 0.0, follow=0.9)
    with pytest.raises(SimulationError, match=r"PhysicsParams.u_s"):
        PhysicsParams(u_s=-1.0)


def test_event_cap_raises() -> None:
    with pytest.raises(SimulationError, match="max_events"):
        simulate(OPEN, STROKES[1], params=PhysicsParams(max_events=10))
