"""Event extraction from ball trajectories: sample-clip truth, fresh simulations, edge cases.

Thresholds in ``vision.events._extract`` were tuned on the simulator and the
``three_cushion_match`` clip; ``hard_three_cushion`` (60 fps) is held out and its numbers
here are a report, not a fit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration._geometry import TableGeometry
from referee import (
    Ball,
    BallContact,
    Cushion,
    CushionContact,
    OffTable,
    Pocket,
    Pocketed,
    Table,
    doubt_code,
)
from synth import scenario
from vision._types import BallTrack, ScoredEvent
from vision.events._extract import extract_events

SAMPLES = Path(__file__).parents[3] / "sample_videos"
CLIPS = ("three_cushion_match", "hard_three_cushion", "balkline_47_2", "five_pins_match")
Key = tuple[Any, ...]


def _key(event: object) -> Key | None:
    match event:
        case BallContact(balls=balls):
            return ("ball", frozenset(balls))
        case CushionContact(ball=ball, cushion=cushion):
            return ("cushion", ball, cushion)
        case OffTable(ball=ball):
            return ("off", ball)
        case Pocketed(ball=ball, pocket=pocket):
            return ("pocket", ball, pocket)
    return None


def _truth_key(raw: dict[str, Any]) -> Key | None:
    if raw["kind"] == "ball":
        return ("ball", frozenset(Ball(b) for b in raw["balls"]))
    if raw["kind"] == "cushion":
        return ("cushion", Ball(raw["ball"]), Cushion(raw["cushion"]))
    return None


def _match(
    truth: Sequence[tuple[float, Key]], found: Sequence[ScoredEvent], window_s: float = 0.05
) -> tuple[list[float], int, int]:
    """Errors (s) of matched truth events, number missed, number of false events."""
    pred = [(e.event.t_s, _key(e.event)) for e in found if _key(e.event) is not None]
    used: set[int] = set()
    errors: list[float] = []
    for t, key in truth:
        near = [j for j, (tp, kp) in enumerate(pred) if j not in used and kp == key]
        near = [j for j in near if abs(pred[j][0] - t) <= window_s]
        if near:
            best = min(near, key=lambda j: abs(pred[j][0] - t))
            used.add(best)
            errors.append(pred[best][0] - t)
    return errors, len(truth) - len(errors), len(pred) - len(used)


def _keyed(doubt: str) -> bool:
    """The referee reads the doubt as one of its keyed ones, so pages can translate it."""
    return not doubt_code(doubt).startswith("text:")


def _clip_shots(name: str) -> tuple[TableGeometry, list[tuple[list[Any], list[Any]]]]:
    doc = json.loads((SAMPLES / f"{name}.json").read_text())
    table = doc["table"]
    geometry = TableGeometry(
        Table(
            length_mm=table["length_mm"],
            width_mm=table["width_mm"],
            ball_diameter_mm=2.0 * table["ball_radius_mm"],
        )
    )
    shots = []
    for stroke in doc["extra"]["strokes"]:
        lo, hi = stroke["t_s"] - 0.3, stroke["end_s"] + 0.5
        frames = [f for f in doc["frames"] if lo <= f["t_s"] <= hi]
        events = [e for e in doc["events"] if lo <= e["t_s"] <= hi]
        shots.append((frames, events))
    return geometry, shots


def _tracks(frames: list[Any], noise_mm: float, unseen: float, seed: int) -> dict[Ball, BallTrack]:
    rng = np.random.default_rng(seed)
    t = np.array([f["t_s"] for f in frames])
    out = {}
    for name in frames[0]["balls"]:
        xy = np.array([f["balls"][name]["xy_mm"] for f in frames], dtype=np.float64)
        xy += rng.normal(0.0, noise_mm, xy.shape) if noise_mm else 0.0
        seen = rng.random(len(t)) >= unseen
        out[Ball(name)] = BallTrack(t, xy, seen, np.arange(len(t)))
    return out


def _clip_scores(
    name: str, noise_mm: float, unseen: float = 0.0
) -> tuple[list[float], int, int, int]:
    geometry, shots = _clip_shots(name)
    errors: list[float] = []
    missed = false = total = 0
    for seed, (frames, events) in enumerate(shots):
        truth = [(e["t_s"], k) for e in events if (k := _truth_key(e)) is not None]
        found = extract_events(_tracks(frames, noise_mm, unseen, seed), geometry)
        err, miss, fp = _match(truth, found)
        errors += err
        missed, false, total = missed + miss, false + fp, total + len(truth)
    return errors, missed, false, total


@pytest.mark.parametrize("name", CLIPS)
def test_sample_clip_truth_positions_give_every_event(name: str) -> None:
    # Exact truth positions with 5% of the samples marked unseen.
    errors, missed, false, total = _clip_scores(name, 0.0, unseen=0.05)
    assert missed / total <= 0.01, f"{name}: missed {missed}/{total}"
    assert false / (total - missed + false) <= 0.01, f"{name}: {false} false events"
    assert np.median(np.abs(errors)) < 0.003


def test_held_out_60fps_clip_times_within_a_few_ms() -> None:
    errors, _, _, _ = _clip_scores("hard_three_cushion", 0.0)
    abs_ms = 1e3 * np.abs(errors)
    assert np.median(abs_ms) < 1.0  # measured 0.06 ms
    assert np.max(abs_ms) < 3.0  # measured 0.5 ms


def test_one_mm_noise_keeps_nearly_every_event() -> None:
    # Measured over the four clips with 1 mm noise, four noise draws: recall 97 %,
    # precision 99 %. Misses are slow grazing cushion approaches (< 60 mm/s normal
    # speed, timed tens of ms off) and a kiss that moves the resting ball 0.4 mm: below
    # what 1 mm noise can show.
    missed = false = total = 0
    hard_errors: list[float] = []
    for name in CLIPS:
        errors, miss, fp, n = _clip_scores(name, 1.0)
        missed, false, total = missed + miss, false + fp, total + n
        if name == "hard_three_cushion":
            hard_errors = errors
    assert missed / total <= 0.05
    assert false / total <= 0.05
    assert np.median(np.abs(hard_errors)) < 0.003


def _sim_tracks(name: str, fps: float, noise_mm: float = 0.0) -> tuple[Any, dict[Ball, BallTrack]]:
    sim = scenario(name).simulate()
    t = np.arange(0.0, sim.duration_s + 0.3, 1.0 / fps) + 0.37 / fps  # frames off the events
    rng = np.random.default_rng(3)
    out = {}
    for ball, xy in sim.positions_mm(t).items():
        ok = np.all(np.isfinite(xy), axis=1)
        noisy = xy[ok] + rng.normal(0.0, noise_mm, (int(ok.sum()), 2))
        out[ball] = BallTrack(t[ok], noisy, np.ones(int(ok.sum()), bool), np.nonzero(ok)[0])
    return sim, out


SCENARIOS = (
    "3c-thin-hit",
    "3c-third-cushion-late",
    "3c-along-cushion",
    "3c-kiss",
    "3c-frozen",
    "3c-break",
)


@pytest.mark.parametrize("name", SCENARIOS)
def test_fresh_simulation_at_60fps(name: str) -> None:
    sim, tracks = _sim_tracks(name, 60.0)
    sc = scenario(name)
    geometry = TableGeometry(sc.table)
    truth = [(e.t_s, k) for e in sim.events if (k := _key(e)) is not None]
    errors, missed, false = _match(truth, extract_events(tracks, geometry))
    assert (missed, false) == (0, 0)
    assert np.median(np.abs(errors)) < 0.003
    assert np.max(np.abs(errors)) < 0.01


def test_third_cushion_before_the_second_ball_keeps_its_order() -> None:
    _, tracks = _sim_tracks("3c-third-cushion-late", 60.0)
    geometry = TableGeometry(scenario("3c-third-cushion-late").table)
    found = extract_events(tracks, geometry)
    kiss = next(
        e.event for e in found if isinstance(e.event, BallContact) and Ball.YELLOW in e.event.balls
    )
    rail = [
        e.event for e in found if isinstance(e.event, CushionContact) and e.event.ball == Ball.WHITE
    ]
    third = max((c for c in rail if c.t_s < kiss.t_s), key=lambda c: c.t_s)
    truth_gap = 1.9026694026960278 - 1.8915647400943578  # 11 ms in the simulation
    assert kiss.t_s - third.t_s == pytest.approx(truth_gap, abs=0.002)
    assert third.t_err_s < truth_gap and kiss.t_err_s < truth_gap


def _line(t: np.ndarray, p0: tuple[float, float], v: tuple[float, float]) -> np.ndarray:
    out: np.ndarray = np.asarray(p0) + t[:, None] * np.asarray(v)
    return out


GEO = TableGeometry()
R = GEO.radius_mm


def test_head_on_contact_between_two_moving_balls_is_timed_between_frames() -> None:
    # Equal balls meet head-on at t = 0.5103 s and swap velocities (elastic).
    t = np.arange(0.0, 1.0, 1 / 30)
    t_c = 0.5103
    va, vb = np.array([800.0, 0.0]), np.array([-400.0, 0.0])
    pa_c, pb_c = np.array([1000.0, 700.0]), np.array([1000.0 + 2 * R, 700.0])
    before = (t < t_c)[:, None]
    a = np.where(before, pa_c + (t - t_c)[:, None] * va, pa_c + (t - t_c)[:, None] * vb)
    b = np.where(before, pb_c + (t - t_c)[:, None] * vb, pb_c + (t - t_c)[:, None] * va)
    tracks = {Ball.WHITE: BallTrack.from_samples(t, a), Ball.RED: BallTrack.from_samples(t, b)}
    (event,) = extract_events(tracks, GEO)
    assert isinstance(event.event, BallContact)
    assert event.event.t_s == pytest.approx(t_c, abs=0.0005)
    assert event.confidence > 0.9 and event.event.doubt is None


def _bounce_track(t_c: float, fps: float = 30.0) -> BallTrack:
    """A ball bouncing off the foot cushion at ``t_c`` (centre R from the nose)."""
    t = np.arange(0.0, 1.0, 1 / fps)
    hit = np.array([GEO.length_mm - R, 500.0])
    v_in, v_out = np.array([1500.0, 300.0]), np.array([-1200.0, 300.0])
    xy = np.where(
        (t < t_c)[:, None], hit + (t - t_c)[:, None] * v_in, hit + (t - t_c)[:, None] * v_out
    )
    return BallTrack.from_samples(t, xy)


def test_cushion_bounce_gets_its_cushion_and_a_sub_frame_time() -> None:
    (event,) = extract_events({Ball.WHITE: _bounce_track(0.4321)}, GEO)
    assert isinstance(event.event, CushionContact)
    assert event.event.cushion is Cushion.FOOT
    assert event.event.t_s == pytest.approx(0.4321, abs=0.0005)
    assert 0.0 < event.event.t_err_s < 0.005


def test_hidden_contact_gets_low_confidence_and_a_doubt() -> None:
    track = _bounce_track(0.4321)
    seen = np.abs(track.t_s - 0.4321) > 0.06  # the frames around the bounce are predicted
    hidden = BallTrack(track.t_s, track.xy_mm, seen, track.frame_idx)
    (event,) = extract_events({Ball.WHITE: hidden}, GEO)
    assert event.confidence < 0.5
    assert event.event.doubt == "ball hidden at the contact"
    assert _keyed(event.event.doubt)


def test_two_quick_touches_of_one_cushion_are_two_events() -> None:
    # Bounce off the left cushion, drift 25 mm out, swerve back and bounce again.
    t = np.arange(0.0, 1.2, 1 / 60)
    y = np.interp(t, [0.0, 0.3, 0.5, 0.7, 1.2], [300.0, R, R + 25.0, R, 200.0])
    xy = np.c_[500.0 + 600.0 * t, y]
    found = extract_events({Ball.YELLOW: BallTrack.from_samples(t, xy)}, GEO)
    times = [e.event.t_s for e in found if isinstance(e.event, CushionContact)]
    assert len(times) == 2
    assert times == pytest.approx([0.3, 0.7], abs=0.002)


def test_ball_running_along_a_cushion_is_one_contact_at_its_start() -> None:
    t = np.arange(0.0, 2.0, 1 / 50)
    y = np.interp(t, [0.0, 0.4, 1.6, 2.0], [400.0, R, R, R + 40.0])
    xy = np.c_[300.0 + 900.0 * t, y]
    found = extract_events({Ball.WHITE: BallTrack.from_samples(t, xy)}, GEO)
    assert len(found) == 1
    assert found[0].event.t_s == pytest.approx(0.4, abs=0.003)
    assert "ran along" in found[0].evidence


def test_slow_arrival_to_run_along_a_cushion_is_timed_at_the_arrival() -> None:
    # The end of a slow shot (seen on three_cushion_match): 25 mm/s into the left
    # cushion, then along it while the read centre keeps sinking 0.7 mm into the nose
    # (detector bias, filter lag). The gap's first minimum comes long after the touch;
    # the touch is wanted (the old finder was 0.18 s late here).
    rng = np.random.default_rng(3)
    t = np.arange(0.0, 2.0, 1 / 30)
    t_c = 0.9871
    sink = 0.7 * (1.0 - np.exp(-np.maximum(t - t_c, 0.0) / 0.6))
    y = np.where(t < t_c, R + 25.0 * (t_c - t), R) - sink + rng.normal(0.0, 0.01, len(t))
    xy = np.c_[1000.0 + 50.0 * t, y]
    found = extract_events({Ball.RED: BallTrack.from_samples(t, xy)}, GEO)
    rails = [e.event for e in found if isinstance(e.event, CushionContact)]
    assert len(rails) == 1 and rails[0].cushion is Cushion.LEFT
    assert rails[0].t_s == pytest.approx(t_c, abs=0.005)


def test_slow_push_with_centres_pulled_together_is_still_a_contact() -> None:
    # A balkline nurse stroke: white at 75 mm/s pushes the resting yellow. Within 15 mm
    # the detector reads both centres up to 2.5 mm towards each other (seen on real
    # decoded video), so the gap is below zero for frames and its minimum comes after
    # the kiss; the old finder lost the contact at 50 and 60 fps.
    t = np.arange(0.0, 2.0, 1 / 50)
    t_c = 1.0071
    d = np.array([0.3, 1.0]) / np.hypot(0.3, 1.0)
    rest = np.array([1000.0, 700.0])
    vw = np.array([0.0, 75.0])
    push = (vw @ d) * d
    before = (t < t_c)[:, None]
    w = rest - 2 * R * d + (t - t_c)[:, None] * np.where(before, vw, vw - push)
    y = rest + (t - t_c)[:, None] * np.where(before, 0.0, push)
    u = (y - w) / np.linalg.norm(y - w, axis=1)[:, None]
    pull = 2.5 * np.clip(1.0 - (np.linalg.norm(y - w, axis=1) - 2 * R) / 15.0, 0.0, 1.0)
    w_read = w + pull[:, None] * u + np.random.default_rng(1).normal(0.0, 0.2, w.shape)
    y_read = np.where(before, rest, y - pull[:, None] * u)  # held at the rest mean before
    tracks = {
        Ball.WHITE: BallTrack.from_samples(t, w_read),
        Ball.YELLOW: BallTrack.from_samples(t, y_read),
    }
    kisses = [e.event for e in extract_events(tracks, GEO) if isinstance(e.event, BallContact)]
    assert len(kisses) == 1
    assert kisses[0].t_s == pytest.approx(t_c, abs=0.035)  # the pull costs ~25 ms here


def test_ball_vanishing_at_speed_over_a_rail_is_off_the_table() -> None:
    t = np.arange(0.0, 1.0, 1 / 30)
    xy = _line(t, (1400.0, 900.0), (0.0, 1200.0))
    gone = t > (GEO.width_mm - R - 900.0) / 1200.0  # vanishes at the right cushion
    xy[gone] = np.nan
    rest = BallTrack.from_samples(t, np.tile([600.0, 300.0], (len(t), 1)))
    found = extract_events({Ball.WHITE: BallTrack.from_samples(t, xy), Ball.RED: rest}, GEO)
    kinds = {type(e.event) for e in found}
    assert OffTable in kinds
    off = next(e.event for e in found if isinstance(e.event, OffTable))
    assert off.t_s == pytest.approx(0.3906, abs=1 / 30)


def test_ball_vanishing_at_a_pocket_is_pocketed() -> None:
    geometry = TableGeometry.pyramid()
    t = np.arange(0.0, 1.0, 1 / 30)
    target = np.array(geometry.pockets_mm()[Pocket.MIDDLE_RIGHT])
    xy = _line(t, (target[0], target[1] - 600.0), (0.0, 1500.0))
    xy[xy[:, 1] > target[1] - 2 * R] = np.nan
    rest = BallTrack.from_samples(t, np.tile([600.0, 300.0], (len(t), 1)))
    found = extract_events({Ball.WHITE1: BallTrack.from_samples(t, xy), Ball.RED: rest}, geometry)
    pocketed = [e.event for e in found if isinstance(e.event, Pocketed)]
    assert [p.pocket for p in pocketed] == [Pocket.MIDDLE_RIGHT]
    assert not any(isinstance(e.event, OffTable) for e in found)


def test_every_event_has_a_time_error_and_low_confidence_carries_doubt() -> None:
    _, tracks = _sim_tracks("3c-thin-hit", 30.0, noise_mm=1.0)
    found = extract_events(
        tracks, TableGeometry(scenario("3c-thin-hit").table), min_confidence=0.99
    )
    assert found == sorted(found, key=lambda e: e.event.t_s)
    for e in found:
        assert e.event.t_err_s > 0.0
        assert 0.0 <= e.confidence <= 1.0
        if e.confidence < 0.99:
            assert e.event.doubt
            assert _keyed(e.event.doubt), e.event.doubt


def test_balls_at_rest_give_no_event() -> None:
    t = np.arange(0.0, 2.0, 1 / 30)
    rng = np.random.default_rng(0)
    centres = {
        Ball.WHITE: (1000.0, 500.0),
        Ball.RED: (1000.0 + 2 * R, 500.0),
        Ball.YELLOW: (2000.0, R),
    }
    still = {
        ball: BallTrack.from_samples(t, np.asarray(c) + rng.normal(0, 1, (len(t), 2)))
        for ball, c in centres.items()
    }
    assert extract_events(still, GEO) == []


def _pass_by(gap_mm: float) -> dict[Ball, BallTrack]:
    """White rolls past the resting red with ``gap_mm`` between them, no deflection."""
    t = np.arange(0.0, 2.0, 1 / 60)
    white = np.c_[500.0 + 800.0 * t, np.full(len(t), 600.0)]
    red = np.tile([1300.0, 600.0 + 2 * R + gap_mm], (len(t), 1))
    yellow = np.tile([2400.0, 300.0], (len(t), 1))
    return {
        Ball.WHITE: BallTrack.from_samples(t, white),
        Ball.RED: BallTrack.from_samples(t, red),
        Ball.YELLOW: BallTrack.from_samples(t, yellow),
    }


def test_a_pass_too_close_to_tell_is_a_doubtful_contact() -> None:
    events = extract_events(_pass_by(0.8), GEO)
    kisses = [e for e in events if isinstance(e.event, BallContact)]
    assert len(kisses) == 1
    kiss = kisses[0]
    assert set(kiss.event.balls) == {Ball.WHITE, Ball.RED}  # type: ignore[union-attr]
    assert kiss.event.doubt and "cannot be ruled out" in kiss.event.doubt
    assert _keyed(kiss.event.doubt)
    assert kiss.confidence < 0.5
    assert kiss.event.t_s == pytest.approx(1.0, abs=0.02)


def test_a_clear_pass_is_no_contact() -> None:
    events = extract_events(_pass_by(20.0), GEO)
    assert not [e for e in events if isinstance(e.event, BallContact)]
