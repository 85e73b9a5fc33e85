"""7-pin carom on a Russian pyramid table [rules.md §7; 000 "Карамболь с кеглями"].

Theory of operation: both players shoot the red; ``ctx.opponent_ball`` starts beside
spot 1 (head end), ``ctx.object_ball`` beside spot 3 [§8]. Counts run down from
``start_count``: ``points`` come off the shooter's count, ``penalty`` goes on [§9].

1. Pins [§9]: a pin knocked by a pin belongs to the ball of the last pin a ball
   knocked. A white may knock pins once it (a) touched a cushion, (b) was reached
   second in a carom, or (c) was touched by the cue ball coming off a cushion;
   earlier it knocks illegally. The cue ball never may.
2. Fouls [§7, §9]: calls, wrong ball, illegal pins, the red pocketed or off, no
   white touched, a break that is no direct hit on the far white, at zero a failed
   safety. A foul puts 5 per foul and all the stroke made on the count.
3. Otherwise the stroke's value [§9] comes off, unless it passes zero. At exactly
   zero the next stroke, the same player's, must be a legal safety [§9, §22]: a white
   touched, then a ball to a cushion, no pin; it wins. All 7 pins win at once. The series lasts
   while pins fall. Vague points are ``RuleOptions.pin7_*`` switches.

Reading a stroke (pins, carom, balls lost) is :mod:`referee._pin_carom7_stroke`;
where lost whites go back and covered spot pins stand, :mod:`referee._pin_carom7_spots`.
"""

from __future__ import annotations

import math

from referee._events import CushionContact
from referee._filters import (
    by_time,
    by_type,
    called_fouls,
    cushions_before,
    filter_events,
    first_contacts,
)
from referee._names import Ball, Foul, NextPosition
from referee._pin_carom7_spots import displaced_pins, respot_whites
from referee._pin_carom7_stroke import ALL_PINS, PinStroke, pin_value, read_stroke
from referee._pin_items import PinItem
from referee._reason import Reason, ReasonKey
from referee._shot import Shot, ShotContext
from referee._verdict import Respot, Verdict, announce

__all__ = ["DEFAULT_START_COUNT", "judge_pin_carom7"]

#: The count each player starts from when the match names none (300 or 500 usually).
DEFAULT_START_COUNT = 300

#: Points besides the pins' values [000 7-pins §9].
FOUL_POINTS = 5
CAROM_POINTS = 5
POCKET_POINTS = 5


def _fouls(shot: Shot, ctx: ShotContext, s: PinStroke) -> list[Foul]:
    opts = ctx.options
    fouls = list(called_fouls(shot.events))
    if shot.cue_ball != ctx.cue_ball and Foul.WRONG_BALL not in fouls:
        fouls.append(Foul.WRONG_BALL)
    if s.cue_pins:
        fouls.append(Foul.CUE_BALL_PIN)
    if s.illegal_pins and opts.pin7_illegal_white_pin_is_foul:
        fouls.append(Foul.ILLEGAL_PIN)
    if s.red_pocketed:
        fouls.append(Foul.CUE_BALL_POCKETED)
    if s.red_off:
        fouls.append(Foul.CUE_BALL_OFF_TABLE)
    touched = first_contacts(shot.events, ctx.cue_ball)
    if ctx.is_break:
        fouls.extend(_break_fouls(shot, ctx, touched))
    elif opts.pin7_no_contact_is_foul and not any(w in touched for w in ctx.object_balls):
        fouls.append(Foul.NO_CONTACT)
    return fouls


def _break_fouls(shot: Shot, ctx: ShotContext, touched: dict[Ball, float]) -> list[Foul]:
    """[000 7-pins §7]: a direct hit on the far white; no cushion, no other ball first."""
    far = _far_white(shot, ctx)
    if far not in touched:
        return [Foul.BREAK_MISS]
    t_far = touched[far]
    first = min(touched.values()) == t_far
    direct = first and not cushions_before(shot.events, ctx.cue_ball, t_far)
    return [] if direct else [Foul.BREAK_NOT_DIRECT]


