"""Cushions a kiss sends a ball into within the frame, on pooltool's motion.

The motion is the independent simulator's (tuning part), sampled as a camera would
(60 frames a second, 0.3 mm of noise): no renderer, no tracker, only the event
extractor (``vision/events/_cushion_after_kiss.py``):

* a ball kissed into a corner touches both its cushions before the next frame
  (pt0262: the yellow, 15 and 21 ms after the kiss, one frame between);
* a moving ball kicked into a cushion 9 mm away, and back into its striker 13 ms later
  (pt0079: the red, rolling at 350 mm/s, on the right cushion 13 ms after the kiss).

A ball at rest 22 mm from a cushion, struck into it at 6 m/s, there 6 ms later (pt0230)
is in ``tests/vision/test_independent_clips.py``, rendered: on these bare samples its
kiss is timed 7 ms late (the bounce bends the path the time is read from), which the
tracker's samples do not do.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, BallContact, Cushion, CushionContact
from synth import IndependentReplay
from tests.vision.events.pooltool_motion import NOISE_MM, independent_set
from vision import BallTrack, ScoredEvent, extract_events

_FPS = 60.0


def _found(shot_id: int, seed: int) -> tuple[IndependentReplay, list[ScoredEvent]]:
    data = independent_set()
    replay = IndependentReplay(data.shot(shot_id), data.table)
    t = np.arange(0.0, replay.duration_s, 1.0 / _FPS)
    rng = np.random.default_rng(seed)
    tracks = {
        ball: BallTrack.from_samples(t, xy + rng.normal(0.0, NOISE_MM, xy.shape))
        for ball, xy in replay.positions_mm(t).items()
    }
    return replay, extract_events(tracks, TableGeometry(data.table))


def _rail(replay: IndependentReplay, ball: Ball, cushion: Cushion, t_s: float) -> CushionContact:
    """The true contact of ``ball`` with ``cushion`` nearest ``t_s`` after the stroke."""
    return min(
        (e for e in replay.events if isinstance(e, CushionContact)
         and (e.ball, e.cushion) == (ball, cushion)),
        key=lambda e: abs(e.t_s - replay.lead_s - t_s),
    )  # fmt: skip


def _hits(found: list[ScoredEvent], want: CushionContact, within_s: float) -> list[ScoredEvent]:
    return [
        s for s in found
        if isinstance(s.event, CushionContact)
        and (s.event.ball, s.event.cushion) == (want.ball, want.cushion)
        and abs(s.event.t_s - want.t_s) <= within_s
    ]  # fmt: skip


def _kiss_before(replay: IndependentReplay, rail: CushionContact) -> BallContact:
    return max(
        (e for e in replay.events if isinstance(e, BallContact)
         and rail.ball in e.balls and e.t_s < rail.t_s),
        key=lambda e: e.t_s,
    )  # fmt: skip


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_both_cushions_of_a_corner_just_after_a_kiss_are_found(seed: int) -> None:
    replay, found = _found(262, seed)
    head = _rail(replay, Ball.YELLOW, Cushion.HEAD, 0.220)
    right = _rail(replay, Ball.YELLOW, Cushion.RIGHT, 0.226)
    kiss = _kiss_before(replay, head)
    assert kiss.t_s < head.t_s < right.t_s < kiss.t_s + 1.5 / _FPS
    for want in (head, right):
        (hit,) = _hits(found, want, 0.004)
        assert "corner of the head and right cushions" in hit.evidence
        assert hit.confidence < 1.0  # read off the path after, not seen


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_moving_ball_kicked_into_a_cushion_9_mm_away_touched_it(seed: int) -> None:
    replay, found = _found(79, seed)
    rail = _rail(replay, Ball.RED, Cushion.RIGHT, 0.683)
    kiss = _kiss_before(replay, rail)
    assert 0.0 < rail.t_s - kiss.t_s < 1.0 / _FPS
    (hit,) = _hits(found, rail, 0.004)
    assert "kicked on towards the right cushion" in hit.evidence
    assert abs(hit.event.t_s - rail.t_s) <= hit.event.t_err_s
