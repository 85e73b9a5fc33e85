"""Sequences: strokes played in turn, judged by the referee, on one clip time line."""

from __future__ import annotations

import math

import numpy as np
import pytest

from referee import BallContact, Cushion, CushionContact, Match, parse_shot_log
from synth import SimulationError
from synth._make import shot_log
from synth._samples import sequence
from synth._sequence import Sequence, shape

TOL_MM = 1e-3


@pytest.fixture(scope="module")
def balkline() -> Sequence:
    return sequence("balkline-47-2")


def test_beats_get_their_shapes_and_the_referee_verdicts(balkline: Sequence) -> None:
    reasons = [p.record.verdict for p in balkline.played]
    assert reasons[0].points == 1 and reasons[0].carry.zone is not None
    assert reasons[1].fouls == ("zone_limit",)
    assert reasons[2].points == 1
    players = [p.record.player for p in balkline.played]
    assert players == ["A", "A", "B"]  # the zone-limit foul passes the turn


def test_events_on_the_clip_time_line_match_the_positions(balkline: Sequence) -> None:
    table = balkline.spec.table
    r = table.radius_mm
    for event in balkline.events:
        at = balkline.positions_mm(np.array([event.t_s]))
        if isinstance(event, BallContact):
            a, b = (at[ball][0] for ball in event.balls)
            assert math.dist(a, b) == pytest.approx(2 * r, abs=TOL_MM)
        elif isinstance(event, CushionContact):
            x, y = at[event.ball][0]
            gap = {Cushion.HEAD: x, Cushion.FOOT: table.length_mm - x,
                   Cushion.LEFT: y, Cushion.RIGHT: table.width_mm - y}[event.cushion]  # fmt: skip
            assert gap == pytest.approx(r, abs=TOL_MM)


def test_balls_stand_still_between_strokes(balkline: Sequence) -> None:
    first, second = balkline.played[0], balkline.played[1]
    gap = np.linspace(first.t0_s + first.sim.duration_s + 0.01, second.t0_s - 0.01, 7)
    xy = balkline.positions_mm(gap)
    for ball, track in xy.items():
        assert np.ptp(track, axis=0).max() < 1e-6, ball
        assert track[0] == pytest.approx(second.shot.start_positions_mm[ball], abs=1e-6)


def test_shot_log_is_judged_to_the_same_verdicts(balkline: Sequence) -> None:
    doc = shot_log(balkline)
    log = parse_shot_log(doc)  # judged as carom score judges it
    match = Match(log.match)
    for shot in log.shots:
        match.play(shot)
    got = [(r.verdict.points, r.verdict.fouls, r.verdict.reason) for r in match.records]
    want = [(p.record.verdict.points, p.record.verdict.fouls, p.record.verdict.reason)
            for p in balkline.played]  # fmt: skip
    assert got == want


def test_unknown_shape_is_a_clear_error() -> None:
    with pytest.raises(SimulationError, match=r"unknown shape 'boom' .*known: .*clean-point"):
        shape("boom")


def test_five_pins_sequence_restands_pins_and_gives_ball_in_hand() -> None:
    seq = sequence("five-pins-match")
    last = seq.played[-1].record.verdict
    assert last.fouls and str(last.next_position) == "ball_in_hand"
    between = seq.played[1].t0_s - 0.1
    assert all(standing for _, _, standing in seq.pins_mm(between).values())
    assert seq.played[0].record.verdict.points > 0
