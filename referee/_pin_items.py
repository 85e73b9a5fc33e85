"""A pin game stroke's items, as a reason's field carries them and readers say them.

Theory of operation. A five-pins reason lists what scored (``centre pin alone 8,
carom white->yellow->red 4``); a 7-pin one what the stroke made (``pins king, left
(30); carom (5)``). A :class:`referee.Reason` field holds text or a number, so the
list travels as one field of codes (:meth:`PinItem.code`, joined by ``,``):
``kind:value`` or ``kind:value:names``, the names (pins, or balls for the kinds in
:data:`BALL_KINDS`) joined by ``+``. The core says each item with its kind's English
(:data:`PIN_ITEM_ENGLISH`); a reader that translates reads the codes back
(:func:`pin_items`) and says each with its own template of the kind, the names in its
language, joined as :data:`ITEM_FIELDS` says for the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee._errors import RulesError

__all__ = ["BALL_KINDS", "ITEM_FIELDS", "PIN_ITEM_ENGLISH", "PinItem", "pin_items"]

#: A reason field of items, and what joins its items when they are said.
ITEM_FIELDS: dict[str, str] = {"items": ", ", "made": "; "}

#: An item's English by its kind. Fields: ``value`` its points; its names as ``pin`` and
#: ``ball`` (the first), ``pins`` and ``count`` (all), ``path`` (joined by ``->``).
PIN_ITEM_ENGLISH: dict[str, str] = {
    # five-pins, in ``items``
    "centre_with_sides": "centre pin with side pins {value}",
    "centre_alone": "centre pin alone {value}",
    "side_pin": "{pin} side pin {value}",
    "side_pins": "{count} side pins ({pins}) {value}",
    "ricochet": "ricochet {path} {value}",
    "carom": "carom {path} {value}",
    # the 7-pin game, in ``made``
    "pins": "pins {pins} ({value})",
    "illegal_pins": "pins {pins} knocked illegally ({value})",
    "carom7": "carom ({value})",
    "pocketed": "{ball} pocketed ({value})",
    "off_table": "{ball} off the table, the turn passes",
    "nothing": "a white touched, nothing made",
}

#: The kinds whose names are balls (the others name pins).
BALL_KINDS = frozenset({"ricochet", "carom", "pocketed", "off_table"})


@dataclass(frozen=True, slots=True)
class PinItem:
    """One item of a pin game stroke.

    ``kind`` (a key of :data:`PIN_ITEM_ENGLISH`), ``value`` its points, ``names`` its
    pins, or its balls in order for the kinds in :data:`BALL_KINDS`.
    """

    kind: str
    value: int
    names: tuple[str, ...] = ()

    def code(self) -> str:
        """``kind:value`` or ``kind:value:name+name``."""
        tail = f":{'+'.join(self.names)}" if self.names else ""
        return f"{self.kind}:{self.value}{tail}"

    def fields(self, say: Callable[[str], str] = str) -> dict[str, str | int]:
        """The template's fields, each name said by ``say`` (a translation; as is)."""
        said = [say(n) for n in self.names]
        first = said[0] if said else ""
        return {"value": self.value, "pin": first, "ball": first, "count": len(said),
                "pins": ", ".join(said), "path": "->".join(said)}  # fmt: skip


def pin_items(text: str) -> tuple[PinItem, ...]:
    """The items of an item field (:meth:`PinItem.code` joined by ``,``).

    Raises :class:`RulesError` for a code that is not one.
    """
    out = []
    for code in filter(None, text.split(",")):
        kind, _, rest = code.partition(":")
        value, _, names = rest.partition(":")
        if kind not in PIN_ITEM_ENGLISH or not value.isdigit():
            raise RulesError(f"pin game item {code!r}: expected kind:value[:names]")
        out.append(PinItem(kind, int(value), tuple(filter(None, names.split("+")))))
    return tuple(out)
