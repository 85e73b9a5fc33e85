"""The one error tree of carom-referee.

Every error the project raises on purpose derives from :class:`CaromError`, so a
caller (the CLI, the server, the live loop) can catch one class and print its
message, which is always one line that names the problem and the way out::

    CaromError
    ├── RulesError            the referee cannot apply a rule to this input
    │   ├── ShotLogError      a shot log document is malformed (names the field)
    │   ├── IllegalMoveError  the match state does not allow this input now
    │   ├── UnknownBallError  a ball, pin or player the match does not know
    │   └── UnknownNameError  a name none of an enumeration's is (also a ValueError)
    ├── CalibrationError      (calibration/) camera model or table geometry
    │   └── CalibrationFailed the automatic fit failed: stop, mark the corners (exit 4)
    ├── VisionError           (vision/) detection, tracking, events
    │   ├── VideoError        frames cannot be read or decoded
    │   └── ModelError        a ball network file cannot be loaded or run
    ├── ScoreboardError       (hardware/) a scoreboard link failed
    │   └── ProtocolError     the board answered what the protocol does not allow
    ├── CameraError           (hardware/) a camera or stream cannot be opened or read
    └── the app layer's       (carom/) LiveError (CallParseError, ConflictError),
                              MatchFileError, TrajectoriesError, ShotCsvError,
                              ReportError, ManifestError, CatalogueError

The subclasses of the other packages are defined there and derive from
:class:`CaromError`; the referee is the bottom layer, so the root lives here.
"""

from __future__ import annotations

__all__ = [
    "CaromError",
    "IllegalMoveError",
    "RulesError",
    "ShotLogError",
    "UnknownBallError",
    "UnknownNameError",
]


class CaromError(Exception):
    """Root of every error carom-referee raises on purpose."""


class RulesError(CaromError):
    """The referee cannot apply a rule to this input."""


class ShotLogError(RulesError):
    """A shot log document is malformed; the message names the field."""


class IllegalMoveError(RulesError):
    """The match state does not accept this input now; the state is unchanged."""


class UnknownBallError(RulesError):
    """A ball, pin or player name the match does not know."""


class UnknownNameError(RulesError, ValueError):
    """A name that is none of an enumeration's (``Discipline("snooker")``, ``Cushion("top")``).

    Also a ``ValueError``, which an enumeration raises for a value it lacks.
    """
