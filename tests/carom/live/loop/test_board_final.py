"""Live mode's end: the board acknowledges the final state, or the user is told.

The real board view over a real session (SQLite file), the real link on a pty and the
emulator; no video: the state shown is the session's at the start.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from carom.analyze import AnalyzeOptions, match_config
from carom.cli._live import _final_status
from carom.live import LiveSession, LiveSetup, MatchStore, TimeoutCall
from carom.live.loop._board import BoardView
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.match import ShotClock
from carom.timestamps import now_iso
from hardware import Faults, LinkState, LinkTiming, ScoreboardEmulator, ScoreboardLink
from referee import Table
from tests.carom.live._helpers import SAMPLE, live_cmd, run_live, write_truth_calibration

FAST = LinkTiming(backoff_min_s=0.02, backoff_max_s=0.3, silence_s=0.5)


@pytest.fixture
def view(tmp_path: Path) -> Iterator[BoardView]:
    """A board view of a new match, its link on ``tmp_path / "board"`` (no board yet)."""
    opts = AnalyzeOptions(video=SAMPLE, out=tmp_path, table=Table(), players=("A", "B"),
                          first_player="A")  # fmt: skip
    config = match_config(opts)
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(config, str(SAMPLE)), now_iso=now_iso())
    sink = BoardSink(ScoreboardLink(str(tmp_path / "board"), timing=FAST).start())
    yield BoardView(session, sink, ShotClock(), LiveMetrics(), ("A", "B"))
    sink.close(0.1)
    store.close()


def test_the_final_state_acknowledged_ends_with_status_0(tmp_path: Path, view: BoardView) -> None:
    emu = ScoreboardEmulator.open_pty(link=tmp_path / "board")
    try:
        view.show()
        heard: list[str] = []
        assert view.confirm_final(5.0, heard.append).confirmed
        assert heard == []  # confirmed at once: no word of waiting
        assert emu.snapshot is not None and emu.snapshot.players == ("A", "B")
        assert _final_status(view.confirm_final(0.0)) == 0
    finally:
        emu.stop()


def test_the_board_shows_the_time_outs_each_player_has_left(
    tmp_path: Path, view: BoardView
) -> None:
    """Fields 12 and 13 are the time-outs left (docs/scoreboard-protocol.md): 2 each at
    the start, 1 after A's. The board showed those used: 0, then 1, the wrong way."""
    emu = ScoreboardEmulator.open_pty(link=tmp_path / "board")
    try:
        view.show()
        assert view.confirm_final(5.0).confirmed
        assert emu.snapshot is not None and emu.snapshot.timeouts == (2, 2)
        view.session.call(TimeoutCall("A"), who="keyboard", now_iso=now_iso())
        view.show()
        assert view.confirm_final(5.0).confirmed
        assert emu.snapshot.timeouts == (1, 2)
    finally:
        emu.stop()


def test_a_board_that_never_acknowledges_ends_with_status_6_and_one_line(
    tmp_path: Path, view: BoardView, capsys: pytest.CaptureFixture[str]
) -> None:
    emu = ScoreboardEmulator.open_pty(link=tmp_path / "board", faults=Faults(drop=1.0))
    try:
        view.show()
        heard: list[str] = []
        final = view.confirm_final(1.25, heard.append)
        assert not final.confirmed
        assert heard == [  # said after the first second, while it goes on waiting
            f"scoreboard: the board at {tmp_path / 'board'} has not confirmed the final "
            "state (A 0 : 0 B, not over) yet; sending it again for up to 0.25 s more"
        ]
        assert _final_status(final) == 6
        err = capsys.readouterr().err
        assert err.startswith("carom: scoreboard: the board never confirmed the final state")
        assert "the final state is A 0 : 0 B, not over" in err and err.count("\n") == 1
    finally:
        emu.stop()


