"""Ctrl-C and SIGTERM stop ``carom live`` at once, judging nothing from half a shot."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from tests.carom.live._helpers import live_cmd, write_truth_calibration


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_mid_shot_stops_with_130_and_the_shot_under_way_unjudged(
    sig: signal.Signals, tmp_path: Path
) -> None:
    calibration = write_truth_calibration(tmp_path / "calibration.json")
    db = tmp_path / "live.db"
    cmd = live_cmd(calibration, db, None, "--pace", "1", "--status-every", "0.5")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stderr is not None
    try:
        for line in proc.stderr:  # the first status line: the replay is under way
            if "fps" in line:
                break
        time.sleep(2.0)  # the first stroke (1.5 s to 13.9 s of video) is rolling
        sent = time.monotonic()
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=20)
        stopped_s = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
    assert proc.returncode == 130, err
    assert err.strip().endswith("carom: interrupted") and "Traceback" not in err, err
    # What is kept and how to go on (it said only "interrupted"; found by a review)
    assert ("carom live: stopped: match 1 is kept at A 0 : 0 B, A at the table; the same "
            "command resumes it (carom matches lists the matches)") in err, err  # fmt: skip
    assert stopped_s < 10.0  # at the next frame, not after the shot or a review
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM shots").fetchone()[0] == 0  # none judged
