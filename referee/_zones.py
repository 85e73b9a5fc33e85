"""Zone rules of straight rail and balkline [rules.md §5].

Sources: [000 "Открытая партия", "Кадре 47/1", "Свободная партия", "Рамочные партии"].

Theory of operation. Restricted regions come from the table size, in table mm (x head ->
foot, y left -> right, as in :mod:`referee._table`):

* Balkline ``balkline-LINE/N``: chalk lines parallel to every cushion. The name gives
  the distance on the table it is named for, and other tables take it in proportion
  ([000 "Рамочные партии"]: 47 and 71 are "на каком расстоянии в см следует проводить
  линии на большом биллиарде"; on the tournament table "разделение игрового поля
  устанавливается точно в соотношении к большому биллиарду", 35/x and 52/x being 47/x and
  71/x with lines "в 35 или 52,5 см"). So 47 and 71 are cm on the 2840 mm match table
  and 35 and 52 (52.5 cm) cm on the 2100 mm tournament table (52.5 = 71 x 2100 / 2840),
  and a line lies at ``LINE x length_mm / reference length`` from every cushion (one
  factor, so it stays equally far from all four, as on the named table). Two lines of
  one axis closer than a ball diameter, or crossing, merge into one line at the middle,
  so 71 cm on a 1420 mm wide table gives 3 x 2 = 6 zones and 47 cm gives 3 x 3 = 9.
  Zones are named
  ``<row>-<column>``: rows ``head``, ``middle``, ``foot`` (``head``, ``foot`` when the
  lines across the table merged), columns ``left``, ``centre``, ``right`` (``left``,
  ``right`` after a merge). The zone touching no cushion (``middle-centre``) is free when
  ``centre_zone_free`` (UMB practice; the Russian text restricts every field).
  Anchor squares (``anchor_squares``): side ``anchor_square_mm`` scaled by length/2840,
  standing on a cushion and centred on a balkline where it meets that cushion, named
  ``anchor-<cushion>-<line>``; the line is named by the side it lies nearer to, or
  ``centre`` for a merged line: ``anchor-left-head`` stands on the left cushion across
  the line nearer the head cushion.
* Straight rail, only when ``corner_zone_limit`` is set: four corner triangles with legs
  ``corner_zone_mm`` scaled by length/2840, ``corner-head-left`` ... ``corner-foot-right``.

A ball is in a region when its centre is inside it or within ``line_tolerance_mm`` of
its border, so a ball on a line is in both zones. The restricted balls are the two
object balls (balkline), or all three balls in straight rail ([000 "Открытая партия"]
"все три шара"; ``corner_zone_all_balls=False``: the object balls, as [000 "Свободная
партия"] reads). A stroke is restricted in region R when every restricted ball lay in R
at its start; its carom is then the n-th in a row from R: n = carry + 1 when the
previous counted caroms were made from R and no restricted ball has left R since, else
n = 1. With the limit L (N of ``/N``, or ``corner_zone_limit``) caroms with n < L count
freely, and the L-th must drive a restricted ball out of R in the same stroke; else it
does not count, ``Foul.ZONE_LIMIT`` ends the inning ([000]: "Последний карамболь в таком
случае не засчитывается"). So /2 allows one carom from a zone and the second must drive
a ball out; /1 asks that at once; a straight-rail limit of 2 allows the carom that
brought the balls in plus one from inside ([000 "Свободная партия"] counts the entering
carom; an inning that starts with the balls inside gets the same one free carom).

A ball has left R when it ends outside R (end position, else the last path sample), left
the table, or, with ``returning_ball_left_zone``, any sample of ``paths_mm`` lies outside
R ([000] "по меньшей мере временно"). Without paths a ball that went out and came back
is not seen; a refusal then says so in its note. The leaving is judged over the whole
stroke, until every ball has stopped.

Carry: the regions still holding every restricted ball with none having left, joined by
``+`` (``"head-left+anchor-left-head"``), with n; otherwise ``Carry()``. Since only caroms
with n < L survive, every carried region has the same count for /1 and /2.

Missing evidence is never guessed against the shooter: without a start position of a
restricted ball no zone can be judged, and when the L-th carom's end positions and paths
are missing it cannot be told whether a ball left; the carom is allowed, the carry reset,
and the call carries a ``doubt`` that the verdict reports as ``review``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from referee._carom_games import ZoneCall, ZoneRule
from referee._errors import RulesError
from referee._filters import Carom, off_table_balls
from referee._names import Ball, Discipline
from referee._options import RuleOptions
from referee._reason import Reason, ReasonKey
from referee._shot import Carry, Shot, ShotContext
from referee._table import XY, Table
from referee._zone_notes import BallRegions, regions_code

__all__ = ["Corner", "Rect", "Region", "balkline_mm", "regions_for", "zone_rule_for"]

_MATCH_LENGTH_MM = 2840.0
_TOURNAMENT_LENGTH_MM = 2100.0
#: Balkline distance from the cushions by the number in the discipline's name, in mm on
#: the table that name is for (its length in mm): 47/x and 71/x the match table, 35/x and
#: 52/x the tournament table.
_LINE_MM = {
    "47": (470.0, _MATCH_LENGTH_MM),
    "71": (710.0, _MATCH_LENGTH_MM),
    "35": (350.0, _TOURNAMENT_LENGTH_MM),
    "52": (525.0, _TOURNAMENT_LENGTH_MM),
}


@dataclass(frozen=True, slots=True)
class Rect:
    """A balkline zone or anchor square: ``x_mm`` and ``y_mm`` are (low, high) in table mm.

    ``free``: a zone with no restriction (the balkline centre zone), kept for naming.
    """

    name: str
    x_mm: tuple[float, float]
    y_mm: tuple[float, float]
    free: bool = False

    def contains(self, xy_mm: XY, tol_mm: float) -> bool:
        """True if a ball centre at ``xy_mm`` is inside or within ``tol_mm`` of the border."""
        x, y = xy_mm
        (x0, x1), (y0, y1) = self.x_mm, self.y_mm
        return x0 - tol_mm <= x <= x1 + tol_mm and y0 - tol_mm <= y <= y1 + tol_mm


@dataclass(frozen=True, slots=True)
class Corner:
    """A straight-rail corner triangle: the table corner ``apex_mm`` and its legs in mm."""

    name: str
    apex_mm: XY
    leg_mm: float
    free: bool = False

    def contains(self, xy_mm: XY, tol_mm: float) -> bool:
        """True if ``xy_mm`` is inside or within ``tol_mm`` of the diagonal chalk line."""
        dx, dy = abs(xy_mm[0] - self.apex_mm[0]), abs(xy_mm[1] - self.apex_mm[1])
        return (dx + dy - self.leg_mm) / math.sqrt(2.0) <= tol_mm


Region = Rect | Corner


class _Left(Enum):
    """Whether the restricted balls stayed in a region during the stroke."""

    STAYED = "stayed"
    LEFT = "left"
    UNKNOWN = "unknown"


def zone_rule_for(discipline: Discipline) -> ZoneRule:
    """The zone rule of straight rail or a balkline discipline."""
    if discipline is Discipline.STRAIGHT_RAIL:
        return _straight_rail
    if not discipline.is_balkline:
        raise RulesError(f"{discipline} has no zone rule (straight rail and balkline only)")
    limit = int(discipline.value.rsplit("/", 1)[1])

    def rule(shot: Shot, ctx: ShotContext, carom: Carom) -> ZoneCall:
        regions = regions_for(discipline, ctx.table, ctx.options)
        return _judge(shot, ctx, regions, ctx.object_balls, limit)

    return rule


def _straight_rail(shot: Shot, ctx: ShotContext, carom: Carom) -> ZoneCall:
    limit = ctx.options.corner_zone_limit
    if limit is None:
        return ZoneCall(True, Carry(), None)
    balls: tuple[Ball, ...] = ctx.object_balls
    if ctx.options.corner_zone_all_balls:
        balls = (ctx.cue_ball, *balls)
    regions = regions_for(Discipline.STRAIGHT_RAIL, ctx.table, ctx.options)
    return _judge(shot, ctx, regions, balls, limit)


# --- geometry ---


def regions_for(discipline: Discipline, table: Table, options: RuleOptions) -> tuple[Region, ...]:
    """The regions of ``discipline`` on ``table``: zones first, then anchor squares.

    Balklines, anchor squares and corner legs are scaled to ``table`` by its length (see
    the module docstring). Straight rail gives the four corners when
    ``options.corner_zone_limit`` is set.
    """
    scale = table.length_mm / _MATCH_LENGTH_MM
    if discipline is Discipline.STRAIGHT_RAIL:
        if options.corner_zone_limit is None:
            return ()
        return _corners(table, options.corner_zone_mm * scale)
    line_mm = balkline_mm(discipline, table)
    x_lines = _lines(table.length_mm, line_mm, table.ball_diameter_mm)
    y_lines = _lines(table.width_mm, line_mm, table.ball_diameter_mm)
    zones = _zones(table, x_lines, y_lines, free_centre=options.centre_zone_free)
    if not options.anchor_squares:
        return zones
    return zones + _anchors(table, x_lines, y_lines, options.anchor_square_mm * scale)


def balkline_mm(discipline: Discipline, table: Table) -> float:
    """How far the balklines of ``discipline`` lie from every cushion of ``table``, in mm.

    The distance the name gives on the table it is named for, scaled by the lengths:
    ``balkline-47/2`` on a 2100 mm table is 470 x 2100 / 2840 = 347.5 mm, ``balkline-35/2``
    on it 350 mm. Lines that would cross merge (:func:`regions_for`).
    """
    if not discipline.is_balkline:
        raise RulesError(f"{discipline} has no balklines")
    named_mm, named_length_mm = _LINE_MM[discipline.value.removeprefix("balkline-").split("/")[0]]
    return named_mm * table.length_mm / named_length_mm


def _lines(extent_mm: float, line_mm: float, merge_mm: float) -> tuple[float, ...]:
    """Balklines across one axis: at ``line_mm`` from both ends, or one middle line."""
    if extent_mm - 2.0 * line_mm < merge_mm:
        return (extent_mm / 2.0,)
    return (line_mm, extent_mm - line_mm)


def _bands(extent_mm: float, lines: tuple[float, ...]) -> list[tuple[float, float]]:
    return list(itertools.pairwise((0.0, *lines, extent_mm)))


def _zones(
    table: Table, x_lines: tuple[float, ...], y_lines: tuple[float, ...], *, free_centre: bool
) -> tuple[Rect, ...]:
    rows = ("head", "middle", "foot") if len(x_lines) == 2 else ("head", "foot")
    cols = ("left", "centre", "right") if len(y_lines) == 2 else ("left", "right")
    zones = []
    for row, xs in zip(rows, _bands(table.length_mm, x_lines), strict=True):
        for col, ys in zip(cols, _bands(table.width_mm, y_lines), strict=True):
            inner = row == "middle" and col == "centre"
            zones.append(Rect(f"{row}-{col}", xs, ys, free=inner and free_centre))
    return tuple(zones)


def _line_names(lines: tuple[float, ...], low: str, high: str) -> tuple[str, ...]:
    return (low, high) if len(lines) == 2 else ("centre",)


def _anchors(
    table: Table, x_lines: tuple[float, ...], y_lines: tuple[float, ...], side_mm: float
) -> tuple[Rect, ...]:
    half, length, width = side_mm / 2.0, table.length_mm, table.width_mm
    anchors = []
    for name, x in zip(_line_names(x_lines, "head", "foot"), x_lines, strict=True):
        xs = (x - half, x + half)
        anchors.append(Rect(f"anchor-left-{name}", xs, (0.0, side_mm)))
        anchors.append(Rect(f"anchor-right-{name}", xs, (width - side_mm, width)))
    for name, y in zip(_line_names(y_lines, "left", "right"), y_lines, strict=True):
        ys = (y - half, y + half)
        anchors.append(Rect(f"anchor-head-{name}", (0.0, side_mm), ys))
        anchors.append(Rect(f"anchor-foot-{name}", (length - side_mm, length), ys))
    return tuple(anchors)


def _corners(table: Table, leg_mm: float) -> tuple[Corner, ...]:
    length, width = table.length_mm, table.width_mm
    return (
        Corner("corner-head-left", (0.0, 0.0), leg_mm),
        Corner("corner-head-right", (0.0, width), leg_mm),
        Corner("corner-foot-left", (length, 0.0), leg_mm),
        Corner("corner-foot-right", (length, width), leg_mm),
    )


# --- the rule ---


@dataclass(frozen=True, slots=True)
class _Case:
    """One restricted stroke: the balls that matter and what is known of their travel."""

    shot: Shot
    balls: tuple[Ball, ...]
    tol_mm: float
    use_paths: bool
    off: frozenset[Ball]


def _judge(
    shot: Shot,
    ctx: ShotContext,
    regions: Sequence[Region],
    balls: tuple[Ball, ...],
    limit: float,
) -> ZoneCall:
    start = {b: xy for b in balls if (xy := _start_xy(shot, b)) is not None}
    missing = [b for b in balls if b not in start]
    if missing:
        why = Reason.of(ReasonKey.ZONE_NOT_JUDGED, balls=",".join(missing))
        return ZoneCall(True, Carry(), why, doubt=(why,))
    tol = ctx.options.line_tolerance_mm
    common = [r for r in regions if not r.free and all(r.contains(start[b], tol) for b in balls)]
    if not common:
        return ZoneCall(True, Carry(), _unrestricted_note(regions, start, balls, tol))
    off = frozenset(off_table_balls(shot.events))
    case = _Case(shot, balls, tol, ctx.options.returning_ball_left_zone, off)
    return _decide(case, ctx.carry, common, limit)


def _decide(case: _Case, carry: Carry, common: Sequence[Region], limit: float) -> ZoneCall:
    carried = set(carry.zone.split("+")) if carry.zone else set()
    if carry.zone_unknown and not carry.zone:  # a run begun before the record: any zone
        carried = {r.name for r in common}
    counts = {r.name: carry.zone_caroms + 1 if r.name in carried else 1 for r in common}
    status = {r.name: _left_status(case, r) for r in common}
    where: dict[str, str | int] = {
        "group": "all" if len(case.balls) == 3 else "objects",
        "regions": regions_code(r.name for r in common),
        "nth": max(counts.values()),
    }
    due = [r for r in common if counts[r.name] >= limit]
    refused = [r for r in due if status[r.name] is _Left.STAYED]
    if refused:
        return ZoneCall(False, Carry(), _refusal(case, where, refused))
    # The caroms made there before the record are not known (counts are the least): a
    # carom short of the limit on those may be past it (it said "1st carom there").
    maybe = [r.name for r in common if carry.zone_unknown and r.name in carried
             and r not in due and status[r.name] is not _Left.LEFT]  # fmt: skip
    if maybe:
        known = {"group": where["group"], "regions": where["regions"]}
        note = Reason.of(ReasonKey.ZONE_COUNT_UNKNOWN, **known)
        doubt = Reason.of(ReasonKey.REVIEW_ZONE_COUNT_UNKNOWN, **known)
        least = max(counts[k] for k in maybe)
        return ZoneCall(True, Carry("+".join(maybe), least, zone_unknown=True), note, (doubt,))
    if any(status[r.name] is _Left.UNKNOWN for r in due):
        unseen = [b for b in case.balls if _end_xy(case.shot, b) is None and b not in case.off]
        named = ",".join(unseen)
        note = Reason.of(ReasonKey.ZONE_UNSEEN, **where, balls=named)
        doubt = Reason.of(ReasonKey.REVIEW_ZONE_UNSEEN, **where, balls=named)
        return ZoneCall(True, Carry(), note, doubt=(doubt,))
    kept = [r.name for r in common if r not in due and status[r.name] is not _Left.LEFT]
    if not kept:
        left = Reason.of(ReasonKey.ZONE_LEFT, **where, left=_left_code(case, common))
        return ZoneCall(True, Carry(), left)
    n_kept = max(counts[k] for k in kept)
    return ZoneCall(True, Carry("+".join(kept), n_kept), _still(where, n_kept, limit))


def _start_xy(shot: Shot, ball: Ball) -> XY | None:
    if ball in shot.start_positions_mm:
        return shot.start_positions_mm[ball]
    path = shot.paths_mm.get(ball)
    return (path[0][1], path[0][2]) if path else None


def _end_xy(shot: Shot, ball: Ball) -> XY | None:
    if ball in shot.end_positions_mm:
        return shot.end_positions_mm[ball]
    path = shot.paths_mm.get(ball)
    return (path[-1][1], path[-1][2]) if path else None


def _ball_left(case: _Case, region: Region, ball: Ball) -> bool | None:
    """True if ``ball`` left ``region`` during the stroke, None if it cannot be told."""
    if ball in case.off:
        return True
    path = case.shot.paths_mm.get(ball, ())
    if case.use_paths and any(not region.contains((x, y), case.tol_mm) for _, x, y in path):
        return True
    end = _end_xy(case.shot, ball)
    return None if end is None else not region.contains(end, case.tol_mm)


def _left_status(case: _Case, region: Region) -> _Left:
    results = [_ball_left(case, region, b) for b in case.balls]
    if any(r is True for r in results):
        return _Left.LEFT
    return _Left.UNKNOWN if None in results else _Left.STAYED


# --- notes (``referee._zone_notes``) ---


def _refusal(case: _Case, where: dict[str, str | int], refused: Sequence[Region]) -> Reason:
    no_paths = case.use_paths and any(not case.shot.paths_mm.get(b) for b in case.balls)
    key = ReasonKey.ZONE_REFUSED_NO_PATHS if no_paths else ReasonKey.ZONE_REFUSED
    return Reason.of(key, **where, refused=regions_code(r.name for r in refused))


def _left_code(case: _Case, common: Sequence[Region]) -> str:
    items = []
    for ball in case.balls:
        gone = tuple(r.name for r in common if _ball_left(case, r, ball))
        if gone:
            items.append(BallRegions(ball, gone, (False,) * len(gone)).code())
    return ",".join(items)


def _still(where: dict[str, str | int], n: int, limit: float) -> Reason:
    if n + 1 >= limit:
        return Reason.of(ReasonKey.ZONE_LAST, **where)
    free = int(limit) - n - 1
    if free == 1:
        return Reason.of(ReasonKey.ZONE_MORE_ONE, **where)
    return Reason.of(ReasonKey.ZONE_MORE, **where, free=free)


def _unrestricted_note(
    regions: Sequence[Region], start: Mapping[Ball, XY], balls: tuple[Ball, ...], tol: float
) -> Reason | None:
    if not regions or isinstance(regions[0], Corner):
        return None
    items = []
    for ball in balls:
        inside = [r for r in regions if r.contains(start[ball], tol)]
        names = tuple(r.name for r in inside)
        items.append(BallRegions(ball, names, tuple(r.free for r in inside)).code())
    return Reason.of(ReasonKey.ZONE_FREE, placed=",".join(items))
