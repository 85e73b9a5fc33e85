"""Scoreboard wire frames: encode one, decode a byte stream that may be noisy.

A frame is printable ASCII between STX and ETX (see docs/scoreboard-protocol.md)::

    STX  AA SS K payload * CCCC  ETX
         |  |  |         |  CRC-16/CCITT-FALSE of "AASSKpayload", 4 upper-case hex
         |  |  kind, one letter (FrameKind)
         |  sequence number 00..FF, 2 upper-case hex
         address 00..FF (FF: every board on the bus)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hardware._errors import ProtocolError
from hardware.scoreboard._crc import crc16_ccitt

__all__ = [
    "BROADCAST",
    "ETX",
    "MAX_PAYLOAD_CHARS",
    "STX",
    "Frame",
    "FrameDecoder",
    "FrameKind",
    "Identity",
    "Reject",
    "encode_frame",
    "parse_seq_payload",
    "seq_payload",
]

STX = 0x02
ETX = 0x03
BROADCAST = 0xFF
#: Longest payload a device must accept; a longer body is junk (bounds firmware buffers).
MAX_PAYLOAD_CHARS = 240
_HEAD_CHARS = 5  # "AASSK"
_TAIL_CHARS = 5  # "*CCCC"
_MAX_BODY = _HEAD_CHARS + MAX_PAYLOAD_CHARS + _TAIL_CHARS
_HEX = frozenset(b"0123456789ABCDEF")
_MAX_REJECTS = 64


class FrameKind(StrEnum):
    """What a frame carries: one ASCII letter on the wire."""

    SNAPSHOT = "S"
    EVENT = "E"
    ACK = "A"
    NAK = "N"
    IDENTIFY = "I"
    HEARTBEAT = "H"


def _check_payload(payload: str) -> None:
    if len(payload) > MAX_PAYLOAD_CHARS:
        raise ProtocolError(
            f"payload is {len(payload)} chars, the limit is {MAX_PAYLOAD_CHARS}; shorten the names"
        )
    for ch in payload:
        if not " " <= ch <= "~" or ch == "*":
            raise ProtocolError(
                f"payload holds {ch!r}; only printable ASCII without '*' may go on the wire"
            )


@dataclass(frozen=True, slots=True)
class Frame:
    """One protocol frame.

    ``addr`` 0..255 (255 = broadcast), ``seq`` 0..255, ``payload`` printable ASCII
    (0x20..0x7E) without ``*``, at most ``MAX_PAYLOAD_CHARS`` long. Raises
    :class:`ProtocolError` otherwise, so a bad frame never reaches the wire.
    """

    addr: int
    seq: int
    kind: FrameKind
    payload: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.addr <= 0xFF:
            raise ProtocolError(f"addr {self.addr} is outside 0..255")
        if not 0 <= self.seq <= 0xFF:
            raise ProtocolError(f"seq {self.seq} is outside 0..255; wrap it with % 256")
        if not isinstance(self.kind, FrameKind):
            raise ProtocolError(f"kind {self.kind!r} is not a FrameKind")
        _check_payload(self.payload)


def encode_frame(frame: Frame) -> bytes:
    """The bytes of ``frame`` on the wire, STX and ETX included."""
    body = f"{frame.addr:02X}{frame.seq:02X}{frame.kind.value}{frame.payload}".encode("ascii")
    return bytes([STX]) + body + f"*{crc16_ccitt(body):04X}".encode("ascii") + bytes([ETX])


def seq_payload(seq: int) -> str:
    """The payload of an ACK or NAK: the answered sequence number, ``"SS"``."""
    if not 0 <= seq <= 0xFF:
        raise ProtocolError(f"seq {seq} is outside 0..255")
    return f"{seq:02X}"


def parse_seq_payload(payload: str) -> int:
    """The sequence number an ACK or NAK answers; :class:`ProtocolError` if malformed."""
    if len(payload) != 2 or not set(payload.encode("ascii", "replace")) <= _HEX:
        raise ProtocolError(f"ack/nak payload {payload!r} is not two upper-case hex digits")
    return int(payload, 16)


@dataclass(frozen=True, slots=True)
class Identity:
    """A device's answer to IDENTIFY: ``"model|firmware|digits"`` on the wire."""

    model: str
    firmware: str
    digits: int

    def to_payload(self) -> str:
        """The IDENTIFY reply payload."""
        for name, text in (("model", self.model), ("firmware", self.firmware)):
            if "|" in text:
                raise ProtocolError(f"identity {name} {text!r} must not contain '|'")
        payload = f"{self.model}|{self.firmware}|{self.digits}"
        _check_payload(payload)
        return payload

    @classmethod
    def from_payload(cls, payload: str) -> Identity:
        """Parse an IDENTIFY reply; :class:`ProtocolError` if it is not three fields."""
        parts = payload.split("|")
        if len(parts) != 3 or not parts[2].isascii() or not parts[2].isdigit():
            raise ProtocolError(f"identify reply {payload!r} is not 'model|firmware|digits'")
        return cls(parts[0], parts[1], int(parts[2]))


