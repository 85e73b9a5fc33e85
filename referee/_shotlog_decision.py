"""A shot log's ``review_decision``: read and checked, never judged.

``carom export`` (and the web history's export) writes it on a shot a person settled
after it was held for review: the decision is already in the shot (its events,
``decided_points``), so ``carom score`` judges the shot as it is and this object only
tells the story. It is checked all the same, so a tool can rely on its shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee._errors import ShotLogError
from referee._events import Event
from referee.jsonread import Obj, ask_bool, ask_int, ask_list, ask_str, show

__all__ = ["DECISIONS", "check_review_decision"]

#: How a person may settle a shot held for review.
DECISIONS = ("accept", "reject", "points", "foul")
_FIELDS = {"decision", "held_for", "points", "by_corrections", "doubtful_events", "by", "at"}


def check_review_decision(
    data: Any, where: str, parse_event: Callable[[Any, str], Event], decided_points: int | None
) -> None:
    """Refuse a malformed ``review_decision`` (a :class:`ShotLogError` naming the field).

    ``decided_points``: the shot's. A ``points`` decision is the stroke's own, so its
    ``points`` are the shot's ``decided_points``; one an earlier version stored
    (``by_corrections``) left the shot without them.
    """
    obj = Obj(data, where, _FIELDS)
    decision = ask_str(obj.get("decision"), obj.at("decision"))
    if decision not in DECISIONS:
        raise ShotLogError(
            f"{obj.at('decision')}: unknown decision {show(decision)} "
            f"(expected one of: {', '.join(DECISIONS)})"
        )
    ask_str(obj.get("held_for"), obj.at("held_for"))
    _check_points(obj, decision, decided_points)
    events = ask_list(obj.get("doubtful_events", []), obj.at("doubtful_events"))
    for i, e in enumerate(events):
        parse_event(e, f"{obj.at('doubtful_events')}[{i}]")
    for key in ("by", "at"):
        if key in obj.data:
            ask_str(obj.data[key], obj.at(key))


def _check_points(obj: Obj, decision: str, decided_points: int | None) -> None:
    """``points`` (and ``by_corrections``) with the decision ``points`` and only with it."""
    for key in ("points", "by_corrections"):
        if key in obj.data and decision != "points":
            raise ShotLogError(
                f"{obj.at(key)}: only with the decision 'points' (this one is {show(decision)})"
            )
    if decision != "points":
        if decided_points is not None:
            raise ShotLogError(f"{obj.at('decision')}: {show(decision)}, but the shot has "
                               "decided_points (a 'points' decision)")  # fmt: skip
        return
    points = ask_int(obj.get("points"), obj.at("points"), lo=0)
    if ask_bool(obj.get("by_corrections", False), obj.at("by_corrections")):
        if decided_points is not None:
            raise ShotLogError(f"{obj.at('by_corrections')}: true, but the shot has "
                               "decided_points (the decision is the stroke's)")  # fmt: skip
    elif decided_points != points:
        has = "none" if decided_points is None else decided_points
        raise ShotLogError(f"{obj.at('points')}: {points}, but the shot's decided_points is "
                           f"{has} (a points decision is the stroke's)")  # fmt: skip
