"""Two ball contacts of one ball within a frame, on pooltool's motion.

The motion is the independent simulator's (``bench/data/pooltool_shots.json.gz``,
tuning part only), sampled as a camera would (0.3 mm of noise). Balls close together
give two contacts of one ball within a frame: a full hit on a ball that meets a third
a few mm on (the striker stops short, the gap shows no valley: tuning pt0167), a ball
at rest struck into another (its one sample between is no path: pt0373), a ball struck
into a cushion a few cm on (its first step then turns: pt0317).

On the motion sampled at frame times, before the approach cut short
(``vision/events/_cut_short.py``), a ball's first step and a set-off read off two
samples (``vision/events/_set_offs.py``), 32 of 37 such contacts were found at 30 fps
(and one contact made up), 23 of 24 at 60 fps; now 37 and 23, none made up. The
rendered clips' tracks (blurred, measured) miss more: two of those, recorded from
tuning pt0373 and pt0317, were missed before and are found now; so is pt0311's
cushion, reached in the frame of a ball contact by a ball that then lay at its nose
(``vision/events/_cushion_at_kiss.py``), and pt0233's, 7 ms after a ball contact
timed from the struck ball's set-off (the kick is no longer put at the touch of the
striker's path when that comes more than half a frame later: its path, fitted over its
rest and one moved sample, is too slow).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, BallContact, Cushion, CushionContact
from synth import IndependentReplay
from tests.vision.events.pooltool_motion import NOISE_MM, independent_set, tuning_replays
from vision import BallTrack, extract_events

#: The tuning shots (the held-out part is never looked at here).
SHOTS = 120
Recorded = dict[Ball, list[tuple[float, float]]]

#: A found contact of the same pair this close in time matches (the bench's tolerance).
MATCH_S = 0.05


@dataclass
class _Tally:
    cases: int = 0
    found: int = 0
    true_kisses: int = 0
    made_up: list[BallContact] = field(default_factory=list)  # sure contacts it never had


def _tracks(replay: IndependentReplay, fps: float) -> dict[Ball, BallTrack]:
    t = np.arange(0.0, replay.duration_s, 1.0 / fps)
    rng = np.random.default_rng(0)
    return {
        b: BallTrack.from_samples(t, xy + rng.normal(0.0, NOISE_MM, xy.shape))
        for b, xy in replay.positions_mm(t).items()
    }


def _in_a_frame(kisses: list[BallContact], fps: float) -> list[BallContact]:
    """The contacts that share a ball with another contact less than a frame away."""
    return [
        k for k in kisses
        if any(o is not k and set(o.balls) & set(k.balls) and abs(o.t_s - k.t_s) < 1.0 / fps
               for o in kisses)
    ]  # fmt: skip


def _tally(fps: float) -> _Tally:
    tally = _Tally()
    geometry = TableGeometry(independent_set().table)
    for replay in tuning_replays(SHOTS):
        true = [e for e in replay.events if isinstance(e, BallContact)]
        cases = _in_a_frame(true, fps)
        if not cases:
            continue
        found = [s.event for s in extract_events(_tracks(replay, fps), geometry)]
        mine = [e for e in found if isinstance(e, BallContact)]
        tally.cases += len(cases)
        tally.true_kisses += len(true)
        for want in cases:
            tally.found += any(
                set(e.balls) == set(want.balls) and abs(e.t_s - want.t_s) <= MATCH_S for e in mine
            )
        tally.made_up += [
            e for e in mine
            if e.doubt is None and not any(
                set(w.balls) == set(e.balls) and abs(w.t_s - e.t_s) <= MATCH_S for w in true)
        ]  # fmt: skip
    return tally


@pytest.mark.parametrize(("fps", "least"), [(30.0, 0.95), (60.0, 0.9)])
def test_both_contacts_of_a_ball_within_a_frame_are_found(fps: float, least: float) -> None:
    tally = _tally(fps)
    assert tally.cases >= 20, tally
    assert tally.found / tally.cases >= least, f"{tally.found} of {tally.cases}"
    assert len(tally.made_up) <= 0.01 * tally.true_kisses, tally.made_up


def _recorded(first_frame: int, fps: float, xy_mm: Recorded) -> dict[Ball, BallTrack]:
    n = len(next(iter(xy_mm.values())))
    t = (first_frame + np.arange(n)) / fps
    return {b: BallTrack.from_samples(t, np.array(xy)) for b, xy in xy_mm.items()}


#: Tuning pt0373 (60 fps) as the tracker gave it in its rendered clip, frames 108-123
#: (mm): the yellow at 4.3 m/s into the resting white (1.9297 s), which meets the
#: resting red 30 mm on 7 ms later (1.9366 s). The white's one sample between is 13 mm
#: out; its fit over rest and that sample is far too slow to reach the red in time.
_PT0373_MM = {
    Ball.RED: [(164.5, 1096.6)] * 9 + [
        (114.4, 1092.1), (51.9, 1086.9), (61.0, 1081.0), (108.6, 1075.8), (153.6, 1070.9),
        (177.3, 1077.6), (190.4, 1089.1)],
    Ball.WHITE: [(251.3, 1107.3)] * 8 + [
        (238.6, 1102.9), (224.8, 1089.1), (224.2, 1076.7), (223.4, 1064.7), (222.8, 1053.3),
        (222.0, 1042.6), (243.8, 1020.3), (275.9, 992.0)],
    Ball.YELLOW: [
        (864.3, 1097.4), (793.1, 1100.8), (721.5, 1105.1), (650.2, 1108.5), (579.3, 1111.8),
        (507.7, 1115.6), (437.2, 1119.1), (366.4, 1122.4), (309.2, 1130.1), (300.2, 1152.5),
        (290.5, 1174.4), (280.6, 1196.3), (270.1, 1217.9), (259.0, 1239.7), (247.3, 1260.9),
        (235.5, 1282.4)],
}  # fmt: skip

#: Tuning pt0317 (60 fps), frames 119-132 (mm): the yellow into the resting red
#: (2.0791 s), the red into the resting white 2.4 ms later (2.0815 s) and stops; the
#: white goes 21 mm in its first frame and comes off the right cushion in its second.
_PT0317_MM = {
    Ball.RED: [(2246.2, 1308.5)] * 6 + [
        (2247.7, 1310.0), (2249.4, 1309.4), (2250.6, 1309.4), (2251.1, 1308.7), (2252.0, 1307.6),
        (2254.6, 1308.4), (2256.8, 1308.9), (2256.8, 1308.1)],
    Ball.WHITE: [(2276.5, 1364.9)] * 7 + [
        (2286.9, 1383.1), (2293.8, 1380.9), (2299.0, 1368.4), (2303.9, 1355.9), (2308.5, 1344.2),
        (2313.9, 1333.8), (2319.5, 1323.5)],
    Ball.YELLOW: [
        (2152.6, 1142.8), (2163.2, 1163.8), (2174.1, 1184.6), (2184.4, 1204.4), (2193.8, 1224.4),
        (2204.0, 1244.0), (2210.3, 1258.2), (2208.5, 1260.3), (2207.1, 1263.1), (2206.1, 1266.0),
        (2204.4, 1268.8), (2203.3, 1272.1), (2202.4, 1275.9), (2201.0, 1279.9)],
}  # fmt: skip


@pytest.mark.parametrize(
    ("first_frame", "xy_mm", "pair", "true_s"),
    [
        (108, _PT0373_MM, {Ball.WHITE, Ball.YELLOW}, 1.9297),
        (108, _PT0373_MM, {Ball.WHITE, Ball.RED}, 1.9366),
        (119, _PT0317_MM, {Ball.YELLOW, Ball.RED}, 2.0791),
        (119, _PT0317_MM, {Ball.RED, Ball.WHITE}, 2.0815),
    ],
)
def test_a_ball_struck_into_a_ball_or_cushion_within_its_first_frame_is_found(
    first_frame: int, xy_mm: Recorded, pair: set[Ball], true_s: float
) -> None:
    tracks = _recorded(first_frame, 60.0, xy_mm)
    found = extract_events(tracks, TableGeometry(independent_set().table))
    kisses = [
        s for s in found
        if isinstance(s.event, BallContact) and set(s.event.balls) == pair
        and abs(s.event.t_s - true_s) < MATCH_S
    ]  # fmt: skip
    assert len(kisses) == 1, found
    kiss = kisses[0].event
    assert abs(kiss.t_s - true_s) <= max(kiss.t_err_s, 0.004), kiss
    assert kiss.doubt is None


#: Tuning pt0311 (50 fps), frames 105-117 (mm): the white off the head cushion runs
#: into the right cushion at 600 mm/s (2.2458 s) and meets the resting red 0.8 ms later
#: (2.2466 s); from the next sample on it lies at the nose of the right cushion.
_PT0311_MM = {
    Ball.RED: [(261.5, 1372.1)] * 8 + [
        (289.0, 1365.7), (328.1, 1355.7), (366.8, 1345.6), (404.4, 1336.0), (442.1, 1326.4)],
    Ball.WHITE: [
        (238.0, 1295.2), (181.2, 1309.1), (123.4, 1322.2), (66.1, 1335.5), (49.4, 1347.6),
        (96.2, 1360.5), (142.4, 1372.6), (187.4, 1384.5), (202.9, 1388.8), (203.5, 1388.7),
        (203.4, 1389.0), (203.1, 1389.1), (201.9, 1389.3)],
    Ball.YELLOW: [(2238.1, 216.6)] * 13,
}  # fmt: skip


def test_a_cushion_reached_in_the_frame_of_a_ball_contact_and_stayed_at_is_found() -> None:
    tracks = _recorded(105, 50.0, _PT0311_MM)
    found = extract_events(tracks, TableGeometry(independent_set().table))
    right = [s for s in found if isinstance(s.event, CushionContact)
             and s.event.ball == Ball.WHITE and s.event.cushion == Cushion.RIGHT]  # fmt: skip
    assert len(right) == 1, found
    assert abs(right[0].event.t_s - 2.2458) <= max(right[0].event.t_err_s, 0.004)
    assert right[0].event.doubt is None
    kiss = [s.event for s in found if isinstance(s.event, BallContact)]
    assert len(kiss) == 1 and abs(kiss[0].t_s - 2.2466) < 0.003, found


#: Tuning pt0233 (60 fps), frames 87-99 (mm): the white, struck from rest at 6 m/s,
#: meets the red 68 mm on within its first frame (1.5284 s); the red, 21 mm from the
#: left cushion, is on it 7 ms later (1.5354 s) and unseen in frame 92.
_PT0233_MM = {
    Ball.RED: [(1076.5, 51.6)] * 5 + [(1076.5, 51.6)] + [
        (988.9, 65.0), (927.9, 102.2), (864.0, 142.0), (800.8, 181.0), (739.3, 219.4),
        (678.3, 257.2), (618.3, 293.8)],
    Ball.WHITE: [(1257.1, 184.4)] * 4 + [
        (1181.8, 126.3), (1129.2, 82.8), (1130.8, 74.4), (1132.0, 66.6), (1132.5, 57.9),
        (1132.8, 49.6), (1132.6, 40.4), (1131.7, 32.7), (1129.0, 38.0)],
    Ball.YELLOW: [(2059.5, 235.3)] * 13,
}  # fmt: skip


def test_a_ball_struck_within_the_strikers_first_frame_and_its_cushion_are_found() -> None:
    tracks = _recorded(87, 60.0, _PT0233_MM)
    red = tracks[Ball.RED]
    seen = np.ones(len(red.t_s), bool)
    seen[5] = False  # frame 92: the red unseen, held at its rest by the tracker
    tracks[Ball.RED] = BallTrack(red.t_s, red.xy_mm, seen, np.full(len(seen), -1, np.int64))
    found = extract_events(tracks, TableGeometry(independent_set().table))
    kiss = [s.event for s in found if isinstance(s.event, BallContact)]
    assert len(kiss) == 1 and set(kiss[0].balls) == {Ball.WHITE, Ball.RED}, found
    assert abs(kiss[0].t_s - 1.5284) <= max(kiss[0].t_err_s, 0.004)
    left = [s.event for s in found if isinstance(s.event, CushionContact)
            and s.event.ball == Ball.RED and s.event.cushion == Cushion.LEFT]  # fmt: skip
    assert len(left) == 1 and abs(left[0].t_s - 1.5354) <= max(left[0].t_err_s, 0.004), found
    assert left[0].t_s > kiss[0].t_s
