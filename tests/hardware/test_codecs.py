"""Scoreboard codecs: the two built in, the registry, and a new protocol driving the link.

The new protocol is a line protocol written here; the link speaks it to a board that the
test plays on the master side of a real pty pair, with the link's real thread.
"""

from __future__ import annotations

import os
import select
import time
import tty
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from hardware import (
    Ack,
    BoardCodec,
    EventKind,
    EventMessage,
    Frame,
    FramedCodec,
    FrameKind,
    Identity,
    LinkTiming,
    Nak,
    Reply,
    ScoreboardError,
    ScoreboardLink,
    Snapshot,
    TextCodec,
    Unreadable,
    codec_for,
    dialects,
    encode_frame,
    register_codec,
    text_line,
)
from hardware.scoreboard import _codecs

QUIET = LinkTiming(ack_timeout_s=5.0, heartbeat_s=60.0, silence_s=60.0)


def _snapshot(score_a: int, score_b: int = 0) -> Snapshot:
    return Snapshot(
        discipline="three_cushion", players=("Ana", "Ben"), scores=(score_a, score_b),
        innings=(2, 1), run=score_a, high_runs=(score_a, score_b), active=0, shot_clock_s=30,
        timeouts=(1, 0), equalizing=False, review=False, over=False,
    )  # fmt: skip


# --- the two built-in codecs -------------------------------------------------------


def test_the_framed_codec_writes_the_documented_frames() -> None:
    codec, snap = FramedCodec(), _snapshot(3, 1)
    event = EventMessage(EventKind.POINT, 0, "Ana scores")
    assert codec.snapshot(4, 17, snap) == encode_frame(
        Frame(4, 17, FrameKind.SNAPSHOT, snap.to_payload())
    )
    assert codec.event(4, 18, event) == encode_frame(
        Frame(4, 18, FrameKind.EVENT, event.to_payload())
    )
    assert codec.identify(4, 0) == encode_frame(Frame(4, 0, FrameKind.IDENTIFY))
    assert codec.heartbeat(4, 255) == encode_frame(Frame(4, 255, FrameKind.HEARTBEAT))
    assert codec.two_way and codec.name == "frames"


def test_the_framed_decoder_keeps_its_boards_answers_only() -> None:
    decoder = FramedCodec().decoder(4)
    wire = b"".join(
        encode_frame(frame)
        for frame in (
            Frame(4, 17, FrameKind.ACK, "11"),
            Frame(5, 18, FrameKind.ACK, "12"),  # another board on the bus
            Frame(4, 18, FrameKind.NAK, "12"),
            Frame(4, 19, FrameKind.SNAPSHOT, _snapshot(1).to_payload()),  # a host's frame
            Frame(4, 20, FrameKind.IDENTIFY, "BOARD|2.0|4"),
            Frame(4, 21, FrameKind.ACK, "zz"),
        )
    )
    damaged = bytearray(encode_frame(Frame(4, 22, FrameKind.ACK, "16")))
    damaged[3] ^= 0x01
    replies = decoder.feed(wire[:7]) + decoder.feed(wire[7:] + bytes(damaged))
    assert replies[:3] == [Ack(0x11), Nak(0x12), Identity("BOARD", "2.0", 4)]
    assert isinstance(replies[3], Unreadable) and "'zz'" in replies[3].error
    assert len(replies) == 4 and decoder.crc_errors == 1


def test_the_text_codec_writes_one_line_and_hears_nothing() -> None:
    codec = TextCodec()
    assert codec.snapshot(0, 0, _snapshot(5, 2)) == text_line(_snapshot(5, 2))
    assert not codec.two_way and codec.name == "text"
    assert codec.decoder(0).feed(encode_frame(Frame(0, 1, FrameKind.ACK, "01"))) == []
    with pytest.raises(ScoreboardError, match="no events"):
        codec.event(0, 0, EventMessage(EventKind.POINT, 0))


def test_the_registry_knows_both_and_refuses_unknown_or_taken_names() -> None:
    assert dialects()[:2] == ("frames", "text")
    assert isinstance(codec_for("frames"), FramedCodec)
    assert isinstance(codec_for("text"), TextCodec)
    with pytest.raises(ScoreboardError, match=r"'morse' is unknown; use one of frames, text"):
        ScoreboardLink("loop://", dialect="morse")
    with pytest.raises(ScoreboardError, match="taken"):
        register_codec("text", TextCodec)


# --- a new protocol: a module's worth of code and one registry entry -------------------


class LineCodec:
    """A comma-separated line protocol, two-way: ``addr,seq,S,a,b`` / ``addr,seq,A``."""

    name = "lines"
    two_way = True

    def snapshot(self, addr: int, seq: int, snapshot: Snapshot) -> bytes:
        return f"{addr},{seq},S,{snapshot.scores[0]},{snapshot.scores[1]}\n".encode()

    def event(self, addr: int, seq: int, msg: EventMessage) -> bytes:
        return f"{addr},{seq},E,{msg.kind.value},{msg.text}\n".encode()

    def identify(self, addr: int, seq: int) -> bytes:
        return f"{addr},{seq},I\n".encode()

    def heartbeat(self, addr: int, seq: int) -> bytes:
        return f"{addr},{seq},H\n".encode()

    def decoder(self, addr: int) -> LineDecoder:
        return LineDecoder(addr)


