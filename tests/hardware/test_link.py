"""ScoreboardLink against the emulator on real pty pairs and TCP sockets, real threads."""

from __future__ import annotations

import os
import select
import termios
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from carom.board import replay_to_scoreboard
from carom.match import load_json
from hardware import (
    EventKind,
    EventMessage,
    Faults,
    LinkState,
    LinkTiming,
    ScoreboardEmulator,
    ScoreboardError,
    ScoreboardLink,
    Snapshot,
    snapshot_from_state,
    text_line,
)
from referee import Match, Shot, parse_shot_log

MATCH_LOG = Path(__file__).parents[2] / "examples" / "three_cushion_match.json"
FAST = LinkTiming(backoff_min_s=0.02, backoff_max_s=0.5)


def _until(check: Callable[[], bool], timeout_s: float = 3.0) -> bool:
    """Poll ``check`` until it holds; a generous bound, not a timing assert."""
    end = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.005)
    return True


def _snapshot(score_a: int, score_b: int = 0, *, over: bool = False) -> Snapshot:
    return Snapshot(
        discipline="three_cushion", players=("Ana", "Ben"), scores=(score_a, score_b),
        innings=(1, 1), run=score_a, high_runs=(score_a, score_b), active=0, shot_clock_s=None,
        timeouts=(0, 0), equalizing=False, review=False, over=over,
    )  # fmt: skip


def _shots() -> tuple[Match, list[Shot]]:
    log = parse_shot_log(load_json(MATCH_LOG))
    match = Match(log.match)
    if log.lag is not None:
        match.lag(log.lag)
    return match, list(log.shots)


@pytest.fixture
def board_link(tmp_path: Path) -> Path:
    """A symlink the tests re-point at each new emulator's pty slave (a stable URL)."""
    return tmp_path / "scoreboard"


@pytest.fixture
def links() -> Iterator[list[ScoreboardLink]]:
    made: list[ScoreboardLink] = []
    yield made
    for link in made:
        link.stop()


@pytest.fixture
def emulators() -> Iterator[list[ScoreboardEmulator]]:
    made: list[ScoreboardEmulator] = []
    yield made
    for emu in made:
        emu.stop()


