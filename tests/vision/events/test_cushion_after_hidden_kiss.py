"""A cushion touched right after a ball contact at which one ball was hidden.

Tuning pt0235, on pooltool's motion sampled at 60 fps as its render's camera, exposed for
about a frame interval, sees it (each sample the mean over the exposure, centred on the
sample's time), with 0.3 mm of noise
(no renderer, no tracker): the white sets the red off from rest at 6.4 m/s, and the red reaches the
head cushion 36 ms later, two samples between. In the render the red was not seen in
the first of them (the tracker held it at its rest), so the contact carries the doubt
"ball hidden at the contact"; the one sample left before the cushion cannot make a
path of its own, and the cushion was found only from the kick, which was sought at sure
contacts alone: it was lost. A contact doubted only because a ball was hidden still
tells how the ball was struck (its paths on either side), so the cushion is found, and
sure: the bounce, not the contact, is its evidence.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, BallContact, CushionContact, doubt_code
from synth import IndependentReplay
from tests.vision.events.pooltool_motion import NOISE_MM, independent_set
from vision import BallTrack, extract_events

_FPS = 60.0
#: Exposure (s) a sample is the mean position over (the render's: 0.96 frames).
_EXPOSURE_S = 0.96 / _FPS


def _tracks(replay: IndependentReplay, hide: tuple[Ball, float] | None) -> dict[Ball, BallTrack]:
    """Sampled tracks; ``hide``: that ball unseen (held where it was) in the sample after
    that time, as the tracker predicts a ball it lost."""
    t = np.arange(0.0, replay.duration_s, 1.0 / _FPS)
    rng = np.random.default_rng(235)
    within = np.linspace(-0.5, 0.5, 9) * _EXPOSURE_S
    exposed = [replay.positions_mm(t + dt) for dt in within]
    tracks = {}
    for ball in exposed[0]:
        xy = np.mean([e[ball] for e in exposed], axis=0)
        xy = xy + rng.normal(0.0, NOISE_MM, xy.shape)
        seen = np.ones(len(t), np.bool_)
        if hide is not None and hide[0] == ball:
            k = int(np.searchsorted(t, hide[1]))
            seen[k] = False
            xy[k] = xy[k - 1]
        tracks[ball] = BallTrack(t, xy, seen, np.full(len(t), -1, np.int64))
    return tracks


@pytest.mark.parametrize("hidden", [False, True])
def test_a_cushion_right_after_a_contact_with_a_hidden_ball_is_found(hidden: bool) -> None:
    data = independent_set()
    assert data.shot(235).split == "tuning"
    replay = IndependentReplay(data.shot(235), data.table)
    kiss = next(e for e in replay.events if isinstance(e, BallContact)
                and set(e.balls) == {Ball.WHITE, Ball.RED})  # fmt: skip
    rail = next(e for e in replay.events if isinstance(e, CushionContact)
                and e.ball is Ball.RED and e.t_s > kiss.t_s)  # fmt: skip
    assert 2 / _FPS < rail.t_s - kiss.t_s < 3 / _FPS, "two samples between, the first hidden"
    tracks = _tracks(replay, (Ball.RED, kiss.t_s) if hidden else None)
    found = extract_events(tracks, TableGeometry(data.table))
    kisses = [s for s in found if isinstance(s.event, BallContact)
              and set(s.event.balls) == {Ball.WHITE, Ball.RED}
              and abs(s.event.t_s - kiss.t_s) < 0.004]  # fmt: skip
    assert len(kisses) == 1, found
    doubt = kisses[0].event.doubt
    assert (doubt is not None and doubt_code(doubt) == "hidden") is hidden  # the case here
    rails = [s for s in found if isinstance(s.event, CushionContact)
             and (s.event.ball, s.event.cushion) == (rail.ball, rail.cushion)
             and abs(s.event.t_s - rail.t_s) < 0.006]  # fmt: skip
    assert len(rails) == 1, f"{rail} not found; found {[s.event for s in found]}"
    assert rails[0].event.doubt is None and rails[0].confidence >= 0.5
