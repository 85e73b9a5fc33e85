"""Where each ball stood against the break layout, as a reason's field carries it.

Theory of operation. The rule that judged a stroke a break or play names the layout's
balls and how far each stood from its place (``white (the breaker's ball) 12 mm from
the head string, yellow on the head spot, the red on the foot spot``). A
:class:`referee.Reason` field holds text or a number, so the list travels as one
field, ``layout``, of codes (:meth:`LayoutItem.code`, joined by ``,``):
``role:ball:place:distance``, the distance empty for a ball on its place. The core
says each with the English of its form (:data:`LAYOUT_ITEM_ENGLISH`: the place's
preposition, or ``from`` with the distance); the ball is said as its role says
(:data:`LAYOUT_BALL_ENGLISH`: the breaker's ball, the red, or its name). A reader that
translates reads the codes back (:func:`layout_items`) and says each with its own
templates, the ball and place names in its language.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee._errors import RulesError

__all__ = [
    "LAYOUT_BALL_ENGLISH",
    "LAYOUT_ITEM_ENGLISH",
    "PLACE_ENGLISH",
    "PLACE_PREPOSITION",
    "LayoutItem",
    "layout_items",
]

#: The places of a break layout (the ``place`` field and the layout's items), in English.
PLACE_ENGLISH: dict[str, str] = {
    "head_spot": "the head spot",
    "foot_spot": "the foot spot",
    "head_string": "the head string",
    "top_spot": "the top spot",
    "red_spot": "its spot",
    "bottom_half": "the bottom half",
    "house": "the house",
    "spot1": "spot 1",
    "spot3": "spot 3",
}
#: How a ball in each place is said: on a point or line, in a region, beside a pin.
PLACE_PREPOSITION: dict[str, str] = {
    "head_spot": "on", "foot_spot": "on", "head_string": "on", "top_spot": "on",
    "red_spot": "on", "bottom_half": "in", "house": "in", "spot1": "beside", "spot3": "beside",
}  # fmt: skip
#: One item's English by its form: the place's preposition, or ``from`` (a distance).
#: Fields: ``ball`` (as :data:`LAYOUT_BALL_ENGLISH` says it), ``place``, ``distance_mm``.
LAYOUT_ITEM_ENGLISH: dict[str, str] = {
    "on": "{ball} on {place}",
    "in": "{ball} in {place}",
    "beside": "{ball} beside {place}",
    "from": "{ball} {distance_mm} mm from {place}",
}
#: How a ball is named by its role (``ball``: its plain name). Field: ``ball``.
LAYOUT_BALL_ENGLISH: dict[str, str] = {
    "breaker": "{ball} (the breaker's ball)",
    "red": "the red",
    "ball": "{ball}",
}


@dataclass(frozen=True, slots=True)
class LayoutItem:
    """One ball of the layout and where it stood.

    ``role``: a key of :data:`LAYOUT_BALL_ENGLISH`; ``ball`` its name; ``place`` a key
    of :data:`PLACE_ENGLISH`; ``distance_mm`` how far it stood from it, rounded
    (``None``: on it).
    """

    role: str
    ball: str
    place: str
    distance_mm: int | None = None

    @property
    def form(self) -> str:
        """Its key in :data:`LAYOUT_ITEM_ENGLISH`."""
        return PLACE_PREPOSITION[self.place] if self.distance_mm is None else "from"

    def code(self) -> str:
        """``role:ball:place:distance`` (the distance empty on the place)."""
        far = "" if self.distance_mm is None else str(self.distance_mm)
        return f"{self.role}:{self.ball}:{self.place}:{far}"

    def english(self) -> str:
        """``white (the breaker's ball) 12 mm from the head string``."""
        ball = LAYOUT_BALL_ENGLISH[self.role].format(ball=self.ball)
        return LAYOUT_ITEM_ENGLISH[self.form].format(
            ball=ball, place=PLACE_ENGLISH[self.place], distance_mm=self.distance_mm
        )


def layout_items(text: str) -> tuple[LayoutItem, ...]:
    """The items of a ``layout`` field (:meth:`LayoutItem.code` joined by ``,``).

    Raises :class:`RulesError` for a code that is not one.
    """
    out = []
    for code in filter(None, text.split(",")):
        if code.count(":") != 3:
            raise RulesError(f"break layout item {code!r}: expected role:ball:place:distance")
        role, ball, place, far = code.split(":")
        if role not in LAYOUT_BALL_ENGLISH or place not in PLACE_ENGLISH:
            raise RulesError(f"break layout item {code!r}: expected role:ball:place:distance")
        if not ball or (far and not far.isdigit()):
            raise RulesError(f"break layout item {code!r}: no ball, or a distance not in mm")
        out.append(LayoutItem(role, ball, place, int(far) if far else None))
    return tuple(out)
