"""The tracker alone: detections made from the sample clips' truth plus detector faults.

Each truth file gives every ball's exact pixel centre per frame. A fake detector adds
0.3 px noise, hides covered balls (the player's arm), drops 5 % of detections at random,
calls 2 % by the wrong colour and now and then reports a chalk blob as a ball; blurred
balls carry their streak. The tracker must keep every identity, hold positions to the
millimetre at rest and report hidden balls as not seen.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from calibration import Calibration
from referee import Ball
from tests.sample_truth import sample_truth
from vision._types import Detections, VisionError
from vision.track import TrackStep
from vision.track._steps import LAG_MM
from vision.track._tracker import GATE, Tracker

CLIPS = ("hard_three_cushion", "three_cushion_match", "balkline_47_2", "five_pins_match")
NAMES = ("white", "yellow", "red")


def _arrays(truth: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(F, 3, 2) xy_mm, (F, 3, 2) uv_px, (F, 3) covered, (F,) t_s, balls in NAMES order."""
    frames = truth["frames"]
    xy = np.array([[f["balls"][n]["xy_mm"] for n in NAMES] for f in frames])
    uv = np.array([[f["balls"][n]["uv_px"] for n in NAMES] for f in frames])
    covered = np.array([[f["balls"][n]["covered"] for n in NAMES] for f in frames])
    return xy, uv, covered, np.array([f["t_s"] for f in frames])


def _detections(
    truth: dict[str, Any], calib: Calibration, seed: int, relabel: dict[Ball, Ball] | None = None
) -> list[Detections]:
    """A faulty detector: noise, arm, dropouts, wrong colours, chalk blobs, streaks."""
    rng = np.random.default_rng(seed)
    _, uv, covered, _ = _arrays(truth)
    fps, exposure = truth["video"]["fps"], truth["video"]["exposure_s"]
    velocity = np.gradient(uv, axis=0) * fps
    speed_px_frame = np.hypot(velocity[..., 0], velocity[..., 1]) / fps
    velocity[speed_px_frame > 150] = 0.0  # balls put back by hand: no blur
    streaks = velocity * exposure / 2
    balls = [Ball(n) for n in NAMES]
    geo = calib.geometry
    out = []
    for i in range(len(uv)):
        pts, labels, st = [], [], []
        for j, ball in enumerate(balls):
            if covered[i, j] or rng.random() < 0.05:
                continue
            s = streaks[i, j]
            length = float(np.hypot(*s))
            p = uv[i, j] + rng.normal(0.0, 0.3, 2)
            if length > 0.5:  # the centre of a streak is less sure along it
                p = p + s / length * rng.normal(0.0, 0.1 * length)
            if rng.random() < 0.02:
                ball = balls[(j + 1 + int(rng.integers(2))) % 3]
            pts.append(p)
            labels.append(relabel.get(ball, ball) if relabel else ball)
            st.append(s)
        if rng.random() < 0.03:  # a chalk blob somewhere on the cloth
            xy = [[rng.uniform(100, geo.length_mm - 100), rng.uniform(100, geo.width_mm - 100)]]
            pts.append(calib.mm_to_px(np.array(xy), geo.radius_mm)[0])
            labels.append(balls[int(rng.integers(3))])
            st.append(np.zeros(2))
        n = len(pts)
        out.append(
            Detections(
                np.array(pts).reshape(n, 2),
                tuple(labels),
                np.full(n, 0.9),
                np.full(n, 10.0),
                np.array(st).reshape(n, 2),
            )
        )
    return out


def _run(
    tracker: Tracker,
    truth: dict[str, Any],
    dets: list[Detections],
    a: int = 0,
    b: int | None = None,
) -> list[TrackStep]:
    frames = truth["frames"][a:b]
    return [
        tracker.update(f["frame_idx"], f["t_s"], d) for f, d in zip(frames, dets[a:b], strict=True)
    ]


def _identity_ok(track_xy: np.ndarray, truth_xy: np.ndarray) -> np.ndarray:
    """(F, k): each track is nearer its own ball than any other ball."""
    dist = np.linalg.norm(track_xy[:, :, None, :] - truth_xy[:, None, :, :], axis=3)
    own = np.einsum("fjj->fj", dist)
    k = dist.shape[1]
    other = np.min(np.where(np.eye(k, dtype=bool)[None], np.inf, dist), axis=2)
    return own < other


