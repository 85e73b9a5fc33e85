"""Event extraction on 60 real tracked three-cushion shots (no labels: invariants only).

The real data is held out: no threshold was tuned on it.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration._geometry import TableGeometry
from referee import Ball, BallContact, CushionContact, Table
from vision._types import BallTrack, ScoredEvent
from vision.events._extract import extract_events

PATH = Path(__file__).parents[4] / "shared" / "realdata" / "three_cushion_match_dev.json"
pytestmark = pytest.mark.skipif(not PATH.exists(), reason="real data not present")

GEO = TableGeometry(Table(length_mm=2840.0, width_mm=1420.0, ball_diameter_mm=61.5))


@pytest.fixture(scope="module")
def shots() -> list[tuple[Ball, dict[Ball, BallTrack], list[ScoredEvent]]]:
    doc: dict[str, Any] = json.loads(PATH.read_text())
    out = []
    for shot in doc["shots"]:
        tracks = {
            Ball(name): BallTrack.from_samples(b["t_s"], np.c_[b["x_mm"], b["y_mm"]])
            for name, b in shot["balls"].items()
        }
        cue = Ball(shot["ball_order_in_source"][0])
        out.append((cue, tracks, extract_events(tracks, GEO)))
    return out


def test_all_sixty_shots_run(shots: list[Any]) -> None:
    assert len(shots) == 60
    assert sum(len(events) for _, _, events in shots) > 300


def test_confidences_and_time_errors_are_sane(shots: list[Any]) -> None:
    for _, _, events in shots:
        for e in events:
            assert 0.0 <= e.confidence <= 1.0
            assert 0.0 < e.event.t_err_s < 0.1
            assert e.confidence >= 0.5 or e.event.doubt


def test_every_cue_ball_touches_a_cushion(shots: list[Any]) -> None:
    for cue, _, events in shots:
        assert any(isinstance(e.event, CushionContact) and e.event.ball == cue for e in events)


def test_no_double_ball_contacts_and_times_inside_the_shot(shots: list[Any]) -> None:
    for _, tracks, events in shots:
        lo = min(t.t_s[0] for t in tracks.values())
        hi = max(t.t_s[-1] for t in tracks.values())
        assert all(lo <= e.event.t_s <= hi for e in events)
        kisses = sorted(
            (e.event.t_s, frozenset(e.event.balls))
            for e in events
            if isinstance(e.event, BallContact)
        )
        for (t1, p1), (t2, p2) in itertools.pairwise(kisses):
            assert p1 != p2 or t2 - t1 >= 0.03


def test_object_balls_start_moving_only_after_a_contact(shots: list[Any]) -> None:
    # A ball other than the cue ball cannot move unless a ball struck it. Measured:
    # 1 of 60 shots has an object ball set off with no ball contact found (shot 19: the
    # cue ball's samples skip the contact); allow up to 3.
    unexplained = 0
    for cue, tracks, events in shots:
        for ball, track in tracks.items():
            moved = np.nonzero(np.linalg.norm(track.xy_mm - track.xy_mm[0], axis=1) > 3.0)[0]
            if ball == cue or not len(moved):
                continue
            t_move = track.t_s[moved[0]]
            hit = [
                e
                for e in events
                if isinstance(e.event, BallContact)
                and ball in e.event.balls
                and e.event.t_s < t_move + 0.01
            ]
            unexplained += not hit
    assert unexplained <= 3
