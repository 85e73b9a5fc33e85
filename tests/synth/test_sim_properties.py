"""Invariants of the simulator over random lay-outs and strokes (hypothesis)."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee import MATCH_TABLE, Ball, BallContact
from synth import Simulation, Stroke, simulate

RADIUS = MATCH_TABLE.radius_mm
LOW = np.array([RADIUS, RADIUS])
HIGH = np.array([MATCH_TABLE.length_mm - RADIUS, MATCH_TABLE.width_mm - RADIUS])
BALLS = (Ball.WHITE, Ball.YELLOW, Ball.RED)

spots = st.tuples(
    st.floats(float(LOW[0]), float(HIGH[0])), st.floats(float(LOW[1]), float(HIGH[1]))
)
strokes = st.builds(
    Stroke,
    st.just(Ball.WHITE),
    st.floats(0.05, 10.0),
    st.floats(-180.0, 180.0),
    st.floats(-0.8, 0.8),
    st.floats(-0.8, 0.8),
)


def sample_times(sim: Simulation) -> np.ndarray:
    events = [e.t_s for e in sim.events]
    return np.unique(np.concatenate((np.linspace(0.0, sim.duration_s, 3000), events)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(spots, min_size=3, max_size=3), strokes)
def test_random_shots_stop_inside_the_table_without_overlap(
    places: list[tuple[float, float]], stroke: Stroke
) -> None:
    assume(all(math.dist(a, b) >= 2 * RADIUS for a, b in itertools.combinations(places, 2)))
    sim = simulate(dict(zip(BALLS, places, strict=True)), stroke)
    assert math.isfinite(sim.duration_s)
    t = sample_times(sim)
    xy = sim.positions_mm(t)
    for ball in BALLS:
        assert np.all(xy[ball] >= LOW - 1e-6) and np.all(xy[ball] <= HIGH + 1e-6)
    for a, b in itertools.combinations(BALLS, 2):
        assert np.min(np.hypot(*(xy[a] - xy[b]).T)) >= 2 * RADIUS - 0.01
    for e in sim.events:
        if isinstance(e, BallContact):
            d = math.dist(*(sim.position_mm(x, e.t_s) for x in e.balls))
            assert abs(d - 2 * RADIUS) < 1e-3
    assert not any(sim.moving(b, sim.duration_s + 1e-6) for b in BALLS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.floats(-180.0, 180.0), st.floats(0.3, 8.0), st.floats(-0.8, 0.8), st.floats(-0.8, 0.8))
def test_frozen_pairs_never_overlap(
    heading: float, speed: float, follow: float, side: float
) -> None:
    # Two balls frozen together and a third frozen to a cushion: contacts at t = 0.
    places = {Ball.WHITE: (1000.0, 700.0), Ball.RED: (1061.5, 700.0), Ball.YELLOW: (1000.0, RADIUS)}
    sim = simulate(places, Stroke(Ball.WHITE, speed, heading, follow, side))
    xy = sim.positions_mm(sample_times(sim))
    for a, b in itertools.combinations(BALLS, 2):
        assert np.min(np.hypot(*(xy[a] - xy[b]).T)) >= 2 * RADIUS - 0.01
    for ball in BALLS:
        assert np.all(xy[ball] >= LOW - 1e-6) and np.all(xy[ball] <= HIGH + 1e-6)
