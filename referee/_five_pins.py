"""Five-pins (UMB "5 фишек"): judging one stroke [rules.md §6; 000 §4-§15].

Theory of operation. Players alternate one stroke each, so every verdict ends the
inning. A stroke is read in three passes over its sorted events:

1. Pins. Each pin standing at the start (``Shot.pins_standing``, ``None``: all
   five) that falls counts once. A ``PinDown`` for a pin that was not standing (its
   spot was covered, so it had been removed: a tracking error) is ignored and named
   in the reason. A pin knocked by another pin (``ball=None``) counts [000 §12.3] and
   is credited to the ball that knocked the latest ball-knocked pin before it, the
   head of its chain; with none before it, to no ball: it scores but is never the
   cue ball's foul.
2. Contacts. The cue ball must touch the opponent's ball first, on the break too
   [000 §4.3] (``RuleOptions.break_red_first`` does not apply), and a break scores
   like any stroke [000 §4.5]. Touching it and the red at the same instant is a
   legal hit (the red was not "before") without carom (nor was it "then"). A pin
   the cue ball knocks at the instant of that contact falls after it. Afterwards
   the earliest contact of the red with the cue ball (carom, 4) or with the
   opponent's ball (ricochet, 3) is the stroke's only carom [000 §8.2]; at the same
   instant the carom wins ([000 §5.7] names the cue ball's contact first).
3. Values and fouls [000 §8, §15]. Side pins 2 each; the centre pin 4 with side
   pins, 8 alone (whether or not the figure is complete); pins and carom add up.
   Every foul is worth 2 (red first 4: "2 for the miss + 2 for the carom"). The
   fouls, plus the pin and carom points of the stroke counted once, all go to the
   opponent. After a foul the opponent has ball in hand, except when the only foul
   is the cue ball knocking pins after a legal hit [000 §13.1, §15.2].

A stroke played with the wrong ball is the wrong-ball foul (with any calls and a
ball off the table); its value is the pins that fell, with no carom, since caroms
and first contacts are defined for the shooter's own ball only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from referee._events import BallContact, PinDown
from referee._filters import (
    by_ball,
    by_time,
    by_type,
    called_fouls,
    filter_events,
    first_contacts,
    off_table_balls,
)
from referee._names import Ball, Foul, NextPosition, Pin, Spot
from referee._pin_items import PinItem
from referee._reason import Reason, ReasonKey
from referee._shot import Shot, ShotContext
from referee._spotting import respot_five_pins
from referee._verdict import Respot, Verdict

__all__ = ["FIVE_PINS", "judge_five_pins", "most_stroke_points", "pin_points"]

#: The five pins: the centre pin and the four side pins.
FIVE_PINS: frozenset[Pin] = frozenset({Pin.CENTER, Pin.HEAD, Pin.FOOT, Pin.LEFT, Pin.RIGHT})

_SIDE_PIN = 2
_CENTRE_WITH_SIDES = 4
_CENTRE_ALONE = 8
_CAROM = 4
_RICOCHET = 3
_FOUL = 2
#: Fouls worth more than the usual 2 [000 §15.3б].
_FOUL_EXTRA = {Foul.RED_FIRST: 2}


@dataclass(frozen=True, slots=True)
class _Fall:
    """A standing pin that fell at ``t_s``, credited to ``by`` (``None``: unknown)."""

    pin: Pin
    t_s: float
    by: Ball | None


@dataclass(frozen=True, slots=True)
class _Value:
    """The points of a stroke and the items that make them up."""

    points: int
    parts: tuple[PinItem, ...]

    def items(self) -> str:
        """The ``items`` field of a reason (:func:`referee.pin_items`)."""
        return ",".join(p.code() for p in self.parts)


def most_stroke_points() -> int:
    """The most one stroke can score: every pin down and the carom (only the first counts)."""
    return pin_points(FIVE_PINS) + _CAROM


def judge_five_pins(shot: Shot, ctx: ShotContext) -> Verdict:
    """The verdict on one five-pins stroke; the inning always ends."""
    falls, ignored = _falls(shot)
    fouls = _fouls(shot, ctx, falls)
    value = _value(shot, ctx, falls, _legal_first_contact(shot, ctx))
    note = (Reason.of(ReasonKey.PINS_IGNORED, pins=",".join(ignored)),) if ignored else ()
    if fouls:
        return _foul_verdict(shot, ctx, fouls, value, note)
    if value.points and ctx.carry.frozen_restart and ctx.options.five_pins_frozen_break_no_score:
        # [000 §10.4]: from the break position set for frozen balls, a safety only.
        said = Reason.of(ReasonKey.PINS_FROZEN_BREAK, points=value.points, items=value.items())
        return Verdict(inning_ends=True, reason_parts=(said, *note))
    parts = (_scoring_reason(ctx, value), *note)
    return Verdict(inning_ends=True, reason_parts=parts, points=value.points)


def pin_points(pins: Collection[Pin]) -> int:
    """Points of the pins down in one stroke: side 2 each, centre 4 with sides, 8 alone."""
    return _pin_value(pins).points


def _falls(shot: Shot) -> tuple[tuple[_Fall, ...], tuple[Pin, ...]]:
    standing = FIVE_PINS if shot.pins_standing is None else shot.pins_standing
    falls: dict[Pin, _Fall] = {}
    ignored: list[Pin] = []
    chain_head: Ball | None = None
    for event in filter_events(shot.events, by_type(PinDown)):
        assert isinstance(event, PinDown)
        if event.pin not in standing:
            ignored.append(event.pin)
            continue
        if event.ball is not None:
            chain_head = event.ball
        falls.setdefault(event.pin, _Fall(event.pin, event.t_s, chain_head))
    return tuple(falls.values()), tuple(dict.fromkeys(ignored))


def _legal_first_contact(shot: Shot, ctx: ShotContext) -> float | None:
    """Time the cue ball first touched the opponent's ball, if that was its first ball."""
    if shot.cue_ball != ctx.cue_ball:
        return None
    firsts = first_contacts(shot.events, ctx.cue_ball)
    t_opp, t_red = firsts.get(ctx.opponent_ball), firsts.get(ctx.object_ball)
    if t_opp is None or (t_red is not None and t_red < t_opp):
        return None
    return t_opp


