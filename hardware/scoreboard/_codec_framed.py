"""The framed protocol as a codec: every message in a CRC-checked frame, acked by the board.

The frames themselves (``_protocol.py``) and the payloads (``_snapshot.py``) are
described in ``docs/scoreboard-protocol.md``; this module only maps the link's
messages onto frame kinds and the board's frames back onto replies.
"""

from __future__ import annotations

from hardware._errors import ProtocolError
from hardware.scoreboard._codec import Ack, Nak, Reply, Unreadable
from hardware.scoreboard._protocol import (
    Frame,
    FrameDecoder,
    FrameKind,
    Identity,
    encode_frame,
    parse_seq_payload,
)
from hardware.scoreboard._snapshot import EventMessage, Snapshot

__all__ = ["FramedCodec", "FramedDecoder"]


class FramedCodec:
    """The ``"frames"`` dialect (docs/scoreboard-protocol.md): two-way, acked."""

    name = "frames"
    two_way = True

    def snapshot(self, addr: int, seq: int, snapshot: Snapshot) -> bytes:
        """A SNAPSHOT frame."""
        return encode_frame(Frame(addr, seq, FrameKind.SNAPSHOT, snapshot.to_payload()))

    def event(self, addr: int, seq: int, msg: EventMessage) -> bytes:
        """An EVENT frame."""
        return encode_frame(Frame(addr, seq, FrameKind.EVENT, msg.to_payload()))

    def identify(self, addr: int, seq: int) -> bytes:
        """An empty IDENTIFY frame (the board answers with its identity)."""
        return encode_frame(Frame(addr, seq, FrameKind.IDENTIFY, ""))

    def heartbeat(self, addr: int, seq: int) -> bytes:
        """An empty HEARTBEAT frame."""
        return encode_frame(Frame(addr, seq, FrameKind.HEARTBEAT, ""))

    def decoder(self, addr: int) -> FramedDecoder:
        """A frame decoder that keeps the replies of the board at ``addr``."""
        return FramedDecoder(addr)


class FramedDecoder:
    """Frames from the board at ``addr`` as replies; CRC errors counted by the frame decoder."""

    def __init__(self, addr: int) -> None:
        self.addr = addr
        self._frames = FrameDecoder()

    @property
    def crc_errors(self) -> int:
        """Frames dropped for a bad CRC (every address: the damage hides whose it was)."""
        return self._frames.crc_errors

    def feed(self, data: bytes) -> list[Reply]:
        """The replies in ``data``: frames of other boards and host frames are left out."""
        return [
            reply
            for frame in self._frames.feed(data)
            if frame.addr == self.addr and (reply := _reply(frame)) is not None
        ]


def _reply(frame: Frame) -> Reply | None:
    try:
        if frame.kind is FrameKind.ACK:
            return Ack(parse_seq_payload(frame.payload))
        if frame.kind is FrameKind.NAK:
            return Nak(parse_seq_payload(frame.payload))
        if frame.kind is FrameKind.IDENTIFY:
            return Identity.from_payload(frame.payload)
    except ProtocolError as exc:
        return Unreadable(str(exc))
    return None  # a snapshot, event or heartbeat: what a host sends, not an answer
