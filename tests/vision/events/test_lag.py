"""The lag from tracks: told apart from strokes, its events and positions judged right.

Tracks here are the simulator's exact paths sampled at 30 fps with 1 mm of noise (no
pixels); ``test_lag_video.py`` runs rendered video through the whole pipeline.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration import TableGeometry
from referee import MATCH_TABLE, Ball, Discipline, LagRule, judge_lag, rules_of
from synth import Simulation, Stroke, lag_names, lag_scenario, scenario, scenario_names, simulate
from vision import AnalyzedShot, PinSeries, build_shot, extract_events, is_lag, lag_of, pin_events
from vision._types import BallTrack
from vision.events._motion import shot_span

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
GEOMETRY = TableGeometry(MATCH_TABLE)


def _tracks(sim: Simulation, fps: float = 30.0, seed: int = 0) -> dict[Ball, BallTrack]:
    t = np.arange(-1.0, sim.duration_s + 1.5, 1.0 / fps)
    pos = sim.positions_mm(np.clip(t, 0.0, None))
    rng = np.random.default_rng(seed)
    out = {}
    for ball, xy in pos.items():
        ok = np.isfinite(xy[:, 0])  # a ball off the table is no longer seen
        out[ball] = BallTrack.from_samples(t[ok], xy[ok] + rng.normal(0.0, 1.0, xy[ok].shape))
    return out


def _pins(sim: Simulation, tracks: dict[Ball, BallTrack]) -> PinSeries:
    series = PinSeries()
    for t in next(iter(tracks.values())).t_s:
        series.add(float(t), {p: s for p, (_, _, s) in sim.pins_mm(max(float(t), 0.0)).items()})
    return series


def _analyzed(sim: Simulation, discipline: Discipline = Discipline.THREE_CUSHION) -> AnalyzedShot:
    tracks = _tracks(sim)
    scored = extract_events(tracks, GEOMETRY)
    if sim.pins_standing:
        scored += pin_events(_pins(sim, tracks), tracks, GEOMETRY, discipline)
    scored.sort(key=lambda s: s.event.t_s)
    span = shot_span(tracks)
    assert span is not None
    shot = build_shot(0, span[2], span[:2], tracks, scored)
    lag = is_lag(tracks, radius_mm=GEOMETRY.radius_mm)
    return AnalyzedShot(shot=shot, scored=tuple(scored), tracks=tracks, lag=lag)


@pytest.mark.parametrize("name", lag_names())
def test_a_lag_from_its_tracks_is_judged_as_the_truth(name: str) -> None:
    sc = lag_scenario(name)
    sim = sc.simulate()
    analyzed = _analyzed(sim, sc.discipline)
    lag = lag_of(analyzed)
    assert lag is not None, "not taken for a lag"
    seen = judge_lag(lag, sc.config())
    truth = sc.judge(sim)
    assert (seen.winner, dict(seen.faults)) == (truth.winner, dict(truth.faults)), seen.reason


#: Strokes of the games with a lag by events (the 7-pin game's is entered, not seen).
LAGGED = [
    n for n in scenario_names() if rules_of(scenario(n).discipline).lag is not LagRule.ENTERED
]


@pytest.mark.parametrize("name", LAGGED)
def test_no_single_stroke_is_a_lag(name: str) -> None:
    sc = scenario(name)
    assert not is_lag(_tracks(sc.simulate()), radius_mm=GEOMETRY.radius_mm)


def test_a_stroke_into_the_other_cue_ball_at_once_is_no_lag() -> None:
    # The yellow sets off 0.07 s after the white: soon enough for a lag, but the
    # white touched it.
    start = {W: (1000.0, 500.0), Y: (1250.0, 500.0), R: (2130.0, 1100.0)}
    sim = simulate(start, Stroke(W, 3.0, 0.0, 0.2))
    tracks = _tracks(sim)
    assert not is_lag(tracks)
    both = simulate(start, Stroke(W, 3.0, 180.0), also=((0.07, Stroke(Y, 3.0, 0.0)),))
    assert is_lag(_tracks(both))


def test_the_red_set_off_first_or_second_is_no_lag() -> None:
    start = {W: (650.0, 400.0), Y: (650.0, 1020.0), R: (2130.0, 710.0)}
    red_first = simulate(start, Stroke(R, 1.0, 180.0), also=((0.1, Stroke(W, 1.0, 0.0)),))
    assert not is_lag(_tracks(red_first))
    late = simulate(start, Stroke(W, 1.0, 0.0), also=((0.8, Stroke(Y, 1.0, 0.0)),))
    assert not is_lag(_tracks(late))  # the second ball 0.8 s later: two strokes


def test_lag_of_a_stroke_is_none() -> None:
    analyzed = _analyzed(scenario("3c-point").simulate())
    assert not analyzed.lag and lag_of(analyzed) is None
