"""Five-pins details the golden files do not show: values, attribution, spotting, options."""

from __future__ import annotations

import pytest

from referee import (
    Ball,
    BallContact,
    Call,
    Cushion,
    CushionContact,
    Discipline,
    Foul,
    NextPosition,
    OffTable,
    Pin,
    PinDown,
    RuleOptions,
    Shot,
    ShotContext,
    Spot,
    Table,
    judge,
)
from referee._five_pins import FIVE_PINS, judge_five_pins, pin_points
from referee._spotting import respot_five_pins

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
HIT = BallContact(t_s=0.5, balls=(W, Y))


def ctx(**kw: object) -> ShotContext:
    return ShotContext(
        discipline=Discipline.FIVE_PINS,
        cue_ball=W,
        opponent_ball=Y,
        **kw,  # type: ignore[arg-type]
    )


def shot(*events: object, cue: Ball = W, **kw: object) -> Shot:
    return Shot(index=0, cue_ball=cue, events=events, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("pins", "points"),
    [
        ([], 0),
        ([Pin.LEFT], 2),
        ([Pin.HEAD, Pin.FOOT], 4),
        ([Pin.CENTER], 8),
        ([Pin.CENTER, Pin.RIGHT], 6),
        ([Pin.CENTER, Pin.HEAD, Pin.FOOT, Pin.LEFT, Pin.RIGHT], 12),
    ],
)
def test_pin_values(pins: list[Pin], points: int) -> None:
    assert pin_points(pins) == points


def test_every_stroke_ends_the_inning() -> None:
    strokes = [shot(), shot(HIT), shot(HIT, PinDown(t_s=1.0, pin=Pin.CENTER, ball=Y))]
    assert all(judge_five_pins(s, ctx()).inning_ends for s in strokes)


def test_a_pin_reported_twice_counts_once() -> None:
    down = PinDown(t_s=1.0, pin=Pin.LEFT, ball=Y)
    again = PinDown(t_s=1.4, pin=Pin.LEFT, ball=None)
    assert judge_five_pins(shot(HIT, down, again), ctx()).points == 2


def test_a_pin_knocked_by_an_unknown_pin_scores_but_is_no_foul() -> None:
    verdict = judge_five_pins(shot(HIT, PinDown(t_s=1.0, pin=Pin.HEAD, ball=None)), ctx())
    assert (verdict.points, verdict.fouls) == (2, ())


def test_pin_chain_is_credited_to_the_latest_knocking_ball() -> None:
    events = (
        HIT,
        PinDown(t_s=1.0, pin=Pin.FOOT, ball=Y),
        PinDown(t_s=1.6, pin=Pin.HEAD, ball=W),
        PinDown(t_s=1.65, pin=Pin.CENTER, ball=None),
    )
    verdict = judge_five_pins(shot(*events), ctx())
    assert verdict.fouls == (Foul.CUE_BALL_KNOCKED_PINS,)
    assert verdict.opponent_points == 2 + 8


def test_red_first_then_cue_pins_before_the_opponent_ball_are_two_fouls() -> None:
    events = (
        BallContact(t_s=0.3, balls=(W, R)),
        PinDown(t_s=0.6, pin=Pin.LEFT, ball=W),
        BallContact(t_s=1.0, balls=(W, Y)),
        PinDown(t_s=1.4, pin=Pin.RIGHT, ball=W),
    )
    verdict = judge_five_pins(shot(*events), ctx())
    assert verdict.fouls == (Foul.RED_FIRST, Foul.PINS_BEFORE_OPPONENT_BALL)
    assert verdict.opponent_points == 4 + 2 + 4
    assert verdict.points == 0


def test_both_balls_at_the_same_instant_is_a_legal_hit_without_carom() -> None:
    events = (BallContact(t_s=0.5, balls=(W, R)), BallContact(t_s=0.5, balls=(W, Y)))
    verdict = judge_five_pins(shot(*events), ctx())
    assert (verdict.points, verdict.fouls) == (0, ())