@dataclass
class LineDecoder:
    """``addr,seq,A`` / ``addr,seq,N`` / ``addr,ID,model,firmware,digits`` lines."""

    addr: int
    crc_errors: int = 0
    _rest: bytes = field(default=b"", repr=False)

    def feed(self, data: bytes) -> list[Reply]:
        *lines, self._rest = (self._rest + data).split(b"\n")
        return [reply for line in lines if (reply := self._reply(line.decode())) is not None]

    def _reply(self, line: str) -> Reply | None:
        f = line.split(",")
        if f[0] != str(self.addr):
            return None
        if f[1:2] == ["ID"] and len(f) == 5:
            return Identity(f[2], f[3], int(f[4]))
        if len(f) == 3 and f[1].isdigit() and f[2] in ("A", "N"):
            return Ack(int(f[1])) if f[2] == "A" else Nak(int(f[1]))
        return Unreadable(f"line {line!r} is not an answer")


def test_a_line_codec_follows_the_protocol() -> None:
    codec: BoardCodec = LineCodec()  # mypy checks the structure
    assert codec.decoder(0).feed(b"0,3,A\n0,4") == [Ack(3)]


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, str]]:
    """(master fd, slave path) of a raw pty: the test is the board on the master."""
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


@pytest.fixture
def lines_dialect(monkeypatch: pytest.MonkeyPatch) -> str:
    """The line protocol registered as ``"lines"`` for one test (the registry restored)."""
    monkeypatch.setattr(_codecs, "_CODECS", dict(_codecs._CODECS))
    register_codec("lines", LineCodec)
    return "lines"


def _board_reads(master: int, buffer: list[bytes], timeout_s: float = 5.0) -> str:
    """The next line the host wrote (``buffer`` keeps a partial line between calls)."""
    end = time.monotonic() + timeout_s
    while b"\n" not in buffer[0]:
        assert time.monotonic() < end, f"no line from the link; got {buffer[0]!r}"
        if select.select([master], [], [], 0.05)[0]:
            buffer[0] += os.read(master, 4096)
    line, buffer[0] = buffer[0].split(b"\n", 1)
    return line.decode()


def test_a_registered_codec_drives_the_link_over_a_real_pty(
    pty_pair: tuple[int, str], lines_dialect: str
) -> None:
    master, url = pty_pair
    link = ScoreboardLink(url, addr=7, dialect=lines_dialect, timing=QUIET).start()
    buffer = [b""]
    try:
        assert _board_reads(master, buffer) == "7,0,I"  # identify on open: a two-way codec
        os.write(master, b"7,ID,LINE-BOARD,2.1,4\n")
        link.publish(_snapshot(3, 1))
        assert _board_reads(master, buffer) == "7,1,S,3,1"
        os.write(master, b"7,1,A\n9,1,N\n")  # the board at 9 is not ours
        link.send_event(EventMessage(EventKind.POINT, 0, "Ana scores"))
        assert _board_reads(master, buffer) == "7,2,E,point,Ana scores"
        os.write(master, b"7,2,N\n")  # damaged: the link sends it again, same number
        assert _board_reads(master, buffer) == "7,2,E,point,Ana scores"
        os.write(master, b"7,2,A\n7,what\n")
        assert link.flush(5.0)
        status = link.status()
    finally:
        link.stop()
    assert link.dialect == "lines" and isinstance(link.codec, LineCodec)
    assert status.device == Identity("LINE-BOARD", "2.1", 4)
    assert (status.acks, status.naks, status.retries, status.events_acked) == (2, 1, 1, 1)
    assert status.snapshots_sent == 1 and "'7,what' is not an answer" in status.last_error


def test_a_codec_instance_drives_the_link_without_a_registry_entry(
    pty_pair: tuple[int, str],
) -> None:
    master, url = pty_pair
    link = ScoreboardLink(url, dialect=LineCodec(), timing=QUIET).start()
    buffer = [b""]
    try:
        assert _board_reads(master, buffer) == "0,0,I"
        link.publish(_snapshot(9))
        assert _board_reads(master, buffer) == "0,1,S,9,0"
    finally:
        link.stop()


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"addr": 300}, r"addr: a board's bus address is 0..254 .* got 300"),
        ({"addr": -1}, r"addr: .* got -1"),
        ({"addr": 255}, r"0xFF broadcasts, never a board's"),
        ({"baud": 12345}, r"baud: the boards run at 19200 or 9600, got 12345"),
        ({"url": ""}, r"url: expected a device path or pyserial URL"),
    ],
)
def test_a_link_s_settings_out_of_range_are_refused_at_once(
    settings: dict[str, object], said: str
) -> None:
    """An address of 300 was taken; the link said "up" and only its last_error told, at the
    first publish (found by a review as a library user)."""
    kwargs: dict[str, object] = {"url": "loop://", **settings}
    url = kwargs.pop("url")
    with pytest.raises(ScoreboardError, match=said):
        ScoreboardLink(url, **kwargs)  # type: ignore[arg-type]
