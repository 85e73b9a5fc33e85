"""``carom live`` fed by a network camera at real-time pace that misbehaves in play.

The sample clip's first two shots (A scores, then A misses) are served by a local
MJPEG-over-HTTP camera (:mod:`tests.network_camera`, real JPEG parts at real-time
pace, read by OpenCV's FFmpeg in the ``carom live`` process). The camera is not up for
the first 3 s and two requests (it answers 503), stalls silently for 2.5 s between the
shots, drops its connection and refuses for 3 s and two requests after the second,
shows the still table for 2 s to the reader back, and then goes away for good. The
match must hold exactly the truth's two verdicts, and what was said must tell the
user what happened each time.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from carom.live import LiveSession, MatchStore
from referee import Match, parse_shot_log
from tests.carom.live._helpers import SAMPLE, TRUTH_LOG, carom_cmd, write_truth_calibration
from tests.network_camera import Step, network_camera

#: The faults fall where the table is still: before the first stroke (1.5 s), between
#: the shots (13.9-16.1 s) and after the second (27.6-29.8 s). Each is framed by a still
#: table held longer (the shot before is closed first; the loop learns the table again
#: after), so the strokes are seen whole and a busy machine cannot blur the test.
STEPS = (
    Step(0.0, "hold", 2.0),
    Step(14.0, "hold", 2.0),
    Step(14.0, "stall", 2.5),
    Step(14.0, "hold", 1.5),
    Step(28.0, "hold", 2.0),
    Step(28.0, "off", 3.0),
    Step(28.0, "hold", 2.0, after_off=True),
    Step(28.1, "end"),
)


def _shot_count(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as con:
        try:
            return int(con.execute("SELECT count(*) FROM shots").fetchone()[0])
        except sqlite3.OperationalError:  # the schema is not written yet
            return 0


def _truth_after(n_shots: int) -> tuple[tuple[int, int], ...]:
    log = parse_shot_log(json.loads(TRUTH_LOG.read_text(encoding="utf-8")))
    match = Match(log.match)
    for shot in log.shots[:n_shots]:
        match.play(shot)
    s = match.state
    return tuple((s.board(p), s.scores[p].innings) for p in s.config.players)


def test_a_network_camera_that_starts_late_stalls_and_drops_loses_no_shot(
    tmp_path: Path,
) -> None:
    calibration = write_truth_calibration(tmp_path / "calibration.json")
    db = tmp_path / "live.db"
    with network_camera(SAMPLE, STEPS, off_s=3.0) as camera:
        url = camera.url
        cmd = [*carom_cmd(), "--log-file", str(tmp_path / "carom.log"), "live", "--camera", url,
               "--calibration", str(calibration), "--players", "A", "B", "--first", "A",
               "--db", str(db)]  # fmt: skip
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)  # fmt: skip
        try:
            assert camera.ended.wait(120), "the camera never reached its end"
            end = time.monotonic() + 20
            while _shot_count(db) < 2 and proc.poll() is None and time.monotonic() < end:
                time.sleep(0.1)
            time.sleep(1.0)  # the camera is gone for good: nothing more may come
            proc.send_signal(signal.SIGINT)
            _out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate(timeout=10)
    assert "Traceback" not in err, err
    port = url.split(":")[2].split("/")[0]
    assert f"camera {url} has not opened: cannot open it; tried FFmpeg: " in err, err
    assert f"127.0.0.1:{port} answers but gave no video" in err, err  # 503 while it started
    assert err.count("camera lost (") >= 2 and err.count("camera back after") >= 2, err
    log = (tmp_path / "carom.log").read_text(encoding="utf-8")  # what was said, with times
    assert log.count("INFO carom.live: camera back after") == err.count("camera back after")
    store = MatchStore(db, create=False)
    try:
        (row,) = store.matches()
        session = LiveSession.load(store, row.id)
    finally:
        store.close()
    got = tuple((session.state.board(p), session.state.scores[p].innings) for p in ("A", "B"))
    pending = session.pending.reason if session.pending is not None else None
    assert len(session.records) == 2 and pending is None, f"review: {pending}\n{err}"
    assert got == _truth_after(2), err
    assert [r.verdict.points for r in session.records] == [1, 0]
