"""Judging one shot is linear in its events, with the verdicts of the plain algorithm.

The review of doubtful events judges the shot again for each doubtful event; the
plain algorithm (kept below as the reference) also copied the whole event list for
every event, doubtful or not: O(n^2) for a shot of n events (issue 19).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee._rules as rules_module
from referee import (
    Ball,
    BallContact,
    Call,
    Cushion,
    CushionContact,
    Discipline,
    Event,
    Foul,
    Match,
    OffTable,
    Reason,
    RuleOptions,
    Shot,
    ShotContext,
    Verdict,
    english_reason,
    judge,
    shot_context,
)
from referee._disciplines import Judge, rules_of
from referee._events import describe
from tests.referee.test_properties import event_recipes, make_config, shot_for

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
CAROM_GAMES = (Discipline.THREE_CUSHION, Discipline.ONE_CUSHION, Discipline.STRAIGHT_RAIL)


def _outcome(v: Verdict) -> tuple[object, ...]:
    return (v.points, v.opponent_points, v.penalty, v.fouls, v.inning_ends, v.wins_game)


def _reference_variants(shot: Shot, i: int) -> list[Shot]:
    """The code before issue 19, word for word: every variant of every event, eagerly."""
    event = shot.events[i]
    rest = shot.events[:i] + shot.events[i + 1 :]
    out = [dataclasses.replace(shot, events=rest)] if event.doubt else []
    for dt in (-event.t_err_s, event.t_err_s) if event.t_err_s > 0 else ():
        moved = dataclasses.replace(event, t_s=event.t_s + dt)
        events = tuple(sorted((*rest, moved), key=lambda e: e.t_s))
        out.append(dataclasses.replace(shot, events=events))
    return out


def _reference_doubt(shot: Shot, ctx: ShotContext, rule: Judge, base: Verdict) -> str | None:
    for i, event in enumerate(shot.events):
        for variant in _reference_variants(shot, i):
            other = rule(variant, ctx)
            if _outcome(other) != _outcome(base):
                why = event.doubt or f"time uncertain by ±{event.t_err_s * 1000:.0f} ms"
                return f"{why}: {describe(event)} decides the call (else: {other.reason})"
    return None


def _said(parts: tuple[Reason, ...]) -> str | None:
    """The English of a review's keyed parts (what ``Verdict.review`` holds), or None."""
    return english_reason(parts) if parts else None


@st.composite
def small_shots(draw: st.DrawFn) -> Shot:
    """Up to 10 events on a coarse clock (ties happen), sorted or not, some doubtful."""
    events: list[Event] = []
    for _ in range(draw(st.integers(0, 10))):
        t_s = draw(st.integers(0, 12)) * 0.05
        doubt = draw(st.sampled_from([None, None, "balls too close to tell"]))
        err = draw(st.sampled_from([0.0, 0.0, 0.05, 0.12]))
        kind = draw(st.sampled_from(["ball", "ball", "cushion", "cushion", "off", "call"]))
        a, b = draw(st.permutations((W, Y, R)))[:2]
        event: Event
        if kind == "ball":
            event = BallContact(t_s=t_s, balls=(a, b), doubt=doubt, t_err_s=err)
        elif kind == "cushion":
            cushion = draw(st.sampled_from(list(Cushion)))
            event = CushionContact(t_s=t_s, ball=a, cushion=cushion, doubt=doubt, t_err_s=err)
        elif kind == "off":
            event = OffTable(t_s=t_s, ball=a, doubt=doubt, t_err_s=err)
        else:
            event = Call(t_s=t_s, foul=Foul.PUSH, doubt=doubt, t_err_s=err)
        events.append(event)
    if draw(st.booleans()):
        events.sort(key=lambda e: e.t_s)
    return Shot(index=0, cue_ball=draw(st.sampled_from([W, W, Y])), events=tuple(events))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shot=small_shots(),
    discipline=st.sampled_from(CAROM_GAMES),
    merge_s=st.sampled_from([0.0, 0.0, 0.1]),
)
def test_review_of_doubt_equals_the_plain_algorithm(
    shot: Shot, discipline: Discipline, merge_s: float
) -> None:
    options = RuleOptions(cushion_repeat_merge_s=merge_s)
    ctx = ShotContext(discipline=discipline, cue_ball=W, opponent_ball=Y, options=options)
    rule = rules_of(discipline).judge
    base = rule(shot, ctx)
    expected = _reference_doubt(shot, ctx, rule, base)
    assert _said(rules_module._decisive_doubt(shot, ctx, rule, base)) == expected
    assert judge(shot, ctx).review == (shot.doubt or base.review or expected)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), discipline=st.sampled_from(list(Discipline)), is_break=st.booleans())
