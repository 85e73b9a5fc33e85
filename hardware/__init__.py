"""The hardware adapters: scoreboards on a serial line, and cameras.

``hardware.scoreboard`` (issue 6): :class:`ScoreboardLink` keeps a board up to date
from its own thread and speaks the board's protocol through a codec
(:class:`BoardCodec`, one module per protocol, chosen by dialect name: the framed
protocol of ``docs/scoreboard-protocol.md`` -- :func:`encode_frame`,
:class:`FrameDecoder`, :class:`Snapshot`, ... -- or the one-line text dialect);
:class:`ScoreboardEmulator` is a framed board's device side.

``hardware.camera``: :func:`open_camera` opens a device index, a V4L2 device or a
stream URL as a :class:`Camera` that hands out timed pictures.

``hardware`` imports neither ``vision`` nor the app: frames flow camera -> vision.
"""

from hardware._errors import CameraError, ProtocolError, ScoreboardError
from hardware.camera import (
    Camera,
    CameraFrame,
    CameraKind,
    explain_camera,
    is_camera_spec,
    open_camera,
    register_camera,
    safe_spec,
)
from hardware.scoreboard import (
    Ack,
    BoardCodec,
    BoardDecoder,
    CodecFactory,
    EventKind,
    EventMessage,
    Faults,
    Frame,
    FramedCodec,
    FrameDecoder,
    FrameKind,
    Identity,
    LinkState,
    LinkStatus,
    LinkTiming,
    Nak,
    Reply,
    ScoreboardEmulator,
    ScoreboardLink,
    Snapshot,
    TextCodec,
    Unreadable,
    board_players,
    board_slot,
    board_text,
    codec_for,
    dialects,
    encode_frame,
    register_codec,
    render_board,
    snapshot_from_state,
    text_line,
)

__all__ = [
    "Ack",
    "BoardCodec",
    "BoardDecoder",
    "Camera",
    "CameraError",
    "CameraFrame",
    "CameraKind",
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
    "ProtocolError",
    "Reply",
    "ScoreboardEmulator",
    "ScoreboardError",
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
    "explain_camera",
    "is_camera_spec",
    "open_camera",
    "register_camera",
    "register_codec",
    "render_board",
    "safe_spec",
    "snapshot_from_state",
    "text_line",
]