def _fouls(shot: Shot, ctx: ShotContext, falls: tuple[_Fall, ...]) -> tuple[Foul, ...]:
    fouls = list(called_fouls(shot.events))
    if shot.cue_ball != ctx.cue_ball:
        fouls.append(Foul.WRONG_BALL)
    else:
        fouls.extend(_contact_fouls(shot, ctx, falls))
    if off_table_balls(shot.events):
        # 2 points however many balls left the table [000 §15.3д].
        fouls.append(Foul.BALL_OFF_TABLE)
    return tuple(dict.fromkeys(fouls))


def _contact_fouls(shot: Shot, ctx: ShotContext, falls: tuple[_Fall, ...]) -> list[Foul]:
    firsts = first_contacts(shot.events, ctx.cue_ball)
    t_opp, t_red = firsts.get(ctx.opponent_ball), firsts.get(ctx.object_ball)
    red_first = t_red is not None and (t_opp is None or t_red < t_opp)
    fouls: list[Foul] = []
    if red_first:
        fouls.append(Foul.RED_FIRST)
    elif t_opp is None:
        fouls.append(Foul.MISSED_OPPONENT_BALL)
    cue_pins = [f.t_s for f in falls if f.by == ctx.cue_ball]
    if t_opp is None:
        if cue_pins and ctx.options.five_pins_pins_on_miss_extra_foul:
            fouls.append(Foul.PINS_BEFORE_OPPONENT_BALL)
        return fouls
    if any(t < t_opp for t in cue_pins):
        fouls.append(Foul.PINS_BEFORE_OPPONENT_BALL)
    if not red_first and any(t >= t_opp for t in cue_pins):
        fouls.append(Foul.CUE_BALL_KNOCKED_PINS)
    return fouls


def _value(shot: Shot, ctx: ShotContext, falls: tuple[_Fall, ...], t_legal: float | None) -> _Value:
    pins = _pin_value([f.pin for f in falls])
    carom = None if t_legal is None else _first_carom(shot, ctx, t_legal)
    if carom is None:
        return pins
    return _Value(pins.points + carom.points, pins.parts + carom.parts)


def _pin_value(pins: Collection[Pin]) -> _Value:
    sides = [p for p in pins if p is not Pin.CENTER]
    parts: list[PinItem] = []
    points = _SIDE_PIN * len(sides)
    if Pin.CENTER in pins:
        centre = _CENTRE_WITH_SIDES if sides else _CENTRE_ALONE
        points += centre
        parts.append(PinItem("centre_with_sides" if sides else "centre_alone", centre))
    if sides:
        kind = "side_pin" if len(sides) == 1 else "side_pins"
        parts.append(PinItem(kind, _SIDE_PIN * len(sides), tuple(sides)))
    return _Value(points, tuple(parts))