def test_every_discipline_reviews_doubt_as_the_plain_algorithm(
    data: st.DataObject, discipline: Discipline, is_break: bool
) -> None:
    match = Match(make_config(discipline))
    ctx = dataclasses.replace(shot_context(match.state), is_break=is_break)
    shot = shot_for(match, data.draw(event_recipes(discipline)))
    if data.draw(st.booleans()):  # times on a coarse clock: ties, and moves past others
        events = [dataclasses.replace(e, t_s=round(e.t_s * 2) / 2) for e in shot.events]
        shot = dataclasses.replace(shot, events=tuple(sorted(events, key=lambda e: e.t_s)))
    rule = rules_of(discipline).judge
    base = rule(shot, ctx)
    expected = _reference_doubt(shot, ctx, rule, base)
    assert _said(rules_module._decisive_doubt(shot, ctx, rule, base)) == expected


def _long_shot(n: int, doubtful: int = 3, t_err_s: float = 0.0) -> Shot:
    """A point after ``n`` cushion contacts of both balls; ``doubtful`` of them in doubt.

    ``t_err_s``: every other event's time uncertainty (vision gives every contact one).
    """
    cushions = list(Cushion)
    events: list[Event] = [BallContact(t_s=0.0, balls=(W, R))]
    for i in range(n):
        doubt = "hidden by the arm" if doubtful and i % (n // doubtful) == 1 else None
        err = 0.0005 if doubt else t_err_s
        ball = W if i % 2 else Y
        cushion = cushions[i % 4]
        events.append(
            CushionContact(
                t_s=0.001 * (i + 1), ball=ball, cushion=cushion, doubt=doubt, t_err_s=err
            )
        )
    events.append(BallContact(t_s=0.001 * (n + 1), balls=(W, Y)))
    return Shot(index=0, cue_ball=W, events=tuple(events))


def _events_handled(monkeypatch: pytest.MonkeyPatch, shot: Shot) -> tuple[int, Verdict]:
    """Judge ``shot`` counting every event a rule reads or a variant copies."""
    count = 0

    def counted(make: Callable[..., tuple[Event, ...]]) -> Callable[..., tuple[Event, ...]]:
        def wrapper(*args: object) -> tuple[Event, ...]:
            nonlocal count
            out = make(*args)
            count += len(out)
            return out

        return wrapper

    def counting_rule(discipline: Discipline) -> Judge:
        rule = rules_of(discipline).judge

        def wrapper(s: Shot, ctx: ShotContext) -> Verdict:
            nonlocal count
            count += len(s.events)
            return rule(s, ctx)

        return wrapper

    with monkeypatch.context() as m:
        m.setattr(rules_module, "_judge_for", counting_rule)
        m.setattr(rules_module, "_without", counted(rules_module._without))
        m.setattr(rules_module, "_inserted", counted(rules_module._inserted))
        verdict = judge(
            shot, ShotContext(discipline=Discipline.THREE_CUSHION, cue_ball=W, opponent_ball=Y)
        )
    return count, verdict


def test_ten_times_the_events_cost_at_most_fifteen_times_the_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small, v_small = _events_handled(monkeypatch, _long_shot(1_000))
    large, v_large = _events_handled(monkeypatch, _long_shot(10_000))
    assert v_small.points == v_large.points == 1
    assert large <= 15 * small, (small, large)


def test_a_shot_without_doubt_is_judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    count, verdict = _events_handled(monkeypatch, _long_shot(5_000, doubtful=0))
    assert verdict.points == 1
    assert count == 5_002  # the one judgement reads every event once; nothing copied


def test_timing_doubt_on_every_event_costs_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every contact 0.4 ms uncertain, 1 ms apart: no move passes another event."""
    small, _ = _events_handled(monkeypatch, _long_shot(1_000, doubtful=0, t_err_s=0.0004))
    large, verdict = _events_handled(monkeypatch, _long_shot(10_000, doubtful=0, t_err_s=0.0004))
    assert verdict.points == 1
    assert large <= 15 * small, (small, large)