def test_whole_match_replayed_ends_with_the_right_final_state(
    links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    emu = ScoreboardEmulator.open_pty()
    emulators.append(emu)
    link = ScoreboardLink(emu.url, timing=FAST).start()
    links.append(link)
    replay = replay_to_scoreboard(MATCH_LOG, emu.url, delay_s=0.01, link=link)
    run = replay.run
    assert replay.final.confirmed and link.status().confirmed
    assert run.error is None and run.match.state.winner is not None
    assert link.flush(3.0)
    last = run.match.records[-1]
    want = snapshot_from_state(run.match.state, review=last.verdict.review is not None)
    assert emu.wait_for(lambda e: e.snapshot == want, 2.0)
    assert want.over and emu.events[-1].kind is EventKind.END
    status = link.status()
    assert status.events_acked == len(run.match.records) == 14
    assert status.events_dropped == 0 and status.state is LinkState.UP
    assert status.device is not None and status.device.model == "CAROM-EMU"
    board = "\n".join(emu.render())
    assert "Ana" in board and "OVER" in board


def test_a_second_host_on_the_same_port_is_refused_and_told_why(
    links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    """Two ``carom score`` runs on one link both exited 0 while the board flipped between
    their matches: the port is opened exclusively now."""
    emu = ScoreboardEmulator.open_pty()
    emulators.append(emu)
    first = ScoreboardLink(emu.url, timing=FAST).start()
    links.append(first)
    assert first.flush(2.0)
    second = ScoreboardLink(emu.url, timing=FAST).start()
    links.append(second)
    assert not second.flush(1.0) and second.status().state is not LinkState.UP
    assert second.status().last_error == (
        "the port is in use by another program (another carom score or live on it?)"
    )
    first.stop()  # the first host gone, the second one gets the port
    assert second.flush(3.0)


def test_emulator_killed_and_restarted_mid_match_shows_the_state_within_1s(
    board_link: Path, links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    first = ScoreboardEmulator.open_pty(link=board_link)
    link = ScoreboardLink(str(board_link), timing=FAST).start()
    links.append(link)
    match, shots = _shots()
    for shot in shots[:6]:
        match.play(shot)
        link.publish(snapshot_from_state(match.state))
    half = snapshot_from_state(match.state)
    assert first.wait_for(lambda e: e.snapshot == half, 2.0)
    first.stop()  # killed: its pty master closes
    assert _until(lambda: link.status().state is LinkState.DOWN)
    for shot in shots[6:10]:  # the match goes on while the board is away
        match.play(shot)
        link.publish(snapshot_from_state(match.state))
    want = snapshot_from_state(match.state)
    assert want != half
    time.sleep(0.6)  # let the backoff grow to its cap: the worst case for "within 1 s"
    second = ScoreboardEmulator.open_pty(link=board_link)
    emulators.append(second)
    assert second.wait_for(lambda e: e.snapshot == want, 1.0)
    status = link.status()
    assert status.reconnects == 1 and status.state is LinkState.UP


def test_tcp_board_restarted_on_the_same_port_is_brought_up_to_date(
    links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    first = ScoreboardEmulator.listen_tcp(0)
    port = int(first.url.rsplit(":", 1)[1])
    link = ScoreboardLink(first.url, timing=FAST).start()
    links.append(link)
    link.publish(_snapshot(3))
    assert first.wait_for(lambda e: e.snapshot == _snapshot(3), 2.0)
    first.stop()
    assert _until(lambda: link.status().state is LinkState.DOWN)
    link.publish(_snapshot(4))
    second = ScoreboardEmulator.listen_tcp(port)
    emulators.append(second)
    assert second.wait_for(lambda e: e.snapshot == _snapshot(4), 1.0)
    assert link.status().reconnects == 1


def test_port_vanishes_the_referee_keeps_going_and_recovers_on_a_new_device(
    board_link: Path, links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    first = ScoreboardEmulator.open_pty(link=board_link)
    link = ScoreboardLink(str(board_link), timing=FAST).start()
    links.append(link)
    link.publish(_snapshot(1))
    assert first.wait_for(lambda e: e.snapshot == _snapshot(1), 2.0)
    first.vanish()  # the pty master closes under the link: reads fail with EIO
    assert _until(lambda: link.status().state is LinkState.DOWN)
    status = link.status()
    assert status.last_error  # says why, for the app to show
    for score in range(2, 202):  # the referee goes on; nothing blocks or raises
        link.publish(_snapshot(score))
    link.send_event(EventMessage(EventKind.POINT, 0, "while away"))
    assert link.status().state is LinkState.DOWN
    second = ScoreboardEmulator.open_pty(link=board_link)
    emulators.append(second)
    assert second.wait_for(lambda e: e.snapshot == _snapshot(201), 1.0)
    assert second.wait_for(lambda e: [m.text for m in e.events] == ["while away"], 2.0)
    status = link.status()
    assert status.state is LinkState.UP and status.reconnects == 1
    assert status.device is not None


def test_acks_that_never_come_do_not_slow_the_sender(
    links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    emu = ScoreboardEmulator.open_pty(faults=Faults(ack_delay_s=float("inf")))
    emulators.append(emu)
    timing = LinkTiming(ack_timeout_s=0.3, retries=1, queue_max=8)
    link = ScoreboardLink(emu.url, timing=timing).start()
    links.append(link)
    link.publish(_snapshot(1))
    for i in range(3):
        link.send_event(EventMessage(EventKind.POINT, 0, f"point {i}"))
    link.publish(_snapshot(2))
    # The new snapshot overtakes the unacked events: it is on the board before the
    # first event is even given up (0.6 s after it went out).
    assert emu.wait_for(lambda e: e.snapshot == _snapshot(2), 2.0)
    assert link.status().events_dropped == 0
    for i in range(100):  # a flood while no ack comes: bounded queue, oldest dropped
        link.send_event(EventMessage(EventKind.MISS, 1, f"miss {i}"))
    link.publish(_snapshot(3))
    assert link.status().events_pending <= timing.queue_max + 1
    assert emu.wait_for(lambda e: e.snapshot == _snapshot(3), 2.0)
    assert _until(lambda: link.status().retries >= 3)
    status = link.status()
    assert status.events_acked == 0 and status.events_dropped >= 100 - timing.queue_max
    shown = [m.text for m in emu.events]
    assert len(shown) == len(set(shown))  # a retry keeps its seq: shown once


def test_noisy_line_is_nakked_and_the_board_still_converges(
    links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    emu = ScoreboardEmulator.open_pty(faults=Faults(corrupt=0.01, seed=7))
    emulators.append(emu)
    link = ScoreboardLink(emu.url, timing=FAST).start()
    links.append(link)
    for score in range(1, 31):
        link.publish(_snapshot(score))
        link.send_event(EventMessage(EventKind.POINT, 0, f"point {score}"))
        time.sleep(0.01)
    assert emu.wait_for(lambda e: e.snapshot == _snapshot(30), 3.0)
    assert _until(lambda: link.status().naks > 0)
    assert emu.crc_errors > 0 and emu.naks_sent > 0


def test_a_port_that_stays_open_but_answers_nothing_is_reopened(
    links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    emu = ScoreboardEmulator.open_pty(faults=Faults(drop=1.0))  # deaf: hears nothing
    emulators.append(emu)
    link = ScoreboardLink(emu.url, timing=LinkTiming(silence_s=0.2, backoff_max_s=0.1))
    links.append(link.start())
    link.publish(_snapshot(1))
    assert _until(lambda: link.status().reconnects >= 2)
    assert "no answer" in link.status().last_error
    emu.set_faults(Faults())
    link.publish(_snapshot(2))
    assert emu.wait_for(lambda e: e.snapshot == _snapshot(2), 2.0)


def test_text_dialect_writes_one_line_per_snapshot(links: list[ScoreboardLink]) -> None:
    master, slave = os.openpty()
    try:
        link = ScoreboardLink(os.ttyname(slave), dialect="text").start()
        links.append(link)
        link.publish(_snapshot(5, 2))
        want = text_line(_snapshot(5, 2))
        got = b""
        end = time.monotonic() + 2.0
        while len(got) < len(want) and time.monotonic() < end:
            if select.select([master], [], [], 0.05)[0]:
                got += os.read(master, 256)
        assert got[: len(want)] == want
    finally:
        os.close(master)
        os.close(slave)


def test_link_to_a_missing_port_stays_down_and_says_why(links: list[ScoreboardLink]) -> None:
    link = ScoreboardLink("/nonexistent/ttyUSB9", timing=FAST).start()
    links.append(link)
    link.publish(_snapshot(1))
    assert _until(lambda: bool(link.status().last_error))
    status = link.status()
    assert status.state is LinkState.DOWN and status.frames_sent == 0
    assert "ttyUSB9" in status.last_error
    link.stop()
    assert link.status().state is LinkState.STOPPED


def test_replay_opens_its_own_link_and_refuses_a_missing_board(
    emulators: list[ScoreboardEmulator], tmp_path: Path
) -> None:
    emu = ScoreboardEmulator.open_pty()
    emulators.append(emu)
    run = replay_to_scoreboard(MATCH_LOG, emu.url, delay_s=0.0).run
    assert emu.snapshot is not None and emu.snapshot.over
    assert emu.snapshot.scores == tuple(run.match.state.board(p) for p in ("Ana", "Ben"))
    with pytest.raises(ScoreboardError, match="no scoreboard there"):
        replay_to_scoreboard(MATCH_LOG, str(tmp_path / "nothing"), delay_s=0.0)


def test_a_port_that_stops_draining_times_out_and_is_reopened(
    links: list[ScoreboardLink],
) -> None:
    master, slave = os.openpty()
    try:
        tty.setraw(slave)
        timing = LinkTiming(write_timeout_s=0.1, silence_s=60.0)
        link = ScoreboardLink(os.ttyname(slave), timing=timing).start()
        links.append(link)
        assert _until(lambda: link.status().state is LinkState.UP)
        termios.tcflow(slave, termios.TCOOFF)  # output suspended: every write blocks
        for score in range(50):  # the app never waits for the stuck port
            link.publish(_snapshot(score))
        assert _until(lambda: "timeout" in link.status().last_error.lower())
        assert _until(lambda: link.status().reconnects >= 1)
        termios.tcflow(slave, termios.TCOON)
        got = b""
        end = time.monotonic() + 3.0
        while b"S" + _snapshot(49).to_payload().encode() not in got and time.monotonic() < end:
            if select.select([master], [], [], 0.05)[0]:
                got += os.read(master, 4096)
        assert b"S" + _snapshot(49).to_payload().encode() in got
    finally:
        os.close(master)
        os.close(slave)


def test_a_rebooted_board_gets_the_state_back_from_the_repeat(
    links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    emu = ScoreboardEmulator.open_pty()
    emulators.append(emu)
    link = ScoreboardLink(emu.url, timing=FAST).start()
    links.append(link)
    link.publish(_snapshot(7))
    assert emu.wait_for(lambda e: e.snapshot == _snapshot(7), 2.0)
    emu.reboot()  # forgets everything; the link publishes nothing new
    assert emu.snapshot is None
    assert emu.wait_for(lambda e: e.snapshot == _snapshot(7), 1.0 + FAST.repeat_s)
    assert link.status().reconnects == 0


def test_heartbeats_keep_an_idle_link_alive(
    links: list[ScoreboardLink], emulators: list[ScoreboardEmulator]
) -> None:
    emu = ScoreboardEmulator.open_pty()
    emulators.append(emu)
    link = ScoreboardLink(emu.url, timing=LinkTiming(heartbeat_s=0.05, silence_s=0.5))
    links.append(link.start())
    assert emu.wait_for(lambda e: e.acks_sent >= 10, 3.0)  # no snapshot: heartbeats only
    assert _until(lambda: link.status().acks >= 10)  # the last ack may still be on its way
    status = link.status()
    assert emu.snapshot is None and status.snapshots_sent == 0 and status.reconnects == 0
