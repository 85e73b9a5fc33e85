"""Cushions of a cue ball unseen from its stroke until after them, on pooltool's motion.

The motion is the independent simulator's (``bench/data/pooltool_shots.json.gz``,
tuning part only), sampled as a camera would (0.3 mm of noise). A cue ball struck hard
is a streak too faint to detect: here it is unseen from the stroke until 0.12 s after
its first, second or third cushion (when it touched nothing else before), held at its
rest as the tracker predicts it. Its first seen path, traced back through one to three
noses to its rest (``vision/events/_cushion_after_stroke.py``), gives those cushions;
a way through more noses that fits much better gives its other noses as doubtful
contacts. Before the way went through three noses, the fewest noses that fit won and
the noses were timed with the ball slowing: 63 of 209 cushions at 30 fps and 71 of 228
at 60 fps, with 11 and 12 made up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, Cushion, CushionContact, Event
from synth import IndependentReplay
from tests.vision.events.pooltool_motion import NOISE_MM, independent_set, tuning_replays
from vision import BallTrack, extract_events

#: The tuning shots (the held-out part is never looked at here).
SHOTS = 120
#: The cue ball is seen again this long after the last cushion it is hidden through.
AFTER_S = 0.12


@dataclass
class _Tally:
    cushions: int = 0
    found: int = 0
    made_up: list[Event] = field(default_factory=list)  # sure contacts it never had
    flagged: int = 0  # doubtful contacts it never had (review at most)
    cases: int = 0


def _hidden_tracks(
    replay: IndependentReplay, fps: float, ball: Ball, until_s: float
) -> dict[Ball, BallTrack]:
    t = np.arange(0.0, replay.duration_s, 1.0 / fps)
    rng = np.random.default_rng(0)
    tracks = {}
    for b, xy in replay.positions_mm(t).items():
        xy = xy + rng.normal(0.0, NOISE_MM, xy.shape)
        gone = (t > replay.lead_s) & (t < until_s) if b == ball else np.zeros(len(t), bool)
        xy[gone] = xy[np.argmax(gone) - 1] if gone.any() else xy[gone]
        tracks[b] = BallTrack(t, xy, ~gone, np.full(len(t), -1, np.int64))
    return tracks


def _leading_cushions(replay: IndependentReplay) -> list[CushionContact]:
    """The cue ball's cushions before any other event of the shot."""
    run: list[CushionContact] = []
    events = sorted(replay.events, key=lambda e: e.t_s)
    for e in events:
        if not isinstance(e, CushionContact) or (run and e.ball != run[0].ball):
            break
        run.append(e)
    return run


def _case(replay: IndependentReplay, fps: float, run: list[CushionContact], tally: _Tally) -> None:
    cue, end = run[0].ball, run[-1].t_s + AFTER_S
    found = extract_events(
        _hidden_tracks(replay, fps, cue, end), TableGeometry(independent_set().table)
    )
    mine = [s.event for s in found if isinstance(s.event, CushionContact) and s.event.ball == cue]
    for want in run:
        tally.found += any(
            e.cushion == want.cushion and abs(e.t_s - want.t_s) <= e.t_err_s for e in mine
        )
    for e in mine:
        if replay.lead_s < e.t_s < end and not any(
            w.cushion == e.cushion and abs(w.t_s - e.t_s) < 0.1 for w in run
        ):
            tally.flagged += e.doubt is not None
            tally.made_up += [e] if e.doubt is None else []
    tally.cushions += len(run)
    tally.cases += 1


@pytest.mark.parametrize("fps", [30.0, 60.0])
def test_most_cushions_of_a_cue_ball_unseen_from_its_stroke_are_traced_back(fps: float) -> None:
    tally = _Tally()
    for replay in tuning_replays(SHOTS):
        run = _leading_cushions(replay)
        after = sorted(e.t_s for e in replay.events)
        for k in range(1, min(len(run), 3) + 1):
            # seen again on a clear path: four frames before the next event
            following = after[k] if len(after) > k else replay.duration_s
            if following - (run[k - 1].t_s + AFTER_S) >= 4.0 / fps + 0.03:
                _case(replay, fps, run[:k], tally)
    assert tally.cases >= 100
    # 140 of 209 at 30 fps, 159 of 228 at 60 fps; 7 and 6 made up, 8 and 10 flagged.
    assert tally.found / tally.cushions >= 0.6, f"{tally.found} of {tally.cushions}"
    assert len(tally.made_up) <= 0.07 * tally.cases, tally.made_up
    assert tally.flagged <= 0.12 * tally.cases


#: The white of tuning pt0070 (30 fps) as the tracker gave it in its rendered clip
#: (frames 48-55, mm): unseen from a frame before its stroke (frame 45, under the cue)
#: until it came back off the foot cushion, seen again three frames on at 5.2 m/s.
_PT0070_WHITE_MM = [
    (2413.74, 647.97), (2250.97, 715.33), (2095.74, 781.71), (1941.33, 846.77),
    (1793.15, 910.36), (1645.75, 972.37), (1499.13, 1033.67), (1356.76, 1094.91),
]  # fmt: skip


def test_a_cue_ball_unseen_from_before_its_stroke_left_as_late_as_its_pace_asks() -> None:
    # Left half a frame after its last still frame, it would have run its way at 4.5
    # m/s and been seen at 5.2: too slow for the way, so the way was refused. It was
    # struck at 1.500 s, touched the foot cushion at 1.515 s.
    t = np.arange(38, 56) / 30.0
    rest = np.array([2710.45, 469.57])
    xy = np.vstack([np.tile(rest, (10, 1)), np.array(_PT0070_WHITE_MM)])
    seen = np.ones(len(t), bool)
    seen[7:10] = False  # frames 45-47: held at its rest, unseen
    still = {Ball.YELLOW: (1304.23, 1034.94), Ball.RED: (41.33, 314.54)}
    tracks = {Ball.WHITE: BallTrack(t, xy, seen, np.full(len(t), -1, np.int64))}
    tracks |= {b: BallTrack.from_samples(t, np.tile(p, (len(t), 1))) for b, p in still.items()}
    found = extract_events(tracks, TableGeometry(independent_set().table))
    foot = [s for s in found if isinstance(s.event, CushionContact) and s.event.ball == Ball.WHITE
            and s.event.cushion == Cushion.FOOT and s.event.t_s < 1.6]  # fmt: skip
    assert len(foot) == 1, found
    assert abs(foot[0].event.t_s - 1.5154) <= max(foot[0].event.t_err_s, 0.015)
    assert foot[0].event.doubt is None
