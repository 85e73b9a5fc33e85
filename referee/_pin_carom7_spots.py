"""7-pin carom after a stroke: where lost whites go back, which spot pins stand aside.

Whites pocketed or off the table go back to their starting places [000 7-pins §8,
§20], sliding toward the short cushion when the place is taken; the red goes to the
next player's hand (no respot). A spot pin whose spot a ball covers stands halfway to
the centre until the spot is free [§9]. All positions in table mm.
"""

from __future__ import annotations

import math

from referee._names import Pin, Spot
from referee._pin_carom7_stroke import SPOT_PINS, PinStroke
from referee._reason import Reason, ReasonKey
from referee._shot import Shot, ShotContext
from referee._table import XY, Table
from referee._verdict import Respot

__all__ = ["displaced_pins", "respot_whites"]

#: The side pin between each spot pin and the king, on the long axis [§9].
_AXIS_NEIGHBOUR = {Pin.SPOT1: Pin.HEAD, Pin.SPOT3: Pin.FOOT}


def respot_whites(shot: Shot, ctx: ShotContext, s: PinStroke) -> tuple[Respot, ...]:
    """Whites pocketed or off go to their starting places [§9, §20]; the red to hand."""
    taken = _resting(shot, ctx, s)
    placed: list[Respot] = []
    for white in s.whites_lost:
        spot = Spot.SPOT1 if white == ctx.opponent_ball else Spot.SPOT3
        xy = _start_place(spot, ctx.table, taken)
        placed.append(Respot(white, spot, xy))
        taken.append(xy)
    return tuple(placed)


def _resting(shot: Shot, ctx: ShotContext, s: PinStroke) -> list[XY]:
    gone = {*s.whites_lost, *([ctx.cue_ball] if s.red_lost else [])}
    return [xy for b, xy in shot.end_positions_mm.items() if b not in gone]


def _start_place(spot: Spot, table: Table, taken: list[XY]) -> XY:
    """A white's starting place, table mm [000 7-pins §8].

    On the long axis beside its pin toward the short cushion, half a ball clear of
    it (pin thickness neglected). Taken: slide on toward the cushion (rules silent).
    """
    x, y = table.spot(spot)
    step = -1.0 if spot is Spot.SPOT1 else 1.0
    start = (x + step * table.ball_diameter_mm, y)
    cx = start[0]
    while table.radius_mm <= cx <= table.length_mm - table.radius_mm:
        if table.is_free((cx, y), taken):
            return (cx, y)
        cx += step
    return start


def displaced_pins(
    shot: Shot, ctx: ShotContext, s: PinStroke, respots: tuple[Respot, ...]
) -> tuple[Reason, ...]:
    """Spot pins whose spot a ball covers: stand them halfway to the centre [§9]."""
    resting = [*_resting(shot, ctx, s), *(r.xy_mm for r in respots)]
    notes: list[Reason] = []
    for pin in sorted(s.all_pins & SPOT_PINS):
        spot = ctx.table.spot(Spot.SPOT1 if pin is Pin.SPOT1 else Spot.SPOT3)
        if any(math.dist(spot, xy) < ctx.table.radius_mm for xy in resting):
            neighbour = _AXIS_NEIGHBOUR[pin]
            notes.append(Reason.of(ReasonKey.PIN7_SPOT_COVERED, pin=pin, neighbour=neighbour))
    return tuple(notes)
