"""What a scoreboard protocol must provide to the link: the codec protocol and the replies.

The link (:class:`~hardware.ScoreboardLink`) owns the port, its thread, the retries,
the backoff, the heartbeat clock and the one event in flight; it knows nothing of what
the bytes look like. A codec turns what the app shows (a :class:`Snapshot`, an
:class:`EventMessage`) and the link's own messages (identify, heartbeat) into bytes,
and a decoder turns what comes back into :data:`Reply` values. One codec per
protocol, each in its own module, named in the registry (``_codecs.py``).

Sequence numbers are the link's: it numbers every message 0..255 and keeps the number
of an event it retries; a codec without numbers ignores them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from hardware.scoreboard._protocol import Identity
from hardware.scoreboard._snapshot import EventMessage, Snapshot

__all__ = ["Ack", "BoardCodec", "BoardDecoder", "Nak", "Reply", "Unreadable"]


@dataclass(frozen=True, slots=True)
class Ack:
    """The board took message ``seq``."""

    seq: int


@dataclass(frozen=True, slots=True)
class Nak:
    """The board got message ``seq`` damaged or could not use it: send it again."""

    seq: int


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A reply from this board that the codec could not read; ``error`` says why."""

    error: str


#: What a decoder hands the link, in the order the bytes came: an :class:`Identity`
#: answers identify.
Reply = Ack | Nak | Identity | Unreadable


class BoardDecoder(Protocol):
    """Turns the bytes a board sends into replies; a fresh one for every opened port.

    It never raises, whatever the bytes, and drops replies of other boards on the bus.
    """

    @property
    def crc_errors(self) -> int:
        """Replies dropped as damaged since this decoder was made."""
        ...

    def feed(self, data: bytes) -> list[Reply]:
        """The complete replies in ``data`` (and in what earlier calls left over)."""
        ...


class BoardCodec(Protocol):
    """One scoreboard protocol; ``addr`` is the board's bus address, ``seq`` 0..255.

    ``two_way`` says whether the board answers. True: the link sends identify when a
    port opens, events one at a time (retried until acked), a heartbeat when the line
    was quiet, and reopens a port that stays silent. False: the link only writes
    snapshots; :meth:`identify`, :meth:`event` and :meth:`heartbeat` are never called.
    """

    @property
    def name(self) -> str:
        """The dialect name the registry knows it by."""
        ...

    @property
    def two_way(self) -> bool:
        """Whether the board answers (see the class docstring)."""
        ...

    def snapshot(self, addr: int, seq: int, snapshot: Snapshot) -> bytes:
        """The bytes that make the board show ``snapshot``."""
        ...

    def event(self, addr: int, seq: int, msg: EventMessage) -> bytes:
        """The bytes of one event message."""
        ...

    def identify(self, addr: int, seq: int) -> bytes:
        """The bytes asking the board who it is."""
        ...

    def heartbeat(self, addr: int, seq: int) -> bytes:
        """The bytes that keep a quiet line alive."""
        ...

    def decoder(self, addr: int) -> BoardDecoder:
        """A new decoder for the replies of the board at ``addr``."""
        ...