@dataclass(frozen=True, slots=True)
class Reject:
    """A frame dropped for a bad CRC whose address and sequence could still be read.

    A device answers it with NAK (payload: ``seq``) when ``addr`` is its own.
    """

    addr: int
    seq: int


def _hex_field(data: bytes, width: int) -> int | None:
    """The value of exactly ``width`` upper-case hex digits, else ``None``."""
    return int(data, 16) if len(data) == width and set(data) <= _HEX else None


class FrameDecoder:
    """Turns a byte stream into frames; never raises, whatever the bytes.

    Bytes outside STX..ETX are counted in ``junk_bytes`` (an STX inside a frame
    restarts the frame: the partial one counts as junk). A frame whose CRC is wrong,
    missing or unreadable is dropped and counted in ``crc_errors`` (and its address
    and sequence, when readable, kept for :meth:`drain_rejects`); one with a good CRC
    that is still not well formed (bad hex, unknown kind, non-printable byte) in
    ``bad_frames``. A body longer than any frame can be is junk. ``frames`` counts
    the frames returned.
    """

    def __init__(self) -> None:
        self.frames = 0
        self.crc_errors = 0
        self.junk_bytes = 0
        self.bad_frames = 0
        self._body = bytearray()
        self._in_frame = False
        self._rejects: list[Reject] = []

    def feed(self, data: bytes) -> list[Frame]:
        """Decode ``data`` (any length, any content); returns the complete good frames."""
        out: list[Frame] = []
        for byte in data:
            self._step(byte, out)
        return out

    def drain_rejects(self) -> list[Reject]:
        """The CRC rejects since the last call (for NAKs), oldest first."""
        rejects, self._rejects = self._rejects, []
        return rejects

    def _step(self, byte: int, out: list[Frame]) -> None:
        if byte == STX:
            if self._in_frame:
                self.junk_bytes += 1 + len(self._body)  # resync on the newest STX
            self._body.clear()
            self._in_frame = True
        elif not self._in_frame:
            self.junk_bytes += 1
        elif byte == ETX:
            self._in_frame = False
            frame = self._parse(bytes(self._body))
            if frame is not None:
                self.frames += 1
                out.append(frame)
        elif len(self._body) >= _MAX_BODY:
            self._in_frame = False
            self.junk_bytes += 2 + len(self._body)
        else:
            self._body.append(byte)

    def _parse(self, body: bytes) -> Frame | None:
        star = len(body) - _TAIL_CHARS
        if star < 0 or body[star] != ord("*"):
            self.crc_errors += 1  # damaged framing: no "*CCCC" tail
            self._note_reject(body)
            return None
        head, crc = body[:star], _hex_field(body[star + 1 :], 4)
        if crc is None or crc16_ccitt(head) != crc:
            self.crc_errors += 1  # damaged on the way: wrong, missing or unreadable CRC
            self._note_reject(head)
            return None
        frame = _frame_of(head)
        if frame is None:
            self.bad_frames += 1  # intact, but not a frame this protocol knows
        return frame

    def _note_reject(self, head: bytes) -> None:
        addr, seq = _hex_field(head[0:2], 2), _hex_field(head[2:4], 2)
        if addr is not None and seq is not None:
            self._rejects.append(Reject(addr, seq))
            del self._rejects[:-_MAX_REJECTS]  # nobody draining must not grow memory


def _frame_of(head: bytes) -> Frame | None:
    """The frame a CRC-checked head encodes, or ``None`` when it is malformed."""
    addr, seq = _hex_field(head[0:2], 2), _hex_field(head[2:4], 2)
    if len(head) < _HEAD_CHARS or addr is None or seq is None:
        return None
    try:
        return Frame(addr, seq, FrameKind(chr(head[4])), head[5:].decode("ascii"))
    except (ValueError, ProtocolError):  # unknown kind, non-ASCII, '*' or control byte
        return None
