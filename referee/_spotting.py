"""Re-spotting balls and frozen-ball announcements [rules.md §4, §5, 001 §26].

After all balls stop, balls off the table are spotted, the cue ball first:
cue ball -> head, foot, centre; the other white (yellow) -> head, foot, centre;
red -> foot, head, centre. A spot is occupied when a ball there would touch
another ball. If every spot of the chain is taken the ball goes to the last spot
of its chain moved along the long axis toward the foot until free (rare; the
rules do not say).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from referee._names import Ball, Cushion, Spot
from referee._reason import Reason, ReasonKey
from referee._table import XY, Table
from referee._verdict import Respot

__all__ = ["frozen_announcements", "respot_chain", "respot_five_pins"]

_RED_CHAIN = (Spot.FOOT, Spot.HEAD, Spot.CENTER)
_WHITE_CHAIN = (Spot.HEAD, Spot.FOOT, Spot.CENTER)


def respot_chain(
    off: Iterable[Ball],
    cue_ball: Ball,
    resting_mm: Mapping[Ball, XY],
    table: Table,
) -> tuple[Respot, ...]:
    """Spots for the balls ``off`` the table, given where the others rest (mm)."""
    ordered = sorted(set(off), key=lambda b: (b != cue_ball, b == Ball.RED, b.value))
    taken = [xy for b, xy in resting_mm.items() if b not in ordered]
    placed: list[Respot] = []
    for ball in ordered:
        respot = _place(ball, cue_ball, taken, table)
        placed.append(respot)
        taken.append(respot.xy_mm)
    return tuple(placed)


def _place(ball: Ball, cue_ball: Ball, taken: list[XY], table: Table) -> Respot:
    chain = _RED_CHAIN if ball == Ball.RED and ball != cue_ball else _WHITE_CHAIN
    for spot in chain:
        xy = table.spot(spot)
        if table.is_free(xy, taken):
            return Respot(ball, spot, xy)
    x, y = table.spot(chain[-1])
    while not table.is_free((x, y), taken) and x < table.length_mm - table.radius_mm:
        x += 1.0
    return Respot(ball, chain[-1], (x, y))


def frozen_announcements(
    resting_mm: Mapping[Ball, XY], table: Table, tolerance_mm: float
) -> tuple[Reason, ...]:
    """Announcements like ``white is frozen to red`` for touching balls and cushions."""
    notes: list[Reason] = []
    balls = sorted(resting_mm)
    for i, a in enumerate(balls):
        for b in balls[i + 1 :]:
            if math.dist(resting_mm[a], resting_mm[b]) <= table.ball_diameter_mm + tolerance_mm:
                notes.append(Reason.of(ReasonKey.FROZEN_BALL, ball=a, other=b))
    for ball in balls:
        for cushion in _cushions_touched(resting_mm[ball], table, tolerance_mm):
            notes.append(Reason.of(ReasonKey.FROZEN_CUSHION, ball=ball, cushion=cushion))
    return tuple(notes)


def _cushions_touched(xy: XY, table: Table, tolerance_mm: float) -> list[Cushion]:
    x, y = xy
    limit = table.radius_mm + tolerance_mm
    gaps = {
        Cushion.HEAD: x,
        Cushion.FOOT: table.length_mm - x,
        Cushion.LEFT: y,
        Cushion.RIGHT: table.width_mm - y,
    }
    return [c for c, gap in gaps.items() if gap <= limit]


def respot_five_pins(
    off: Iterable[Ball],
    fouler: Ball,
    in_hand: Ball,
    resting_mm: Mapping[Ball, XY],
    table: Table,
) -> tuple[Respot, ...]:
    """Five-pins spots for balls off the table [000 §11.3], positions in table mm.

    A ball off is always a foul there, so ``in_hand`` (the next shooter's ball) is
    placed by hand: it is never spotted and blocks no spot. The ``fouler``'s ball
    goes on the top spot (the ball in hand then goes to the bottom half), or, when a
    ball covers it, on "the spot of the ball that covers it", the red's spot. The
    red goes on its own spot, or when the fouler's ball covers it on the top spot.
    The fouler's ball is spotted first. With both spots of a chain taken the ball
    slides from the last one toward the head cushion until free (rules silent).
    """
    chains = {fouler: (Spot.TOP, Spot.RED_FIVE_PINS)}
    ordered = sorted(set(off) - {in_hand}, key=lambda b: (b != fouler, b.value))
    taken = [xy for b, xy in resting_mm.items() if b not in ordered and b != in_hand]
    placed: list[Respot] = []
    for ball in ordered:
        chain = chains.get(ball, (Spot.RED_FIVE_PINS, Spot.TOP))
        free = [s for s in chain if table.is_free(table.spot(s), taken)]
        if free:
            respot = Respot(ball, free[0], table.spot(free[0]))
        else:
            x, y = table.spot(chain[-1])
            while not table.is_free((x, y), taken) and x > table.radius_mm:
                x -= 1.0
            respot = Respot(ball, chain[-1], (x, y))
        placed.append(respot)
        taken.append(respot.xy_mm)
    return tuple(placed)
