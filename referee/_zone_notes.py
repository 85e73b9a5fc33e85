"""The fields of a zone rule's notes and their English [rules.md §5].

A zone note (straight-rail corners, balkline zones and anchor squares) is a keyed
phrase (``referee._reason``) whose fields say where the restricted balls stood, so
that a reader can say it in any language. The fields, as :data:`ZONE_FIELDS` names
them:

* ``group``: the restricted balls, ``all`` (all three balls) or ``objects`` (both
  object balls);
* ``regions``: region names joined by ``+`` (``head-left+anchor-left-head``), said as
  labels joined by "and"; ``refused`` the same, joined by "or";
* ``nth``: the carom's count in a row there (an int), said as an ordinal (``3rd``);
* ``balls``: ball names joined by ``,``;
* ``left``: per ball that left, ``ball:region+region`` (the regions it left), joined by
  ``,``; ``placed`` the same with the regions each restricted ball stood in, a free one
  (the balkline centre zone) marked with a trailing ``!``, none for a ball in no zone.

A region's name is its kind's prefix and its words (:func:`region_words`): a zone
``head-left`` (label ``zone head-left``), an anchor square ``anchor-left-head``, a
corner ``corner-foot-right`` (labels their names); a catalogue says the kind with a
template and each word with its own message.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee._errors import RulesError

__all__ = [
    "REGION_KINDS",
    "REGION_WORDS",
    "ZONE_FIELDS",
    "ZONE_GROUP_ENGLISH",
    "BallRegions",
    "ball_regions",
    "english_ordinal",
    "region_words",
    "regions_code",
    "zone_field_english",
]

#: The words of region names (rows, columns, cushions and lines).
REGION_WORDS = ("head", "middle", "foot", "left", "centre", "right")
#: A region kind's English label, ``{name}`` its words joined by ``-``.
REGION_KINDS = {"zone": "zone {name}", "anchor": "anchor-{name}", "corner": "corner-{name}"}
#: The restricted balls as a zone note says them.
ZONE_GROUP_ENGLISH = {"all": "all three balls", "objects": "both object balls"}
#: The fields a zone note may hold (see the module docstring).
ZONE_FIELDS = frozenset({"group", "regions", "refused", "nth", "balls", "left", "placed"})

_ROWS, _COLS = ("head", "middle", "foot"), ("left", "centre", "right")
_SHAPES = {
    "zone": (_ROWS, _COLS),
    "anchor": (("left", "right", "head", "foot"), ("head", "foot", "left", "right", "centre")),
    "corner": (("head", "foot"), ("left", "right")),
}


@dataclass(frozen=True, slots=True)
class BallRegions:
    """A ball and the regions of a ``left`` or ``placed`` field (``free``: marked ``!``)."""

    ball: str
    regions: tuple[str, ...]
    free: tuple[bool, ...]

    def code(self) -> str:
        """``ball:region+region!`` as the field holds it."""
        names = (r + ("!" if f else "") for r, f in zip(self.regions, self.free, strict=True))
        return f"{self.ball}:{'+'.join(names)}"


def region_words(name: str) -> tuple[str, tuple[str, ...]]:
    """A region name's kind (of :data:`REGION_KINDS`) and words; raises for another name."""
    kind, _, rest = name.partition("-")
    if kind not in ("anchor", "corner"):
        kind, rest = "zone", name
    words = tuple(rest.split("-"))
    shape = _SHAPES[kind]
    if len(words) != 2 or any(w not in allowed for w, allowed in zip(words, shape, strict=True)):
        raise RulesError(f"zone note: region {name!r} unknown")
    return kind, words


def ball_regions(code: str) -> tuple[BallRegions, ...]:
    """The items of a ``left`` or ``placed`` field; raises :class:`RulesError` if malformed."""
    items = []
    for item in code.split(","):
        ball, sep, names = item.partition(":")
        if not sep or not ball:
            raise RulesError(f"zone note: {item!r} is not ball:regions")
        regions = tuple(n.removesuffix("!") for n in names.split("+")) if names else ()
        for region in regions:
            region_words(region)
        free = tuple(n.endswith("!") for n in names.split("+")) if names else ()
        items.append(BallRegions(ball, regions, free))
    return tuple(items)


def english_ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``11th``, ``23rd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def zone_field_english(name: str, value: str | int) -> str:
    """The English of the zone note field ``name`` holding ``value``."""
    text = str(value)
    if name == "nth":
        if not isinstance(value, int) or value < 1:
            raise RulesError(f"zone note: nth {value!r} is not a count from 1")
        return english_ordinal(value)
    if name == "group":
        if text not in ZONE_GROUP_ENGLISH:
            raise RulesError(f"zone note: group {text!r} unknown")
        return ZONE_GROUP_ENGLISH[text]
    if name == "balls":
        return ", ".join(text.split(","))
    if name in ("regions", "refused"):
        return (" and " if name == "regions" else " or ").join(_labels(text.split("+")))
    if name == "left":
        items = ball_regions(text)
        if any(not i.regions for i in items):
            raise RulesError(f"zone note: {text!r} names a ball that left no region")
        return "; ".join(f"{i.ball} left {' and '.join(_labels(i.regions))}" for i in items)
    if name == "placed":
        return ", ".join(_placed(i) for i in ball_regions(text))
    raise RulesError(f"zone note: field {name!r} unknown")


def regions_code(names: Iterable[str]) -> str:
    """Region names as a ``regions`` or ``refused`` field holds them."""
    return "+".join(names)


def _labels(names: Sequence[str]) -> list[str]:
    labels = []
    for name in names:
        kind, words = region_words(name)
        labels.append(REGION_KINDS[kind].format(name="-".join(words)))
    return labels


def _placed(item: BallRegions) -> str:
    if not item.regions:
        return f"{item.ball} in no zone (off the table?)"
    names = (r + (" (free)" if f else "") for r, f in zip(item.regions, item.free, strict=True))
    return f"{item.ball} in {' and '.join(names)}"
