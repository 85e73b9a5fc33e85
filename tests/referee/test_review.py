"""A review's keyed parts: their English is the review, their codes read back whole."""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import (
    DOUBT_ENGLISH,
    Ball,
    BallContact,
    Call,
    Cushion,
    CushionContact,
    Foul,
    OffTable,
    Pin,
    PinDown,
    Pocket,
    Pocketed,
    Reason,
    ReasonKey,
    RulesError,
    doubt_code,
    english_reason,
    reasons_from_json,
    review_code,
)
from referee._events import describe
from referee._review import decisive_review, doubt_review
from referee._review_codes import event_code, event_english
from tests.referee.golden import golden_files, run_golden

#: One example of each doubt, as vision and the live loop write them.
EXAMPLES = {
    "time": "time uncertain by ±11 ms",
    "video_ended": "the video ended before every ball stopped",
    "camera_lost": "the camera was lost during the shot",
    "still_rolling": (
        "balls still rolling after the shot closed came to touch (red-yellow, white-left): "
        "a contact the shot may have missed"
    ),
    "hidden": "ball hidden at the contact",
    "weak_bounce": "weak bounce, may not have touched",
    "too_close": "balls too close to tell",
    "off_away": "vanished away from the rails",
    "cue_unseen": "cue ball not seen at the stroke: the yellow named from a doubtful contact",
    "graze": (
        "white was 1.2 mm from the left cushion when it met the other ball: "
        "a touch just before cannot be ruled out"
    ),
    "near_miss": "white and red passed 0.4 mm apart: a thin contact cannot be ruled out",
    "gap_guessed": (
        "unseen 0.25 s; went towards the foot cushion and came away from it: the contact guessed"
    ),
    "other_way": (
        "unseen 0.40 s from its rest; a way through 2 cushions fits too, this one among them"
    ),
    "low_confidence": "low confidence: bounce, v_n -49 -> 0 mm/s: gap 0.4 mm",
    "text": "the referee's own words: a free sentence",
}


def test_every_doubt_vision_writes_reads_as_its_own_code_and_back() -> None:
    assert set(EXAMPLES) == set(DOUBT_ENGLISH)
    for name, text in EXAMPLES.items():
        code = doubt_code(text)
        assert review_code("doubt", code)[0] == name, (name, code)
        assert Reason.of(ReasonKey.REVIEW_DOUBT, doubt=code).english() == text


@given(st.text())
def test_any_doubt_sentence_reads_back_to_the_character(text: str) -> None:
    part = Reason.of(ReasonKey.REVIEW_DOUBT, doubt=doubt_code(text))
    assert part.english() == text


EVENTS = [
    BallContact(t_s=1.23449, balls=(Ball.WHITE, Ball.RED)),
    CushionContact(t_s=19.5506, ball=Ball.YELLOW, cushion=Cushion.LEFT),
    PinDown(t_s=2.0, pin=Pin.CENTER, ball=Ball.RED),
    PinDown(t_s=2.5, pin=Pin.LEFT, ball=None),
    OffTable(t_s=3.0, ball=Ball.RED),
    Pocketed(t_s=4.0, ball=Ball.WHITE1, pocket=Pocket.MIDDLE_LEFT),
    Call(t_s=5.0, foul=Foul.PUSH),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_an_event_s_code_is_said_as_the_referee_describes_it(event: object) -> None:
    assert event_english(event_code(event)) == describe(event)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"doubt": "nope:x=1"}, "unknown name"),
        ({"doubt": "graze:ball=white"}, "do not fit"),
    ],
)
def test_a_malformed_code_is_refused(fields: dict[str, str], error: str) -> None:
    with pytest.raises(RulesError, match=error):
        Reason.of(ReasonKey.REVIEW_DOUBT, **fields)


def test_a_malformed_event_or_other_call_is_refused() -> None:
    good = {"doubt": doubt_code("balls too close to tell"), "instead": "[]"}
    with pytest.raises(RulesError, match="pocket"):
        Reason.of(ReasonKey.REVIEW_DECIDES, event="pocket:ball=red:pocket=side:t_s=1.000", **good)
    event = event_code(EVENTS[0])
    for instead in ("{", '[{"key": "point"}]', '[{"key": "nope", "fields": {}}]'):
        with pytest.raises(RulesError):
            Reason.of(ReasonKey.REVIEW_DECIDES, doubt=good["doubt"], event=event, instead=instead)
    with pytest.raises(RulesError):
        reasons_from_json({"key": "point"})


def test_the_deciding_event_s_review_says_what_the_call_would_be_otherwise() -> None:
    from referee import Verdict

    kiss = BallContact(t_s=19.556, balls=(Ball.WHITE, Ball.YELLOW), t_err_s=0.0009)
    other = Verdict(
        inning_ends=True,
        reason_parts=(Reason.of(ReasonKey.CUSHIONS_SHORT, cushions=2, second="white", needed=3),),
    )
    (part,) = decisive_review(kiss, other)
    assert part.english() == (
        "time uncertain by ±1 ms: white-yellow contact at 19.556 s decides the call "
        "(else: 2 cushions before the second ball (white), 3 needed)"
    )
    assert english_reason(reasons_from_json(json.loads(str(part.field_map()["instead"])))) == (
        other.reason
    )


def test_joined_doubts_are_one_part_each_and_an_unknown_one_keeps_the_whole() -> None:
    two = f"{EXAMPLES['camera_lost']}; {EXAMPLES['still_rolling']}"
    parts = doubt_review(two)
    assert len(parts) == 2 and english_reason(parts) == two
    odd = f"{EXAMPLES['camera_lost']}; something else"
    (part,) = doubt_review(odd)
    assert part.english() == odd and str(part.field_map()["doubt"]).startswith("text:")


def test_every_golden_review_has_keyed_parts_whose_english_is_the_review() -> None:
    reviewed = 0
    for path in golden_files():
        verdict, _ = run_golden(path)
        if verdict.review is None:
            assert verdict.review_parts == (), path
            continue
        reviewed += 1
        assert verdict.review_parts, path
        assert english_reason(verdict.review_parts) == verdict.review, path
        assert ReasonKey.TEXT not in {p.key for p in verdict.review_parts}, path
    assert reviewed >= 20  # hand-written logs' doubts are free text: vision's are keyed


def test_the_templates_name_only_fields_their_readers_decode() -> None:
    """Names (balls, cushions, pins, pockets, fouls), numbers, gaps or one free text."""
    decoded = {"ball", "other", "first", "second", "cushion", "pin", "pocket", "foul", "gaps"}
    numbers = {"ms", "gap_mm", "unseen_s", "n", "t_s"}
    for template in DOUBT_ENGLISH.values():
        for _, field, _, _ in string.Formatter().parse(template):
            assert field is None or field in decoded | numbers | {"text"}, field
