"""The board's acknowledgement of the newest snapshot: tracked, waited for, retried.

Real pty pairs and the emulator, real threads; plus the seq bookkeeping on its own.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from carom.board import board_warning, confirm_final, replay_to_scoreboard
from hardware import Faults, LinkState, LinkTiming, ScoreboardEmulator, ScoreboardLink, Snapshot
from hardware.scoreboard._link_types import Confirmations
from tests.hardware.test_link import MATCH_LOG, _snapshot, _until

FAST = LinkTiming(backoff_min_s=0.02, backoff_max_s=0.5)


@pytest.fixture
def made() -> Iterator[list[ScoreboardLink | ScoreboardEmulator]]:
    """Links and emulators to stop after the test, whatever happened."""
    things: list[ScoreboardLink | ScoreboardEmulator] = []
    yield things
    for thing in things:
        thing.stop()


def test_a_late_ack_of_an_older_snapshot_never_undoes_a_newer_one() -> None:
    seen = Confirmations()
    one, two = _snapshot(1), _snapshot(2)
    seen.sent(10, one)
    seen.sent(11, two)
    seen.ack(11)
    seen.ack(10)
    assert seen.acked == two and seen.shown == two
    seen.sent(12, one)
    seen.sent(12, None)  # the seq went to a heartbeat: its ack says nothing of a snapshot
    seen.ack(12)
    assert seen.acked == two
    seen.forget()  # another port, maybe a rebooted board: nothing acked on it yet
    assert seen.acked is None and seen.shown == two


def test_the_board_acknowledges_each_new_snapshot(
    made: list[ScoreboardLink | ScoreboardEmulator],
) -> None:
    emu = ScoreboardEmulator.open_pty()
    link = ScoreboardLink(emu.url, timing=FAST).start()
    made += [link, emu]
    link.publish(_snapshot(1))
    assert link.confirm(3.0)
    status = link.status()
    assert status.confirmed and status.shown == status.current == _snapshot(1)
    assert status.unconfirmed_s == 0.0 and board_warning(status) is None
    link.publish(_snapshot(2))
    assert not link.status().confirmed  # published, not yet acknowledged
    assert link.confirm(3.0) and emu.snapshot == _snapshot(2)


def test_a_board_that_never_acks_is_never_confirmed_and_is_warned_about(
    made: list[ScoreboardLink | ScoreboardEmulator],
) -> None:
    emu = ScoreboardEmulator.open_pty(faults=Faults(ack_delay_s=float("inf")))
    link = ScoreboardLink(emu.url, timing=FAST).start()
    made += [link, emu]
    link.publish(_snapshot(3))
    final = confirm_final(link, 0.6)
    assert not final.confirmed
    assert "never confirmed the final state within 0.6 s" in final.line
    assert "it acknowledged no state" in final.line
    assert "the final state is Ana 3 : 0 Ben, not over" in final.line
    status = link.status()
    assert status.snapshots_sent >= 3  # resent every ack_timeout_s while unconfirmed
    warning = board_warning(status, late_s=0.5)
    assert warning is not None and "check the cable" in warning
    assert emu.snapshot == _snapshot(3)  # shown, but the host cannot know it


def test_a_board_that_comes_back_after_the_replay_ended_gets_the_result(
    tmp_path: Path, made: list[ScoreboardLink | ScoreboardEmulator]
) -> None:
    path = tmp_path / "board"
    first = ScoreboardEmulator.open_pty(link=path)
    made.append(first)
    link = ScoreboardLink(str(path), timing=LinkTiming(silence_s=0.3)).start()
    made.append(link)
    assert link.flush(2.0)
    first.set_faults(Faults(drop=1.0))  # deaf from the first shot

    back: list[ScoreboardEmulator] = []

    def come_back() -> None:  # well after the last shot: the replay takes ~0.2 s
        first.vanish()
        back.append(ScoreboardEmulator.open_pty(link=path))

    timer = threading.Timer(1.5, come_back)
    timer.start()
    replay = replay_to_scoreboard(MATCH_LOG, str(path), delay_s=0.01, link=link, confirm_s=6.0)
    timer.join()
    made += back
    assert replay.final.confirmed, replay.final.line
    want = link.status().current
    assert isinstance(want, Snapshot) and want.over
    assert back[0].snapshot == want
    assert first.snapshot is None or not first.snapshot.over  # never heard the end


def test_a_board_that_comes_back_much_later_is_updated_while_the_link_runs(
    tmp_path: Path, made: list[ScoreboardLink | ScoreboardEmulator]
) -> None:
    path = tmp_path / "board"
    first = ScoreboardEmulator.open_pty(link=path)
    link = ScoreboardLink(str(path), timing=FAST).start()
    made += [link, first]
    link.publish(_snapshot(5, 4, over=True))
    assert link.confirm(3.0)
    first.vanish()  # after the end: the cable is pulled, the process still runs
    assert _until(lambda: link.status().state is LinkState.DOWN)
    assert not confirm_final(link, 0.5).confirmed
    second = ScoreboardEmulator.open_pty(link=path)
    made.append(second)
    assert second.wait_for(lambda e: e.snapshot == _snapshot(5, 4, over=True), 1.5)
    assert link.confirm(2.0)
