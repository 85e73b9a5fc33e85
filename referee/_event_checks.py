"""A shot's events checked before it is judged: what the shot-log reader refuses.

A shot built in Python (not read from a log) gets the same checks as one read from a
file, so that :meth:`referee.Match.play` judges only what ``carom score`` would read
back: finite times, a non-negative time uncertainty, two different balls in a contact,
the enumerations' own members (``Cushion.HEAD``, not ``"top"``). A NaN time was judged
(as the first event of a break) and then written as ``NaN``, which is not JSON.
"""

from __future__ import annotations

import math
from typing import Any

from referee._errors import RulesError
from referee._events import BallContact, Call, CushionContact, OffTable, PinDown, Pocketed
from referee._names import Ball, Cushion, Foul, Pin, Pocket

__all__ = ["check_events"]

#: Each event type's fields that must be members of an enumeration.
_MEMBERS: dict[type, tuple[tuple[str, type, bool], ...]] = {
    CushionContact: (("ball", Ball, False), ("cushion", Cushion, False)),
    PinDown: (("pin", Pin, False), ("ball", Ball, True)),
    OffTable: (("ball", Ball, False),),
    Pocketed: (("ball", Ball, False), ("pocket", Pocket, False)),
    Call: (("foul", Foul, False),),
    BallContact: (),
}


def check_events(events: Any, where: str) -> None:
    """Refuse events a shot log could not hold (module docstring).

    Raises:
        RulesError: one line naming the event (``where``: the shot) and the field.
    """
    if not isinstance(events, tuple):
        raise RulesError(f"{where}.events: a tuple of events, got {type(events).__name__}")
    for i, event in enumerate(events):
        at = f"{where}.events[{i}]"
        fields = _MEMBERS.get(type(event))
        if fields is None:
            raise RulesError(f"{at}: not an event (got {type(event).__name__})")
        _check_times(event, at)
        for name, kind, optional in fields:
            value = getattr(event, name)
            if not (isinstance(value, kind) or (optional and value is None)):
                raise RulesError(f"{at}.{name}: expected a {kind.__name__}, got {value!r}")
        if isinstance(event, BallContact):
            _check_pair(event.balls, at)


def _check_times(event: Any, at: str) -> None:
    t_s, t_err_s = event.t_s, event.t_err_s
    if not (isinstance(t_s, int | float) and math.isfinite(t_s)):
        raise RulesError(f"{at}.t_s: expected a finite number, got {t_s!r}")
    if not (isinstance(t_err_s, int | float) and math.isfinite(t_err_s) and t_err_s >= 0.0):
        raise RulesError(f"{at}.t_err_s: expected a finite number >= 0, got {t_err_s!r}")


def _check_pair(balls: Any, at: str) -> None:
    if not (isinstance(balls, tuple) and len(balls) == 2):
        raise RulesError(f"{at}.balls: expected 2 balls, got {balls!r}")
    if not all(isinstance(b, Ball) for b in balls):
        raise RulesError(f"{at}.balls: expected 2 balls, got {balls!r}")
    if balls[0] == balls[1]:
        raise RulesError(f"{at}.balls: a ball cannot touch itself ({balls[0]})")