@pytest.fixture(scope="module", params=CLIPS)
def clip(request: pytest.FixtureRequest) -> dict[str, Any]:
    truth, calib = sample_truth(request.param)
    dets = _detections(truth, calib, seed=7)
    balls = [Ball(n) for n in NAMES]
    tracker = Tracker(calib, balls, fps=truth["video"]["fps"])
    steps = _run(tracker, truth, dets)
    return {"name": request.param, "truth": truth, "tracker": tracker, "steps": steps}


def test_identity_and_accuracy_on_sample_clips(clip: dict[str, Any]) -> None:
    truth_xy, _, covered, _ = _arrays(clip["truth"])
    fps = clip["truth"]["video"]["fps"]
    tracks = clip["tracker"].tracks()
    xy = np.stack([tracks[Ball(n)].xy_mm for n in NAMES], axis=1)
    seen = np.stack([tracks[Ball(n)].seen for n in NAMES], axis=1)
    assert _identity_ok(xy, truth_xy)[seen].mean() >= 0.999
    err = np.linalg.norm(xy - truth_xy, axis=2)
    rest = np.hypot(*np.gradient(truth_xy, axis=0).T).T * fps < 1.0
    assert np.median(err[seen & rest]) < 2.0
    assert err[seen & rest].max() < 5.0
    assert np.median(err[seen & ~rest]) < 5.0
    assert seen[~covered].mean() > 0.9  # 5 % dropped, a few frames to confirm jumps
    assert not seen[covered].any()  # hidden balls are predicted, never "seen"


def test_steps_agree_with_tracks(clip: dict[str, Any]) -> None:
    steps: list[TrackStep] = clip["steps"]
    track = clip["tracker"].tracks()[Ball.RED]
    assert len(track) == len(steps)
    assert np.array_equal(track.frame_idx, [s.frame_idx for s in steps])
    moving = np.array([s.of(Ball.RED).speed_mm_s > 0 for s in steps])
    at_rest = np.array([s.of(Ball.RED).at_rest for s in steps])
    assert not (moving & at_rest).any()
    assert at_rest.mean() > 0.3  # the red waits for most of every clip


def test_arm_over_ball_then_reacquired() -> None:
    """hard_three_cushion: the white is put back under the arm; found when it leaves."""
    truth, calib = sample_truth("hard_three_cushion")
    truth_xy, _, covered, _ = _arrays(truth)
    dets = _detections(truth, calib, seed=3)
    tracker = Tracker(calib, [Ball(n) for n in NAMES], fps=truth["video"]["fps"])
    steps = _run(tracker, truth, dets)
    first = int(np.flatnonzero(covered[:, 0])[0])
    last = first + int(np.argmin(covered[first:, 0])) - 1  # the arm lifts (and may return)
    assert last - first > 100  # over two seconds under the arm
    white = [s.of(Ball.WHITE) for s in steps]
    # Hidden: kept where it was last seen, at rest, not seen.
    before = np.array(white[first - 1].xy_mm)
    for state in white[first : last + 1 : 10]:
        if not state.seen:
            assert np.allclose(state.xy_mm, before, atol=1.0)
            assert state.at_rest
    # Found again at its new place within a few frames of the arm leaving, and flagged.
    found = next(i for i in range(last + 1, len(white)) if white[i].seen)
    assert found - last <= 4
    assert math.dist(white[found].xy_mm, truth_xy[found, 0]) < 5.0
    assert any(white[i].ambiguous for i in range(first, found + 1))
    assert math.dist(before, truth_xy[found, 0]) > 200.0


