"""A shot or a lag checked before it is judged: what the shot-log reader refuses.

A shot built in Python (not read from a log) gets the same checks as one read from a
file, so that :meth:`referee.Match.play` judges only what ``carom score`` would read
back: a whole index, finite times, a non-negative time uncertainty, two different balls
in a contact, the enumerations' own members (``Cushion.HEAD``, not ``"top"``), a
``Call`` only of a foul a person calls (``CALL_FOULS``), positions of finite
millimetres, a doubt in words. (:meth:`referee.Match.play` checks the index: the next
shot's.) A NaN time was judged (as the first
event of a break) and then written as ``NaN``, which is not JSON; a NaN lag position
decided the lag.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from referee._errors import RulesError
from referee._events import BallContact, Call, CushionContact, OffTable, PinDown, Pocketed
from referee._names import CALL_FOULS, Ball, Cushion, Foul, Pin, Pocket

__all__ = ["check_events", "check_lag", "check_shot"]

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
        if isinstance(event, Call) and event.foul not in CALL_FOULS:
            choices = ", ".join(sorted(CALL_FOULS))
            raise RulesError(f"{at}.foul: '{event.foul}' cannot be called (callable: {choices})")


def _check_times(event: Any, at: str) -> None:
    t_s, t_err_s = event.t_s, event.t_err_s
    if not _finite(t_s):
        raise RulesError(f"{at}.t_s: expected a finite number, got {t_s!r}")
    if not (_finite(t_err_s) and t_err_s >= 0.0):
        raise RulesError(f"{at}.t_err_s: expected a finite number >= 0, got {t_err_s!r}")


def _check_pair(balls: Any, at: str) -> None:
    if not (isinstance(balls, tuple) and len(balls) == 2):
        raise RulesError(f"{at}.balls: expected 2 balls, got {balls!r}")
    if not all(isinstance(b, Ball) for b in balls):
        raise RulesError(f"{at}.balls: expected 2 balls, got {balls!r}")
    if balls[0] == balls[1]:
        raise RulesError(f"{at}.balls: a ball cannot touch itself ({balls[0]})")


def check_shot(shot: Any, where: str) -> None:
    """Refuse a shot a shot log could not hold (module docstring).

    Raises:
        RulesError: one line naming the shot's field.
    """
    if not isinstance(shot.index, int) or isinstance(shot.index, bool) or shot.index < 0:
        raise RulesError(f"{where}.index: expected a whole number >= 0, got {shot.index!r}")
    if not isinstance(shot.cue_ball, Ball):
        raise RulesError(f"{where}.cue_ball: expected a Ball, got {shot.cue_ball!r}")
    for name in ("start_s", "end_s"):
        value = getattr(shot, name)
        if value is not None and not _finite(value):
            raise RulesError(f"{where}.{name}: expected a finite number or None, got {value!r}")
    if shot.doubt is not None and not isinstance(shot.doubt, str):
        raise RulesError(f"{where}.doubt: expected words or None, got {shot.doubt!r}")
    decided = shot.decided_points
    if decided is not None and (not isinstance(decided, int) or isinstance(decided, bool)
                                or decided < 0):  # fmt: skip
        raise RulesError(f"{where}.decided_points: expected a whole number >= 0 or None, "
                         f"got {decided!r}")  # fmt: skip
    _check_positions(shot.start_positions_mm, f"{where}.start_positions_mm")
    _check_positions(shot.end_positions_mm, f"{where}.end_positions_mm")
    if not isinstance(shot.paths_mm, Mapping):
        raise RulesError(f"{where}.paths_mm: expected a mapping of balls, got {shot.paths_mm!r}")
    check_events(shot.events, where)


def check_lag(lag: Any) -> None:
    """Refuse a lag a shot log could not hold: its events and positions (module docstring).

    Raises:
        RulesError: one line naming the lag's field.
    """
    check_events(lag.events, "lag")
    _check_positions(lag.start_positions_mm, "lag.start_positions_mm")
    _check_positions(lag.end_positions_mm, "lag.end_positions_mm")


def _check_positions(positions: Any, where: str) -> None:
    if not isinstance(positions, Mapping):
        raise RulesError(f"{where}: expected a mapping of balls to (x, y) mm, got {positions!r}")
    for ball, xy in positions.items():
        if not isinstance(ball, Ball):
            raise RulesError(f"{where}: expected Ball keys, got {ball!r}")
        if not (isinstance(xy, tuple | list) and len(xy) == 2 and all(map(_finite, xy))):
            raise RulesError(f"{where}.{ball}: expected (x, y) finite mm, got {xy!r}")


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
