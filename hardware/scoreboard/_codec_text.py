"""The one-line text dialect as a codec, for the simplest boards: a line per snapshot.

Nothing is answered, so the link sends no events, identify or heartbeat, and a quiet
line is not taken for a dead one.
"""

from __future__ import annotations

from hardware._errors import ProtocolError
from hardware.scoreboard._codec import Reply
from hardware.scoreboard._snapshot import EventMessage, Snapshot

__all__ = ["TEXT_LINE_NAME_CHARS", "TextCodec", "text_line"]

#: Longest player name on the one-line text dialect.
TEXT_LINE_NAME_CHARS = 8


def text_line(snapshot: Snapshot) -> bytes:
    r"""The one-line text dialect: ``b">A 12 : 9 B  R3  I14\r\n"``.

    ``>`` marks the player at the table; names are cut to ``TEXT_LINE_NAME_CHARS``;
    ``I`` is the match's inning count (the larger of the two); then, when they
    apply, ``T<seconds>`` (shot clock), ``EQ`` (equalizing), ``REV`` (review) and
    ``END`` (match over), each after two spaces.
    """
    a, b = (
        (">" if snapshot.active == i else "") + name[:TEXT_LINE_NAME_CHARS]
        for i, name in enumerate(snapshot.players)
    )
    parts = [f"{a} {snapshot.scores[0]} : {snapshot.scores[1]} {b}"]
    parts += [f"R{snapshot.run}", f"I{max(snapshot.innings)}"]
    if snapshot.shot_clock_s is not None:
        parts.append(f"T{snapshot.shot_clock_s}")
    flags = (snapshot.equalizing, snapshot.review, snapshot.over)
    parts += [tag for tag, on in zip(("EQ", "REV", "END"), flags, strict=True) if on]
    return ("  ".join(parts) + "\r\n").encode("ascii")


class TextCodec:
    """The ``"text"`` dialect: one-way, a :func:`text_line` per snapshot, nothing else."""

    name = "text"
    two_way = False

    def snapshot(self, addr: int, seq: int, snapshot: Snapshot) -> bytes:
        """The snapshot's text line (one bus, one board: no address, no number)."""
        return text_line(snapshot)

    def event(self, addr: int, seq: int, msg: EventMessage) -> bytes:
        """Never called: a text board shows no events."""
        raise ProtocolError("the text dialect carries no events")

    def identify(self, addr: int, seq: int) -> bytes:
        """Never called: a text board does not answer."""
        raise ProtocolError("the text dialect has no identify")

    def heartbeat(self, addr: int, seq: int) -> bytes:
        """Never called: a one-way line needs no heartbeat."""
        raise ProtocolError("the text dialect has no heartbeat")

    def decoder(self, addr: int) -> NoReplies:
        """A decoder that reads nothing: a text board sends nothing back."""
        return NoReplies()


class NoReplies:
    """The decoder of a one-way protocol: whatever comes back is ignored."""

    crc_errors = 0

    def feed(self, data: bytes) -> list[Reply]:
        """Always empty."""
        return []
