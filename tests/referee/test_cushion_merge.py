"""The ``cushion_repeat_merge_s`` option and the informational fields of analyzed logs."""

from __future__ import annotations

from typing import Any

import pytest

from referee import (
    BallContact,
    Cushion,
    CushionContact,
    Discipline,
    RuleOptions,
    Shot,
    ShotContext,
    ShotLogError,
    judge,
)
from referee._shotlog import parse_shot
from tests.referee.factories import R, W, Y

CHATTER = (
    BallContact(t_s=0.3, balls=(W, R)),
    CushionContact(t_s=0.80, ball=W, cushion=Cushion.FOOT),
    CushionContact(t_s=0.86, ball=W, cushion=Cushion.FOOT),  # chatter on the same cushion
    CushionContact(t_s=1.30, ball=W, cushion=Cushion.LEFT),
    BallContact(t_s=2.0, balls=(W, Y)),
)


def _points(merge_s: float, events: tuple[Any, ...] = CHATTER) -> int:
    ctx = ShotContext(
        discipline=Discipline.THREE_CUSHION,
        cue_ball=W,
        opponent_ball=Y,
        options=RuleOptions(cushion_repeat_merge_s=merge_s),
    )
    return judge(Shot(index=0, cue_ball=W, events=events), ctx).points


def test_every_touch_counts_by_default() -> None:
    assert _points(0.0) == 1


def test_the_same_contact_listed_twice_at_one_time_is_one_cushion_by_default() -> None:
    """A log listing one cushion contact twice (same ball, cushion and time) counted two
    cushions and made a two-cushion miss a point without a word."""
    twice = (*CHATTER[:2], CushionContact(t_s=0.80, ball=W, cushion=Cushion.FOOT), *CHATTER[3:])
    assert _points(0.0, twice) == 0


def test_quick_repeat_on_the_same_cushion_merges_when_asked() -> None:
    assert _points(0.1) == 0


def test_repeat_slower_than_the_window_still_counts() -> None:
    assert _points(0.05) == 1


def test_repeat_with_another_event_between_is_two_cushions() -> None:
    events = (
        *CHATTER[:2],
        BallContact(t_s=0.83, balls=(W, Y)),
        *CHATTER[2:4],
        BallContact(t_s=2.0, balls=(W, R)),
    )
    assert _points(0.1, events) == 0  # the yellow came second: no cushion matters
    events = (*CHATTER[:2], CushionContact(t_s=0.83, ball=W, cushion=Cushion.LEFT), *CHATTER[2:])
    assert _points(0.1, events) == 1  # foot, left, foot, left: four cushions, the repeat split


def _shot(**extra: Any) -> dict[str, Any]:
    event = {"t_s": 1.0, "kind": "cushion", "ball": "white", "cushion": "foot"}
    return {"index": 0, "cue_ball": "white", "events": [event | extra]}


def test_analyzed_fields_are_read_and_checked() -> None:
    doc = _shot(confidence=0.42, evidence="deflection 31 deg")
    doc["verdict"] = {"points": 1, "reason": "point"}
    assert parse_shot(doc, "shots[0]").events[0].t_s == 1.0


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"confidence": 1.5}, "shots[0].events[0].confidence: must be at most 1, got 1.5"),
        ({"confidence": "high"}, "shots[0].events[0].confidence: expected a number"),
        ({"evidence": ""}, "shots[0].events[0].evidence: expected a non-empty string"),
    ],
)
def test_bad_informational_fields_get_one_line(extra: dict[str, Any], message: str) -> None:
    with pytest.raises(ShotLogError, match="^" + message.replace("[", r"\[").replace("]", r"\]")):
        parse_shot(_shot(**extra), "shots[0]")


def test_verdict_must_be_an_object() -> None:
    doc = _shot()
    doc["verdict"] = "point"
    with pytest.raises(ShotLogError, match=r"shots\[0\]\.verdict"):
        parse_shot(doc, "shots[0]")
