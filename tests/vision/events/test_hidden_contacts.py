"""Contacts that fall between two frames of a cluster, on pooltool's motion.

The motion is the independent simulator's (``bench/data/pooltool_shots.json.gz``,
tuning part), sampled as a camera would (50 or 60 frames a second, 0.3 mm of noise):
no renderer, no tracker, only the event extractor. Each shot holds one of the
situations the independent benchmark found the extractor blind to
(``docs/independent-events.md``):

* a ball struck a few mm from a cushion reaches it 7-18 ms after the ball contact,
  with no frame between the two (pt0053, pt4582);
* a ball at rest set off by a ball that bounced off a cushion 11 ms before: the
  sampled gap of the pair shows no valley at the contact (pt0001);
* a ball at rest 0.3 mm from a cushion, struck into it, whose bounce a second kiss
  hides (pt0082);
* a cue ball struck 11 mm from a cushion touches it before the first frame that
  shows it moving (pt0011);
* a ball passing another at rest 0.46 mm apart: a graze nothing in the tracks can
  tell from a touch, so it may only be reported with a doubt (pt4582);
* a cue ball too fast to be seen (a blurred streak at 30 frames a second) from the
  stroke until after its first contact: the first ball seen to move is the object
  ball, and the cue ball is named from its set-off (pt0148, pt0175); unseen for half
  a second, it is the only ball that can have struck, so the contact is reported
  with a doubt (pt0029, whose object ball first runs into a cushion 35 mm away);
  unseen from its rest through two or three cushions, its first seen path is traced
  back through them to its rest (pt0044 at 60 fps; pt0070, a second at 30 fps);
* a ball struck a few mm from a third ball at rest sets it off 4-5 ms later, within
  the same frame: the striker's path before, run on, reaches the third ball too, but
  it never touched it (pt0188, pt0281);
* a ball at rest set off by another that a third ball set off 5 ms before: both were
  at rest before their contact, so its time is where the later one started (pt0041);
* a ball struck in a corner cluster that strikes a third ball 11 ms later: its path
  before that contact spans the one before, so it is timed from the paths after
  (pt0275; the path before put it 10-36 ms late);
* a cue ball off a cushion strikes a ball at rest 20 ms later, a frame after the
  bounce; the struck ball strikes a third 1.3 ms later: read through the first sample
  after the contact (the struck ball already off its rest), the approach put the first
  contact 13-17 ms late, after the second (pt0226);
* a ball at rest 5 mm from a cushion, struck into it, touches it 4.8 ms later and
  strikes a third ball 7.8 ms after that, all within a frame: its path after the
  second kiss says nothing of the first's speed, the kick does (pt0302);
* a ball at rest 13 mm from a cushion, struck into it at 1.6 m/s: its first sample
  after the contact shows it already moved, and after the bounce it is slower than
  the kick made it; timed after that sample, the contact left no room for the
  cushion, which came 11 ms late or not at all (pt0338);
* a ball at rest near a cushion, struck into it, comes back off it into its striker
  9-15 ms later, within the frame: one valley of the pair's gap, two contacts
  (pt0110, pt0118, pt0178, pt0211); a struck ball that bounces off a cushion and does
  not come back gives no second contact (pt0053, pt4582).
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, BallContact, Cushion, CushionContact, Event, doubt_code
from synth import IndependentReplay
from tests.vision.events.pooltool_motion import NOISE_MM, independent_set
from vision import (
    BallTrack,
    ScoredEvent,
    cue_ball_behind,
    cue_ball_doubt,
    extract_events,
    is_lag,
    shot_span,
)


def _tracks(
    replay: IndependentReplay, fps: float, seed: int = 0, hidden: tuple[Ball, float] | None = None
) -> dict[Ball, BallTrack]:
    """Sampled tracks; ``hidden``: that ball unseen (held at its rest, as the tracker
    predicts it) from the stroke until that many seconds after it."""
    t = np.arange(0.0, replay.duration_s, 1.0 / fps)
    rng = np.random.default_rng(seed)
    tracks = {}
    for ball, xy in replay.positions_mm(t).items():
        xy = xy + rng.normal(0.0, NOISE_MM, xy.shape)
        if hidden is None or hidden[0] != ball:
            tracks[ball] = BallTrack.from_samples(t, xy)
            continue
        gone = (t > replay.lead_s) & (t < replay.lead_s + hidden[1])
        xy[gone] = xy[np.argmax(gone) - 1]
        tracks[ball] = BallTrack(t, xy, ~gone, np.full(len(t), -1, np.int64))
    return tracks


def _found(shot_id: int, fps: float, seed: int = 0) -> tuple[IndependentReplay, list[ScoredEvent]]:
    data = independent_set()
    replay = IndependentReplay(data.shot(shot_id), data.table)
    return replay, extract_events(_tracks(replay, fps, seed), TableGeometry(data.table))


def _near(found: list[ScoredEvent], want: Event, within_s: float) -> list[ScoredEvent]:
    def same(e: Event) -> bool:
        if isinstance(want, CushionContact) and isinstance(e, CushionContact):
            return (e.ball, e.cushion) == (want.ball, want.cushion)
        if isinstance(want, BallContact) and isinstance(e, BallContact):
            return set(e.balls) == set(want.balls)
        return False

    return [s for s in found if same(s.event) and abs(s.event.t_s - want.t_s) <= within_s]


def _truth(replay: IndependentReplay, kind: type, t_s: float) -> Event:
    return min((e for e in replay.events if isinstance(e, kind)), key=lambda e: abs(e.t_s - t_s))


@pytest.mark.parametrize(("shot_id", "fps"), [(53, 50.0), (53, 60.0), (4582, 60.0)])
def test_a_cushion_right_after_a_ball_contact_is_found(shot_id: int, fps: float) -> None:
    replay, found = _found(shot_id, fps)
    kisses = [e for e in replay.events if isinstance(e, BallContact)]
    after = [
        e for e in replay.events
        if isinstance(e, CushionContact)
        and any(0.0 < e.t_s - k.t_s < 0.02 and e.ball in k.balls for k in kisses)
    ]  # fmt: skip
    assert after, "the shot holds no cushion within 20 ms after a ball contact"
    for want in after:
        hits = _near(found, want, 0.006)
        assert hits, f"{want} not found; found {[s.event for s in found]}"
        assert hits[0].event.doubt is None and hits[0].confidence >= 0.5


def test_a_cushion_a_frame_after_a_kiss_is_found_past_a_lagging_sample() -> None:
    # pt0064: the yellow sets the white off at 6 m/s 92 mm from the left cushion; the
    # white is seen once 13 mm from it, then reaches it 18 ms after the kiss. The next
    # sample lags the turn (the tracker's filter put it 10-13 mm back along the way in),
    # so the path after is read from the samples after that one.
    data = independent_set()
    replay = IndependentReplay(data.shot(64), data.table)
    tracks = _tracks(replay, 60.0)
    want = _truth(replay, CushionContact, replay.lead_s + 0.219)
    white = tracks[Ball.WHITE]
    k = int(np.searchsorted(white.t_s, want.t_s))  # the first sample after the bounce
    way_in = white.xy_mm[k - 1] - white.xy_mm[k - 2]
    xy = white.xy_mm.copy()
    xy[k] -= 12.0 * way_in / np.linalg.norm(way_in)
    tracks[Ball.WHITE] = BallTrack.from_samples(white.t_s, xy)
    hits = _near(extract_events(tracks, TableGeometry(data.table)), want, 0.006)
    assert hits and hits[0].event.doubt is None and hits[0].confidence >= 0.5


def test_a_ball_at_rest_struck_into_a_cushion_a_few_mm_away_touches_it() -> None:
    replay, found = _found(82, 60.0)
    want = _truth(replay, CushionContact, 1.928)
    assert isinstance(want, CushionContact) and want.ball is Ball.RED
    hits = _near(found, want, 0.006)
    assert hits and hits[0].event.doubt is None, [s.event for s in found]


def test_a_ball_at_rest_struck_right_after_a_cushion_names_its_striker() -> None:
    replay, found = _found(1, 60.0)
    want = _truth(replay, BallContact, 2.079)
    assert isinstance(want, BallContact) and set(want.balls) == {Ball.WHITE, Ball.RED}
    hits = _near(found, want, 0.004)
    assert hits and hits[0].event.doubt is None, [s.event for s in found]
    bounce = _truth(replay, CushionContact, 2.068)
    assert _near(found, bounce, 0.004), "the cushion just before it was lost"


def test_a_cushion_before_the_first_frame_of_the_stroke_is_found() -> None:
    replay, found = _found(11, 50.0)
    want = _truth(replay, CushionContact, 1.52)
    assert want.t_s - replay.strokes[0].t_s < 0.03
    hits = _near(found, want, 0.006)
    assert hits and hits[0].event.doubt is None, [s.event for s in found]


def test_a_graze_at_half_a_millimetre_is_never_a_sure_contact() -> None:
    replay, found = _found(4582, 60.0)
    truth_kisses = [e for e in replay.events if isinstance(e, BallContact)]
    assert not any(abs(e.t_s - 6.19) < 0.05 for e in truth_kisses)
    sure = [s for s in found if isinstance(s.event, BallContact) and abs(s.event.t_s - 6.19) < 0.04
            and s.event.doubt is None]  # fmt: skip
    assert not sure, sure


@pytest.mark.parametrize(("shot_id", "unseen_s"), [(148, 0.16), (175, 0.15)])
def test_a_cue_ball_unseen_until_after_its_first_contact_is_named_and_its_contact_found(
    shot_id: int, unseen_s: float
) -> None:
    data = independent_set()
    replay = IndependentReplay(data.shot(shot_id), data.table)
    cue = Ball(replay.shot.cue_ball)
    tracks = _tracks(replay, 30.0, hidden=(cue, unseen_s))
    first_kiss = min((e for e in replay.events if isinstance(e, BallContact)), key=lambda e: e.t_s)
    assert first_kiss.t_s - replay.lead_s < unseen_s, "the contact falls while unseen"
    found = sorted(extract_events(tracks, TableGeometry(data.table)), key=lambda s: s.event.t_s)
    hits = _near(found, first_kiss, 0.01)
    assert len(hits) == 1 and hits[0].event.doubt is None, found
    # The held cue ball and the object ball seem to start together: whichever is
    # taken for the first mover, the cue ball is named.
    (struck,) = set(first_kiss.balls) - {cue}
    span = shot_span(tracks)
    assert span is not None
    assert cue_ball_behind(struck, span[0], found) == cue_ball_behind(cue, span[0], found) == cue
    assert cue_ball_doubt(struck, span[0], found) is None  # a sure contact: no review


def test_a_contact_only_an_unseen_cue_ball_can_have_made_is_found_with_a_doubt() -> None:
    data = independent_set()
    replay = IndependentReplay(data.shot(29), data.table)
    cue = Ball(replay.shot.cue_ball)
    tracks = _tracks(replay, 30.0, hidden=(cue, 0.5))
    first_kiss = min((e for e in replay.events if isinstance(e, BallContact)), key=lambda e: e.t_s)
    found = sorted(extract_events(tracks, TableGeometry(data.table)), key=lambda s: s.event.t_s)
    hits = _near(found, first_kiss, 1.5 / 30)
    assert len(hits) == 1 and hits[0].event.doubt is not None, found
    span = shot_span(tracks)
    assert span is not None and span[2] != cue
    assert cue_ball_behind(span[2], span[0], found) == cue
    # Named through a doubtful contact: the video did not establish the ball played.
    doubt = cue_ball_doubt(span[2], span[0], found)
    assert doubt is not None and not doubt_code(doubt).startswith("text:")
    assert not str(doubt_code(hits[0].event.doubt or "")).startswith("text:")


def test_a_path_fitted_across_a_bounce_never_touches_a_ball_at_rest() -> None:
    # pt1108: the white bounces off the head cushion 110-140 mm from the yellow at rest;
    # a straight fit across the bounce swept past the yellow and read as a kiss.
    replay, found = _found(1108, 30.0)
    yellow = [s for s in found if isinstance(s.event, BallContact) and Ball.YELLOW in s.event.balls]
    assert not [e for e in replay.events if isinstance(e, BallContact) and Ball.YELLOW in e.balls]
    assert yellow == []


def test_a_stroke_whose_cue_ball_was_unseen_until_it_struck_is_no_lag() -> None:
    # pt0329: the white, too fast to be seen for 0.1 s, strikes the yellow; held at its
    # rest it seems to start with the yellow, on the other side of the table's axis.
    data = independent_set()
    replay = IndependentReplay(data.shot(329), data.table)
    tracks = _tracks(replay, 30.0, hidden=(Ball.WHITE, 0.1))
    geometry = TableGeometry(data.table)
    table_mm = (geometry.length_mm, geometry.width_mm)
    events = [s.event for s in extract_events(tracks, geometry)]
    assert is_lag(tracks, radius_mm=geometry.radius_mm, table_mm=table_mm)
    assert not is_lag(tracks, radius_mm=geometry.radius_mm, table_mm=table_mm, events=events)


@pytest.mark.parametrize(
    ("shot_id", "fps", "unseen_s", "cushions", "within_s"),
    [
        # pt0044: the white, a streak too faint to see for 0.26 s at 60 fps, touches
        # the left and the head cushions before it is first seen.
        (44, 60.0, 0.26, (Cushion.LEFT, Cushion.HEAD), 0.01),
        # pt0070: the white, struck at 6.4 m/s 96 mm from the foot cushion, is unseen
        # for a second at 30 fps: foot, right and head. The way that skips the foot
        # passes 6 mm from the rest: the foot comes as a doubtful contact.
        (70, 30.0, 1.0, (Cushion.FOOT, Cushion.RIGHT, Cushion.HEAD), 0.05),
        # pt0035: the white, struck at 7.5 m/s, loses a third of its speed in its
        # bounce off the right cushion 0.128 s later and is first seen 5 ms after it
        # (at 30 fps): slowing evenly to the speed seen, it would have left at 11 m/s.
        (35, 30.0, 0.129, (Cushion.RIGHT,), 0.01),
    ],
)
def test_the_cushions_of_a_cue_ball_unseen_from_its_rest_are_traced_back(
    shot_id: int, fps: float, unseen_s: float, cushions: tuple[Cushion, ...], within_s: float
) -> None:
    data = independent_set()
    replay = IndependentReplay(data.shot(shot_id), data.table)
    tracks = _tracks(replay, fps, hidden=(Ball.WHITE, unseen_s))
    found = extract_events(tracks, TableGeometry(data.table))
    unseen = [e for e in replay.events if isinstance(e, CushionContact)
              and e.t_s < replay.lead_s + unseen_s]  # fmt: skip
    assert tuple(e.cushion for e in unseen) == cushions
    for want in unseen:
        (hit,) = _near(found, want, within_s)
        assert hit.event.t_err_s >= abs(hit.event.t_s - want.t_s)
        assert hit.confidence < 1.0  # traced, not seen


@pytest.mark.parametrize("fps", [30.0, 50.0, 60.0])
@pytest.mark.parametrize("shot_id", [188, 281])
def test_a_ball_set_off_by_a_struck_ball_within_a_frame_names_the_struck_one(
    shot_id: int, fps: float
) -> None:
    replay, found = _found(shot_id, fps)
    first, second = [e for e in replay.events if isinstance(e, BallContact)][:2]
    assert isinstance(first, BallContact) and isinstance(second, BallContact)
    assert 0.0 < second.t_s - first.t_s < 0.006 and set(first.balls) & set(second.balls)
    for want in (first, second):
        assert _near(found, want, 0.004), f"{want} not found; found {[s.event for s in found]}"
    (striker,) = set(first.balls) - set(second.balls)
    (third,) = set(second.balls) - set(first.balls)
    never = BallContact(t_s=second.t_s, balls=(striker, third))
    assert not _near(found, never, 0.05), f"{striker} never touched {third}"


@pytest.mark.parametrize("fps", [30.0, 50.0, 60.0])
def test_two_balls_at_rest_meet_after_the_contact_that_set_one_off(fps: float) -> None:
    replay, found = _found(41, fps)
    first, second = [e for e in replay.events if isinstance(e, BallContact)][:2]
    assert isinstance(first, BallContact) and isinstance(second, BallContact)
    assert 0.0 < second.t_s - first.t_s < 0.006, "a chain of set-offs within one frame"
    hits = [_near(found, want, 0.002) for want in (first, second)]
    assert all(hits), f"found {[s.event for s in found]}"
    assert hits[0][0].event.t_s < hits[1][0].event.t_s, "found in the wrong order"


@pytest.mark.parametrize("fps", [30.0, 50.0, 60.0])
def test_a_contact_after_a_contact_that_bent_the_path_is_timed_from_the_paths_after(
    fps: float,
) -> None:
    replay, found = _found(275, fps)
    kisses = [e for e in replay.events if isinstance(e, BallContact)]
    want = kisses[3]
    assert isinstance(want, BallContact) and set(want.balls) == {Ball.WHITE, Ball.RED}
    assert any(Ball.RED in k.balls and 0.0 < want.t_s - k.t_s < 0.02 for k in kisses[:3])
    hits = _near(found, want, 0.003)
    assert hits, f"{want} not within 3 ms; found {[s.event for s in found]}"
    assert "timed from the paths after" in hits[0].evidence


def _second_kiss(replay: IndependentReplay) -> tuple[BallContact, BallContact]:
    """The first pair of contacts of the same two balls within 20 ms."""
    kisses = [e for e in replay.events if isinstance(e, BallContact)]
    for first, second in pairwise(kisses):
        if set(first.balls) == set(second.balls) and second.t_s - first.t_s < 0.02:
            return first, second
    raise AssertionError("the shot holds no second contact of a pair within 20 ms")


@pytest.mark.parametrize("fps", [50.0, 60.0])
@pytest.mark.parametrize("shot_id", [110, 118, 178, 211])
def test_a_ball_back_off_a_cushion_into_its_striker_is_a_second_contact(
    shot_id: int, fps: float
) -> None:
    replay, found = _found(shot_id, fps)
    first, second = _second_kiss(replay)
    cushions = [e for e in replay.events if isinstance(e, CushionContact)]
    assert any(first.t_s < c.t_s < second.t_s for c in cushions)  # a bounce between
    hits = _near(found, second, 0.008)
    assert len(_near(found, first, 0.02)) == 2, [s.event for s in found]
    assert hits, f"{second} not within 8 ms; found {[s.event for s in found]}"
    late = max(hits, key=lambda h: h.event.t_s)
    assert "came back along the line of centres" in late.evidence
    assert late.event.t_err_s >= abs(late.event.t_s - second.t_s) / 2  # an honest error


@pytest.mark.parametrize("shot_id", [53, 4582])
def test_a_struck_ball_off_a_cushion_that_does_not_come_back_gives_no_second_contact(
    shot_id: int,
) -> None:
    for fps in (50.0, 60.0):
        replay, found = _found(shot_id, fps)
        assert not [s for s in found if "came back along the line" in s.evidence]
        truth = [e for e in replay.events if isinstance(e, BallContact)]
        kisses = [s for s in found if isinstance(s.event, BallContact)]
        assert len(kisses) <= len(truth)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("fps", [50.0, 60.0])
def test_a_ball_struck_before_the_sample_that_shows_it_moved_is_timed_before_it(
    fps: float, seed: int
) -> None:
    replay, found = _found(226, fps, seed)
    first, second = [e for e in replay.events if isinstance(e, BallContact)][:2]
    assert set(first.balls) == {Ball.WHITE, Ball.YELLOW} and 0 < second.t_s - first.t_s < 0.002
    bounce = max(
        e.t_s for e in replay.events if isinstance(e, CushionContact) and e.t_s < first.t_s
    )
    assert 0.015 < first.t_s - bounce < 0.025  # the white off a cushion a frame before
    (hit,) = _near(found, first, 0.002)
    assert hit.confidence == 1.0
    for other in _near(found, second, 0.002):  # found or not, never before the first
        assert other.event.t_s > hit.event.t_s


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("fps", [50.0, 60.0])
def test_a_ball_struck_into_a_cushion_and_a_third_ball_within_a_frame_touched_the_cushion(
    fps: float, seed: int
) -> None:
    replay, found = _found(302, fps, seed)
    kisses = [e for e in replay.events if isinstance(e, BallContact)]
    rail = next(e for e in replay.events if isinstance(e, CushionContact) and e.ball is Ball.WHITE)
    assert kisses[0].t_s < rail.t_s < kisses[1].t_s < kisses[0].t_s + 1.0 / fps
    (hit,) = _near(found, rail, 0.003)
    assert hit.confidence < 1.0  # read off the kick, not seen
    assert abs(hit.event.t_s - rail.t_s) <= max(hit.event.t_err_s, 0.002)


@pytest.mark.parametrize(("fps", "seed"), [(50.0, 0), (50.0, 1), (50.0, 2), (60.0, 1)])
def test_a_ball_struck_into_a_cushion_13_mm_away_touched_it_within_the_frame(
    fps: float, seed: int
) -> None:
    replay, found = _found(338, fps, seed)
    kiss, back = [e for e in replay.events if isinstance(e, BallContact)][:2]
    rail = next(e for e in replay.events if isinstance(e, CushionContact))
    assert kiss.t_s < rail.t_s < back.t_s < kiss.t_s + 0.02  # then back into the yellow
    (hit,) = _near(found, rail, 0.004)
    assert abs(hit.event.t_s - rail.t_s) <= hit.event.t_err_s
    assert "struck from rest towards the foot cushion" in hit.evidence
    assert _near(found, back, 0.004)  # the second kiss, read off the white's rebound
