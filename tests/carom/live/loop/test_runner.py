"""The live loop in-process: a source that stalls mid-shot, a review that blocks scoring.

Real frames of the sample clip, real threads (capture, link, keyboard queue), a real pty
board and a real SQLite file. The source is the sample file read by a generator that
stops delivering for 1 s in the middle of the first shot, as a camera that hangs.
"""

from __future__ import annotations

import os
import queue
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from carom.live.loop._capture import Capture, CaptureSettings, file_frames
from carom.live.loop._metrics import BoardSink
from carom.live.loop._runner import CAMERA_LOST, read_keyboard
from hardware import ScoreboardEmulator, ScoreboardLink
from tests.carom.live._helpers import SAMPLE
from tests.carom.live.loop._sample_runner import start_runner
from vision import Frame

START_S, STALL_AT_S, STALL_S, END_S = 12.0, 22.0, 1.0, 29.0


def _stalling(start_s: float) -> Iterator[Frame]:
    """The sample up to ``END_S``, silent for ``STALL_S`` at ``STALL_AT_S`` (once)."""
    stalled = False
    for frame in file_frames(SAMPLE, start_s):
        if frame.t_s >= END_S:
            return
        if frame.t_s >= STALL_AT_S and not stalled:
            stalled = True
            time.sleep(STALL_S)
        yield frame


def _shot_rows(db: Path) -> int:
    with sqlite3.connect(db) as con:
        return int(con.execute("SELECT count(*) FROM shots").fetchone()[0])


@pytest.fixture
def board(tmp_path: Path) -> Iterator[ScoreboardEmulator]:
    emu = ScoreboardEmulator.open_pty(link=tmp_path / "board")
    yield emu
    emu.stop()


def test_a_stall_mid_shot_holds_it_for_review_until_a_person_decides(
    tmp_path: Path, board: ScoreboardEmulator
) -> None:
    settings = CaptureSettings(pace=0, stall_s=0.3, start_s=START_S)  # shot 0 is rolling
    capture = Capture(str(SAMPLE), settings, opener=_stalling)
    link = ScoreboardLink(str(tmp_path / "board")).start()
    live = start_runner(tmp_path, capture, BoardSink(link))
    session, runner, thread, out = live.session, live.runner, live.thread, live.out
    try:
        seen_lost = board.wait_for(lambda e: any(CAMERA_LOST in m.text for m in e.events), 30)
        assert seen_lost, board.render()
        assert board.wait_for(lambda e: e.snapshot is not None and e.snapshot.review, 5)
        # The stalled shot is held; nothing is scored while it waits, the match goes on.
        deadline = time.monotonic() + 30
        while not capture.finished and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session.pending is not None and "camera was lost" in session.pending.reason, (
            out.getvalue()
        )
        assert board.snapshot is not None and board.snapshot.scores == (0, 0)
        assert _shot_rows(tmp_path / "live.db") == 1  # only the held shot is written
        assert (
            "began unseen: not scored" in out.getvalue()
        )  # shot 0's end, begun before the first frame
        runner.lines.put("accept\n")  # the referee saw it too: A missed, as the truth says
        runner.lines.put(None)  # end of the keyboard
        thread.join(20)
        assert not thread.is_alive()
        assert board.wait_for(lambda e: e.snapshot is not None and not e.snapshot.review, 5)
        assert board.snapshot is not None and board.snapshot.scores == (0, 0)
        assert board.snapshot.active == 1 and len(session.records) == 1  # B's turn now
        assert any(e.text == "scoring again" for e in board.events)
    finally:
        live.stop()
        capture.stop()
        link.stop()


def test_keyboard_lines_come_from_a_real_pipe_in_order_then_the_end() -> None:
    read_fd, write_fd = os.pipe()
    lines: queue.Queue[str | None] = queue.Queue()
    with os.fdopen(read_fd, encoding="utf-8") as stream:
        thread = read_keyboard(stream, lines)
        with os.fdopen(write_fd, "w", encoding="utf-8") as typed:
            typed.write("foul touched_ball\naccept\n")
        thread.join(5)
    assert [lines.get(timeout=1) for _ in range(3)] == ["foul touched_ball\n", "accept\n", None]
