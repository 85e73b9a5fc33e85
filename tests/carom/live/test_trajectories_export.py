"""A live match keeps each shot's trajectories in its journal and exports them.

The first stroke of the bundled ``three_cushion_match`` clip is tracked as live mode
would, with frames dropped as a capture that falls behind drops them; the shot goes
through a ``LiveSession`` and ``carom export --trajectories --trajectories-csv`` writes
its trajectories: every frame of the shot, the dropped ones interpolated, measured
positions on the truth, the same samples ``carom analyze``'s code path builds. Foul
calls, undo, reviews and a reopened database keep each shot's own tracks; a journal
from before tracks were kept exports the shots it has and says so.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import sqlite3
import statistics
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from carom.cli import main
from carom.live import (
    DecisionKind,
    FoulCall,
    LiveError,
    LiveSession,
    MatchStore,
    ReviewDecision,
    UndoCall,
    shot_log,
    trajectories,
)
from carom.live._codec import decode_tracks, encode_tracks
from carom.pipeline import VisionPipeline
from carom.trajectories import ShotTrack, parse_trajectories, shot_track, trajectories_text
from referee import Ball, Foul
from tests.carom.live.shotpool import NOW, example_inputs, example_setup
from tests.carom.trajectories.strategies import shot_tracks
from tests.carom.trajectories.test_files import VALIDATOR, csv_of_json
from tests.sample_truth import SAMPLES, sample_truth
from vision import AnalyzedShot, BallTrack, analyze_frames, open_source

NAME = "three_cushion_match"
ACCEPT = ReviewDecision(DecisionKind.ACCEPT)


def _dropped(frame_idx: int) -> bool:
    """Frames a capture that falls behind drops during the first stroke (1.5 s to 14 s)."""
    return 100 <= frame_idx <= 400 and frame_idx % 11 == 5


@pytest.fixture(scope="module")
def first_stroke() -> tuple[AnalyzedShot, dict[str, Any]]:
    """The clip's first stroke as live mode's analyser sees it, frames dropped; the truth."""
    truth, calibration = sample_truth(NAME)
    source = open_source(str(SAMPLES / f"{NAME}.mp4"))
    try:
        frames = [f for f in itertools.islice(source, 470) if not _dropped(f.frame_idx)]
    finally:
        source.close()
    pipeline = VisionPipeline.for_match(example_setup().config, "color")
    analyzer = pipeline.build(calibration, frames[30], frames[30], source.fps)
    shots = list(analyze_frames(frames, analyzer))
    assert len(shots) == 1 and not shots[0].lag
    return shots[0], truth


def test_the_export_holds_every_frame_of_the_shot_on_the_truth(
    first_stroke: tuple[AnalyzedShot, dict[str, Any]], tmp_path: Path
) -> None:
    analyzed, truth = first_stroke
    db = tmp_path / "live.db"
    with MatchStore(db) as store:
        session = LiveSession.open(store, example_setup(), now_iso=NOW)
        if session.submit(analyzed, video_t_s=14.0, now_iso=NOW).pending is not None:
            session.decide(ACCEPT, who="ref", now_iso=NOW)
        match_id = session.match_id
    out = {k: tmp_path / f"m.{k}" for k in ("json", "tjson", "tcsv")}
    assert main(["export", str(db), "--match", str(match_id), "--json", str(out["json"]),
                 "--trajectories", str(out["tjson"]),
                 "--trajectories-csv", str(out["tcsv"])]) == 0  # fmt: skip
    log, doc = (json.loads(out[k].read_text()) for k in ("json", "tjson"))
    VALIDATOR.validate(doc)
    with out["tcsv"].open(newline="") as f:
        assert list(csv.DictReader(f)) == csv_of_json(doc)
    (mine,), (logged,) = doc["shots"], log["shots"]
    assert [mine[k] for k in ("index", "cue_ball", "start_s", "end_s")] == [
        logged[k] for k in ("index", "cue_ball", "start_s", "end_s")
    ]
    # one code path: what carom analyze builds from the same analysed shot
    built = shot_track(0, replace(analyzed, shot=replace(analyzed.shot, index=0)))
    assert parse_trajectories(doc).shots[0] == built
    frames = {f["frame_idx"]: f for f in truth["frames"]}
    want = [i for i, f in frames.items()
            if logged["start_s"] - 1e-4 <= f["t_s"] <= logged["end_s"] + 1e-4]  # fmt: skip
    assert mine["frame_idx"] == want  # the dropped frames are back
    gaps: dict[int, list[float]] = {0: [], 4: []}
    for ball, path in mine["balls"].items():
        for k, frame in enumerate(mine["frame_idx"]):
            flags = path["flags"][k]
            assert (flags == 4) == _dropped(frame)
            assert math.isclose(mine["t_s"][k], frames[frame]["t_s"], abs_tol=2e-6)
            if flags in gaps:
                xy = (path["x_mm"][k], path["y_mm"][k])
                gaps[flags].append(math.dist(xy, frames[frame]["balls"][ball]["xy_mm"]))
    assert statistics.median(gaps[0]) < 1.0  # measured: 0.31 mm on this clip
    assert len(gaps[4]) == 3 * sum(map(_dropped, want)) > 60  # 27 frames dropped
    assert statistics.median(gaps[4]) < 2.0 and max(gaps[4]) < 10.0  # 0.28 and 1.7 mm


def _tracked(shot: AnalyzedShot, offset_mm: float) -> AnalyzedShot:
    """The shot with made-up 30 fps tracks over its span; ``offset_mm`` tells shots apart."""
    s = shot.shot
    assert s.start_s is not None and s.end_s is not None
    frames = np.arange(round(s.start_s * 30) - 3, round(s.end_s * 30) + 3)
    t = frames / 30.0
    tracks = {}
    for k, ball in enumerate((Ball.WHITE, Ball.YELLOW, Ball.RED)):
        xy = np.stack([100.0 + offset_mm + 10.0 * t, np.full(len(t), 300.0 + 400 * k)], axis=1)
        seen = frames % 13 != k  # now and then a ball unseen
        tracks[ball] = BallTrack(t, xy, seen, frames)
    return replace(shot, tracks=tracks)


def test_calls_reviews_undo_and_reopening_keep_each_shots_tracks(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    inputs = example_inputs()
    with MatchStore(db) as store:
        session = LiveSession.open(store, example_setup(), now_iso=NOW)
        submitted = {}
        for i, shot in enumerate(inputs):
            analysed = _tracked(shot, 1000.0 * i) if i else shot  # the lag: no tracks
            submitted[analysed.shot.start_s] = analysed
            update = session.submit(analysed, video_t_s=float(i), now_iso=NOW)
            if i == 3:  # a foul called, undone, another called: the shot keeps its tracks
                for call in (FoulCall(Foul.TOUCH), UndoCall(), FoulCall(Foul.MISCUE)):
                    session.call(call, who="ref", now_iso=NOW)
            if update.pending is not None:
                session.decide(ACCEPT, who="ref", now_iso=NOW)
        exported = trajectories(session)
        assert session.sink_errors == []
        match_id = session.match_id
    log = shot_log(session)
    assert [s.index for s in exported.shots] == [s["index"] for s in log["shots"]]
    assert len(exported.shots) == 14
    for track, logged in zip(exported.shots, log["shots"], strict=True):
        assert (track.start_s, track.end_s, str(track.cue_ball)) == (
            logged["start_s"], logged["end_s"], logged["cue_ball"])  # fmt: skip
        own = shot_track(track.index, submitted[track.start_s])
        assert track == own and len(track) > 200
    with MatchStore(db, create=False) as store:
        assert trajectories(LiveSession.load(store, match_id)) == exported


def test_a_journal_without_kept_tracks_exports_the_shots_it_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "live.db"
    inputs = example_inputs()
    with MatchStore(db) as store:
        session = LiveSession.open(store, example_setup(), now_iso=NOW)
        for i, shot in enumerate(inputs[:4]):
            session.submit(_tracked(shot, 0.0) if i else shot, video_t_s=float(i), now_iso=NOW)
        match_id = session.match_id
    raw = sqlite3.connect(db)  # a file from before the tracks table
    raw.execute("DROP TABLE tracks")
    raw.commit()
    raw.close()
    out = tmp_path / "t.json"
    argv = ["export", str(db), "--match", str(match_id), "--trajectories", str(out)]
    assert main(argv) == 0
    assert json.loads(out.read_text())["shots"] == []
    assert "3 of 3 shots have no kept trajectories" in capsys.readouterr().err
    with MatchStore(db) as store:  # the next shot creates the table again
        session = LiveSession.open(store, example_setup(), now_iso=NOW)
        session.submit(_tracked(inputs[4], 0.0), video_t_s=4.0, now_iso=NOW)
        assert [t.index for t in trajectories(session).shots] == [3]


def test_a_failed_tracks_write_never_undoes_the_shot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with MatchStore(tmp_path / "live.db") as store:
        session = LiveSession.open(store, example_setup(), now_iso=NOW)

        def full_disk(*_: object) -> None:
            raise LiveError("cannot write (database or disk is full)")

        monkeypatch.setattr(store, "put_tracks", full_disk)
        inputs = example_inputs()
        session.submit(inputs[0], video_t_s=0.0, now_iso=NOW)
        update = session.submit(_tracked(inputs[1], 0.0), video_t_s=1.0, now_iso=NOW)
        assert update.record is not None and len(session.records) == 1
        assert session.sink_errors == [
            "trajectories of journal entry 2: cannot write (database or disk is full)"
        ]
        assert trajectories(session).shots == ()


@settings(max_examples=200, deadline=None)
@given(shot_tracks())
def test_the_journals_blob_gives_back_the_trajectories(track: ShotTrack) -> None:
    assert decode_tracks(encode_tracks(track)) == track


def test_the_web_history_serves_them(tmp_path: Path) -> None:
    from tests.carom.web._web import client

    inputs = example_inputs()
    with MatchStore(tmp_path / "web.db") as store:  # the database the test app opens
        session = LiveSession.open(store, example_setup(), now_iso=NOW)
        for i, shot in enumerate(inputs[:3]):
            session.submit(_tracked(shot, 0.0) if i else shot, video_t_s=float(i), now_iso=NOW)
        want = trajectories(session)
        match_id = session.match_id
    with client(tmp_path) as c:
        served = c.get(f"/api/matches/{match_id}/trajectories.json").text
        doc = json.loads(served)
        text = c.get(f"/api/matches/{match_id}/trajectories.csv").text
        assert c.get("/api/matches/77/trajectories.json").status_code == 404
    assert parse_trajectories(doc) == want and len(want.shots) == 2
    assert served == trajectories_text(want)  # one shot a line, as carom export writes it
    assert list(csv.DictReader(text.splitlines())) == csv_of_json(doc)
