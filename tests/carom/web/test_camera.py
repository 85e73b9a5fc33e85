"""The camera pipeline behind the web server: the sample video refereed to the truth."""

from __future__ import annotations

import json
import time
from pathlib import Path

import av
import httpx2
import pytest

from carom.web import serve_in_thread
from referee import Match, MatchState, parse_shot_log
from tests.carom.live._helpers import SAMPLE, TRUTH_LOG, write_truth_calibration
from tests.carom.web._web import AUTH, SseClient, make_app

END_S = 15.5  # the sample's first shot ends at 13.9 s, the second starts at 16.1 s


def first_seconds(path: Path, end_s: float = END_S) -> Path:
    """The sample's first ``end_s`` seconds, copied packet by packet (no re-encoding)."""
    with av.open(str(SAMPLE)) as src, av.open(str(path), "w") as dst:
        video = src.streams.video[0]
        out = dst.add_stream_from_template(video)
        for packet in src.demux(video):
            if packet.dts is None:
                continue
            if packet.pts is not None and packet.pts * video.time_base > end_s:
                break
            packet.stream = out
            dst.mux(packet)
    return path


def truth_after_first_shot() -> MatchState:
    log = parse_shot_log(json.loads(TRUTH_LOG.read_text(encoding="utf-8")))
    match = Match(log.match)
    match.play(log.shots[0])
    return match.state


def _wait(url: str, done: object, timeout_s: float = 90.0) -> dict[str, object]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state: dict[str, object] = httpx2.get(url + "/api/state", timeout=10).json()
        if callable(done) and done(state):
            return state
        time.sleep(0.1)
    raise AssertionError(f"timed out; last state {state}")


def test_a_match_created_on_the_console_is_refereed_from_the_video(tmp_path: Path) -> None:
    calibration = write_truth_calibration(tmp_path / "calibration.json")
    clip = first_seconds(tmp_path / "clip.mp4")
    app = make_app(tmp_path, camera=str(clip), calibration=calibration, pace=0.0)
    srv = serve_in_thread(app)
    sse = SseClient(srv.url, timeout_s=60)
    try:
        assert httpx2.get(srv.url + "/api/health").json()["camera"] == "ok"
        sse.next()
        r = httpx2.post(srv.url + "/api/matches", json={"players": ["A", "B"], "first_player": "A"},
                        headers=AUTH, timeout=30)  # fmt: skip
        assert r.status_code == 201, r.text
        # a person's call while the pipeline runs goes through the runner's loop
        r = httpx2.post(srv.url + "/api/calls", json={"kind": "timeout", "player": "A"},
                        headers=AUTH, timeout=30)  # fmt: skip
        assert r.status_code == 200, r.text
        assert r.json()["match"]["players"][0]["timeouts"] == 1
        final = _wait(srv.url, lambda s: s["camera"] == "ended")
        truth = truth_after_first_shot()
        match = final["match"]
        assert isinstance(match, dict)
        assert [p["board"] for p in match["players"]] == [truth.board(p) for p in ("A", "B")]
        assert [p["innings"] for p in match["players"]] == [
            truth.scores[p].innings for p in ("A", "B")
        ]
        seen = []
        while not seen or seen[-1][1]["camera"] != "ended":
            seen.append(sse.next())
        shots = [doc["last_shot"]["n"] for _, doc in seen if doc["last_shot"] is not None]
        assert shots[-1] == 0  # the verdict reached the overlay
        r = httpx2.post(srv.url + "/api/calls", json={"kind": "undo"}, headers=AUTH, timeout=30)
        assert r.status_code == 200  # the video ended: calls are taken directly
        assert r.json()["last_shot"] is None
    finally:
        sse.close()
        srv.stop()


def test_a_camera_without_a_calibration_is_refused(tmp_path: Path) -> None:
    from referee import CaromError

    with pytest.raises(CaromError, match="calibration"):
        make_app(tmp_path, camera=str(SAMPLE))


def test_the_console_option_foul_makes_the_camera_s_late_stroke_a_foul(tmp_path: Path) -> None:
    """shot_clock_expiry "foul" from the console: in a match under way (joined at 0 : 0,
    A at the table) the runner's clock (video time) runs out 1 s after the first frame, A
    strikes at 1.5 s: the point is a foul, B's inning. (Before a match's opening stroke
    no clock runs.)"""
    calibration = write_truth_calibration(tmp_path / "calibration.json")
    clip = first_seconds(tmp_path / "clip.mp4")
    app = make_app(tmp_path, camera=str(clip), calibration=calibration, pace=0.0)
    srv = serve_in_thread(app)
    try:
        under_way = {"board": {"A": 0, "B": 0}, "innings": {"A": 1, "B": 0}, "shooter": "A"}
        body = {"players": ["A", "B"], "start": under_way,
                "clock": {"length_s": 1, "expiry": "foul"}}  # fmt: skip
        r = httpx2.post(srv.url + "/api/matches", json=body, headers=AUTH, timeout=30)
        assert r.status_code == 201, r.text
        assert r.json()["match"]["shot_clock"]["expiry"] == "foul"
        final = _wait(srv.url, lambda s: s["camera"] == "ended")
        shot, match = final["last_shot"], final["match"]
        assert isinstance(shot, dict) and isinstance(match, dict)
        assert (shot["n"], shot["shooter"], shot["fouls"]) == (0, "A", ["shot_clock"])
        assert [p["board"] for p in match["players"]] == [0, 0]  # the truth: A 1
        assert match["shooter"] == "B"
    finally:
        srv.stop()