def test_a_board_plugged_in_during_the_final_wait_gets_the_state_at_once(
    tmp_path: Path, view: BoardView
) -> None:
    view.show()  # the match ended with no board on the port
    assert view.board.link is not None
    assert view.board.link.status().state is LinkState.DOWN
    plugged: list[ScoreboardEmulator] = []
    timer = threading.Timer(0.8, lambda: plugged.append(
        ScoreboardEmulator.open_pty(link=tmp_path / "board")))  # fmt: skip
    timer.start()
    try:
        final = view.confirm_final(5.0)
        timer.join()
        assert final.confirmed, final.line
        assert plugged[0].snapshot == view.board.link.status().current
    finally:
        timer.join()
        for emu in plugged:
            emu.stop()


def test_closing_the_board_times_the_last_verdict_first(tmp_path: Path, view: BoardView) -> None:
    """The last shot's latency is in the metrics once ``close`` returns, never lost."""
    emu = ScoreboardEmulator.open_pty(link=tmp_path / "board")
    timed: list[float] = []

    def slow_timer(t_s: float) -> None:  # the metrics' bookkeeping, made slow
        time.sleep(0.3)
        timed.append(t_s)

    try:
        view.show(on_written=slow_timer)
        view.board.close(2.0)
        assert len(timed) == 1
        assert emu.snapshot is not None and emu.snapshot.players == ("A", "B")
    finally:
        emu.stop()


def test_no_board_has_nothing_to_confirm(tmp_path: Path) -> None:
    opts = AnalyzeOptions(video=SAMPLE, out=tmp_path, table=Table(), players=("A", "B"),
                          first_player="A")  # fmt: skip
    store = MatchStore(tmp_path / "live.db")
    try:
        session = LiveSession.open(store, LiveSetup(match_config(opts), str(SAMPLE)),
                                   now_iso=now_iso())  # fmt: skip
        view = BoardView(session, BoardSink(None), ShotClock(), LiveMetrics(), ("A", "B"))
        assert view.confirm_final(5.0).confirmed
        assert _final_status(view.confirm_final(5.0)) == 0
    finally:
        store.close()


def test_carom_live_with_a_deaf_board_prints_the_result_then_the_line_and_exits_6(
    tmp_path: Path,
) -> None:
    emu = ScoreboardEmulator.open_pty(link=tmp_path / "board", faults=Faults(drop=1.0))
    try:
        cmd = live_cmd(write_truth_calibration(tmp_path / "cal.json"), tmp_path / "live.db",
                       tmp_path / "board", "--pace", "0",
                       "--scoreboard-confirm", "1.5")  # fmt: skip
        out = run_live(cmd)
    finally:
        emu.stop()
    assert out.returncode == 6, out.stderr
    # The result (the last line, after the calls), as without a board.
    assert out.stdout.strip().splitlines()[-1] == "A 1 : 2 B  (playing)"
    waiting, last = out.stderr.strip().splitlines()[-2:]
    assert waiting == (  # the wait is explained while it lasts
        f"carom live: scoreboard: the board at {tmp_path / 'board'} has not confirmed the "
        "final state (A 1 : 2 B, not over) yet; sending it again for up to 0.5 s more"
    )
    assert last.startswith("carom: scoreboard: the board never confirmed the final state "
                           "within 1.5 s (it acknowledged no state")  # fmt: skip
    assert "the final state is A 1 : 2 B, not over" in last
    assert emu.snapshot is None  # it heard nothing: the user was told, not left with 0


def test_a_board_that_never_opens_leaves_the_shots_counted_and_untimed(tmp_path: Path) -> None:
    """The status line counts the shots judged, not the verdicts the board got.

    With no board at the port the verdicts' bytes never leave: the four shots are
    still four shots, none timed (it said "0 shots" before).
    """
    cmd = live_cmd(write_truth_calibration(tmp_path / "cal.json"), tmp_path / "live.db",
                   tmp_path / "no-board", "--pace", "0", "--scoreboard-confirm", "1")  # fmt: skip
    out = run_live(cmd)
    assert out.returncode == 6, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "A 1 : 2 B  (playing)"
    status = [line for line in out.stderr.splitlines() if " fps, " in line][-1]
    assert ", 4 shots (4 not on the board yet); verdict latency p50/p95: processing -/- ms" in (
        status
    )