def test_dotted_white_told_apart_by_continuity() -> None:
    """Yellow replaced by a dotted white the detector calls white: continuity decides."""
    truth, calib = sample_truth("three_cushion_match")
    truth_xy, _, _, _ = _arrays(truth)
    dets = _detections(truth, calib, seed=11, relabel={Ball.YELLOW: Ball.WHITE})
    # The first stroke: up to the frame where the clip lays out the next position.
    end = int(np.flatnonzero(np.abs(np.diff(truth_xy, axis=0)).max(axis=(1, 2)) > 150)[0]) + 1
    balls = [Ball.WHITE, Ball.DOTTED, Ball.RED]
    start = {b: (float(truth_xy[0, j, 0]), float(truth_xy[0, j, 1])) for j, b in enumerate(balls)}
    tracker = Tracker(calib, balls, fps=truth["video"]["fps"], start_mm=start)
    _run(tracker, truth, dets, 0, end)
    tracks = tracker.tracks()
    xy = np.stack([tracks[b].xy_mm for b in balls], axis=1)
    seen = np.stack([tracks[b].seen for b in balls], axis=1)
    assert _identity_ok(xy, truth_xy[:end])[seen].mean() >= 0.999


def _synthetic(
    calib: Calibration, paths: dict[Ball, np.ndarray], labels: dict[Ball, Ball], fps: float
) -> tuple[Tracker, list[TrackStep]]:
    """Track balls along given mm paths (F, 2) each, 0.3 px noise, no other fault."""
    rng = np.random.default_rng(5)
    tracker = Tracker(calib, list(paths), fps=fps)
    r = calib.geometry.radius_mm
    uv = {b: calib.mm_to_px(p, r) for b, p in paths.items()}
    n_frames = len(next(iter(paths.values())))
    steps = []
    for i in range(n_frames):
        pts = np.array([uv[b][i] for b in paths]) + rng.normal(0.0, 0.3, (len(paths), 2))
        det = Detections(
            pts,
            tuple(labels[b] for b in paths),
            np.full(len(paths), 0.9),
            np.full(len(paths), 10.0),
            np.zeros((len(paths), 2)),
        )
        steps.append(tracker.update(i, i / fps, det))
    return tracker, steps


def _line(start: tuple[float, float], v_mm_s: tuple[float, float], t: np.ndarray) -> np.ndarray:
    return np.array(start) + np.outer(t, v_mm_s)


def test_two_white_balls_passing_close_keep_identities() -> None:
    _, calib = sample_truth("three_cushion_match")
    fps = 60.0
    t = np.arange(60) / fps
    # Opposite directions, centres 64 mm apart when they pass (2R = 61.5 mm), 1.2 m/s.
    paths = {
        Ball.WHITE: _line((900.0, 600.0), (1200.0, 0.0), t),
        Ball.DOTTED: _line((2100.0, 664.0), (-1200.0, 0.0), t),
    }
    labels = {Ball.WHITE: Ball.WHITE, Ball.DOTTED: Ball.WHITE}
    tracker, _ = _synthetic(calib, paths, labels, fps)
    tracks = tracker.tracks()
    for ball, path in paths.items():
        err = np.linalg.norm(tracks[ball].xy_mm[3:] - path[3:], axis=1)
        assert err.max() < 10.0, ball


def test_collision_moves_the_hit_ball_without_a_swap() -> None:
    """White at 1.5 m/s hits the resting red full: white stops, red runs on."""
    _, calib = sample_truth("three_cushion_match")
    fps = 60.0
    t = np.arange(60) / fps
    hit = 20.5 / fps  # between frames 20 and 21
    white = _line((300.0, 700.0), (1500.0, 0.0), np.minimum(t, hit))
    red_start = white[-1] + (61.5, 0.0)
    red = _line(tuple(red_start), (1500.0, 0.0), np.maximum(t - hit, 0.0))
    paths = {Ball.WHITE: white, Ball.RED: red}
    tracker, steps = _synthetic(calib, paths, {Ball.WHITE: Ball.WHITE, Ball.RED: Ball.RED}, fps)
    tracks = tracker.tracks()
    for ball, path in paths.items():
        seen = tracks[ball].seen
        err = np.linalg.norm(tracks[ball].xy_mm - path, axis=1)
        assert err[seen & (t > 0.1)].max() < 10.0, ball
    assert steps[-1].of(Ball.RED).speed_mm_s > 1200.0
    assert steps[-1].of(Ball.WHITE).speed_mm_s < 100.0