def test_a_calibration_the_video_refuses_stops_the_pipeline_with_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The camera's calibration is checked when a match starts: one that does not fit
    stops the pipeline, and the health says "error" (it said "ended", as a video's end),
    the state's ``what`` why: the camera's own calibration and the way to fit it again.
    The server's own lines (and so ``--log-file``) say it too: they said nothing."""
    from dataclasses import replace

    from calibration import Calibration, Distortion, load_calibration, save_calibration

    truth = load_calibration(write_truth_calibration(tmp_path / "truth.json"))
    wrong = tmp_path / "wrong.json"
    save_calibration(wrong, Calibration(truth.geometry, replace(truth.camera,
                     distortion=Distortion(k1=0.5)), truth.created))  # fmt: skip
    clip = first_seconds(tmp_path / "clip.mp4", end_s=3.0)
    srv = serve_in_thread(make_app(tmp_path, camera=str(clip), calibration=wrong, pace=0.0))
    try:
        r = httpx2.post(srv.url + "/api/matches", json={"players": ["A", "B"], "first_player": "A"},
                        headers=AUTH, timeout=30)  # fmt: skip
        assert r.status_code == 201, r.text
        state = _wait(srv.url, lambda s: s["camera"] != "ok")
        assert state["camera"] == "error", state
        assert httpx2.get(srv.url + "/api/health").json()["camera"] == "error"
        what = str(state["what"])
        assert f"the camera's calibration {wrong}: does not fit this video" in what, what
        assert "fit it again in the wizard (/wizard), which saves it there" in what, what
        (line,) = [x for x in capsys.readouterr().err.splitlines() if "pipeline stopped" in x]
        assert line.startswith(f"carom serve: camera pipeline stopped: the camera's calibration "
                               f"{wrong}: does not fit this video")  # fmt: skip
        assert line.endswith("close the match and start it again in the console, which "
                             "resumes it")  # fmt: skip
    finally:
        srv.stop()


def test_a_match_closed_mid_shot_leaves_the_shot_unjudged_not_held_as_the_video_s_end(
    tmp_path: Path,
) -> None:
    """The console's close mid-shot held the shot for review as "the video ended before
    every ball stopped" and the server said to decide it at a keyboard it does not
    have. Closed as Ctrl-C stops ``carom live``: nothing judged from half its frames."""
    import sqlite3

    calibration = write_truth_calibration(tmp_path / "calibration.json")
    clip = first_seconds(tmp_path / "clip.mp4")
    app = make_app(tmp_path, camera=str(clip), calibration=calibration, pace=1.0)
    srv = serve_in_thread(app)
    try:
        r = httpx2.post(srv.url + "/api/matches", json={"players": ["A", "B"], "first_player": "A"},
                        headers=AUTH, timeout=30)  # fmt: skip
        assert r.status_code == 201, r.text
        time.sleep(6.0)  # the first shot rolls from 1.5 s to 13.9 s of the video
        r = httpx2.post(srv.url + "/api/matches/close", headers=AUTH, timeout=30)
        assert r.status_code == 200, r.text
        state = httpx2.get(srv.url + "/api/state", timeout=10).json()
        assert state["match"] is None, state
    finally:
        srv.stop()
    db = sqlite3.connect(tmp_path / "web.db")
    try:
        dump = "\n".join(db.iterdump())
    finally:
        db.close()
    assert "video_ended" not in dump and "the video ended" not in dump


def test_carom_live_s_video_that_ended_is_ended_while_a_review_still_waits() -> None:
    """``carom live --serve``: the video ended with a shot held for review (the loop waits
    for the console) and /api/health said the camera was "ok" (found by a review as a
    club operator)."""
    from dataclasses import dataclass

    from carom.live.loop._capture import CaptureState
    from carom.web._live_serve import AttachedRig

    @dataclass
    class _Status:
        state: CaptureState

    class _Capture:
        def __init__(self, state: CaptureState) -> None:
            self.state = state

        def status(self) -> _Status:
            return _Status(self.state)

    rig = AttachedRig(str(SAMPLE))
    rig.active = True
    for state, said in ((CaptureState.ENDED, "ended"), (CaptureState.LOST, "lost")):
        rig.capture = _Capture(state)  # type: ignore[assignment]
        assert rig.status() == said
