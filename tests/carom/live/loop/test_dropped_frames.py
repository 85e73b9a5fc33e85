"""Frames dropped at a decisive moment: the live referee holds the shot, never calls it blind.

A machine too busy to read every frame (a request flood, a browser, another job) drops
some, as a camera's driver does. Here the capture loses the sample's frames from 2.23 s
to 2.50 s of its first shot: the cue ball (white) touches its first cushion at 2.36 s,
unseen. Without that cushion the shot is "2 cushions before the second ball"; with it,
the point the truth says. The ball went towards the cushion before the gap and came
away after it, so vision guesses the contact with a doubt, and the call hanging on it
is held for review: nothing is scored until a person decides, and accepting it gives
the truth's score. Real frames, real threads, a real SQLite file; no wall clock.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from carom.live.loop._capture import Capture, CaptureSettings, file_frames
from carom.live.loop._metrics import BoardSink
from tests.carom.live._helpers import SAMPLE
from tests.carom.live.loop._sample_runner import start_runner
from tests.carom.web.test_camera import END_S, truth_after_first_shot
from vision import Frame

LOST_S = (2.23, 2.50)  # white's first cushion (right) is at 2.36 s


def _dropping(start_s: float) -> Iterator[Frame]:
    """The sample's first shot, without the frames an overloaded capture lost."""
    for frame in file_frames(SAMPLE, start_s):
        if frame.t_s >= END_S:
            return
        if not LOST_S[0] <= frame.t_s < LOST_S[1]:
            yield frame


def test_a_cushion_in_dropped_frames_holds_the_shot_for_review(tmp_path: Path) -> None:
    capture = Capture(str(SAMPLE), CaptureSettings(pace=0), opener=_dropping)
    live = start_runner(tmp_path, capture, BoardSink(None))
    session, runner, thread = live.session, live.runner, live.thread
    try:
        deadline = time.monotonic() + 60
        while not capture.finished and time.monotonic() < deadline:
            time.sleep(0.05)
        deadline = time.monotonic() + 10
        while session.pending is None and time.monotonic() < deadline:
            time.sleep(0.05)
        pending = session.pending
        assert pending is not None, live.out.getvalue()
        assert "guessed" in pending.reason and "right cushion" in pending.reason, pending.reason
        assert [session.state.board(p) for p in ("A", "B")] == [0, 0]  # nothing scored yet
        runner.lines.put("accept\n")  # the referee saw the cushion
        runner.lines.put(None)
        thread.join(20)
        assert not thread.is_alive()
        truth = truth_after_first_shot()
        assert [session.state.board(p) for p in ("A", "B")] == [truth.board(p) for p in "AB"]
    finally:
        live.stop()
        capture.stop()