def _first_carom(shot: Shot, ctx: ShotContext, t_legal: float) -> _Value | None:
    red, cue = ctx.object_ball, ctx.cue_ball
    after = filter_events(
        shot.events, by_type(BallContact), by_ball(red), by_time(t_legal, after=True)
    )
    hits = [(e.t_s, e.other(red) != cue, e.other(red)) for e in after if isinstance(e, BallContact)]
    if not hits:
        return None
    _, ricochet, _ = min(hits)  # the earliest; at the same instant the carom
    if ricochet:
        return _Value(_RICOCHET, (PinItem("ricochet", _RICOCHET, (ctx.opponent_ball, red)),))
    return _Value(_CAROM, (PinItem("carom", _CAROM, (cue, ctx.opponent_ball, red)),))


def _scoring_reason(ctx: ShotContext, value: _Value) -> Reason:
    """Points (never 1: the smallest item is worth 2), or none for a legal stroke."""
    if value.points:
        key = ReasonKey.PINS_SCORED_BREAK if ctx.is_break else ReasonKey.PINS_SCORED
        return Reason.of(key, points=value.points, items=value.items())
    key = ReasonKey.PINS_NO_POINTS_BREAK if ctx.is_break else ReasonKey.PINS_NO_POINTS
    return Reason.of(key, cue=ctx.cue_ball, opponent=ctx.opponent_ball)


def _foul_verdict(
    shot: Shot, ctx: ShotContext, fouls: tuple[Foul, ...], value: _Value, note: tuple[Reason, ...]
) -> Verdict:
    penalty = sum(_FOUL + _FOUL_EXTRA.get(f, 0) for f in fouls)
    total = penalty + value.points
    respots = respot_five_pins(
        off_table_balls(shot.events),
        ctx.cue_ball,
        ctx.opponent_ball,
        shot.end_positions_mm,
        ctx.table,
    )
    said: dict[str, str | int] = {"fouls": ",".join(fouls), "total": total,
                                  "opponent": ctx.opponent_ball, "penalty": penalty}  # fmt: skip
    if value.points:
        reason = Reason.of(ReasonKey.PINS_FOUL_STROKE, **said, points=value.points,
                           items=value.items())  # fmt: skip
    else:
        reason = Reason.of(ReasonKey.PINS_FOUL, **said)
    nxt, say = _after_foul(shot, ctx, fouls, respots)
    return Verdict(
        inning_ends=True,
        reason_parts=(reason, *note),
        opponent_points=total,
        fouls=fouls,
        respots=respots,
        next_position=nxt,
        announcement_parts=(say,),
    )


def _after_foul(
    shot: Shot, ctx: ShotContext, fouls: tuple[Foul, ...], respots: tuple[Respot, ...]
) -> tuple[NextPosition, Reason]:
    if all(f is Foul.CUE_BALL_KNOCKED_PINS for f in fouls):
        # The one foul without ball in hand [000 §13.1, §15.2].
        return NextPosition.PLAY_ON, Reason.of(ReasonKey.PINS_PLAY_ON, taker=ctx.opponent_ball)
    return NextPosition.BALL_IN_HAND, _ball_in_hand(shot, ctx, respots)


def _ball_in_hand(shot: Shot, ctx: ShotContext, respots: tuple[Respot, ...]) -> Reason:
    """The ball-in-hand instruction [000 §13.2-§13.5]: the half opposite the fouler's ball.

    Unless the fouler's ball was re-spotted, the taker may ask for it on the top spot; when
    the red covers the top spot, on the matching mark in the other half, the ball in hand
    then in the top half [000 §13.5] (it offered the top spot with the red standing on it).
    """
    fouler, taker = ctx.cue_ball, ctx.opponent_ball
    spotted = {r.ball: r.xy_mm for r in respots}
    red = spotted.get(ctx.object_ball, shot.end_positions_mm.get(ctx.object_ball))
    top = ctx.table.spot(Spot.TOP)
    covered = red is not None and not ctx.table.is_free(top, [red])
    xy = spotted.get(fouler, shot.end_positions_mm.get(fouler))
    mid = ctx.table.length_mm / 2.0
    if xy is None:
        half = "opposite"
    elif abs(xy[0] - mid) <= ctx.options.five_pins_centre_line_mm:
        half = "centre_line"
    else:
        half = "bottom" if xy[0] > mid else "top"
    ask = "" if fouler in spotted else "_ask_red" if covered else "_ask"
    return Reason.of(ReasonKey(f"pins_hand_{half}{ask}"), taker=taker, fouler=fouler)
