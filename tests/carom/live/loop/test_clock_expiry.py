"""The shot clock running out, through the real live loop, in both ``shot_clock_expiry`` modes.

Real frames of the sample clip (its first shot: A's point, struck at 1.5 s), the real
runner, session, SQLite file and a pty board. The clock is the runner's own, fed the
video's time: in a match under way (joined in progress at 0 : 0, A at the table) it
starts at the first frame, so a 1 s clock has run out when A strikes. A match's opening
stroke has no clock before it (the program may start long before the break).
"""

from __future__ import annotations

import dataclasses
import io
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from carom.analyze import AnalyzeOptions, match_config
from carom.live import LiveSession, LiveSetup, MatchStore, UndoCall
from carom.live.loop._board import TIME_UP
from carom.live.loop._capture import Capture, CaptureSettings, file_frames
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.live.loop._runner import LiveRunner
from carom.match import ClockExpiry, ClockSettings, ShotClock
from carom.pipeline import CalibrationFile
from carom.timestamps import now_iso
from hardware import EventKind, EventMessage, ScoreboardEmulator, ScoreboardLink, Snapshot
from referee import Foul, StartState, Table
from tests.carom.live._helpers import SAMPLE, write_truth_calibration
from vision import Frame

END_S = 15.5  # the first shot ends at 13.9 s, the second starts at 16.1 s


def _first_shot(start_s: float) -> Iterator[Frame]:
    for frame in file_frames(SAMPLE, start_s):
        if frame.t_s >= END_S:
            return
        yield frame


class _Recording(BoardSink):
    """The real board sink, keeping every snapshot and event it was given."""

    def __init__(self, link: ScoreboardLink) -> None:
        super().__init__(link)
        self.shown: list[tuple[Snapshot, EventMessage | None]] = []

    def show(self, snapshot: Any, event: EventMessage | None, on_written: Any = None) -> None:
        self.shown.append((snapshot, event))
        super().show(snapshot, event, on_written)


@pytest.fixture
def board(tmp_path: Path) -> Iterator[ScoreboardEmulator]:
    emu = ScoreboardEmulator.open_pty(link=tmp_path / "board")
    yield emu
    emu.stop()


def _run(
    tmp_path: Path, expiry: ClockExpiry, joined: bool = True
) -> tuple[LiveSession, MatchStore, _Recording]:
    """The first shot through the live loop with a 1 s clock; returns when the clip ended.

    ``joined``: the match under way (A at the table at 0 : 0), else at its opening stroke.
    """
    opts = AnalyzeOptions(video=SAMPLE, out=tmp_path, table=Table(), players=("A", "B"),
                          first_player="A")  # fmt: skip
    config = match_config(opts)
    if joined:
        under_way = StartState(board={"A": 0, "B": 0}, innings={"A": 1, "B": 0}, shooter="A")
        config = dataclasses.replace(config, start=under_way, first_player=None)
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(config, str(SAMPLE), 2), now_iso=now_iso())
    capture = Capture(str(SAMPLE), CaptureSettings(pace=0), opener=_first_shot)
    sink = _Recording(ScoreboardLink(str(tmp_path / "board")).start())
    clock = ShotClock(ClockSettings(length_s=1.0, warning_s=0.5, expiry=expiry))
    runner = LiveRunner(
        session, capture.start(),
        calibration_file=CalibrationFile(write_truth_calibration(tmp_path / "c.json")),
        config=config, board=sink, clock=clock, metrics=LiveMetrics(), out=io.StringIO(),
    )  # fmt: skip
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 120
        while thread.is_alive() and time.monotonic() < deadline:
            thread.join(0.1)
        assert not thread.is_alive(), "the live loop did not end with the clip"
    finally:
        runner.stop.set()
        capture.stop()
    sink.close()
    return session, store, sink


def _board_shows(board: ScoreboardEmulator, scores: tuple[int, int], active: int) -> bool:
    def seen(e: ScoreboardEmulator) -> bool:
        snap = e.snapshot
        return snap is not None and snap.scores == scores and snap.active == active

    return board.wait_for(seen, 5)


def test_warn_shows_time_up_and_the_late_stroke_counts(
    tmp_path: Path, board: ScoreboardEmulator
) -> None:
    session, store, sink = _run(tmp_path, ClockExpiry.WARN)
    try:
        [record] = session.records
        assert (record.player, record.verdict.points, record.verdict.fouls) == ("A", 1, ())
        clocks = [snap.shot_clock_s for snap, _ in sink.shown]
        assert 0 in clocks  # time up was shown before A struck
        assert not any(e is not None and e.kind is EventKind.FOUL for _, e in sink.shown)
        assert _board_shows(board, (1, 0), 0), board.render()
        journal = store.journal(session.match_id)
        assert all(e.who != "shot clock" for e in journal)
    finally:
        store.close()


def test_foul_makes_the_late_stroke_a_foul_that_undo_takes_back(
    tmp_path: Path, board: ScoreboardEmulator
) -> None:
    session, store, sink = _run(tmp_path, ClockExpiry.FOUL)
    try:
        [record] = session.records
        v = record.verdict
        assert (record.player, v.points, v.inning_ends) == ("A", 0, True)
        assert v.fouls == (Foul.SHOT_CLOCK,)
        events = [e for _, e in sink.shown if e is not None]
        # A's time runs out, the verdict (one: the foul, not A's point first), then B's time.
        assert [(e.kind, e.player) for e in events] == [(EventKind.FOUL, p) for p in (0, 0, 1)]
        assert events[0].text == TIME_UP == events[2].text
        assert events[1].text == "shot clock"  # the board shows FOUL: shot clock
        assert _board_shows(board, (0, 0), 1), board.render()  # B's inning
        journal = store.journal(session.match_id)
        assert [e.kind for e in journal if e.who == "shot clock"] == ["call"]
        session.call(UndoCall(), who="test", now_iso=now_iso())  # a person overrules it
        assert session.state.scores["A"].points == 1 and session.state.shooter == "A"
    finally:
        store.close()


def test_the_opening_stroke_has_no_clock_before_it(
    tmp_path: Path, board: ScoreboardEmulator
) -> None:
    """The clock ran from the program's first frame, so a break played more than its
    length after carom live started was a shot-clock foul (found by a review as a club
    operator)."""
    session, store, sink = _run(tmp_path, ClockExpiry.FOUL, joined=False)
    try:
        [record] = session.records
        assert (record.player, record.verdict.points, record.verdict.fouls) == ("A", 1, ())
        shown = [snap.shot_clock_s for snap, _ in sink.shown]
        first_event = next(i for i, (_, e) in enumerate(sink.shown) if e is not None)
        assert all(c is None for c in shown[:first_event])  # no clock before the break
        assert any(c is not None for c in shown[first_event:])  # B's time after it
    finally:
        store.close()