def _far_white(shot: Shot, ctx: ShotContext) -> Ball:
    # The seed usually puts ball No. 2 by spot 1 and No. 1 by spot 3 [§7], the reverse
    # of our names: trust start positions when known, else the ball by spot 3.
    near, far = ctx.opponent_ball, ctx.object_ball
    pos = shot.start_positions_mm
    if near in pos and far in pos and pos[near][0] > pos[far][0]:
        return near
    return far


def _safety_fouls(shot: Shot, ctx: ShotContext, s: PinStroke, fouls: list[Foul]) -> list[Foul]:
    """At zero [000 7-pins §9, §22]: no pins, and a ball to a cushion after a white."""
    out: list[Foul] = []
    covered = s.cue_pins | (s.illegal_pins if Foul.ILLEGAL_PIN in fouls else frozenset())
    if s.all_pins - covered and ctx.options.pin7_pins_at_zero_is_foul:
        out.append(Foul.SAFETY_PINS)
    if Foul.NO_CONTACT not in fouls and not _ball_to_cushion(shot, ctx):
        out.append(Foul.SAFETY_NO_CUSHION)
    return out


def _ball_to_cushion(shot: Shot, ctx: ShotContext) -> bool:
    touched = first_contacts(shot.events, ctx.cue_ball)
    hits = [touched[w] for w in ctx.object_balls if w in touched]
    after = by_time(min(hits, default=math.inf), after=True)
    return bool(filter_events(shot.events, by_type(CushionContact), after))


def _start_count(ctx: ShotContext) -> int:
    return ctx.start_count or DEFAULT_START_COUNT


def _remaining(ctx: ShotContext) -> int:  # unknown: the start of the game
    return _start_count(ctx) if ctx.remaining is None else ctx.remaining


def judge_pin_carom7(shot: Shot, ctx: ShotContext) -> Verdict:
    """The verdict on one 7-pin carom stroke [rules.md §7]."""
    s = read_stroke(shot, ctx)
    respots = respot_whites(shot, ctx, s)
    verdict = _judge(shot, ctx, s, respots)
    notes = displaced_pins(shot, ctx, s, respots)
    return announce(verdict, notes, first=True)


def _judge(shot: Shot, ctx: ShotContext, s: PinStroke, respots: tuple[Respot, ...]) -> Verdict:
    fouls = _fouls(shot, ctx, s)
    if not fouls and s.legal_pins >= ALL_PINS:
        return Verdict(
            inning_ends=True,
            reason_parts=(Reason.of(ReasonKey.PIN7_ALL_SEVEN),),
            points=_remaining(ctx),
            wins_game=True,
            respots=respots,
        )
    at_zero = _remaining(ctx) == 0 and not ctx.is_break
    if at_zero:
        fouls.extend(_safety_fouls(shot, ctx, s, fouls))
    if fouls:
        return _foul_verdict(ctx, s, tuple(fouls), respots, at_zero)
    if at_zero:
        return _safety_verdict(s, respots)
    return _score_verdict(ctx, s, respots)


#: At zero, the ways the closing safety fails: one failed safety, one penalty.
_FAILED_SAFETY = frozenset({Foul.ILLEGAL_PIN, Foul.SAFETY_PINS, Foul.SAFETY_NO_CUSHION})


def _foul_verdict(
    ctx: ShotContext, s: PinStroke, fouls: tuple[Foul, ...], respots: tuple[Respot, ...],
    at_zero: bool = False,
) -> Verdict:  # fmt: skip
    """[000 7-pins §9]: 5 per foul, and all the stroke made, go on the count.

    At zero the stroke is the closing safety, "without knocking pins ... one of the
    balls must touch a cushion; otherwise a penalty is taken" [000 7-pins §9]: a white's
    pins and no cushion are that one failed safety, 5 points once (a white's pin and no
    cushion were charged as two or three fouls). The cue ball's own pins stay a foul.
    """
    counted = [
        f for f in fouls if f is not Foul.CUE_BALL_PIN or ctx.options.pin7_cue_pin_adds_foul_points
    ]
    if at_zero and len(_FAILED_SAFETY.intersection(counted)) > 1:
        first = next(f for f in counted if f in _FAILED_SAFETY)
        counted = [f for f in counted if f not in _FAILED_SAFETY or f is first]
    all_seven = s.all_pins >= ALL_PINS
    pins = _start_count(ctx) if all_seven else pin_value(s.all_pins)
    made = pins + _bonus(s)
    penalty = FOUL_POINTS * len(counted) + made
    seven = (Reason.of(ReasonKey.PIN7_ALL_SEVEN_FOUL),) if all_seven else ()
    parts = (Reason.of(ReasonKey.FOUL, fouls=",".join(fouls)),
             Reason.of(ReasonKey.PIN7_PENALTY, penalty=penalty), *seven)  # fmt: skip
    return Verdict(
        inning_ends=True,
        reason_parts=parts,
        penalty=penalty,
        fouls=fouls,
        respots=respots,
        # The red pocketed or off: the next player places it in the house.
        next_position=NextPosition.BALL_IN_HAND if s.red_lost else NextPosition.PLAY_ON,
    )