@pytest.mark.parametrize("foul", [Foul.ILLEGAL_JUMP, Foul.JUMP_OVER_PINS, Foul.TOUCH])
def test_called_fouls_are_worth_two(foul: Foul) -> None:
    verdict = judge_five_pins(shot(HIT, Call(t_s=0.1, foul=foul)), ctx())
    assert (verdict.fouls, verdict.opponent_points) == ((foul,), 2)
    assert verdict.next_position is NextPosition.BALL_IN_HAND


def test_called_wrong_ball_is_not_counted_twice() -> None:
    events = (BallContact(t_s=0.5, balls=(Y, W)), Call(t_s=2.0, foul=Foul.WRONG_BALL))
    verdict = judge_five_pins(shot(*events, cue=Y), ctx())
    assert (verdict.fouls, verdict.opponent_points) == ((Foul.WRONG_BALL,), 2)


def test_off_table_is_one_foul_plus_the_others() -> None:
    events = (CushionContact(t_s=0.4, ball=W, cushion=Cushion.FOOT), OffTable(t_s=0.9, ball=W))
    verdict = judge_five_pins(shot(*events, end_positions_mm={Y: (900.0, 300.0)}), ctx())
    assert verdict.fouls == (Foul.MISSED_OPPONENT_BALL, Foul.BALL_OFF_TABLE)
    assert verdict.opponent_points == 4
    assert [(r.ball, r.spot) for r in verdict.respots] == [(W, Spot.TOP)]


def test_centre_line_tolerance_is_an_option() -> None:
    events = (CushionContact(t_s=0.4, ball=W, cushion=Cushion.FOOT),)
    near = shot(*events, end_positions_mm={W: (1415.0, 300.0)})
    strict = judge_five_pins(near, ctx()).announcements[0]
    loose = judge_five_pins(near, ctx(options=RuleOptions(five_pins_centre_line_mm=10.0)))
    assert "top (foot) half, opposite white" in strict
    assert "centre line" in loose.announcements[0]


def test_options_read_from_a_mapping() -> None:
    options = RuleOptions.from_mapping(
        {"five_pins_pins_on_miss_extra_foul": True, "five_pins_centre_line_mm": 5}
    )
    assert options.five_pins_pins_on_miss_extra_foul
    assert options.five_pins_centre_line_mm == 5


def test_respot_slides_when_both_spots_are_covered() -> None:
    table = Table()
    resting = {R: table.spot(Spot.TOP), Y: (500.0, 500.0), Ball.DOTTED: table.spot(Spot.FOOT)}
    (respot,) = respot_five_pins([W], W, Y, resting, table)
    assert respot.spot is Spot.RED_FIVE_PINS
    assert table.is_free(respot.xy_mm, [resting[R], resting[Ball.DOTTED]])


def test_the_ball_in_hand_is_never_spotted_nor_blocks() -> None:
    table = Table()
    resting = {Y: table.spot(Spot.TOP)}
    spots = respot_five_pins([W, Y, R], W, Y, resting, table)
    assert [(r.ball, r.spot) for r in spots] == [(W, Spot.TOP), (R, Spot.RED_FIVE_PINS)]


def test_judge_accepts_every_five_pins_pin() -> None:
    events = [PinDown(t_s=1.0 + i / 10, pin=p, ball=Y) for i, p in enumerate(sorted(FIVE_PINS))]
    assert judge(shot(HIT, *events), ctx()).points == 12


def test_ball_in_hand_offers_the_red_s_spot_when_the_red_covers_the_top_spot() -> None:
    """[000 §13.5]: with the red on the top spot the fouler's ball goes on the matching
    mark in the other half, the ball in hand into the top half; it offered the top spot
    with the red standing on it (found by a review as a referee)."""
    from referee import english_reason

    miss = CushionContact(t_s=0.4, ball=W, cushion=Cushion.LEFT)
    top = Table().spot(Spot.TOP)
    at = {Y: (600.0, 300.0), W: (2000.0, 300.0)}
    for red, offered in ((top, "or, as the red covers the top spot, ask for white on the "
                               "matching spot at the bottom (head) cushion, yellow then in "
                               "the top (foot) half."),
                         ((1420.0, 300.0), "or ask for white on the top spot.")):  # fmt: skip
        verdict = judge_five_pins(shot(miss, end_positions_mm={**at, R: red}), ctx())
        said = english_reason(verdict.announcement_parts)
        assert said.endswith(offered), said
