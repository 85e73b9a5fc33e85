"""Scoreboards on a serial line (issue 6): the link, one codec per protocol, an emulator.

:class:`ScoreboardLink` keeps a board up to date from its own thread (port, retries,
backoff, heartbeat); what goes on the wire is its codec's (:class:`BoardCodec`), picked
by dialect name from a registry (:func:`codec_for`): ``"frames"``, the framed protocol
of ``docs/scoreboard-protocol.md`` (:func:`encode_frame`, :class:`FrameDecoder`,
:class:`Snapshot`, ...), and ``"text"``, one line per snapshot. A new protocol is a
new codec module and one registry entry (``_codecs.py``), or :func:`register_codec`.
:class:`ScoreboardEmulator` is a framed board's device side.
"""

from hardware.scoreboard._codec import Ack, BoardCodec, BoardDecoder, Nak, Reply, Unreadable
from hardware.scoreboard._codec_framed import FramedCodec
from hardware.scoreboard._codec_text import TextCodec, text_line
from hardware.scoreboard._codecs import CodecFactory, codec_for, dialects, register_codec
from hardware.scoreboard._emulator import Faults, ScoreboardEmulator, render_board
from hardware.scoreboard._link import ScoreboardLink
from hardware.scoreboard._link_types import LinkState, LinkStatus, LinkTiming
from hardware.scoreboard._protocol import Frame, FrameDecoder, FrameKind, Identity, encode_frame
from hardware.scoreboard._snapshot import (
    EventKind,
    EventMessage,
    Snapshot,
    board_players,
    board_slot,
    board_text,
    snapshot_from_state,
)

__all__ = [
    "Ack",
    "BoardCodec",
    "BoardDecoder",
    "CodecFactory",
    "EventKind",
    "EventMessage",
    "Faults",
    "Frame",
    "FrameDecoder",
    "FrameKind",
    "FramedCodec",
    "Identity",
    "LinkState",
    "LinkStatus",
    "LinkTiming",
    "Nak",
    "Reply",
    "ScoreboardEmulator",
    "ScoreboardLink",
    "Snapshot",
    "TextCodec",
    "Unreadable",
    "board_players",
    "board_slot",
    "board_text",
    "codec_for",
    "dialects",
    "encode_frame",
    "register_codec",
    "render_board",
    "snapshot_from_state",
    "text_line",
]
