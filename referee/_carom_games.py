"""Scoring carom games: three-cushion, one-cushion, straight rail, balkline [rules.md §4-5].

Theory of operation: a stroke scores one point when the shooter's cue ball
contacts both object balls (a carom) with no foul, and the discipline's extra
condition holds: three-cushion needs at least three cushion contacts of the cue
ball before the first contact with the second object ball (cushions before the
first ball count, a cushion touched twice counts twice); one-cushion needs one;
straight rail and balkline need none but limit caroms made inside restricted
zones (``referee._zones``). A foul or a miss ends the inning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from referee._events import CushionContact
from referee._filters import (
    Carom,
    by_time,
    by_type,
    called_fouls,
    cushions_before,
    filter_events,
    find_carom,
    first_contacts,
    off_table_balls,
)
from referee._names import Ball, Discipline, Foul, NextPosition
from referee._reason import Reason, ReasonKey, english_reason
from referee._shot import Carry, Shot, ShotContext
from referee._spotting import respot_chain
from referee._verdict import Verdict, with_review

__all__ = ["ZoneCall", "ZoneRule", "judge_carom_game", "scoring_fouls"]


@dataclass(frozen=True, slots=True)
class ZoneCall:
    """A zone rule's answer on a carom.

    ``allowed`` or not, the ``carry`` for the next stroke, a ``note`` for the
    reason (a keyed phrase, ``referee._zone_notes``; None: nothing to say), and
    ``doubt`` when positions were missing (the verdict's review, as keyed parts).
    """

    allowed: bool
    carry: Carry
    note: Reason | None
    doubt: tuple[Reason, ...] = ()


#: A zone rule checks a carom (straight-rail corners, balkline zones and anchors).
ZoneRule = Callable[[Shot, ShotContext, Carom], ZoneCall]

_CUSHIONS_NEEDED = {Discipline.THREE_CUSHION: 3, Discipline.ONE_CUSHION: 1}


def scoring_fouls(shot: Shot, ctx: ShotContext) -> tuple[Foul, ...]:
    """Fouls common to the scoring games, called ones first."""
    fouls = list(called_fouls(shot.events))
    if shot.cue_ball != ctx.cue_ball and Foul.WRONG_BALL not in fouls:
        fouls.append(Foul.WRONG_BALL)
    off = off_table_balls(shot.events)
    if ctx.cue_ball in off:
        fouls.append(Foul.CUE_BALL_OFF_TABLE)
    others_off = [b for b in off if b != ctx.cue_ball]
    if others_off and _object_ball_off_is_foul(ctx):
        fouls.append(Foul.BALL_OFF_TABLE)
    if ctx.is_break and ctx.options.break_red_first and _first_ball(shot, ctx) == ctx.opponent_ball:
        fouls.append(Foul.BREAK_WRONG_BALL_FIRST)
    if shot.safety and ctx.options.safety_rule:
        fouls.extend(_safety_fouls(shot, ctx))
    return tuple(fouls)


def _safety_fouls(shot: Shot, ctx: ShotContext) -> list[Foul]:
    """Fouls of a declared safety [001 §23-25].

    It must drive a ball to a cushion after the cue ball's first object-ball
    contact, and may not follow the shooter's own safety or foul.
    """
    if ctx.must_attempt:
        return [Foul.SAFETY_REPEATED]
    firsts = first_contacts(shot.events, ctx.cue_ball)
    hits = [t for b, t in firsts.items() if b in ctx.object_balls]
    if hits and filter_events(shot.events, by_type(CushionContact), by_time(min(hits), after=True)):
        return []
    return [Foul.ILLEGAL_SAFETY]


def _object_ball_off_is_foul(ctx: ShotContext) -> bool:
    # rules.md §4: in three-cushion the opponent's ball off is re-spotted "with no
    # consequence"; elsewhere it is an option.
    if ctx.discipline is Discipline.THREE_CUSHION:
        return False
    return ctx.options.object_ball_off_is_foul


def _first_ball(shot: Shot, ctx: ShotContext) -> Ball | None:
    firsts = first_contacts(shot.events, ctx.cue_ball)
    hit = [b for b in ctx.object_balls if b in firsts]
    seen = list(firsts)  # contacts at one time: the log's order, as find_carom
    return min(hit, key=lambda b: (firsts[b], seen.index(b))) if hit else None


def judge_carom_game(shot: Shot, ctx: ShotContext, zone_rule: ZoneRule | None = None) -> Verdict:
    """The verdict of a scoring-game stroke (``zone_rule`` for straight rail, balkline)."""
    respots = respot_chain(
        off_table_balls(shot.events), ctx.cue_ball, shot.end_positions_mm, ctx.table
    )
    fouls = scoring_fouls(shot, ctx)
    if fouls:
        return Verdict(
            inning_ends=True,
            reason_parts=(Reason.of(ReasonKey.FOUL, fouls=",".join(fouls)),),
            fouls=fouls,
            respots=respots,
            next_position=_after_foul(ctx, fouls),
        )
    carom = find_carom(shot.events, ctx.cue_ball, ctx.object_balls)
    if carom is None:
        return Verdict(inning_ends=True, reason_parts=(_miss_reason(shot, ctx),), respots=respots)
    needed = _CUSHIONS_NEEDED.get(ctx.discipline, 0)
    merge_s = ctx.options.cushion_repeat_merge_s
    got = cushions_before(shot.events, ctx.cue_ball, carom.t_second_s, merge_s)
    if got < needed:
        key = ReasonKey.CUSHIONS_SHORT_ONE if got == 1 else ReasonKey.CUSHIONS_SHORT
        short = Reason.of(key, **_cushions(got), second=carom.second, needed=needed)
        return Verdict(inning_ends=True, reason_parts=(short,), respots=respots)
    if not needed:
        why = Reason.of(ReasonKey.POINT, first=carom.first, second=carom.second)
    else:
        key = ReasonKey.POINT_AFTER_ONE if got == 1 else ReasonKey.POINT_AFTER
        why = Reason.of(key, first=carom.first, second=carom.second, **_cushions(got))
    point = Verdict(inning_ends=False, reason_parts=(why,), points=1, respots=respots)
    return point if zone_rule is None else _zone_checked(point, zone_rule(shot, ctx, carom))


def _zone_checked(point: Verdict, call: ZoneCall) -> Verdict:
    note = call.note
    if not call.allowed:
        refused: tuple[Reason, ...] = () if note is None else (note,)
        refusal = replace(point, inning_ends=True, points=0, reason=english_reason(refused),
                          reason_parts=refused, fouls=(Foul.ZONE_LIMIT,))  # fmt: skip
        return with_review(refusal, call.doubt)
    if note is None:
        return with_review(replace(point, carry=call.carry), call.doubt)
    parts = (*point.reason_parts, note)
    noted = replace(point, reason=f"{point.reason}; {note.english()}", reason_parts=parts,
                    carry=call.carry)  # fmt: skip
    return with_review(noted, call.doubt)


def _after_foul(ctx: ShotContext, fouls: tuple[Foul, ...]) -> NextPosition:
    own_off = Foul.CUE_BALL_OFF_TABLE in fouls
    if own_off and ctx.discipline is Discipline.THREE_CUSHION:
        return NextPosition.BREAK if ctx.options.own_ball_off_gives_break else NextPosition.PLAY_ON
    return NextPosition.PLAY_ON


def _miss_reason(shot: Shot, ctx: ShotContext) -> Reason:
    firsts = first_contacts(shot.events, ctx.cue_ball)
    hit = [b for b in ctx.object_balls if b in firsts]
    if not hit:
        return Reason.of(ReasonKey.NO_BALL_HIT)
    (only,) = hit
    missing = ctx.object_balls[1] if only == ctx.object_balls[0] else ctx.object_balls[0]
    return Reason.of(ReasonKey.MISSED_SECOND, only=only, missing=missing)


def _cushions(n: int) -> dict[str, int]:
    """The ``cushions`` field (none: the key's "1 cushion" says it)."""
    return {} if n == 1 else {"cushions": n}