def test_gentle_start_from_rest_is_released_at_once() -> None:
    """A resting ball nudged to 80 mm/s (2.7 mm a frame at 30 fps).

    Its first steps stay inside the rest exit gate for several frames; they walk steadily
    away, so the ball must leave rest within three frames and its history must hold the
    measured path there, not the rest mean (a hidden gentle start hides a contact).
    """
    _, calib = sample_truth("three_cushion_match")
    fps = 30.0
    t = np.arange(60) / fps
    start = 40 / fps
    path = _line((1400.0, 700.0), (-56.0, 56.0), np.maximum(t - start, 0.0))
    tracker, steps = _synthetic(calib, {Ball.YELLOW: path}, {Ball.YELLOW: Ball.YELLOW}, fps)
    assert steps[39].of(Ball.YELLOW).at_rest
    assert not steps[43].of(Ball.YELLOW).at_rest
    track = tracker.tracks()[Ball.YELLOW]
    err = np.linalg.norm(track.xy_mm - path, axis=1)
    assert err[:40].max() < 2.0  # the rest mean
    assert err[40:].max() < 4.0  # measured (about 1.5 mm noise), never the held mean
    assert err[40:].mean() < 2.0


def test_drop_before_really_drops() -> None:
    truth, calib = sample_truth("balkline_47_2")
    dets = _detections(truth, calib, seed=1)
    tracker = Tracker(calib, [Ball(n) for n in NAMES], fps=truth["video"]["fps"])
    _run(tracker, truth, dets, 0, 200)
    assert len(tracker.tracks()[Ball.WHITE]) == 200
    cut = truth["frames"][150]["t_s"]
    assert len(tracker.tracks(since_s=cut)[Ball.WHITE]) == 50
    tracker.drop_before(cut)
    kept = tracker.tracks()
    assert all(len(track) == 50 for track in kept.values())
    assert kept[Ball.RED].t_s[0] == cut
    _run(tracker, truth, dets, 200, 210)  # tracking goes on after the cut
    assert len(tracker.tracks()[Ball.RED]) == 60


def test_blur_streak_widens_the_gate_along_it_only() -> None:
    _, calib = sample_truth("three_cushion_match")
    r = calib.geometry.radius_mm
    tracker = Tracker(calib, [Ball.RED], fps=30.0)
    at = np.array([[1400.0, 700.0]])
    uv = calib.mm_to_px(at, r)
    for i in range(20):  # the red at rest
        det = Detections(uv, (Ball.RED,), np.ones(1), np.full(1, 10.0), np.zeros((1, 2)))
        tracker.update(i, i / 30.0, det)
    # A long streak along u: a centre 4 px off along it fits, 4 px across does not.
    # (Checked on the gate itself: a blurred centre 10 mm off a resting ball is now
    # held as the possible first step of a start, so "seen" no longer shows the gate.)
    streak = np.array([[20.0, 0.0]])
    along = Detections(uv + np.array([[4.0, 0.0]]), (Ball.RED,), np.ones(1), np.ones(1), streak)
    across = Detections(uv + np.array([[0.0, 4.0]]), (Ball.RED,), np.ones(1), np.ones(1), streak)
    filt = tracker._tracks[0].filt
    assert filt is not None
    (z_along,), (z_across,) = tracker._measure(along), tracker._measure(across)
    assert filt.gate(z_along.xy_mm, z_along.noise_mm2) < GATE
    assert filt.gate(z_across.xy_mm, z_across.noise_mm2) > GATE
    # One blurred outlier does not drag the rest position.
    step = tracker.update(20, 20 / 30.0, along).of(Ball.RED)
    assert step.at_rest and math.dist(step.xy_mm, (1400.0, 700.0)) < 0.5


def test_bad_input_is_refused() -> None:
    _, calib = sample_truth("balkline_47_2")
    with pytest.raises(VisionError, match="distinct balls"):
        Tracker(calib, [Ball.RED, Ball.RED], fps=30.0)
    with pytest.raises(VisionError, match=r"expected Ball members, got \['green'\]"):
        Tracker(calib, ["green"], fps=30.0)  # type: ignore[list-item]
    with pytest.raises(VisionError, match="fps"):
        Tracker(calib, fps=0.0)
    tracker = Tracker(calib, fps=30.0)
    tracker.update(5, 1.0, Detections.empty())
    with pytest.raises(VisionError, match="feed frames in order"):
        tracker.update(6, 1.0, Detections.empty())
    step = tracker.update(7, 1.1, Detections.empty())
    assert np.isnan(step.xy_mm).all() and not step.seen.any()
    with pytest.raises(VisionError, match="not tracked"):
        step.of(Ball.DOTTED)


