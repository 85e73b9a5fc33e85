"""A verdict's reason as keyed phrases, so that pages and reports can say it in any language.

Theory of operation. The core writes each reason once, as a :class:`Reason`: a
:class:`ReasonKey` and its fields (ball names, counts, foul names as their values). Its
English sentence (:meth:`Reason.english`) is the one ``Verdict.reason`` has always
held, so logs and terminals read as before. A verdict whose reason is made of parts
(a point, then a zone's note) keeps them in order; ``TEXT`` is a part the core has no
key for yet (its English is the ``text`` field), which a translating reader shows as
it is.

Readers translate by key with their own catalogue (``carom/i18n``): the fields named
in :data:`BALL_FIELDS` hold ball names and ``fouls`` holds foul names joined by ``,``.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from referee._errors import RulesError

__all__ = ["BALL_FIELDS", "Reason", "ReasonKey", "english_reason", "reason_json"]

#: Fields that hold a ball's name (``white``, ``yellow``, ``red``, ``dotted``).
BALL_FIELDS = frozenset({"first", "second", "only", "missing"})


class ReasonKey(StrEnum):
    """What a reason says; the fields each needs are in :data:`_ENGLISH`'s templates."""

    POINT = "point"
    POINT_AFTER_ONE = "point_after_one"
    POINT_AFTER = "point_after"
    CUSHIONS_SHORT_ONE = "cushions_short_one"
    CUSHIONS_SHORT = "cushions_short"
    NO_BALL_HIT = "no_ball_hit"
    MISSED_SECOND = "missed_second"
    FOUL = "foul"
    TEXT = "text"


_ENGLISH: dict[ReasonKey, str] = {
    ReasonKey.POINT: "point: {first} then {second}",
    ReasonKey.POINT_AFTER_ONE: "point: {first} then {second} after 1 cushion",
    ReasonKey.POINT_AFTER: "point: {first} then {second} after {cushions} cushions",
    ReasonKey.CUSHIONS_SHORT_ONE: "1 cushion before the second ball ({second}), {needed} needed",
    ReasonKey.CUSHIONS_SHORT: (
        "{cushions} cushions before the second ball ({second}), {needed} needed"
    ),
    ReasonKey.NO_BALL_HIT: "no object ball hit",
    ReasonKey.MISSED_SECOND: "missed the second ball: hit only {only}, not {missing}",
    ReasonKey.FOUL: "foul: {fouls}",
    ReasonKey.TEXT: "{text}",
}


@dataclass(frozen=True, slots=True)
class Reason:
    """One keyed phrase of a reason: ``key`` and its ``fields`` as (name, value) pairs.

    Raises :class:`RulesError` when the fields are not the ones the key's English needs.
    """

    key: ReasonKey
    fields: tuple[tuple[str, str | int], ...] = ()

    def __post_init__(self) -> None:
        names = {name for name, _ in self.fields}
        want = _needed(self.key)
        if names != want:
            raise RulesError(f"reason {self.key}: fields {sorted(names)}, expected {sorted(want)}")

    @classmethod
    def of(cls, key: ReasonKey, **fields: str | int) -> Reason:
        """``Reason(key, fields)`` from keyword fields (in sorted order)."""
        plain = {k: v if isinstance(v, int) else str(v) for k, v in fields.items()}
        return cls(key, tuple(sorted(plain.items())))

    def field_map(self) -> dict[str, str | int]:
        """The fields as a dict."""
        return dict(self.fields)

    def english(self) -> str:
        """The English sentence (what ``Verdict.reason`` holds)."""
        values = self.field_map()
        if "fouls" in values:
            values["fouls"] = ", ".join(
                f.replace("_", " ") for f in str(values["fouls"]).split(",")
            )
        return _ENGLISH[self.key].format_map(values)


def english_reason(parts: Iterable[Reason]) -> str:
    """The English sentence of a reason's parts, joined with ``; ``."""
    return "; ".join(p.english() for p in parts)


def reason_json(parts: Iterable[Reason]) -> list[dict[str, object]]:
    """Parts as JSON objects ``{"key": ..., "fields": {...}}`` (shot logs, the web API)."""
    return [{"key": str(p.key), "fields": p.field_map()} for p in parts]


def _needed(key: ReasonKey) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(_ENGLISH[key]) if f}
