"""Keyed reasons: the English they give is the referee's sentence; the fields are checked."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import (
    Ball,
    Foul,
    Reason,
    ReasonKey,
    RulesError,
    Verdict,
    english_reason,
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