def test_a_ball_struck_into_a_cushion_within_the_frame_is_seen_back_off_it() -> None:
    """30 fps: the white at 5.8 m/s cuts the yellow at rest 35 mm from the head cushion,
    15 ms after a frame; the yellow is on the cushion 7 ms later and back off it by the
    next frame, where the white, a faint streak, is not seen (tuning pt0029). The
    collision's outcome, predicted, ran on through the cushion, and the sight of the
    yellow back off it was left out as too far."""
    _, calib = sample_truth("three_cushion_match")
    fps, r = 30.0, calib.geometry.radius_mm
    t = np.arange(16) / fps
    hit, rest = 6 / fps + 0.015, (r + 35.0, 700.0)
    white = np.where(
        (t < hit)[:, None],
        _line((rest[0] + 2 * r, 700.0), (-5000.0, 3000.0), t - hit),
        _line((rest[0] + 2 * r, 700.0), (0.0, 3000.0), t - hit),
    )
    on = hit + 35.0 / 5000.0
    x = np.where(t < on, rest[0] - 5000.0 * np.maximum(t - hit, 0.0), r + 4000.0 * (t - on))
    yellow = np.c_[x, np.full(len(t), rest[1])]
    tracker = Tracker(calib, [Ball.WHITE, Ball.YELLOW], fps=fps)
    uv = {b: calib.mm_to_px(p, r) for b, p in ((Ball.WHITE, white), (Ball.YELLOW, yellow))}
    for i in range(len(t)):
        balls = (Ball.WHITE, Ball.YELLOW) if i != 7 else (Ball.YELLOW,)
        n = len(balls)
        pts = np.array([uv[b][i] for b in balls])
        tracker.update(
            i, t[i], Detections(pts, balls, np.full(n, 0.9), np.full(n, 10.0), np.zeros((n, 2)))
        )
    track = tracker.tracks()[Ball.YELLOW]
    assert track.seen[7:].all(), "the yellow back off the cushion was not taken"
    assert np.linalg.norm(track.xy_mm - yellow, axis=1).max() < 5.0


def test_a_turn_the_model_did_not_foresee_is_reported_where_the_ball_was_seen() -> None:
    """60 fps: the red, blurred at 4 m/s, is turned by a ball the tracker does not know of
    (an arm hides it) to 1.5 m/s across and 3 m/s along. The filter's estimate lagged the
    turn by 11 and 6 mm on the two frames after it, and the contacts found from the path
    came late or not at all (independent set, tuning pt0235, pt0326, pt0449); where the
    estimate lies more than ``LAG_MM`` from the measurement, the sample is the measurement.
    """
    _, calib = sample_truth("three_cushion_match")
    fps, r = 60.0, calib.geometry.radius_mm
    t = np.arange(40) / fps
    hit = 20.4 / fps
    before, after = np.array([4000.0, 0.0]), np.array([1500.0, 3000.0])
    turn_at = np.array([600.0, 400.0]) + before * hit
    path = np.where(
        (t < hit)[:, None],
        turn_at + before * (t - hit)[:, None],
        turn_at + after * (t - hit)[:, None],
    )
    tracker = Tracker(calib, [Ball.RED], fps=fps)
    for i in range(len(t)):
        uv = calib.mm_to_px(path[i : i + 1], r)
        half_exposure = (before if t[i] < hit else after) * 0.4 / fps  # exposure 0.8 frames
        streak = calib.mm_to_px(path[i : i + 1] + half_exposure, r) - uv
        tracker.update(i, t[i], Detections(uv, (Ball.RED,), np.ones(1), np.full(1, 10.0), streak))
    track = tracker.tracks()[Ball.RED]
    assert track.seen.all()
    err = np.linalg.norm(track.xy_mm - path, axis=1)
    assert err[21:23].max() < 0.5, err[19:26]  # the two frames after the turn: as seen
    assert err[5:].max() <= LAG_MM, err[5:]
