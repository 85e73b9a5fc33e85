"""Contact events of one shot: a closed union, times in seconds of the clip.

Every event may carry doubt from its source (vision, another tracker, a scorer):

* ``doubt``: why the event itself may be wrong ("balls too close to tell",
  "cue ball hidden by the arm"). The referee checks whether the verdict would change
  without the event; if so the verdict asks for ``review`` with this reason.
* ``t_err_s``: one-sigma-ish uncertainty of ``t_s`` in seconds. The referee checks
  whether moving the event by ``± t_err_s`` changes the verdict (the order of the
  third cushion and the second ball, say).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee._names import Ball, Cushion, Foul, Pin, Pocket

__all__ = [
    "BallContact",
    "Call",
    "CushionContact",
    "Event",
    "OffTable",
    "PinDown",
    "Pocketed",
    "describe",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class BallContact:
    """Two balls touched at ``t_s``. ``balls`` is unordered."""

    t_s: float
    balls: tuple[Ball, Ball]
    doubt: str | None = None
    t_err_s: float = 0.0

    def involves(self, ball: Ball) -> bool:
        """True if ``ball`` is one of the two balls."""
        return ball in self.balls

    def other(self, ball: Ball) -> Ball:
        """The ball that ``ball`` touched (``ball`` must be involved)."""
        return self.balls[1] if self.balls[0] == ball else self.balls[0]


@dataclass(frozen=True, slots=True, kw_only=True)
class CushionContact:
    """``ball`` touched ``cushion`` at ``t_s``."""

    t_s: float
    ball: Ball
    cushion: Cushion
    doubt: str | None = None
    t_err_s: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class PinDown:
    """``pin`` fell at ``t_s``, knocked by ``ball`` (``None``: by another pin)."""

    t_s: float
    pin: Pin
    ball: Ball | None
    doubt: str | None = None
    t_err_s: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class OffTable:
    """``ball`` left the table at ``t_s``."""

    t_s: float
    ball: Ball
    doubt: str | None = None
    t_err_s: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Pocketed:
    """``ball`` dropped into ``pocket`` at ``t_s`` (pocket table only)."""

    t_s: float
    ball: Ball
    pocket: Pocket
    doubt: str | None = None
    t_err_s: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Call:
    """A person's call of a foul the camera cannot see, at ``t_s``."""

    t_s: float
    foul: Foul
    doubt: str | None = None
    t_err_s: float = 0.0


Event = BallContact | CushionContact | PinDown | OffTable | Pocketed | Call


def describe(event: Event) -> str:
    """A short human description, e.g. ``"white-red contact at 1.310 s"``."""
    match event:
        case BallContact(balls=(a, b)):
            what = f"{a}-{b} contact"
        case CushionContact(ball=ball, cushion=cushion):
            what = f"{ball} on the {cushion} cushion"
        case PinDown(pin=pin, ball=ball):
            what = f"{pin} pin down by {ball or 'a pin'}"
        case OffTable(ball=ball):
            what = f"{ball} off the table"
        case Pocketed(ball=ball, pocket=pocket):
            what = f"{ball} in the {pocket} pocket"
        case Call(foul=foul):
            what = f"call {foul}"
    return f"{what} at {event.t_s:.3f} s"
