"""The oracle of the referee's words in a language: one keyed phrase (a reason's part, an
announcement, a break rule or a note) said with a catalogue's words, written from the
catalogue alone.

The report's catalogue names its keys ``prefix_name`` and its fouls ``foul_<name>``;
the pages' ``prefix.name`` and ``name.<foul>``. Both write numbers as the language
does (``1.637`` in Dutch).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from carom.i18n import catalogue, format_number
from referee import (
    BALL_FIELDS,
    BALL_KINDS,
    ITEM_FIELDS,
    PIN_FIELDS,
    LayoutItem,
    PinItem,
    Reason,
    layout_items,
    pin_items,
)

__all__ = ["said_in"]

_SEP = {"report": "_", "web": "."}
_FOUL = {"report": "foul", "web": "name"}


def said_in(lang: str, part: Reason | dict[str, Any], domain: str = "report") -> str:
    """``part`` (a ``Reason`` or its JSON) in ``lang`` with ``domain``'s catalogue."""
    cat, sep = catalogue(domain), _SEP[domain]
    key, fields = (part.key, part.field_map()) if isinstance(part, Reason) else (
        part["key"], dict(part["fields"]))  # fmt: skip

    def word(prefix: str, name: object) -> str:
        return cat.text(lang, f"{prefix}{sep}{name}")

    def words(prefix: str, names: object) -> str:
        return ", ".join(word(prefix, n) for n in str(names).split(","))

    def number(n: int) -> str:
        return format_number(lang, n)

    for name, value in fields.items():
        if isinstance(value, int):
            fields[name] = number(value)
    for name in fields.keys() & BALL_FIELDS:
        fields[name] = word("ball", fields[name])
    for name in fields.keys() & PIN_FIELDS:
        fields[name] = word("pin", fields[name])
    for name, prefix in (("cushion", "side"), ("place", "place")):
        if name in fields:
            fields[name] = word(prefix, fields[name])
    if "fouls" in fields:
        fields["fouls"] = words(_FOUL[domain], fields["fouls"])
    if "pins" in fields:
        fields["pins"] = words("pin", fields["pins"])
    for name in fields.keys() & ITEM_FIELDS.keys():
        items = pin_items(str(fields[name]))
        fields[name] = ITEM_FIELDS[name].join(_item(word, i) for i in items)
    if "layout" in fields:
        placed = [_placed(word, number, i) for i in layout_items(str(fields["layout"]))]
        fields["layout"] = ", ".join(placed)
    return word("reason", key).format_map(fields)


def _placed(
    word: Callable[[str, object], str], number: Callable[[int], object], item: LayoutItem
) -> str:
    ball = word("layout_ball", item.role).format(ball=word("ball", item.ball))
    return word("layout", item.form).format(
        ball=ball, place=word("place", item.place), distance_mm=number(item.distance_mm or 0)
    )


def _item(word: Callable[[str, object], str], item: PinItem) -> str:
    prefix = "ball" if item.kind in BALL_KINDS else "pin"
    return word("pins_item", item.kind).format_map(item.fields(lambda n: word(prefix, n)))
