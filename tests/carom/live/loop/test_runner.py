"""The live loop in-process: a source that stalls mid-shot, a review that blocks scoring.

Real frames of the sample clip, real threads (capture, link, keyboard queue), a real pty
board and a real SQLite file. The source is the sample file read by a generator that
stops delivering for 1 s in the middle of the first shot, as a camera that hangs; or one
that goes silent just after a shot while the loop, busy, runs behind it.
"""

from __future__ import annotations

import os
import queue
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from carom.live.loop._capture import Capture, Captured, CaptureSettings, file_frames
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
        doubts = [p.field_map().get("doubt") for p in session.pending.record.verdict.review_parts]
        assert "camera_lost" in doubts, doubts  # keyed: the pages translate it
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


#: Shot 1 (A's miss) rolls from 16.1 s to 27.6 s; the camera goes silent at 28.4 s.
BUSY_START_S, BUSY_AT_S, BUSY_S, SILENT_AT_S = 14.0, 27.2, 1.5, 28.4


def _silent_after_shot(board: ScoreboardEmulator) -> Callable[[float], Iterator[Frame]]:
    """The sample from a time to ``SILENT_AT_S``, then silence until the board shows the
    loss (30 s at most: a loop however far behind catches up first), then its end."""

    def frames(start_s: float) -> Iterator[Frame]:
        for frame in file_frames(SAMPLE, start_s):
            if frame.t_s >= SILENT_AT_S:
                break
            yield frame
        board.wait_for(lambda e: any(CAMERA_LOST in m.text for m in e.events), 30)

    return frames


def test_a_loop_running_behind_judges_the_shot_seen_before_the_camera_went_silent(
    tmp_path: Path, board: ScoreboardEmulator
) -> None:
    """The loop is busy (1.5 s) as the shot ends; the camera goes silent meanwhile.

    The frames that came before the silence are queued: the shot they show whole is
    judged (nothing waits for review), and the loss is still said.
    """
    settings = CaptureSettings(pace=0, stall_s=0.3, start_s=BUSY_START_S, queue_max=256)
    capture = Capture(str(SAMPLE), settings, opener=_silent_after_shot(board))
    link = ScoreboardLink(str(tmp_path / "board")).start()
    live = start_runner(tmp_path, capture, BoardSink(link))
    busy = [False]

    def busy_once(item: Captured) -> None:
        if item.frame.t_s >= BUSY_AT_S and not busy[0]:
            busy[0] = True
            time.sleep(BUSY_S)  # the camera's last frames queue up, then it is silent

    live.runner.observe_frames(busy_once)
    try:
        live.thread.join(45)  # a shot held for review would wait for a decision
        assert not live.thread.is_alive()
        said = live.out.getvalue()
        assert busy[0] and "camera lost (no frame for a while)" in said, said
        assert live.session.pending is None, said
        assert [(r.player, r.verdict.points) for r in live.session.records] == [("A", 0)], said
        assert live.session.records[0].verdict.review is None, said
        assert "stroke was under way" not in said, said
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
