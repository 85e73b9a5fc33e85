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
from referee.jsonread import Obj, ask_int, ask_list, ask_str, show

__all__ = ["DECISIONS", "check_review_decision"]

#: What a person may decide on a shot held for review.
DECISIONS = ("accept", "reject", "points")
_FIELDS = {"decision", "held_for", "points", "doubtful_events", "by", "at"}


def check_review_decision(data: Any, where: str, parse_event: Callable[[Any, str], Event]) -> None:
    """Refuse a malformed ``review_decision`` (a :class:`ShotLogError` naming the field)."""
    obj = Obj(data, where, _FIELDS)
    decision = ask_str(obj.get("decision"), obj.at("decision"))
    if decision not in DECISIONS:
        raise ShotLogError(
            f"{obj.at('decision')}: unknown decision {show(decision)} "
            f"(expected one of: {', '.join(DECISIONS)})"
        )
    ask_str(obj.get("held_for"), obj.at("held_for"))
    points = obj.get("points", None)
    if (points is None) != (decision != "points"):
        raise ShotLogError(f"{obj.at('points')}: given with the decision 'points' and only then")
    if points is not None:
        ask_int(points, obj.at("points"), lo=0)
    events = ask_list(obj.get("doubtful_events", []), obj.at("doubtful_events"))
    for i, e in enumerate(events):
        parse_event(e, f"{obj.at('doubtful_events')}[{i}]")
    for key in ("by", "at"):
        if key in obj.data:
            ask_str(obj.data[key], obj.at(key))
