"""Live mode's verdict waits for the balls to stop, on real rendered pixels.

Two replays through the whole live loop (capture, analyser, SQLite session, a pty
board), lossless (``pace=0``), with ``carom live``'s segmenter settings:

* the three-cushion sample: the verdicts equal the truth's, each one taken on a frame
  where the balls have really stopped (within 0.15 s before the truth file's stop,
  never a ball still 1 mm from its place) and after the segmenter closed the shot;
* a rendered slow roll (a cloth of low rolling resistance, ``u_r`` 0.002): the white
  creeps below the segmenter's threshold and touches the red about a quarter of a
  second after the shot closed. The closed shot does not hold that contact; the
  verdict goes to a person's review saying so, instead of a silent miss (before the
  verdict waited for the stop, the board showed the miss).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration import Calibration, TableGeometry, save_calibration
from carom.analyze import AnalyzeOptions, match_config
from carom.cli._live import LIVE_MOVE_MM, LIVE_REST_S, LIVE_WINDOW_S
from carom.live import LiveSession, LiveSetup, MatchStore
from carom.live.loop import BoardSink, Capture, CaptureSettings, LiveMetrics, LiveRunner
from carom.match import ShotClock
from carom.pipeline import CalibrationFile
from carom.timestamps import now_iso
from hardware import ScoreboardEmulator, ScoreboardLink
from referee import MATCH_TABLE, Ball, MatchConfig, parse_shot_log
from synth import CameraSettings, PhysicsParams, RenderSettings, Stroke, render_clip, simulate
from tests.carom.live._helpers import SAMPLE, write_truth_calibration
from vision import SegmentSettings

sys.path.insert(0, str(Path(__file__).parents[4] / "bench"))
from _true_stops import load_truth, remaining_mm, true_stops

LIVE = SegmentSettings(window_s=LIVE_WINDOW_S, move_mm=LIVE_MOVE_MM, rest_s=LIVE_REST_S)
W, R, Y = Ball.WHITE, Ball.RED, Ball.YELLOW


@dataclass
class Replay:
    """A finished lossless replay: the session's records, pending review, timings."""

    records: list[Any]
    pending: Any
    timings: list[Any]


def _replay(clip: Path, calibration: Path, config: MatchConfig, tmp: Path) -> Replay:
    emu = ScoreboardEmulator.open_pty(link=tmp / "board")
    link = ScoreboardLink(str(tmp / "board")).start()
    store = MatchStore(tmp / "live.db")
    try:
        session = LiveSession.open(store, LiveSetup(config, str(clip)), now_iso=now_iso())
        capture = Capture(str(clip), CaptureSettings(pace=0))
        metrics = LiveMetrics()
        board = BoardSink(link)
        runner = LiveRunner(session, capture.start(), config=config,
                            calibration_file=CalibrationFile(calibration),
                            board=board, clock=ShotClock(), metrics=metrics,
                            segment=LIVE)  # fmt: skip
        runner.lines.put(None)
        runner.run()
        capture.stop()
        board.close()  # the last verdict's bytes timed (the link writes in its own thread)
        return Replay(list(session.records), session.pending, list(metrics.log))
    finally:
        link.stop()
        emu.stop()
        store.close()


def test_the_sample_verdicts_wait_for_the_stop_and_equal_the_truth(tmp_path: Path) -> None:
    log = parse_shot_log(json.loads(SAMPLE.with_suffix(".shots.json").read_text()))
    truth = load_truth(SAMPLE)
    stops = true_stops(truth, [s.start_s for s in log.shots])
    calibration = write_truth_calibration(tmp_path / "c.json")
    got = _replay(SAMPLE, calibration, log.match, tmp_path)
    want = [(v["player"], v["points"], v["fouls"]) for v in truth["verdicts"]]
    assert [(r.player, r.verdict.points, [str(f) for f in r.verdict.fouls])
            for r in got.records] == want  # fmt: skip
    assert len(got.timings) == len(stops)
    for timing, stop in zip(got.timings, stops, strict=True):
        assert timing.held_s > 0.0, "the verdict waited for nothing"
        assert -0.15 <= timing.close_t_s - stop.t_s <= 0.2, (timing, stop)
        assert remaining_mm(truth, timing.close_t_s, stop.t_s + 0.5) < 1.0


class _Delayed:
    """A simulation shown from ``t0_s`` on (the balls wait at their places before)."""

    def __init__(self, sim: Any, t0_s: float) -> None:
        self.sim, self.t0_s = sim, t0_s

    def positions_mm(self, t_s: Any) -> Mapping[Ball, Any]:
        return dict(self.sim.positions_mm(np.maximum(np.asarray(t_s) - self.t0_s, 0.0)))


@pytest.fixture(scope="module")
def creep_clip(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """The white rolls slowly into the red: the contact comes in its last creep."""
    out = tmp_path_factory.mktemp("creep")
    params = PhysicsParams(u_r=0.002)
    stroke = Stroke(W, speed_mps=0.12, heading_deg=0.0, follow=0.4)
    free = simulate({W: (800.0, 700.0), R: (2400.0, 1200.0), Y: (2400.0, 300.0)}, stroke,
                    params=params)  # fmt: skip
    stop_x = float(free.positions_mm(np.array([free.duration_s]))[W][0, 0])
    layout = {W: (800.0, 700.0), R: (stop_x + 2 * 30.75 - 3.0, 700.0), Y: (2400.0, 300.0)}
    sim = simulate(layout, stroke, params=params)
    camera = CameraSettings().camera(MATCH_TABLE)
    clip = render_clip(_Delayed(sim, 1.5), camera, out / "creep.mp4",
                       duration_s=1.5 + sim.duration_s + 1.0,
                       settings=RenderSettings(fps=30.0, players=False, seed=3))  # fmt: skip
    save_calibration(out / "c.json", Calibration(TableGeometry(MATCH_TABLE), camera, "2026-12-02"))
    return clip.video_path, sim


def test_a_contact_in_the_last_creep_sends_the_shot_to_review(
    creep_clip: tuple[Path, Any], tmp_path: Path
) -> None:
    clip, sim = creep_clip
    (contact,) = sim.events
    assert contact.balls == (W, R)
    opts = AnalyzeOptions(video=clip, out=tmp_path, table=MATCH_TABLE, players=("A", "B"),
                          first_player="A")  # fmt: skip
    config = match_config(opts)
    got = _replay(clip, clip.parent / "c.json", config, tmp_path)
    assert got.records == []
    assert got.pending is not None, "a shot whose balls touched after it closed was scored"
    assert "came to touch (red-white)" in got.pending.reason
    review = got.pending.record.verdict.review_parts  # keyed: the pages translate it
    assert [p.field_map()["doubt"] for p in review] == ["still_rolling:gaps=red-white"], review
    kinds = [type(e).__name__ for e in got.pending.shot.events]
    assert "BallContact" not in kinds, "the contact came after the segmenter closed the shot"
