"""Cushions touched by a ball unseen in mid-flight, on pooltool's motion.

The motion is the independent simulator's (``bench/data/pooltool_shots.json.gz``,
tuning part only), sampled as a camera would (0.3 mm of noise), with one ball unseen
for 0.3 s (an arm over it, a streak the detector lost) around one of its cushion
contacts or on a stretch where it touches nothing. No renderer, no tracker: only the
event extractor. The cushion finder sees neither the approach nor the way back; the
path after the gap, traced back through the noses, must lead to where the ball was
last seen (``vision/events/_cushion_in_gap.py``). Where no traced path joins, a ball
that went towards a cushion and came away from it gets the contact guessed, with a
doubt and an error that covers the true time.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, CushionContact, Event
from synth import IndependentReplay
from tests.vision.events.pooltool_motion import NOISE_MM, independent_set, tuning_replays
from vision import BallTrack, extract_events

HIDDEN_S = 0.3
#: The first tuning shots (the held-out part is never looked at here).
SHOTS = 30


def _replays() -> Iterator[IndependentReplay]:
    return tuning_replays(SHOTS)


def _touches(e: Event, ball: Ball) -> bool:
    return getattr(e, "ball", None) == ball or ball in getattr(e, "balls", ())


def _hidden(
    replay: IndependentReplay, fps: float, ball: Ball, span_s: tuple[float, float]
) -> list[Event]:
    """The events found with ``ball`` unseen over ``span_s``."""
    t = np.arange(0.0, replay.duration_s, 1.0 / fps)
    rng = np.random.default_rng(0)
    tracks = {}
    for b, xy in replay.positions_mm(t).items():
        xy = xy + rng.normal(0.0, NOISE_MM, xy.shape)
        seen = np.ones(len(t), bool) if b != ball else ~((t > span_s[0]) & (t < span_s[1]))
        tracks[b] = BallTrack(t, xy, seen, np.full(len(t), -1, np.int64))
    found = extract_events(tracks, TableGeometry(independent_set().table))
    return [s.event for s in found]


def _alone(replay: IndependentReplay, ball: Ball, span_s: tuple[float, float]) -> bool:
    """No event of ``ball`` within 50 ms of ``span_s`` but the one it is centred on."""
    lo, hi = span_s[0] - 0.05, span_s[1] + 0.05
    return sum(lo <= e.t_s <= hi and _touches(e, ball) for e in replay.events) <= 1


@pytest.mark.parametrize("fps", [50.0, 60.0])
def test_most_cushions_of_a_ball_unseen_for_a_third_of_a_second_are_found(fps: float) -> None:
    found, guessed, errors_s, cases = 0, 0, [], 0
    for replay in _replays():
        for want in (e for e in replay.events if isinstance(e, CushionContact)):
            span = (want.t_s - HIDDEN_S / 2, want.t_s + HIDDEN_S / 2)
            if not _alone(replay, want.ball, span):
                continue
            cases += 1
            events = _hidden(replay, fps, want.ball, span)
            wrong = [e for e in events if isinstance(e, CushionContact) and e.ball == want.ball
                     and span[0] <= e.t_s <= span[1] and e.cushion != want.cushion]  # fmt: skip
            assert not wrong, f"{want}: a cushion it never touched: {wrong}"
            mine = [e for e in events if isinstance(e, CushionContact)
                    and (e.ball, e.cushion) == (want.ball, want.cushion)
                    and abs(e.t_s - want.t_s) < max(0.05, e.t_err_s)]  # fmt: skip
            guesses = [e for e in mine if e.doubt and "guessed" in e.doubt]
            hits = [e.t_s - want.t_s for e in mine
                    if e not in guesses and abs(e.t_s - want.t_s) < 0.05]  # fmt: skip
            found += bool(hits)
            errors_s += hits[:1]
            guessed += bool(guesses) and not hits
            assert all(abs(e.t_s - want.t_s) <= e.t_err_s for e in guesses), guesses
    assert cases >= 80
    # Without tracing through the gap: 58 (50 fps) and 61 (60 fps) of 105; with: 78, 79.
    assert found / cases >= 0.7, f"{found} of {cases}"
    assert float(np.median(np.abs(errors_s))) < 0.01
    # The rest mostly guessed, with the doubt that sends a call hanging on them to review
    # (18 at 50 fps; none found at all: 9 of 105).
    assert (found + guessed) / cases >= 0.88, f"{found} + {guessed} guessed of {cases}"


def test_a_ball_unseen_on_a_straight_stretch_gets_no_cushion_it_has_not_when_seen() -> None:
    """Hiding a ball between two of its contacts makes up no cushion contact there."""
    cases = 0
    for replay in _replays():
        for ball in replay.positions_mm(np.zeros(1)):
            times = [e.t_s for e in replay.events if _touches(e, ball)]
            for a, b in itertools.pairwise(times):
                if b - a < HIDDEN_S + 0.2:
                    continue  # no straight stretch long enough between the two
                span = (a + 0.1, a + 0.1 + HIDDEN_S)
                cases += 1
                near = (span[0] - 0.05, span[1] + 0.05)
                seen = _cushions_within(_hidden(replay, 50.0, ball, (0.0, 0.0)), ball, near)
                made = _cushions_within(_hidden(replay, 50.0, ball, span), ball, near) - seen
                assert not made, f"pt{replay.shot.shot_id:04d} {ball} {span}: {made}"
    assert cases >= 50


def _cushions_within(events: list[Event], ball: Ball, span_s: tuple[float, float]) -> set[object]:
    return {
        e.cushion
        for e in events
        if isinstance(e, CushionContact) and e.ball == ball and span_s[0] <= e.t_s <= span_s[1]
    }
