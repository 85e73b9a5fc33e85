"""A shot or a lag checked before it is judged: what the shot-log reader refuses.

A shot built in Python (not read from a log) gets the same checks as one read from a
file, so that :meth:`referee.Match.play` judges only what ``carom score`` would read
back: a whole index, finite times, a non-negative time uncertainty, two different balls
in a contact, the enumerations' own members (``Cushion.HEAD``, not ``"top"``), a
``Call`` only of a foul a person calls (``CALL_FOULS``), positions and paths of finite
millimetres within 100 m of the table, a doubt in words, ``end_s`` not before
``start_s`` and the seen events within the shot's span (:func:`span_problem`, the
reader's own test). (:meth:`referee.Match.play` checks the index, the next shot's, and
that a shot does not start before the one before it; it judges the events in time
order, as the reader sorts them.) A NaN time was judged (as the first event of a break)
and then written as ``NaN``, which is not JSON; a NaN lag position decided the lag; an
event 300 s after its shot's end was judged where the reader refuses it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from referee._errors import RulesError
from referee._events import BallContact, Call, CushionContact, OffTable, PinDown, Pocketed
from referee._names import CALL_FOULS, Ball, Cushion, Foul, Pin, Pocket

__all__ = ["FAR_MM", "SPAN_SLACK_S", "check_events", "check_lag", "check_shot", "span_problem"]

#: Positions: a ball 100 m from the table is a corrupt number.
FAR_MM = 100_000.0
#: How far (s) a seen event may lie outside its shot's ``start_s``..``end_s``: contacts
#: are timed between frames, and one can fall just before the first moving frame.
SPAN_SLACK_S = 1.0

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
        if event.doubt is not None and not isinstance(event.doubt, str):
            raise RulesError(f"{at}.doubt: expected words or None, got {event.doubt!r}")
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
    for name, value in (("safety", shot.safety), ("is_break", shot.is_break)):
        if not (isinstance(value, bool) or (name == "is_break" and value is None)):
            raise RulesError(f"{where}.{name}: expected True or False, got {value!r}")
    decided = shot.decided_points
    if decided is not None and (not isinstance(decided, int) or isinstance(decided, bool)
                                or decided < 0):  # fmt: skip
        raise RulesError(f"{where}.decided_points: expected a whole number >= 0 or None, "
                         f"got {decided!r}")  # fmt: skip
    _check_positions(shot.start_positions_mm, f"{where}.start_positions_mm")
    _check_positions(shot.end_positions_mm, f"{where}.end_positions_mm")
    _check_paths(shot.paths_mm, f"{where}.paths_mm")
    check_events(shot.events, where)
    problem = span_problem(shot.events, shot.start_s, shot.end_s)
    if problem is not None:
        raise RulesError(f"{where}.{problem[0]}: {problem[1]}")


def span_problem(
    events: tuple[Any, ...], start_s: float | None, end_s: float | None
) -> tuple[str, str] | None:
    """Where a shot's times disagree and how, or None when they agree.

    ``end_s`` before ``start_s``, or a seen event outside ``start_s``..``end_s`` by more
    than :data:`SPAN_SLACK_S`.

    A typo in a time (364.0 for 36.4) moved an event into another part of the match
    without a word. A person's call may come after the balls stopped: not checked.
    """
    if start_s is not None and end_s is not None and end_s < start_s:
        return "end_s", f"{end_s} s is before start_s {start_s} s"
    lo = -math.inf if start_s is None else start_s - SPAN_SLACK_S
    hi = math.inf if end_s is None else end_s + SPAN_SLACK_S
    for i, event in enumerate(events):
        if not isinstance(event, Call) and not lo <= event.t_s <= hi:
            span = f"{'?' if start_s is None else start_s}..{'?' if end_s is None else end_s} s"
            return (
                f"events[{i}].t_s",
                f"{event.t_s} s lies outside its shot ({span}); check the time",
            )
    return None


def check_lag(lag: Any) -> None:
    """Refuse a lag a shot log could not hold: its events and positions (module docstring).

    Raises:
        RulesError: one line naming the lag's field.
    """
    check_events(lag.events, "lag")
    _check_positions(lag.start_positions_mm, "lag.start_positions_mm")
    _check_positions(lag.end_positions_mm, "lag.end_positions_mm")


def _by_ball(value: Any, where: str, of: str) -> Mapping[Ball, Any]:
    """``value`` as a mapping of balls (to ``of``), else RulesError naming ``where``."""
    if not isinstance(value, Mapping):
        raise RulesError(f"{where}: expected a mapping of balls{of}, got {value!r}")
    for ball in value:
        if not isinstance(ball, Ball):
            raise RulesError(f"{where}: expected Ball keys, got {ball!r}")
    return value


def _check_positions(positions: Any, where: str) -> None:
    for ball, xy in _by_ball(positions, where, " to (x, y) mm").items():
        if not (isinstance(xy, tuple | list) and len(xy) == 2 and all(map(_near, xy))):
            raise RulesError(f"{where}.{ball}: expected (x, y) finite mm within 100 m of the "
                             f"table, got {xy!r}")  # fmt: skip


def _check_paths(paths: Any, where: str) -> None:
    for ball, samples in _by_ball(paths, where, "").items():
        if not isinstance(samples, tuple | list):
            raise RulesError(f"{where}.{ball}: expected (t_s, x_mm, y_mm) samples, got {samples!r}")
        for i, s in enumerate(samples):
            if not (isinstance(s, tuple | list) and len(s) == 3 and _finite(s[0])
                    and _near(s[1]) and _near(s[2])):  # fmt: skip
                raise RulesError(f"{where}.{ball}[{i}]: expected (t_s, x_mm, y_mm) finite, "
                                 f"within 100 m of the table, got {s!r}")  # fmt: skip


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _near(value: Any) -> bool:
    """A finite coordinate within :data:`FAR_MM` of the table."""
    return _finite(value) and -FAR_MM <= value <= FAR_MM
