"""What the user is told about a board behind the match: the summary, the warning, the doc."""

from __future__ import annotations

import time
from dataclasses import replace

from carom.board import LATE_S, board_summary, board_warning, board_warning_parts
from carom.web._live import BoardWatch
from carom.web._state import scoreboard_doc
from hardware import (
    Faults,
    LinkState,
    LinkStatus,
    LinkTiming,
    ScoreboardEmulator,
    ScoreboardLink,
    Snapshot,
)
from tests.carom.i18n.account_said import board_warning_in


def _snap(a: int, b: int, *, over: bool = False) -> Snapshot:
    return Snapshot(
        discipline="three-cushion", players=("Ana", "Ben"), scores=(a, b), innings=(3, 3),
        run=0, high_runs=(2, 1), active=1, shot_clock_s=None, timeouts=(0, 0),
        equalizing=False, review=False, over=over,
    )  # fmt: skip


def _status(**changes: object) -> LinkStatus:
    status = LinkStatus(
        state=LinkState.UP, url="/dev/ttyUSB0", frames_sent=9, bytes_sent=600,
        snapshots_sent=9, events_acked=0, events_dropped=0, events_pending=0, retries=0,
        acks=1, naks=4, crc_errors=0, reconnects=0, last_error="", device=None,
        current=_snap(5, 4, over=True), shown=_snap(2, 2), confirmed=False, unconfirmed_s=7.0,
    )  # fmt: skip
    return replace(status, **changes)


def test_summary_reads_like_the_board() -> None:
    assert board_summary(_snap(5, 4, over=True)) == "Ana 5 : 4 Ben, over"
    assert board_summary(_snap(2, 2)) == "Ana 2 : 2 Ben, not over"
    assert board_summary(None) == "nothing"


def test_a_board_behind_for_long_enough_is_warned_about_with_what_it_shows() -> None:
    warning = board_warning(_status())
    assert warning is not None
    assert "it acknowledged last Ana 2 : 2 Ben, not over" in warning
    # During a match the score it should show is no final state (said at the end only).
    assert "it should show Ana 5 : 4 Ben, over" in warning and "final" not in warning
    assert "check the cable" in warning
    assert board_warning(_status(unconfirmed_s=LATE_S / 2)) is None  # resends repair noise
    assert board_warning(_status(confirmed=True, unconfirmed_s=0.0)) is None
    assert board_warning(None) is None


def test_a_board_behind_on_the_same_score_says_what_waits() -> None:
    """It said "it acknowledged last E 1 : 0 F ...; it should show E 1 : 0 F": behind, yet
    the same (found by a review as a club operator)."""
    same = _snap(5, 4, over=True)
    warning = board_warning(_status(shown=same, state=LinkState.DOWN, last_error="EIO"))
    assert warning is not None
    assert ("it acknowledged last Ana 5 : 4 Ben, over, the score it should show; its newer "
            "clock or shot line is not confirmed") in warning  # fmt: skip
    assert "it should show Ana 5 : 4 Ben" not in warning


def test_a_lost_port_says_why() -> None:
    warning = board_warning(_status(state=LinkState.DOWN, last_error="OSError: EIO"))
    assert warning is not None and "the port: OSError: EIO" in warning


def test_the_web_state_carries_the_board() -> None:
    doc = scoreboard_doc(_status())
    assert doc is not None
    assert doc["link"] == "up" and doc["confirmed"] is False
    assert doc["shows"] == "Ana 2 : 2 Ben, not over" and "check the cable" in doc["warning"]
    ok = scoreboard_doc(_status(confirmed=True, unconfirmed_s=0.0, shown=_snap(5, 4, over=True)))
    assert ok is not None and ok["warning"] is None and ok["shows"] == "Ana 5 : 4 Ben, over"
    assert scoreboard_doc(None) is None


def test_the_web_is_told_when_the_board_falls_behind_and_catches_up() -> None:
    emu = ScoreboardEmulator.open_pty(faults=Faults(drop=1.0))  # deaf: never acks
    link = ScoreboardLink(emu.url, timing=LinkTiming(silence_s=30.0)).start()
    told: list[str | None] = []
    try:
        BoardWatch(link, told.append, every_s=0.05)
        link.publish(_snap(5, 4, over=True))
        deadline = time.monotonic() + LATE_S + 2.0
        while not told and time.monotonic() < deadline:
            time.sleep(0.02)
        assert told == [None]  # a change: the pages fetch the STATE again
        doc = scoreboard_doc(link.status())
        assert doc is not None and doc["warning"] is not None
        emu.set_faults(Faults())
        assert link.confirm(3.0)
        deadline = time.monotonic() + 2.0
        while len(told) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert told == [None, None]
        doc = scoreboard_doc(link.status())
        assert doc is not None and doc["warning"] is None and doc["confirmed"] is True
    finally:
        link.stop()
        emu.stop()


def test_the_warning_keyed_says_the_same_in_english_and_translates() -> None:
    """``board_warning_parts`` in the web catalogue's English is ``board_warning`` to the
    character (a board behind, one that took nothing yet, a lost port, one that took the
    score it should show but not the newer clock or shot line), and in Korean no
    English is left (``Carom.fmt.boardWarning`` is checked against the same oracle in
    Chromium: tests/carom/web/browser/test_console_log_i18n.py)."""
    cases = [_status(), _status(shown=None), _status(state=LinkState.DOWN, last_error="EIO"),
             _status(current=_snap(12, 3)), _status(shown=_snap(5, 4, over=True))]  # fmt: skip
    for status in cases:
        parts = board_warning_parts(status)
        assert parts is not None
        assert board_warning_in("en", parts) == board_warning(status)
        korean = board_warning_in("ko", parts)
        assert "scoreboard" not in korean and "acknowledged" not in korean
        assert ("EIO" in korean) == (status.state is LinkState.DOWN)
    assert board_warning_parts(_status(unconfirmed_s=LATE_S / 2)) is None
    assert board_warning_parts(None) is None
    assert scoreboard_doc(_status())["warning_parts"] == board_warning_parts(_status())
