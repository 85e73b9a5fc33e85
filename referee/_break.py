"""Is this stroke a break? Recognised from where the balls stand, never assumed [rules.md §3].

Theory of operation. A stroke is a break when the balls stand in the discipline's
break layout before it. Two distances decide, both rule options
(``docs/rules-options.md``):

* ``break_recognise_mm`` (loose): every ball the layout places is within this
  distance of its place. A layout this close is the break position a referee set
  up, perhaps carelessly; anything farther is ordinary play.
* ``break_layout_mm`` (strict): a recognised layout with a ball farther than this
  from its rule place is a *wrong* break position, announced the way a referee
  would (it is still judged as the break).

The layouts, table mm (x from the head cushion, y from the left cushion):

* three-cushion, one-cushion, straight rail, balkline: red on the foot spot, the
  non-breaker's ball on the head spot, the breaker's ball on the head string
  within 152.4 mm (6 in) of the head spot;
* five-pins: red on its spot (centre of the top half), the non-breaker's ball on
  the top spot, the breaker's ball anywhere in the bottom (head) half;
* 7-pin carom: one white beside each spot pin (spot 1, spot 3), the red (cue ball)
  in the house behind the head string.

The breaker's ball is the cue ball of the stroke (the ball that moved first).
Which rule applied is said as one keyed phrase (``BreakCall.why_part``: a
:class:`referee.Reason`, the balls' places in its ``layout`` field, see
:mod:`referee._layout_items`) that the report and the console show, and in English
(``BreakCall.why``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from referee._disciplines import BreakLayout, rules_of
from referee._layout_items import PLACE_PREPOSITION, LayoutItem, layout_items
from referee._names import Ball, Discipline, Spot
from referee._options import RuleOptions
from referee._reason import Reason, ReasonKey
from referee._table import XY, Table

__all__ = [
    "HEAD_STRING_REACH_MM",
    "WRONG_BREAK",
    "BreakCall",
    "LayoutCheck",
    "check_break_layout",
]

#: How every wrong-layout announcement begins (boards and pages pick them out by it).
WRONG_BREAK = "wrong break position"

#: [rules.md §3]: the breaker's ball lies on the head string within 6 in of the head spot.
HEAD_STRING_REACH_MM = 152.4
#: 7-pin: a white "beside" its spot pin: centre within this many ball diameters of it.
_BESIDE_DIAMETERS = 1.5
#: A wrong break position's announcement, by the place's preposition.
_WRONG = {"on": ReasonKey.WRONG_BREAK_OFF, "in": ReasonKey.WRONG_BREAK_OUTSIDE,
          "beside": ReasonKey.WRONG_BREAK_FAR}  # fmt: skip


@dataclass(frozen=True, slots=True)
class LayoutCheck:
    """The balls before a stroke against the break layout.

    ``recognised``: they stand in the break layout (within ``break_recognise_mm``);
    ``faults``: what is wrong with a recognised layout (empty when it is right);
    ``layout``: the measured distances (every ball's when recognised, else the
    farthest ball's) as the codes of a reason's ``layout`` field.
    """

    recognised: bool
    faults: tuple[Reason, ...]
    layout: str

    @property
    def detail(self) -> str:
        """The measured distances in English (``yellow on the head spot, ...``)."""
        return ", ".join(i.english() for i in layout_items(self.layout))


@dataclass(frozen=True, slots=True)
class BreakCall:
    """Whether a stroke is judged as a break, and which rule said so.

    ``faults`` are wrong-layout announcements; ``review`` (keyed parts) is set when the
    evidence disagrees with what the match expected (a break was due, the balls say play).
    """

    is_break: bool
    why_part: Reason
    faults: tuple[Reason, ...] = ()
    review: tuple[Reason, ...] = ()

    @property
    def why(self) -> str:
        """The rule in English (``a break: the shot log says so``)."""
        return self.why_part.english()


@dataclass(frozen=True, slots=True)
class _Place:
    """Where one ball belongs: a point (``reach_mm`` 0) or a region around it.

    ``code``: its key in ``referee.PLACE_ENGLISH``.
    """

    code: str
    xy_mm: XY
    reach_mm: float = 0.0
    #: 'disc': within reach of the point; 'string': on the line x = x0 with
    #: |y - y0| <= reach; 'behind': x <= x0 (a half or the house).
    shape: str = "disc"

    @property
    def prep(self) -> str:
        """How a ball in it is said: ``on``, ``in``, ``beside``."""
        return PLACE_PREPOSITION[self.code]

    def miss_mm(self, xy: XY) -> float:
        """How far ``xy`` lies outside this place (0 inside)."""
        x0, y0 = self.xy_mm
        x, y = xy
        if self.shape == "string":
            return math.hypot(x - x0, max(0.0, abs(y - y0) - self.reach_mm))
        if self.shape == "behind":
            return max(0.0, x - x0)
        return max(0.0, math.dist(xy, self.xy_mm) - self.reach_mm)


def _places(discipline: Discipline, table: Table) -> tuple[_Place, _Place, _Place]:
    """(breaker's place, the other ball's place, the third ball's place)."""
    head, foot = table.spot(Spot.HEAD), table.spot(Spot.FOOT)
    layout = rules_of(discipline).break_layout
    if layout is BreakLayout.FIVE_PINS:
        return (
            _Place("bottom_half", (table.length_mm / 2.0, head[1]), shape="behind"),
            _Place("top_spot", table.spot(Spot.TOP)),
            _Place("red_spot", table.spot(Spot.RED_FIVE_PINS)),
        )
    if layout is BreakLayout.SEVEN_PINS:
        beside = _BESIDE_DIAMETERS * table.ball_diameter_mm
        return (
            _Place("house", head, shape="behind"),
            _Place("spot1", table.spot(Spot.SPOT1), beside),
            _Place("spot3", table.spot(Spot.SPOT3), beside),
        )
    return (
        _Place("head_string", head, HEAD_STRING_REACH_MM, shape="string"),
        _Place("head_spot", head),
        _Place("foot_spot", foot),
    )


def _roles(
    discipline: Discipline, positions: Mapping[Ball, XY], breaker: Ball
) -> tuple[XY, XY, XY] | None:
    """Positions of (breaker's ball, other ball, third ball), or None if one is missing."""
    if rules_of(discipline).break_layout is BreakLayout.SEVEN_PINS:
        cue, white1, white2 = rules_of(discipline).balls
        whites = [positions.get(white1), positions.get(white2)]
        red = positions.get(cue)
        if red is None or None in whites:
            return None
        w1, w2 = (w for w in whites if w is not None)
        near, far = (w1, w2) if w1[0] <= w2[0] else (w2, w1)
        return red, near, far
    if breaker not in positions or Ball.RED not in positions:
        return None
    others = [b for b in positions if b not in (breaker, Ball.RED)]
    if len(others) != 1:
        return None
    return positions[breaker], positions[others[0]], positions[Ball.RED]


def check_break_layout(
    discipline: Discipline,
    table: Table,
    positions_mm: Mapping[Ball, XY],
    breaker: Ball,
    options: RuleOptions,
) -> LayoutCheck | None:
    """Compare the balls before a stroke with the break layout; ``None`` if a ball is unknown.

    ``breaker`` is the stroke's cue ball. Recognition does not care which cue ball
    stands where (a layout with the two cue balls swapped is still the break
    position, set up wrongly); the check does.
    """
    roles = _roles(discipline, positions_mm, breaker)
    if roles is None:
        return None
    places = _places(discipline, table)
    misses = [p.miss_mm(xy) for p, xy in zip(places, roles, strict=True)]
    swapped = [p.miss_mm(xy) for p, xy in zip(places, (roles[1], roles[0], roles[2]), strict=True)]
    loose = options.break_recognise_mm
    recognised = max(misses) <= loose or max(swapped) <= loose
    balls = _role_balls(discipline, positions_mm, breaker)
    said_as = _role_names(discipline)
    said = [
        LayoutItem(role, str(b), p.code, int(f"{m:.0f}") if m >= 0.5 else None).code()
        for role, b, p, m in zip(said_as, balls, places, misses, strict=True)
    ]
    # A layout far from the break: the ball farthest from its place says enough.
    layout = ",".join(said) if recognised else said[misses.index(max(misses))]
    limit_mm = round(options.break_layout_mm)
    faults = tuple(
        Reason.of(_WRONG[p.prep], ball=b, distance_mm=round(m), place=p.code, limit_mm=limit_mm)
        for b, p, m in zip(balls, places, misses, strict=True)
        if recognised and m > options.break_layout_mm
    )
    return LayoutCheck(recognised=recognised, faults=faults, layout=layout)


def _role_names(discipline: Discipline) -> tuple[str, str, str]:
    """How the balls of :func:`_role_balls` are said (``referee.LAYOUT_BALL_ENGLISH``)."""
    if rules_of(discipline).break_layout is BreakLayout.SEVEN_PINS:
        return "red", "ball", "ball"
    return "breaker", "ball", "red"


def _role_balls(
    discipline: Discipline, positions: Mapping[Ball, XY], breaker: Ball
) -> tuple[Ball, Ball, Ball]:
    """The breaker's ball (7-pin: the red), the other ball, the third, as the places go."""
    if rules_of(discipline).break_layout is BreakLayout.SEVEN_PINS:
        w1, w2 = positions[Ball.WHITE1], positions[Ball.WHITE2]
        near, far = (Ball.WHITE1, Ball.WHITE2) if w1[0] <= w2[0] else (Ball.WHITE2, Ball.WHITE1)
        return Ball.RED, near, far
    other = next(b for b in positions if b not in (breaker, Ball.RED))
    return breaker, other, Ball.RED
