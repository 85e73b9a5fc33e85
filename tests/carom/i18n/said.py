"""The oracle of the referee's words in a language: one keyed phrase (a reason's part, an
announcement, a break rule or a note) said with a catalogue's words, written from the
catalogue alone.

The report's catalogue names its keys ``prefix_name`` and its fouls ``foul_<name>``;
the pages' ``prefix.name`` and ``name.<foul>``. Both write numbers as the language
does (``1.637`` in Dutch).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from carom.i18n import catalogue, format_number
from referee import (
    BALL_FIELDS,
    BALL_KINDS,
    ITEM_FIELDS,
    PIN_FIELDS,
    REVIEW_FIELDS,
    ZONE_FIELDS,
    LayoutItem,
    PinItem,
    Reason,
    layout_items,
    pin_items,
    reasons_from_json,
    review_code,
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

    for name in fields.keys() & ZONE_FIELDS:
        fields[name] = _zone_field(word, number, name, fields[name])
    for name in fields.keys() & REVIEW_FIELDS:
        fields[name] = _review_field(lang, domain, word, name, str(fields[name]))
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


def _zone_field(
    word: Callable[[str, object], str], number: Callable[[int], object], name: str, value: Any
) -> str:
    """A zone note's field: regions named word by word, lists joined by "and" or "or"."""

    def region(code: str) -> str:
        words = code.split("-")
        kind = words.pop(0) if words[0] in ("anchor", "corner") else "zone"
        said = "-".join(word("zone_word", w) for w in words)
        return word("zone_region", kind).format(name=said)

    def joined(labels: list[str], how: str) -> str:
        out = labels[0]
        for label in labels[1:]:
            out = word("zone_join", how).format(a=out, b=label)
        return out

    def regions(codes: list[str]) -> str:
        return joined([word("zone_item", "free").format(region=region(c[:-1]))
                       if c.endswith("!") else region(c) for c in codes], "and")  # fmt: skip

    text = str(value)
    if name == "nth":
        return word("ordinal", "first" if value == 1 else "other").format(n=number(value))
    if name == "group":
        return word("zone_group", text)
    if name == "balls":
        return ", ".join(word("ball", b) for b in text.split(","))
    if name in ("regions", "refused"):
        return joined([region(c) for c in text.split("+")], "and" if name == "regions" else "or")
    items = [item.partition(":")[::2] for item in text.split(",")]
    if name == "left":
        return "; ".join(word("zone_item", "left").format(ball=word("ball", b),
                         regions=regions(r.split("+"))) for b, r in items)  # fmt: skip
    return ", ".join(
        word("zone_item", "placed").format(ball=word("ball", b), regions=regions(r.split("+")))
        if r
        else word("zone_item", "none").format(ball=word("ball", b))
        for b, r in items
    )


def _review_field(
    lang: str, domain: str, word: Callable[[str, object], str], name: str, value: str
) -> str:
    """A review's code (a doubt, an event) or the call otherwise, from the catalogue."""
    if name == "instead":
        parts = reasons_from_json(json.loads(value))
        return "; ".join(said_in(lang, p, domain) for p in parts)
    code, fields = review_code(name, value)
    kinds = dict.fromkeys(("ball", "other", "first", "second"), "ball")
    kinds.update(cushion="side", pin="pin", pocket="pocket", foul=_FOUL[domain])
    balls = {n for n in catalogue(domain).messages["en"] if n.startswith("ball")}
    for field, text in fields.items():
        if field in kinds:
            fields[field] = word(kinds[field], text)
        elif field == "gaps":
            fields[field] = ", ".join(
                "-".join(word("ball" if f"ball{_SEP[domain]}{n}" in balls else "side", n)
                         for n in gap.split("-"))
                for gap in text.split(", ")
            )  # fmt: skip
        elif field != "text" and re.fullmatch(r"[0-9]+(\.[0-9]+)?", text):
            fields[field] = format_number(lang, float(text), len(text.partition(".")[2]))
    prefix = "doubt" if name == "doubt" else "review_event"
    return word(prefix, code).format_map(fields)
