"""Lags: two strikes in one simulation, the lag scenarios' judged results, lag sequences."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration import Camera
from referee import Ball, CushionContact, Discipline, Match, parse_shot_log
from synth import SimulationError, Stroke, simulate
from synth._lag import lag_names, lag_scenario, lag_scenarios
from synth._make import shot_log, source_names
from synth._samples import sequence, sequence_names
from synth._scene import TableLook
from synth._sequence import Sequence, break_layout, lag_sequence
from synth._settings import RenderSettings
from synth._truth import truth_json

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
START = {W: (650.0, 400.0), Y: (650.0, 1020.0), R: (2130.0, 710.0)}


def test_a_later_strike_sets_the_second_ball_off_at_its_time() -> None:
    sim = simulate(START, Stroke(W, 1.0, 0.0, 0.4), also=((0.3, Stroke(Y, 1.0, 0.0, 0.4)),))
    assert sim.position_mm(Y, 0.29) == pytest.approx(START[Y], abs=1e-9)
    assert sim.position_mm(Y, 0.4)[0] > START[Y][0] + 50.0
    foot = {e.ball: e.t_s for e in sim.events if isinstance(e, CushionContact)}
    # Same strike, same path: the yellow reaches the foot cushion 0.3 s after the white.
    assert foot[Y] - foot[W] == pytest.approx(0.3, abs=1e-6)
    assert sim.also == ((0.3, Stroke(Y, 1.0, 0.0, 0.4)),)


@pytest.mark.parametrize(
    "also",
    [
        ((0.1, Stroke(W, 1.0, 0.0)),),
        ((-0.1, Stroke(Y, 1.0, 0.0)),),
        ((0.1, Stroke(Ball.DOTTED, 1.0, 0.0)),),
    ],
)
def test_a_later_strike_is_checked(also: tuple[tuple[float, Stroke], ...]) -> None:
    with pytest.raises(SimulationError, match="also"):
        simulate(START, Stroke(W, 1.0, 0.0), also=also)


@pytest.mark.parametrize("name", lag_names())
def test_each_lag_is_judged_as_it_was_made(name: str) -> None:
    sc = lag_scenario(name)
    result = sc.judge(sc.simulate())
    assert result.winner == sc.winner, result.reason
    want = dict.fromkeys(("A", "B"), ()) | dict(sc.faults)
    assert dict(result.faults) == want


def test_the_lags_cover_every_losing_case_of_the_rules() -> None:
    faults = {f for sc in lag_scenarios().values() for _, fs in sc.faults for f in fs}
    assert faults == {
        "crossed into the opponent's half",
        "never touched the foot cushion",
        "touched the red",
        "left the table",
        "touched a long cushion",
        "knocked a pin",
    }
    winners = {sc.winner for sc in lag_scenarios().values()}
    assert winners == {"A", "B", None}


def test_lags_and_the_lag_sequence_are_listed() -> None:
    names = source_names()
    assert set(lag_names()) <= set(names)
    assert "three-cushion-lag-match" in sequence_names()


@pytest.fixture(scope="module")
def lag_match() -> Sequence:
    return sequence("three-cushion-lag-match")


def test_the_lag_winner_breaks_from_the_break_position(lag_match: Sequence) -> None:
    lag = lag_match.lag
    assert lag is not None and lag.result.winner == "B"
    first = lag_match.played[0]
    assert first.record.player == "B" and first.sim.stroke.cue_ball == Y
    assert first.sim.start_positions_mm == break_layout(
        Discipline.THREE_CUSHION, lag_match.spec.table, Y, W
    )
    assert [p.record.verdict.points for p in lag_match.played] == [1, 0, 1]


def test_positions_follow_the_lag_then_the_strokes(lag_match: Sequence) -> None:
    lag = lag_match.lag
    assert lag is not None
    t = np.array([0.5, lag.t0_s + 5.0, lag_match.played[0].t0_s - 0.1])
    at = lag_match.positions_mm(t)
    assert at[W][0] == pytest.approx(START[W])
    assert at[Y][1] == pytest.approx(lag.sim.position_mm(Y, 5.0))
    assert at[Y][2] == pytest.approx(lag_match.played[0].sim.start_positions_mm[Y])
    strokes = lag_match.stroke_times()
    assert strokes[:2] == [(lag.t0_s, W), (lag.t0_s + lag.scenario.delay_s, Y)]
    assert lag_match.events[0].t_s == pytest.approx(lag.lag.events[0].t_s)


def test_the_shot_log_carries_the_lag_and_scores_like_the_truth(lag_match: Sequence) -> None:
    doc = json.loads(json.dumps(shot_log(lag_match)))
    assert doc["match"]["first_player"] is None
    log = parse_shot_log(doc)  # judged as carom score judges it
    match = Match(log.match)
    assert log.lag is not None and lag_match.lag is not None
    lag = match.lag(log.lag)
    for shot in log.shots:
        match.play(shot)
    assert lag.winner == lag_match.lag.result.winner
    assert lag.reason == lag_match.lag.result.reason
    verdicts = [r.verdict for r in match.records]
    assert verdicts == [p.record.verdict for p in lag_match.played]


def test_a_lag_alone_has_its_result_in_the_truth() -> None:
    seq = lag_sequence(lag_scenario("lag-both-lose"))
    assert not seq.played and seq.lag is not None
    lag = seq.lag.to_json()
    assert lag["winner"] is None and lag["breaker"] is None
    assert lag["faults"] == {"A": ["never touched the foot cushion"],
                             "B": ["crossed into the opponent's half"]}  # fmt: skip
    assert [s["cue_ball"] for s in lag["strokes"]] == ["white", "yellow"]
    truth = truth_json(
        camera=Camera.overhead(width_px=640, height_px=360, hfov_deg=80.0, height_mm=2800.0,
                               aim_mm=(1420.0, 710.0)),
        look=TableLook(), settings=RenderSettings(), frames=[], video={}, lag=lag,
    )  # fmt: skip
    assert truth["lag"]["reason"] == "both players lost the lag: lag again"
    assert seq.duration_s == pytest.approx(seq.lag.t0_s + seq.lag.sim.duration_s + 1.0)
    # The rest positions after a lag alone are where the balls stopped.
    assert seq.layouts[-1] == seq.lag.sim.end_positions_mm
