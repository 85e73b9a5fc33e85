"""The scoreboard emulator as a device: a hand-driven host on the other end of a real pty."""

from __future__ import annotations

import argparse
import contextlib
import io
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial  # type: ignore[import-untyped]

from carom.cli._emulator import add_parser as add_emulator_parser
from carom.cli._emulator import parse_faults, run_emulator
from hardware import (
    EventKind,
    EventMessage,
    Faults,
    Frame,
    FrameDecoder,
    FrameKind,
    ScoreboardEmulator,
    ScoreboardError,
    Snapshot,
    encode_frame,
    render_board,
)
from referee import CaromError
from tests.readme_run import ctrl_c_default

SNAP = Snapshot(
    discipline="three_cushion", players=("Ana", "Ben"), scores=(12, 9), innings=(14, 13),
    run=3, high_runs=(5, 4), active=0, shot_clock_s=40, timeouts=(1, 0), equalizing=False,
    review=True, over=False,
)  # fmt: skip


class Host:
    """The host end: writes frames, collects the device's answers."""

    def __init__(self, url: str) -> None:
        self.port = serial.serial_for_url(url, baudrate=19200, timeout=0.05)
        self.decoder = FrameDecoder()

    def send(self, kind: FrameKind, payload: str = "", *, seq: int = 1, addr: int = 0) -> None:
        self.port.write(encode_frame(Frame(addr, seq, kind, payload)))

    def answers(self, count: int, timeout_s: float = 2.0) -> list[Frame]:
        got: list[Frame] = []
        end = time.monotonic() + timeout_s
        while len(got) < count and time.monotonic() < end:
            got += self.decoder.feed(self.port.read(256))
        return got


@pytest.fixture
def emu() -> Iterator[ScoreboardEmulator]:
    board = ScoreboardEmulator.open_pty()
    yield board
    board.stop()


@pytest.fixture
def host(emu: ScoreboardEmulator) -> Iterator[Host]:
    h = Host(emu.url)
    yield h
    h.port.close()


def test_identify_is_answered_with_the_identity(host: Host) -> None:
    host.send(FrameKind.IDENTIFY, seq=7)
    (reply,) = host.answers(1)
    assert (reply.kind, reply.seq, reply.payload) == (FrameKind.IDENTIFY, 7, "CAROM-EMU|1.0|3")


def test_snapshot_event_and_heartbeat_are_acked_and_shown(
    emu: ScoreboardEmulator, host: Host
) -> None:
    host.send(FrameKind.SNAPSHOT, SNAP.to_payload(), seq=0x10)
    host.send(FrameKind.EVENT, EventMessage(EventKind.FOUL, 1, "no cushion").to_payload(), seq=0x11)
    host.send(FrameKind.HEARTBEAT, seq=0x12)
    acks = host.answers(3)
    assert [(f.kind, f.payload) for f in acks] == [
        (FrameKind.ACK, "10"), (FrameKind.ACK, "11"), (FrameKind.ACK, "12"),
    ]  # fmt: skip
    assert emu.snapshot == SNAP
    assert emu.events == (EventMessage(EventKind.FOUL, 1, "no cushion"),)
    board = emu.render()
    assert any("Ana" in line and "12" in line for line in board)
    assert any("REVIEW" in line for line in board)
    assert "FOUL: no cushion" in "\n".join(board)


def test_a_damaged_frame_is_nakked_with_its_seq(emu: ScoreboardEmulator, host: Host) -> None:
    wire = bytearray(encode_frame(Frame(0, 0x2A, FrameKind.SNAPSHOT, SNAP.to_payload())))
    wire[12] ^= 0x01  # one bit flipped inside the payload
    host.port.write(bytes(wire))
    (nak,) = host.answers(1)
    assert (nak.kind, nak.payload) == (FrameKind.NAK, "2A")
    assert emu.snapshot is None and emu.crc_errors == 1


def test_a_bad_payload_with_a_good_crc_is_nakked(emu: ScoreboardEmulator, host: Host) -> None:
    host.send(FrameKind.SNAPSHOT, "not|a|snapshot", seq=3)
    (nak,) = host.answers(1)
    assert (nak.kind, nak.payload) == (FrameKind.NAK, "03") and emu.snapshot is None


def test_other_addresses_are_ignored_and_broadcasts_shown_unanswered(
    emu: ScoreboardEmulator, host: Host
) -> None:
    host.send(FrameKind.SNAPSHOT, SNAP.to_payload(), addr=5)
    assert host.answers(1, timeout_s=0.2) == [] and emu.snapshot is None
    host.send(FrameKind.SNAPSHOT, SNAP.to_payload(), addr=0xFF)
    assert emu.wait_for(lambda e: e.snapshot == SNAP, 2.0)
    assert host.answers(1, timeout_s=0.2) == []


def test_a_retried_event_is_shown_once(emu: ScoreboardEmulator, host: Host) -> None:
    payload = EventMessage(EventKind.POINT, 0, "point").to_payload()
    for _ in range(3):
        host.send(FrameKind.EVENT, payload, seq=9)
    assert len(host.answers(3)) == 3
    assert emu.events == (EventMessage(EventKind.POINT, 0, "point"),)


def test_reboot_forgets_the_board(emu: ScoreboardEmulator, host: Host) -> None:
    host.send(FrameKind.SNAPSHOT, SNAP.to_payload())
    assert host.answers(1)
    emu.reboot()
    assert emu.snapshot is None and emu.reboots == 1
    assert "waiting" in "\n".join(emu.render())


