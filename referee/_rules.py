"""Judging one shot: pick the discipline's rule, then check doubt and frozen balls.

Theory of operation: each discipline is a pure function ``(Shot, ShotContext) ->
Verdict``. Around it, :func:`judge` (1) rejects names the discipline does not
know, (2) asks whether any doubtful event decides the call, by judging the shot
again without that event and with its time moved by its stated error, and
(3) announces frozen balls from where the balls come to rest.
"""

from __future__ import annotations

import dataclasses

from referee._disciplines import Judge, rules_of
from referee._errors import UnknownBallError
from referee._events import (
    BallContact,
    Call,
    CushionContact,
    Event,
    OffTable,
    PinDown,
    Pocketed,
    describe,
)
from referee._filters import off_table_balls
from referee._names import Ball, Discipline, NextPosition
from referee._shot import Shot, ShotContext
from referee._spotting import frozen_announcements
from referee._verdict import Verdict

__all__ = ["judge", "known_balls"]


def _judge_for(discipline: Discipline) -> Judge:
    return rules_of(discipline).judge


def known_balls(ctx: ShotContext) -> frozenset[Ball]:
    """The three balls in play."""
    return frozenset({ctx.cue_ball, ctx.opponent_ball, ctx.object_ball})


def judge(shot: Shot, ctx: ShotContext) -> Verdict:
    """The verdict on ``shot``. Raises UnknownBallError for names not in play."""
    _check_names(shot, ctx)
    rule = _judge_for(ctx.discipline)
    verdict = rule(shot, ctx)
    review = shot.doubt or verdict.review or _decisive_doubt(shot, ctx, rule, verdict)
    frozen = _frozen(shot, ctx, verdict)
    return dataclasses.replace(verdict, review=review, announcements=verdict.announcements + frozen)


def _check_names(shot: Shot, ctx: ShotContext) -> None:
    balls = known_balls(ctx)
    pins = rules_of(ctx.discipline).pins
    where = f"shot {shot.index}"
    named = [shot.cue_ball, *shot.start_positions_mm, *shot.end_positions_mm, *shot.paths_mm]
    for event in shot.events:
        named.extend(_balls_of(event))
        if isinstance(event, PinDown) and event.pin not in pins:
            raise UnknownBallError(f"{where}: pin '{event.pin}' is not used in {ctx.discipline}")
        if isinstance(event, Pocketed) and not rules_of(ctx.discipline).pockets:
            raise UnknownBallError(f"{where}: pocket event, but {ctx.discipline} has no pockets")
    for ball in named:
        if ball not in balls:
            known = ", ".join(sorted(balls))
            raise UnknownBallError(f"{where}: ball '{ball}' is not in play (balls: {known})")
    for pin in shot.pins_standing or ():
        if pin not in pins:
            raise UnknownBallError(f"{where}: pin '{pin}' is not used in {ctx.discipline}")


def _balls_of(event: Event) -> list[Ball]:
    match event:
        case BallContact():
            return list(event.balls)
        case CushionContact() | OffTable() | Pocketed():
            return [event.ball]
        case PinDown():
            return [] if event.ball is None else [event.ball]
        case Call():
            return []


def _outcome(v: Verdict) -> tuple[object, ...]:
    return (v.points, v.opponent_points, v.penalty, v.fouls, v.inning_ends, v.wins_game)


def _variants(shot: Shot, i: int) -> list[Shot]:
    event = shot.events[i]
    rest = shot.events[:i] + shot.events[i + 1 :]
    out = [dataclasses.replace(shot, events=rest)] if event.doubt else []
    for dt in (-event.t_err_s, event.t_err_s) if event.t_err_s > 0 else ():
        moved = dataclasses.replace(event, t_s=event.t_s + dt)
        events = tuple(sorted((*rest, moved), key=lambda e: e.t_s))
        out.append(dataclasses.replace(shot, events=events))
    return out


def _decisive_doubt(shot: Shot, ctx: ShotContext, rule: Judge, base: Verdict) -> str | None:
    for i, event in enumerate(shot.events):
        for variant in _variants(shot, i):
            other = rule(variant, ctx)
            if _outcome(other) != _outcome(base):
                why = event.doubt or f"time uncertain by ±{event.t_err_s * 1000:.0f} ms"
                return f"{why}: {describe(event)} decides the call (else: {other.reason})"
    return None


def _frozen(shot: Shot, ctx: ShotContext, verdict: Verdict) -> tuple[str, ...]:
    if not shot.end_positions_mm or verdict.next_position is NextPosition.BREAK:
        return ()  # the break position replaces the layout
    off = set(off_table_balls(shot.events))
    if verdict.next_position is NextPosition.BALL_IN_HAND:
        off.add(ctx.opponent_ball)  # the incoming player's ball is placed by hand
    resting = {b: xy for b, xy in shot.end_positions_mm.items() if b not in off}
    resting.update({r.ball: r.xy_mm for r in verdict.respots})
    return frozen_announcements(resting, ctx.table, ctx.options.frozen_tolerance_mm)
