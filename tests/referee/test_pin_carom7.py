"""7-pin carom details the golden files do not show: the value table, pin attribution,
starting places, and that any event list gives a sane verdict."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import (
    Ball,
    BallContact,
    Cushion,
    CushionContact,
    Discipline,
    Event,
    OffTable,
    Pin,
    PinDown,
    Pocket,
    Pocketed,
    RuleOptions,
    Shot,
    ShotContext,
    Spot,
    Table,
    judge,
)
from referee._pin_carom7_stroke import ALL_PINS, pin_knockers, pin_value, white_free_times

R, W1, W2 = Ball.RED, Ball.WHITE1, Ball.WHITE2
SIDES = [Pin.HEAD, Pin.FOOT, Pin.LEFT, Pin.RIGHT]


def ctx(**kw: object) -> ShotContext:
    return ShotContext(
        discipline=Discipline.PIN_CAROM_7,
        cue_ball=R,
        opponent_ball=W1,
        object_ball=W2,
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("pins", "points"),
    [
        ([], 0),
        ([Pin.LEFT], 5),
        (SIDES, 20),
        ([Pin.KING], 50),
        ([Pin.KING, Pin.FOOT], 30),
        ([Pin.KING, *SIDES[:3]], 40),
        ([Pin.KING, *SIDES], 100),
        ([Pin.SPOT1], 30),
        ([Pin.SPOT1, Pin.SPOT3], 60),
        ([Pin.KING, Pin.SPOT3], 80),
        ([Pin.KING, *SIDES, Pin.SPOT1], 130),
    ],
)
def test_pin_values(pins: list[Pin], points: int) -> None:
    assert pin_value(pins) == points


def test_pin_knocked_by_pin_belongs_to_the_last_ball_knocker() -> None:
    events: tuple[Event, ...] = (
        PinDown(t_s=1.0, pin=Pin.KING, ball=None),
        PinDown(t_s=1.1, pin=Pin.HEAD, ball=W1),
        PinDown(t_s=1.2, pin=Pin.LEFT, ball=None),
        PinDown(t_s=1.3, pin=Pin.LEFT, ball=R),
    )
    assert pin_knockers(events) == {
        Pin.KING: (None, 1.0),
        Pin.HEAD: (W1, 1.1),
        Pin.LEFT: (W1, 1.2),
    }


def test_white_free_times_three_ways() -> None:
    events: tuple[Event, ...] = (
        CushionContact(t_s=0.2, ball=R, cushion=Cushion.LEFT),
        BallContact(t_s=0.5, balls=(R, W1)),
        BallContact(t_s=0.9, balls=(W2, R)),
    )
    free = white_free_times(events, ctx())
    assert free == {W1: 0.5, W2: 0.9}
    assert white_free_times(events[1:2], ctx()) == {W1: math.inf, W2: math.inf}


def test_white_respots_beside_its_pin_toward_the_short_cushion() -> None:
    table = Table(length_mm=3550.0, width_mm=1775.0, ball_diameter_mm=68.0)
    shot = Shot(
        index=0,
        cue_ball=R,
        events=(
            BallContact(t_s=0.4, balls=(R, W1)),
            Pocketed(t_s=0.9, ball=W1, pocket=Pocket.HEAD_LEFT),
            BallContact(t_s=1.0, balls=(R, W2)),
            OffTable(t_s=1.5, ball=W2),
        ),
        end_positions_mm={R: (3550.0 * 0.75 + 68.0, 887.5)},
    )
    verdict = judge(shot, ctx(table=table))
    (w1, w2) = verdict.respots
    assert (w1.ball, w1.spot, w1.xy_mm) == (W1, Spot.SPOT1, (3550.0 / 4 - 68.0, 887.5))
    assert (w2.ball, w2.spot) == (W2, Spot.SPOT3)
    # The red rests on white2's place: white2 slides on toward the foot cushion.
    assert w2.xy_mm == (3550.0 * 0.75 + 2 * 68.0, 887.5)


def test_unknown_count_is_the_start_of_the_game() -> None:
    shot = Shot(
        index=0,
        cue_ball=R,
        events=(
            BallContact(t_s=0.4, balls=(R, W1)),
            CushionContact(t_s=0.8, ball=W1, cushion=Cushion.LEFT),
            PinDown(t_s=1.0, pin=Pin.KING, ball=W1),
        ),
    )
    assert judge(shot, ctx()).points == 50
    assert judge(shot, ctx(start_count=40)).points == 0  # overshoot past zero


@pytest.mark.parametrize(
    "events",
    [
        (BallContact(t_s=0.4, balls=(R, W1)), BallContact(t_s=0.9, balls=(R, W2))),  # a carom
        (
            BallContact(t_s=0.4, balls=(R, W1)),
            CushionContact(t_s=0.8, ball=W1, cushion=Cushion.LEFT),
            PinDown(t_s=1.0, pin=Pin.LEFT, ball=W1),
        ),  # a pin
    ],
)
def test_the_player_who_reaches_zero_plays_the_safety_next(events: tuple[Event, ...]) -> None:
    """[000 7-pins §9]: he who brings his count to zero must play the safety to win. With
    no pin (a carom, 5) the turn passed, while the note said his safety now wins."""
    shot = Shot(index=0, cue_ball=R, events=events)
    v = judge(shot, ctx(remaining=5, start_count=100))
    assert v.points == 5 and not v.inning_ends and not v.fouls
    assert judge(shot, ctx(remaining=50, start_count=100)).inning_ends is (len(events) == 2)


@pytest.mark.parametrize(
    ("events", "penalty"),
    [
        # A white knocks the head pin straight from the red's contact, no cushion: one
        # failed safety (5) and the pin (5). It was an illegal pin and no cushion: 15.
        ((BallContact(t_s=0.4, balls=(R, W1)), PinDown(t_s=0.8, pin=Pin.HEAD, ball=W1)), 10),
        # The same with a cushion after it: the pin is the failed safety, 5 + 5.
        ((BallContact(t_s=0.4, balls=(R, W1)), CushionContact(t_s=0.6, ball=W1,
          cushion=Cushion.LEFT), PinDown(t_s=0.8, pin=Pin.HEAD, ball=W1)), 10),
        # No pin and no cushion: the failed safety alone.
        ((BallContact(t_s=0.4, balls=(R, W1)),), 5),
        # The red's own pin stays its own foul beside the failed safety.
        ((BallContact(t_s=0.4, balls=(R, W1)), PinDown(t_s=0.8, pin=Pin.HEAD, ball=R)), 15),
    ],
)  # fmt: skip
def test_a_failed_closing_safety_at_zero_is_one_penalty_and_the_pins(
    events: tuple[Event, ...], penalty: int
) -> None:
    """[000 7-pins §9]: at zero the stroke must knock no pins and drive a ball to a
    cushion, "otherwise a penalty is taken, added with the points made" (found by a
    review as a referee: one failure was charged as two or three fouls)."""
    v = judge(Shot(index=0, cue_ball=R, events=events), ctx(remaining=0, start_count=100))
    assert v.penalty == penalty and v.fouls and v.inning_ends and not v.wins_game


_events = st.lists(
    st.one_of(
        st.builds(
            BallContact,
            t_s=st.floats(0, 5),
            balls=st.sampled_from([(R, W1), (R, W2), (W1, W2)]),
        ),
        st.builds(
            CushionContact,
            t_s=st.floats(0, 5),
            ball=st.sampled_from([R, W1, W2]),
            cushion=st.sampled_from(list(Cushion)),
        ),
        st.builds(
            PinDown,
            t_s=st.floats(0, 5),
            pin=st.sampled_from(sorted(ALL_PINS)),
            ball=st.sampled_from([R, W1, W2, None]),
        ),
        st.builds(OffTable, t_s=st.floats(0, 5), ball=st.sampled_from([R, W1, W2])),
        st.builds(
            Pocketed,
            t_s=st.floats(0, 5),
            ball=st.sampled_from([R, W1, W2]),
            pocket=st.sampled_from(list(Pocket)),
        ),
    ),
    max_size=12,
)


@given(
    events=_events,
    remaining=st.integers(0, 500),
    is_break=st.booleans(),
    overshoot_to_zero=st.booleans(),
)
def test_any_event_list_gives_a_sane_verdict(
    events: list[Event], remaining: int, is_break: bool, overshoot_to_zero: bool
) -> None:
    options = RuleOptions(pin7_overshoot_to_zero=overshoot_to_zero)
    shot = Shot(index=0, cue_ball=R, events=tuple(sorted(events, key=lambda e: e.t_s)))
    context = ctx(remaining=remaining, start_count=500, is_break=is_break, options=options)
    v = judge(shot, context)
    assert v.points >= 0 and v.penalty >= 0 and v.opponent_points == 0
    assert not (v.points and v.penalty)
    assert v.points <= remaining
    assert bool(v.fouls) == (v.penalty > 0)
    if v.fouls or v.wins_game:
        assert v.inning_ends
    assert {r.spot for r in v.respots} <= {Spot.SPOT1, Spot.SPOT3}