def test_dropped_bytes_and_muted_acks(emu: ScoreboardEmulator, host: Host) -> None:
    emu.set_faults(Faults(drop=1.0))
    host.send(FrameKind.SNAPSHOT, SNAP.to_payload())
    assert host.answers(1, timeout_s=0.2) == [] and emu.snapshot is None
    emu.set_faults(Faults(ack_delay_s=float("inf")))
    host.send(FrameKind.SNAPSHOT, SNAP.to_payload())
    assert emu.wait_for(lambda e: e.snapshot == SNAP, 2.0)
    assert host.answers(1, timeout_s=0.2) == []  # shown, but the ack never comes


def test_delayed_ack_still_arrives(emu: ScoreboardEmulator, host: Host) -> None:
    emu.set_faults(Faults(ack_delay_s=0.1))
    host.send(FrameKind.HEARTBEAT, seq=4)
    (ack,) = host.answers(1)
    assert (ack.kind, ack.payload) == (FrameKind.ACK, "04")


def test_vanish_closes_the_port_under_the_host(emu: ScoreboardEmulator, host: Host) -> None:
    emu.vanish()
    with pytest.raises(serial.SerialException):
        host.port.read(10)


def test_tcp_board_serves_one_host_after_another() -> None:
    emu = ScoreboardEmulator.listen_tcp(0)
    try:
        for seq in (1, 2):
            host = Host(emu.url)
            host.send(FrameKind.HEARTBEAT, seq=seq)
            (ack,) = host.answers(1)
            assert ack.payload == f"{seq:02X}"
            host.port.close()
    finally:
        emu.stop()


def test_symlink_is_repointed_at_each_new_pty(tmp_path: Path) -> None:
    link = tmp_path / "board"
    first = ScoreboardEmulator.open_pty(link=link)

    first.stop()
    second = ScoreboardEmulator.open_pty(link=link)
    try:
        assert second.url == str(link) and link.exists()
        host = Host(second.url)
        host.send(FrameKind.IDENTIFY)
        assert host.answers(1)
        host.port.close()
    finally:
        second.stop()


def test_render_board_is_a_fixed_width_box() -> None:
    lines = render_board(SNAP, EventMessage(EventKind.POINT, 0, "3 cushions"))
    assert len({len(line) for line in lines}) == 1
    assert lines[0].startswith("+") and lines[-1].startswith("+")
    assert any(line.startswith("| >") and "Ana" in line for line in lines)
    assert "clock 40" in "\n".join(lines)


def test_fault_options_parse_and_refuse_nonsense() -> None:
    faults, reboot_s, vanish_s = parse_faults(["drop=0.1", "delay-ack=inf", "reboot=5"])
    assert faults == Faults(drop=0.1, ack_delay_s=float("inf"))
    assert reboot_s == 5.0 and vanish_s == float("inf")
    with pytest.raises(CaromError, match="unknown name 'melt'"):
        parse_faults(["melt=1"])
    with pytest.raises(CaromError, match="drop takes a per-byte probability"):
        parse_faults(["drop=lots"])
    with pytest.raises(ScoreboardError, match=r"Faults\.drop = 2"):
        Faults(drop=2.0)


def test_cli_prints_the_url_and_draws_the_board(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_emulator_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        ["scoreboard-emulator", "--pty", "--link", str(tmp_path / "b"), "--seconds", "0.3"]
    )
    out = io.StringIO()
    assert run_emulator(args, out) == 0
    text = out.getvalue()
    assert f"scoreboard emulator on {tmp_path / 'b'}" in text
    assert "waiting for the referee" in text


@contextlib.contextmanager
def _emulator_process(link: Path, preexec: Callable[[], None]) -> Iterator[subprocess.Popen[str]]:
    """``carom scoreboard-emulator --pty --link LINK`` as a process; killed if left running."""
    cmd = [sys.executable, "-m", "carom", "scoreboard-emulator", "--pty", "--link", str(link)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=preexec)  # fmt: skip
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("at_once", [False, True], ids=["running", "at-once"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_stopped_by_ctrl_c_or_sigterm_it_removes_its_link(
    tmp_path: Path, sig: int, at_once: bool
) -> None:
    """The ``--link`` symlink goes with the emulator (a stale one would name a pty that
    the system gives to the next terminal), however early the signal comes: ``at_once``
    sends it the moment the link appears, before the emulator has said where it is.

    Started as a terminal's foreground job: Ctrl-C not ignored, even when pytest runs in
    the background of a shell (whose jobs ignore it, which the emulator keeps; below)."""
    link = tmp_path / "board"
    with _emulator_process(link, ctrl_c_default) as proc:
        assert proc.stdout is not None
        if at_once:
            deadline = time.monotonic() + 20
            while not link.is_symlink() and time.monotonic() < deadline:
                time.sleep(0.0005)
        else:
            assert proc.stdout.readline().startswith(f"scoreboard emulator on {link}")
        assert link.is_symlink()
        proc.send_signal(sig)
        _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert not link.is_symlink() and not link.exists()


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_a_background_job_ignoring_ctrl_c_keeps_ignoring_it(tmp_path: Path) -> None:
    """A shell without job control starts background jobs with Ctrl-C ignored: the
    emulator keeps it so (the terminal's Ctrl-C is for the foreground), SIGTERM ends it."""
    link = tmp_path / "board"
    with _emulator_process(link, _ignore_ctrl_c) as proc:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith(f"scoreboard emulator on {link}")
        proc.send_signal(signal.SIGINT)
        time.sleep(1.0)  # it would stop within 0.2 s
        assert proc.poll() is None and link.is_symlink()
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert not link.is_symlink()
