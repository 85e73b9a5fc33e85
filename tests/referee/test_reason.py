"""Keyed reasons: the English they give is the referee's sentence; the fields are checked."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import (
    LAYOUT_BALL_ENGLISH,
    PIN_ITEM_ENGLISH,
    PLACE_ENGLISH,
    Ball,
    Foul,
    LayoutItem,
    Pin,
    PinItem,
    Reason,
    ReasonKey,
    RulesError,
    Verdict,
    english_reason,
    layout_items,
    pin_items,
    reason_json,
)


@pytest.mark.parametrize(
    ("reason", "english"),
    [
        (Reason.of(ReasonKey.POINT, first=Ball.RED, second=Ball.YELLOW), "point: red then yellow"),
        (
            Reason.of(ReasonKey.POINT_AFTER, first="red", second="white", cushions=4),
            "point: red then white after 4 cushions",
        ),
        (
            Reason.of(ReasonKey.POINT_AFTER_ONE, first="yellow", second="red"),
            "point: yellow then red after 1 cushion",
        ),
        (
            Reason.of(ReasonKey.CUSHIONS_SHORT, cushions=0, second="red", needed=3),
            "0 cushions before the second ball (red), 3 needed",
        ),
        (
            Reason.of(ReasonKey.CUSHIONS_SHORT_ONE, second="red", needed=3),
            "1 cushion before the second ball (red), 3 needed",
        ),
        (Reason.of(ReasonKey.NO_BALL_HIT), "no object ball hit"),
        (
            Reason.of(ReasonKey.MISSED_SECOND, only="red", missing="yellow"),
            "missed the second ball: hit only red, not yellow",
        ),
        (
            Reason.of(ReasonKey.FOUL, fouls=f"{Foul.CUE_BALL_OFF_TABLE},{Foul.PUSH}"),
            "foul: cue ball off table, push",
        ),
        (Reason.of(ReasonKey.TEXT, text="a corner carom"), "a corner carom"),
        (
            Reason.of(
                ReasonKey.PINS_SCORED_BREAK,
                points=7,
                items="centre_with_sides:4,side_pin:2:foot,ricochet:3:yellow+red",
            ),
            "break, 7 points: centre pin with side pins 4, foot side pin 2, ricochet yellow->red 3",
        ),
        (
            Reason.of(
                ReasonKey.PINS_FOUL_STROKE,
                fouls="red_first,miscue",
                total=10,
                opponent="yellow",
                penalty=6,
                points=4,
                items="side_pins:4:left+head",
            ),
            "foul (red first, miscue): 10 points to yellow's player, fouls 6 + stroke 4 from "
            "2 side pins (left, head) 4",
        ),
        (
            Reason.of(ReasonKey.PINS_NO_POINTS, cue="white", opponent="yellow"),
            "no points: white hit yellow first, but no pin fell and no carom was made "
            "(a legal stroke)",
        ),
        (
            Reason.of(ReasonKey.PINS_IGNORED, pins="left,center"),
            "ignored: left, center pin down but not standing",
        ),
        (
            Reason.of(ReasonKey.PIN7_FELL_AT_ZERO, pins="king,spot1"),
            "overshoot: pins king, spot1 fell at zero and score nothing",
        ),
        (
            Reason.of(
                ReasonKey.PIN7_OVERSHOOT,
                remaining=20,
                made="pins:50:king,carom7:5,pocketed:5:white1,off_table:0:white2",
            ),
            "overshoot: pins king (50); carom (5); white1 pocketed (5); white2 off the table, "
            "the turn passes would take the count 20 below zero; no score",
        ),
        (
            Reason.of(ReasonKey.PIN7_NO_SCORE, made="nothing:0"),
            "no score: a white touched, nothing made",
        ),
    ],
)
def test_each_key_gives_the_referee_s_english(reason: Reason, english: str) -> None:
    assert reason.english() == english
    assert Verdict(inning_ends=True, reason_parts=(reason,)).reason == english


def test_fields_must_be_the_ones_the_key_says() -> None:
    with pytest.raises(RulesError, match="point: fields"):
        Reason.of(ReasonKey.POINT, first="red")
    with pytest.raises(RulesError, match="expected"):
        Reason.of(ReasonKey.NO_BALL_HIT, text="x")


def test_a_malformed_five_pins_item_is_refused() -> None:
    for items in ("side_pin", "side_pin:two:left", "corner:4", "carom:-4:white",
                  "centre_alone:8,side_pin"):  # fmt: skip
        with pytest.raises(RulesError, match="pin game item"):
            Reason.of(ReasonKey.PINS_SCORED, points=4, items=items)
    assert Reason.of(ReasonKey.PINS_SCORED, points=8, items="centre_alone:8").english() == (
        "8 points: centre pin alone 8"
    )


@given(
    st.lists(
        st.builds(
            PinItem,
            kind=st.sampled_from(sorted(PIN_ITEM_ENGLISH)),
            value=st.integers(0, 99),
            names=st.lists(st.sampled_from([*Pin, *Ball]), max_size=4).map(
                lambda ns: tuple(str(n) for n in ns)
            ),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_five_pins_items_read_back_as_written(items: list[PinItem]) -> None:
    text = ",".join(i.code() for i in items)
    assert pin_items(text) == tuple(items)
    english = Reason.of(ReasonKey.PINS_SCORED, points=1, items=text).english()
    assert english.count(", ") >= len(items) - 1 and english.startswith("1 points: ")


def test_a_break_rule_says_each_ball_of_the_layout_by_its_role() -> None:
    layout = "breaker:white:head_string:12,ball:yellow:head_spot:,red:red:foot_spot:"
    assert Reason.of(ReasonKey.BREAK_LAYOUT, layout=layout).english() == (
        "a break: the balls stand in the break layout (white (the breaker's ball) 12 mm from "
        "the head string, yellow on the head spot, the red on the foot spot)"
    )
    seven = "red:red:house:,ball:white1:spot1:40"
    assert Reason.of(ReasonKey.PLAY_NO_LAYOUT, layout=seven).english() == (
        "play: the balls are not in the break layout (the red in the house, white1 40 mm "
        "from spot 1)"
    )


def test_a_malformed_layout_item_is_refused() -> None:
    bad = ("breaker:white:head_string", "boss:white:head_spot:", "ball:white:moon:",
           "ball::head_spot:", "ball:white:head_spot:-3", "ball:white:head_spot:1:2")  # fmt: skip
    for layout in bad:
        with pytest.raises(RulesError, match="break layout item"):
            Reason.of(ReasonKey.BREAK_LAYOUT, layout=layout)


@given(
    st.lists(
        st.builds(
            LayoutItem,
            role=st.sampled_from(sorted(LAYOUT_BALL_ENGLISH)),
            ball=st.sampled_from([str(b) for b in Ball]),
            place=st.sampled_from(sorted(PLACE_ENGLISH)),
            distance_mm=st.none() | st.integers(0, 3000),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_layout_items_read_back_as_written(items: list[LayoutItem]) -> None:
    text = ",".join(i.code() for i in items)
    assert layout_items(text) == tuple(items)
    english = Reason.of(ReasonKey.BREAK_DUE, layout=text).english()
    assert all(i.english() in english for i in items)


def test_parts_join_and_travel_as_json() -> None:
    parts = (
        Reason.of(ReasonKey.POINT, first=Ball.WHITE, second=Ball.RED),
        Reason.of(ReasonKey.TEXT, text="in anchor"),
    )
    assert english_reason(parts) == "point: white then red; in anchor"
    doc = json.loads(json.dumps(reason_json(parts)))
    assert doc == [
        {"key": "point", "fields": {"first": "white", "second": "red"}},
        {"key": "text", "fields": {"text": "in anchor"}},
    ]
    # A reason given outright stays, parts or not.
    assert Verdict(inning_ends=True, reason="said", reason_parts=parts).reason == "said"


@given(
    first=st.sampled_from(list(Ball)),
    second=st.sampled_from(list(Ball)),
    cushions=st.integers(0, 40),
)
def test_field_values_are_plain_and_fill_the_template(
    first: Ball, second: Ball, cushions: int
) -> None:
    reason = Reason.of(ReasonKey.POINT_AFTER, first=first, second=second, cushions=cushions)
    fields = reason.field_map()
    assert type(fields["first"]) is str and type(fields["cushions"]) is int
    assert reason.english() == f"point: {first.value} then {second.value} after {cushions} cushions"


def test_an_unknown_reason_key_is_a_rules_error_not_a_key_error() -> None:
    with pytest.raises(RulesError, match=r"reason 'nope': unknown key"):
        english_reason([Reason("nope", ())])  # type: ignore[arg-type]


@pytest.mark.parametrize("second", [Ball.RED, Ball.YELLOW])
def test_two_ball_contacts_at_one_time_are_named_in_the_log_s_order(second: Ball) -> None:
    """docs/shot-log.md: events with equal ``t_s`` keep their order. The reason named
    the balls in the discipline's order instead ("yellow then red" for red, yellow)."""
    from referee import BallContact, Cushion, CushionContact, Discipline, Shot, ShotContext, judge

    first = Ball.YELLOW if second is Ball.RED else Ball.RED
    cushions = tuple(CushionContact(t_s=0.1 * (i + 1), ball=Ball.WHITE, cushion=c)
                     for i, c in enumerate((Cushion.FOOT, Cushion.LEFT, Cushion.HEAD)))  # fmt: skip
    hits = (BallContact(t_s=0.5, balls=(Ball.WHITE, first)),
            BallContact(t_s=0.5, balls=(Ball.WHITE, second)))  # fmt: skip
    shot = Shot(index=0, cue_ball=Ball.WHITE, events=(*cushions, *hits))
    ctx = ShotContext(discipline=Discipline.THREE_CUSHION, cue_ball=Ball.WHITE,
                      opponent_ball=Ball.YELLOW, object_ball=Ball.RED)  # fmt: skip
    verdict = judge(shot, ctx)
    assert verdict.points == 1
    assert verdict.reason == f"point: {first} then {second} after 3 cushions"
