"""A scoreboard port that does not open is said at once, not at the match's end, and its
opening later is said too: the real link on a path where a pty appears later (the
emulator's), no video."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from carom.live.loop._metrics import BoardSink
from hardware import LinkState, LinkTiming, ScoreboardEmulator, ScoreboardLink

FAST = LinkTiming(backoff_min_s=0.02, backoff_max_s=0.2, silence_s=0.5)


def _lines_until(
    sink: BoardSink, done: Callable[[list[str]], bool], within_s: float = 10.0
) -> list[str]:
    heard: list[str] = []
    end = time.monotonic() + within_s
    while not done(heard) and time.monotonic() < end:
        heard += sink.news()
        time.sleep(0.01)
    return heard


def test_a_missing_port_is_said_once_and_its_opening_later_too(tmp_path: Path) -> None:
    board = tmp_path / "board"
    sink = BoardSink(ScoreboardLink(str(board), timing=FAST).start())
    try:
        heard = _lines_until(sink, bool)
        assert len(heard) == 1 and heard[0].startswith(f"scoreboard: cannot reach {board} (")
        assert "the match goes on and the port is tried again until it opens" in heard[0]
        time.sleep(0.5)  # several more tries fail: nothing more is said
        assert sink.news() == []
        emu = ScoreboardEmulator.open_pty(link=board)
        try:
            again = _lines_until(sink, bool)
            assert again == [f"scoreboard: {board} is open again; the board gets the current state"]
        finally:
            emu.stop()
    finally:
        sink.close(0.1)


def test_a_port_that_opens_says_nothing(tmp_path: Path) -> None:
    board = tmp_path / "board"
    emu = ScoreboardEmulator.open_pty(link=board)
    link = ScoreboardLink(str(board), timing=FAST).start()
    sink = BoardSink(link)
    try:
        assert _lines_until(sink, lambda _: link.status().state is LinkState.UP, 5.0) == []
        assert _lines_until(sink, lambda _: False, within_s=0.5) == []  # open: nothing to say
    finally:
        sink.close(0.1)
        emu.stop()
    assert BoardSink(None).news() == []
