"""The independent (pooltool) shot set as the loader reads it: fixed split, exact motion.

Checks the committed ``bench/data/pooltool_shots.json.gz`` through ``synth``'s loader;
pooltool itself is not needed. The motion and the events come from pooltool's own
event times, so where a contact happens the positions must say so (2R apart, R from
the named cushion), and nothing may jump between events.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from referee import BallContact, Cushion, CushionContact, Match, parse_shot_log
from synth import (
    IndependentReplay,
    IndependentSet,
    SegmentMotion,
    SimulationError,
    load_independent_shots,
    split_of,
)

DATA = Path(__file__).parents[2] / "bench" / "data" / "pooltool_shots.json.gz"
TOL_MM = 0.01


@cache
def _set() -> IndependentSet:
    return load_independent_shots(DATA)


def _cushion_distance_mm(xy: tuple[float, float], cushion: Cushion, data: IndependentSet) -> float:
    x, y = xy
    t = data.table
    return {Cushion.HEAD: x, Cushion.FOOT: t.length_mm - x, Cushion.LEFT: y,
            Cushion.RIGHT: t.width_mm - y}[cushion]  # fmt: skip


def test_the_set_is_large_and_holds_every_hard_situation() -> None:
    data = _set()
    assert len(data.shots) >= 300
    assert len({s.shot_id for s in data.shots}) == len(data.shots)
    counts = {t: sum(t in s.tags for s in data.shots) for t in data.header["tag_rules"]}
    for tag in ("cushions_close", "along_cushion", "near_miss", "thin_kiss", "cluster",
                "kiss_by_cushion"):  # fmt: skip
        assert counts[tag] >= 50, (tag, counts)
    assert data.header["max_continuize_dev_mm"] < 0.01


def test_the_split_is_fixed_by_the_id() -> None:
    data = _set()
    assert "id % 3 == 0" in data.header["split_rule"]
    for s in data.shots:
        assert s.split == ("held-out" if s.shot_id % 3 == 0 else "tuning") == split_of(s.shot_id)
    held = sum(s.split == "held-out" for s in data.shots)
    assert 0.2 * len(data.shots) < held < 0.5 * len(data.shots)


def test_a_shot_with_another_split_is_refused(tmp_path: Path) -> None:
    doc = json.loads(gzip.decompress(DATA.read_bytes()))
    shot = next(s for s in doc["shots"] if s["id"] % 3 == 0)
    shot["split"] = "tuning"
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(gzip.compress(json.dumps(doc).encode()))
    with pytest.raises(SimulationError, match="fixed rule"):
        load_independent_shots(bad)


def test_segments_join_without_jumps_and_velocity_turns_only_at_contacts() -> None:
    for shot in _set().shots:
        m = shot.motion
        for ball in m.balls:
            s = m.segments(ball)
            tau = s[:-1, 1] - s[:-1, 0]
            end_xy = (
                s[:-1, 2:4] + s[:-1, 4:6] * tau[:, None] + 0.5 * s[:-1, 6:8] * tau[:, None] ** 2
            )
            end_v = s[:-1, 4:6] + s[:-1, 6:8] * tau[:, None]
            assert np.allclose(s[1:, 0], s[:-1, 1], atol=1e-6)
            assert np.abs(end_xy - s[1:, 2:4]).max(initial=0.0) < TOL_MM, (shot.name, ball)
            jumps = s[1:, 0][np.hypot(*(end_v - s[1:, 4:6]).T) > 1.0]
            contacts = [e.t_s for e in shot.events if _involves(e, ball)]
            for t in jumps:
                assert any(abs(t - c) < 1e-6 for c in contacts), (shot.name, ball, t)


def _involves(e: object, ball: object) -> bool:
    if isinstance(e, BallContact):
        return ball in e.balls
    return isinstance(e, CushionContact) and e.ball == ball


def test_contacts_happen_where_the_positions_say() -> None:
    data = _set()
    r = data.table.radius_mm
    for shot in data.shots:
        m = shot.motion
        for e in shot.events:
            if isinstance(e, BallContact):
                a, b = (np.array(m.position_mm(x, e.t_s)) for x in e.balls)
                assert abs(float(np.hypot(*(a - b))) - 2 * r) < TOL_MM, (shot.name, e)
            else:
                assert isinstance(e, CushionContact)
                d = _cushion_distance_mm(m.position_mm(e.ball, e.t_s), e.cushion, data)
                assert abs(d - r) < TOL_MM, (shot.name, e)


def test_balls_stay_on_the_table_and_apart_and_end_at_rest() -> None:
    data = _set()
    t, r = data.table, data.table.radius_mm
    for shot in data.shots:
        m = shot.motion
        times = np.arange(0.0, m.duration_s + 0.5, 0.002)
        xy = m.positions_mm(times)
        for ball, p in xy.items():
            assert p[:, 0].min() > r - TOL_MM and p[:, 0].max() < t.length_mm - r + TOL_MM
            assert p[:, 1].min() > r - TOL_MM and p[:, 1].max() < t.width_mm - r + TOL_MM
            assert m.velocity_mmps(ball, m.duration_s + 0.1) == (0.0, 0.0)
        balls = list(xy)
        for i, a in enumerate(balls):
            for b in balls[i + 1 :]:
                gap = np.hypot(*(xy[a] - xy[b]).T).min() - 2 * r
                assert gap > -TOL_MM, (shot.name, a, b, gap)


def test_situations_agree_with_the_motion() -> None:
    data = _set()
    r = data.table.radius_mm
    for shot in data.shots:
        m = shot.motion
        for s in shot.situations:
            if s["tag"] == "near_miss":
                a, b = (np.array(m.position_mm(x, s["t_s"])) for x in s["balls"])
                gap = float(np.hypot(*(a - b))) - 2 * r
                assert 0.0 < gap <= 20.0 + 0.01 and abs(gap - s["gap_mm"]) < 0.05, (shot.name, s)
            elif s["tag"] == "cushions_close":
                hits = [e for e in shot.events if isinstance(e, CushionContact)
                        and abs(e.t_s - s["t_s"]) <= 0.005 + 1e-6]  # fmt: skip
                assert len({e.ball for e in hits}) >= 2, (shot.name, s)
            elif s["tag"] == "thin_kiss":
                assert any(isinstance(e, BallContact) and abs(e.t_s - s["t_s"]) < 1e-6
                           for e in shot.events), (shot.name, s)  # fmt: skip


def test_the_referee_counts_the_points_the_generator_counted() -> None:
    for shot in _set().shots:
        log = parse_shot_log(IndependentReplay(shot).shot_log())
        match = Match(log.match)
        record = match.play(log.shots[0])
        assert (record.verdict.points > 0) == shot.point, (shot.name, record.verdict)


def test_the_replay_puts_the_shot_after_the_lead() -> None:
    shot = _set().shots[0]
    replay = IndependentReplay(shot, lead_s=1.5, rest_s=1.0)
    assert replay.duration_s == pytest.approx(shot.motion.duration_s + 2.5)
    early = replay.positions_mm(np.array([0.0, 1.5]))
    for ball, p in early.items():
        assert np.allclose(p, shot.motion.position_mm(ball, 0.0))
    assert [e.t_s - 1.5 for e in replay.events] == pytest.approx([e.t_s for e in shot.events])
    assert replay.strokes[0].t_s == 1.5 and replay.strokes[0].ball == shot.cue_ball


def test_segments_with_a_gap_in_time_are_refused() -> None:
    from referee import Ball

    seg = np.array([[0.0, 1.0, 100, 100, 0, 0, 0, 0], [1.5, 2.0, 100, 100, 0, 0, 0, 0]], float)
    with pytest.raises(SimulationError, match="contiguous"):
        SegmentMotion({Ball.WHITE: seg})
