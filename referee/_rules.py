"""Judging one shot: pick the discipline's rule, then check doubt and frozen balls.

Theory of operation: each discipline is a pure function ``(Shot, ShotContext) ->
Verdict``. Around it, :func:`judge` (1) rejects names the discipline does not
know, (2) asks whether any doubtful event decides the call, by judging the shot
again without that event and with its time moved by its stated error, and
(3) announces frozen balls from where the balls come to rest.

Rules read an event's time only through the order of the events (ties included)
and, for the cushion-repeat merge, the gap between one ball's cushion contacts; they
do not compare event times with anything else. So an event moved by its error without
passing or meeting another event's time (and, when merging, not a cushion contact)
cannot change the call and is not judged again.

Cost: one judgement is O(n) in the shot's n events. The review builds the variants
of the doubtful events only, one at a time (an O(n) copy each, the moved event put in
place by binary search), skips the moves that change no order (a binary search each)
and stops at the first variant that changes the call: O(n) for a shot whose doubt
is timing that changes no order, or a few doubtful events; O(d * n) when d events are
left out or moved past others.
"""

from __future__ import annotations

import dataclasses
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from itertools import pairwise
from math import isfinite

from referee._disciplines import Judge, call_fouls, rules_of
from referee._errors import UnknownBallError
from referee._events import (
    BallContact,
    Call,
    CushionContact,
    Event,
    OffTable,
    PinDown,
    Pocketed,
)
from referee._filters import off_table_balls
from referee._names import Ball, Discipline, NextPosition
from referee._reason import Reason
from referee._review import decisive_review, doubt_review
from referee._shot import Shot, ShotContext
from referee._spotting import frozen_announcements
from referee._verdict import Verdict, announce, with_review

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
    if shot.doubt:
        review = doubt_review(shot.doubt)
    else:
        review = verdict.review_parts or _decisive_doubt(shot, ctx, rule, verdict)
    frozen = _frozen(shot, ctx, verdict)
    return announce(with_review(verdict, review), frozen)


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
        if isinstance(event, Call) and event.foul not in call_fouls(ctx.discipline):
            raise UnknownBallError(f"{where}: call {event.foul}, but {ctx.discipline} has no pins")
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


def _without(events: tuple[Event, ...], i: int) -> tuple[Event, ...]:
    """``events`` without the one at ``i``: one O(n) copy."""
    return events[:i] + events[i + 1 :]


def _inserted(rest: tuple[Event, ...], event: Event, in_order: bool) -> tuple[Event, ...]:
    """``rest`` with ``event`` added, sorted by time as a stable sort would put it.

    ``in_order``: ``rest`` is already sorted, so one binary search and one copy do
    (after any event of the same time, as ``sorted((*rest, event))`` puts it).
    """
    if not in_order:
        return tuple(sorted((*rest, event), key=lambda e: e.t_s))
    at = bisect_right(rest, event.t_s, key=lambda e: e.t_s)
    return (*rest[:at], event, *rest[at:])


@dataclasses.dataclass(frozen=True, slots=True)
class _Review:
    """The variants of a shot's doubtful events, each built only when it must be judged."""

    events: tuple[Event, ...]
    times_s: tuple[float, ...]  # the events' times, sorted
    in_order: bool  # the events are sorted by time
    merge_s: float  # the cushion-repeat merge window (0: off)

    @classmethod
    def of(cls, shot: Shot, ctx: ShotContext) -> _Review:
        times = tuple(e.t_s for e in shot.events)
        in_order = all(a <= b for a, b in pairwise(times))
        merge_s = ctx.options.cushion_repeat_merge_s
        return cls(shot.events, times if in_order else tuple(sorted(times)), in_order, merge_s)

    def variants(self, i: int) -> Iterator[tuple[Event, ...]]:
        """Event ``i`` left out (``doubt``), then moved by ``-t_err_s``, ``+t_err_s``."""
        event = self.events[i]
        rest = _without(self.events, i) if event.doubt else None
        if rest is not None:
            yield rest
        for dt in (-event.t_err_s, event.t_err_s) if event.t_err_s > 0 else ():
            if self._unseen(event, event.t_s + dt):
                continue
            rest = rest if rest is not None else _without(self.events, i)
            yield _inserted(rest, dataclasses.replace(event, t_s=event.t_s + dt), self.in_order)

    def _unseen(self, event: Event, moved_s: float) -> bool:
        """Moving ``event`` to ``moved_s`` changes nothing a rule reads (module docstring).

        No other event's time lies between the two times or on either, so the order
        and every tie stay; a cushion contact may also change a merge (when merging).
        """
        if not self.in_order or not isfinite(moved_s):
            return False
        if self.merge_s > 0 and isinstance(event, CushionContact):
            return False
        lo, hi = min(event.t_s, moved_s), max(event.t_s, moved_s)
        return bisect_right(self.times_s, hi) - bisect_left(self.times_s, lo) == 1


def _decisive_doubt(shot: Shot, ctx: ShotContext, rule: Judge, base: Verdict) -> tuple[Reason, ...]:
    doubtful = [i for i, e in enumerate(shot.events) if e.doubt or e.t_err_s > 0]
    review = _Review.of(shot, ctx) if doubtful else None
    for i in doubtful:
        for variant in review.variants(i) if review else ():
            other = rule(dataclasses.replace(shot, events=variant), ctx)
            if _outcome(other) != _outcome(base):
                return decisive_review(shot.events[i], other)
    return ()


def _frozen(shot: Shot, ctx: ShotContext, verdict: Verdict) -> tuple[Reason, ...]:
    if not shot.end_positions_mm or verdict.next_position is NextPosition.BREAK:
        return ()  # the break position replaces the layout
    off = set(off_table_balls(shot.events))
    if verdict.next_position is NextPosition.BALL_IN_HAND:
        off.add(ctx.opponent_ball)  # the incoming player's ball is placed by hand
    resting = {b: xy for b, xy in shot.end_positions_mm.items() if b not in off}
    resting.update({r.ball: r.xy_mm for r in verdict.respots})
    return frozen_announcements(resting, ctx.table, ctx.options.frozen_tolerance_mm)
