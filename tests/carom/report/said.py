"""The oracle of the report's translated reasons and announcements: a keyed phrase said
with the report catalogue's words, written from the catalogue alone."""

from __future__ import annotations

from carom.i18n import catalogue
from referee import BALL_FIELDS, BALL_KINDS, ITEM_FIELDS, PIN_FIELDS, Reason, pin_items

__all__ = ["said_in"]


def said_in(lang: str, part: Reason) -> str:
    """The oracle: one part in ``lang``, from the catalogue's templates."""
    cat = catalogue("report")
    fields = part.field_map()
    for name in BALL_FIELDS & set(fields):
        fields[name] = cat.text(lang, f"ball_{fields[name]}")
    if "fouls" in fields:
        fields["fouls"] = ", ".join(
            cat.text(lang, f"foul_{f}") for f in str(fields["fouls"]).split(",")
        )
    for name in PIN_FIELDS & set(fields):
        fields[name] = cat.text(lang, f"pin_{fields[name]}")
    if "cushion" in fields:
        fields["cushion"] = cat.text(lang, f"side_{fields['cushion']}")
    if "place" in fields:
        fields["place"] = cat.text(lang, f"place_{fields['place']}")
    if "pins" in fields:
        fields["pins"] = ", ".join(
            cat.text(lang, f"pin_{p}") for p in str(fields["pins"]).split(",")
        )
    for name in ITEM_FIELDS.keys() & set(fields):
        items = []
        for item in pin_items(str(fields[name])):
            prefix = "ball" if item.kind in BALL_KINDS else "pin"
            names = [cat.text(lang, f"{prefix}_{n}") for n in item.names]
            first = names[0] if names else ""
            items.append(cat.text(lang, f"pins_item_{item.kind}", value=item.value, pin=first,
                                  ball=first, count=len(names), pins=", ".join(names),
                                  path="->".join(names)))  # fmt: skip
        fields[name] = ITEM_FIELDS[name].join(items)
    return cat.text(lang, f"reason_{part.key}", **fields)
