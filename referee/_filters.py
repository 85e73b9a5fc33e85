"""Small predicates over a shot's event list, composed by the rules.

A rule reads like its text: "cushions of the cue ball before the second ball" is
``filter_events(events, by_type(CushionContact), by_ball(cue), by_time(t2, after=False))``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from referee._events import BallContact, Call, CushionContact, Event, OffTable, PinDown, Pocketed
from referee._names import Ball, Foul

__all__ = [
    "Carom",
    "by_ball",
    "by_time",
    "by_type",
    "called_fouls",
    "cushions_before",
    "filter_events",
    "find_carom",
    "first_contacts",
    "off_table_balls",
]

Predicate = Callable[[Event], bool]


def filter_events(events: Iterable[Event], *predicates: Predicate) -> tuple[Event, ...]:
    """The events for which every predicate holds, in their order."""
    return tuple(e for e in events if all(p(e) for p in predicates))


def by_type(*types: type) -> Predicate:
    """Events of one of ``types``."""
    return lambda e: isinstance(e, types)


def by_ball(ball: Ball) -> Predicate:
    """Events that involve ``ball`` (as a contact party, a knocker or the ball off)."""

    def pred(e: Event) -> bool:
        match e:
            case BallContact():
                return e.involves(ball)
            case CushionContact() | OffTable() | Pocketed() | PinDown():
                return e.ball == ball
            case Call():
                return False

    return pred


def by_time(t_s: float, *, after: bool) -> Predicate:
    """Events strictly after (``after=True``) or strictly before ``t_s``."""
    if after:
        return lambda e: e.t_s > t_s
    return lambda e: e.t_s < t_s


def first_contacts(events: Iterable[Event], cue: Ball) -> dict[Ball, float]:
    """Time of the first contact of ``cue`` with each other ball, by ball."""
    firsts: dict[Ball, float] = {}
    for e in filter_events(events, by_type(BallContact), by_ball(cue)):
        assert isinstance(e, BallContact)
        firsts.setdefault(e.other(cue), e.t_s)
    return firsts


@dataclass(frozen=True, slots=True)
class Carom:
    """The cue ball touched ``first`` at ``t_first_s``, then ``second`` at ``t_second_s``."""

    first: Ball
    t_first_s: float
    second: Ball
    t_second_s: float


def find_carom(events: Iterable[Event], cue: Ball, targets: tuple[Ball, Ball]) -> Carom | None:
    """The carom of ``cue`` on both ``targets``, or ``None`` if it missed one."""
    firsts = first_contacts(events, cue)
    if not all(t in firsts for t in targets):
        return None
    seen = list(firsts)  # in the events' order: contacts at one time keep it
    a, b = sorted(targets, key=lambda t: (firsts[t], seen.index(t)))
    return Carom(first=a, t_first_s=firsts[a], second=b, t_second_s=firsts[b])


def cushions_before(events: Iterable[Event], ball: Ball, t_s: float, merge_s: float = 0.0) -> int:
    """How many cushion contacts ``ball`` made strictly before ``t_s``.

    Repeats count, except that a contact with the same cushion as the ball's previous
    event, less than ``merge_s`` after it, is the same contact (a ball chattering on
    or running along the cushion; option ``cushion_repeat_merge_s``).
    """
    own = filter_events(events, by_ball(ball), by_time(t_s, after=False))
    count = 0
    previous: Event | None = None
    for e in own:
        if isinstance(e, CushionContact) and not _same_contact(previous, e, merge_s):
            count += 1
        previous = e
    return count


def _same_contact(previous: Event | None, e: CushionContact, merge_s: float) -> bool:
    return (
        isinstance(previous, CushionContact)
        and previous.cushion == e.cushion
        # One ball cannot touch one cushion twice at one time: the same contact twice in
        # the log (it counted two cushions with the option at 0).
        and (e.t_s == previous.t_s or e.t_s - previous.t_s < merge_s)
    )


def called_fouls(events: Iterable[Event]) -> tuple[Foul, ...]:
    """The fouls a person called, in order, without repeats."""
    fouls: list[Foul] = []
    for e in filter_events(events, by_type(Call)):
        assert isinstance(e, Call)
        if e.foul not in fouls:
            fouls.append(e.foul)
    return tuple(fouls)


def off_table_balls(events: Iterable[Event]) -> tuple[Ball, ...]:
    """Balls that left the table, in the order they left, without repeats."""
    balls: list[Ball] = []
    for e in filter_events(events, by_type(OffTable)):
        assert isinstance(e, OffTable)
        if e.ball not in balls:
            balls.append(e.ball)
    return tuple(balls)