def _bonus(s: PinStroke) -> int:
    return CAROM_POINTS * s.carom + POCKET_POINTS * len(s.pocketed)


def _safety_verdict(s: PinStroke, respots: tuple[Respot, ...]) -> Verdict:
    """At zero with no foul: a legal safety wins, pins (option off) score nothing."""
    if s.all_pins:
        fell = Reason.of(ReasonKey.PIN7_FELL_AT_ZERO, pins=",".join(sorted(s.all_pins)))
        return Verdict(inning_ends=True, reason_parts=(fell,), respots=respots)
    return Verdict(
        inning_ends=True,
        reason_parts=(Reason.of(ReasonKey.PIN7_SAFETY_WINS),),
        wins_game=True,
        respots=respots,
    )


def _score_verdict(ctx: ShotContext, s: PinStroke, respots: tuple[Respot, ...]) -> Verdict:
    points = pin_value(s.legal_pins) + _bonus(s)
    remaining = _remaining(ctx)
    made = _made(s)
    if points > remaining and not ctx.options.pin7_overshoot_to_zero:
        over = Reason.of(ReasonKey.PIN7_OVERSHOOT, made=made, remaining=remaining)
        return Verdict(inning_ends=True, reason_parts=(over,), respots=respots)
    points = min(points, remaining)
    zero = points and points == remaining
    ends = _inning_ends(ctx, s, points)
    if zero and not (s.whites_off and ctx.options.pin7_white_off_ends_inning):
        # He who brought his count to zero must play the safety [000 7-pins §9]: with
        # no pin (a carom, a pocketed white) the turn passed, while the note said his
        # safety now wins.
        ends = False
    return Verdict(
        inning_ends=ends,
        reason_parts=(
            Reason.of(ReasonKey.PIN7_SCORED, points=points, made=made)
            if points
            else Reason.of(ReasonKey.PIN7_NO_SCORE, made=made),
        ),
        points=points,
        respots=respots,
        announcement_parts=(Reason.of(ReasonKey.PIN7_AT_ZERO),) if zero else (),
    )


def _inning_ends(ctx: ShotContext, s: PinStroke, points: int) -> bool:
    """[000 7-pins §9 "пока падают кегли"; §25]: the series lasts while pins fall."""
    if s.whites_off and ctx.options.pin7_white_off_ends_inning:
        return True
    if ctx.options.pin7_series_needs_pins:
        return not s.legal_pins
    return points == 0


def _made(s: PinStroke) -> str:
    """What the stroke made: the ``made`` field of a reason (:func:`referee.pin_items`)."""
    items: list[PinItem] = []
    if s.legal_pins:
        items.append(PinItem("pins", pin_value(s.legal_pins), tuple(sorted(s.legal_pins))))
    if s.illegal_pins:
        items.append(PinItem("illegal_pins", 0, tuple(sorted(s.illegal_pins))))
    if s.carom:
        items.append(PinItem("carom7", CAROM_POINTS))
    items.extend(PinItem("pocketed", POCKET_POINTS, (b,)) for b in s.pocketed)
    items.extend(PinItem("off_table", 0, (b,)) for b in s.whites_off)
    return ",".join(i.code() for i in items or [PinItem("nothing", 0)])
