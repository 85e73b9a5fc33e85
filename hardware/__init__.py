"""Scoreboards on a serial line (issue 6): the wire protocol, the link, an emulator.

The codec (:func:`encode_frame`, :class:`FrameDecoder`, :class:`Snapshot`, ...) is
described in ``docs/scoreboard-protocol.md``; :class:`ScoreboardLink` keeps a board
up to date from its own thread; :class:`ScoreboardEmulator` is the device side.
"""

from hardware._emulator import Faults, ScoreboardEmulator, render_board
from hardware._errors import ProtocolError, ScoreboardError
from hardware._link import LinkState, LinkStatus, LinkTiming, ScoreboardLink
from hardware._protocol import Frame, FrameDecoder, FrameKind, Identity, encode_frame
from hardware._snapshot import (
    EventKind,
    EventMessage,
    Snapshot,
    board_players,
    board_slot,
    board_text,
    snapshot_from_state,
    text_line,
)

__all__ = [
    "EventKind",
    "EventMessage",
    "Faults",
    "Frame",
    "FrameDecoder",
    "FrameKind",
    "Identity",
    "LinkState",
    "LinkStatus",
    "LinkTiming",
    "ProtocolError",
    "ScoreboardEmulator",
    "ScoreboardError",
    "ScoreboardLink",
    "Snapshot",
    "board_players",
    "board_slot",
    "board_text",
    "encode_frame",
    "render_board",
    "snapshot_from_state",
    "text_line",
]
