"""The hardware errors: every one derives from :class:`referee.CaromError`.

::

    CaromError
    ├── ScoreboardError     a scoreboard link or its protocol failed
    │   └── ProtocolError   a frame or payload does not follow docs/scoreboard-protocol.md
    └── CameraError         a camera or stream cannot be opened
"""

from __future__ import annotations

from referee import CaromError

__all__ = ["CameraError", "ProtocolError", "ScoreboardError"]


class ScoreboardError(CaromError):
    """A scoreboard link failed (port, device or protocol)."""


class ProtocolError(ScoreboardError):
    """A frame or payload breaks the wire protocol; the message names the field."""


class CameraError(CaromError):
    """A camera or stream cannot be opened; the message names it and what to check."""
