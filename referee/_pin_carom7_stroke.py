"""What one 7-pin carom stroke did: pins by who knocked them, the carom, balls lost.

The judge (:mod:`referee._pin_carom7`) reads a stroke once, here, then decides on
what it read. Pins [000 "Карамболь с кеглями" §9]: a pin knocked by a pin belongs to
the ball of the last pin a ball knocked. A white may knock pins once it (a) touched a
cushion, (b) was reached second in a carom, or (c) was touched by the cue ball coming
off a cushion; earlier it knocks illegally. The cue ball never may.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from referee._events import BallContact, CushionContact, Event, PinDown, Pocketed
from referee._filters import (
    by_ball,
    by_type,
    cushions_before,
    filter_events,
    find_carom,
    off_table_balls,
)
from referee._names import Ball, Pin
from referee._shot import Shot, ShotContext

__all__ = [
    "ALL_PINS",
    "SIDE_PINS",
    "SPOT_PINS",
    "PinStroke",
    "pin_knockers",
    "pin_value",
    "read_stroke",
    "white_free_times",
]

#: Pin values [000 7-pins §9].
SIDE_PIN_POINTS = 5
KING_WITH_SIDE_PINS = 25
KING_ALONE = 50
KING_AND_SIDE_PINS = 100
SPOT_PIN_POINTS = 30

SIDE_PINS = frozenset({Pin.HEAD, Pin.FOOT, Pin.LEFT, Pin.RIGHT})
SPOT_PINS = frozenset({Pin.SPOT1, Pin.SPOT3})
ALL_PINS = SIDE_PINS | SPOT_PINS | {Pin.KING}


def pin_value(pins: Iterable[Pin]) -> int:
    """Points for ``pins`` knocked in one stroke (all 7 is a win, not a value) [§9].

    "King with others" means with side pins (the text contrasts "alone, without the
    pins around it"): the king with only a spot pin is the king alone.
    """
    down = frozenset(pins)
    sides = len(down & SIDE_PINS)
    if Pin.KING not in down:
        centre = SIDE_PIN_POINTS * sides
    elif sides == len(SIDE_PINS):
        centre = KING_AND_SIDE_PINS
    elif sides:
        centre = KING_WITH_SIDE_PINS + SIDE_PIN_POINTS * sides
    else:
        centre = KING_ALONE
    return centre + SPOT_PIN_POINTS * len(down & SPOT_PINS)


def pin_knockers(events: Iterable[Event]) -> dict[Pin, tuple[Ball | None, float]]:
    """Each pin down -> (the ball that set it falling, t_s it fell), first fall only.

    A pin knocked by a pin gets the ball of the last pin a ball knocked before it
    (the cue ball pushing a lying pin into others is the cue ball's [§9]); ``None``
    when no ball knocked a pin before it.
    """
    out: dict[Pin, tuple[Ball | None, float]] = {}
    last: Ball | None = None
    for e in filter_events(events, by_type(PinDown)):
        assert isinstance(e, PinDown)
        last = e.ball if e.ball is not None else last
        out.setdefault(e.pin, (last, e.t_s))
    return out


def white_free_times(events: tuple[Event, ...], ctx: ShotContext) -> dict[Ball, float]:
    """When each white may start knocking pins, t_s (``inf``: never) [000 7-pins §9].

    (a) its first cushion; (b) reached second in a carom (the first too with
    ``pin7_carom_frees_first_white``); (c) hit by the cue ball after its cushion.
    """
    cue = ctx.cue_ball
    free = {w: _first_cushion(events, w) for w in ctx.object_balls}
    for e in filter_events(events, by_type(BallContact), by_ball(cue)):
        assert isinstance(e, BallContact)
        white = e.other(cue)
        if white in free and cushions_before(events, cue, e.t_s):
            free[white] = min(free[white], e.t_s)
    carom = find_carom(events, cue, ctx.object_balls)
    if carom is not None:
        freed = [carom.second]
        if ctx.options.pin7_carom_frees_first_white:
            freed.append(carom.first)
        for white in freed:
            free[white] = min(free[white], carom.t_second_s)
    return free


def _first_cushion(events: tuple[Event, ...], ball: Ball) -> float:
    hits = filter_events(events, by_type(CushionContact), by_ball(ball))
    return hits[0].t_s if hits else math.inf


@dataclass(frozen=True, slots=True)
class PinStroke:
    """What one stroke did: pins by how they fell, the carom, whites and red lost."""

    legal_pins: frozenset[Pin]
    illegal_pins: frozenset[Pin]
    cue_pins: frozenset[Pin]
    carom: bool
    pocketed: tuple[Ball, ...]
    whites_off: tuple[Ball, ...]
    red_pocketed: bool
    red_off: bool

    @property
    def all_pins(self) -> frozenset[Pin]:
        """Every pin that fell."""
        return self.legal_pins | self.illegal_pins | self.cue_pins

    @property
    def red_lost(self) -> bool:
        """The red (cue ball) was pocketed or left the table."""
        return self.red_pocketed or self.red_off

    @property
    def whites_lost(self) -> tuple[Ball, ...]:
        """Whites pocketed or off the table, to be put back on their starting places."""
        return tuple(dict.fromkeys((*self.pocketed, *self.whites_off)))


def read_stroke(shot: Shot, ctx: ShotContext) -> PinStroke:
    """What ``shot`` did, pins sorted into legal, illegal and the cue ball's."""
    free = white_free_times(shot.events, ctx)
    legal: set[Pin] = set()
    illegal: set[Pin] = set()
    by_cue: set[Pin] = set()
    for pin, (ball, t_s) in pin_knockers(shot.events).items():
        if ball == ctx.cue_ball:
            by_cue.add(pin)
        elif (min(free.values()) if ball is None else free.get(ball, math.inf)) < t_s:
            legal.add(pin)
        else:
            illegal.add(pin)
    pocketed = tuple(dict.fromkeys(e.ball for e in shot.events if isinstance(e, Pocketed)))
    off = off_table_balls(shot.events)
    return PinStroke(
        legal_pins=frozenset(legal),
        illegal_pins=frozenset(illegal),
        cue_pins=frozenset(by_cue),
        carom=find_carom(shot.events, ctx.cue_ball, ctx.object_balls) is not None,
        pocketed=tuple(b for b in pocketed if b != ctx.cue_ball),
        whites_off=tuple(b for b in off if b != ctx.cue_ball),
        red_pocketed=ctx.cue_ball in pocketed,
        red_off=ctx.cue_ball in off,
    )
