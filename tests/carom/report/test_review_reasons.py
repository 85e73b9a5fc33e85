"""Why a shot asks for review, in the report's languages.

Every kind of review the core gives (a doubt vision or the live loop wrote, a doubtful
event that decides the call with the call otherwise, a turn or a break the match did not
expect, a zone nobody saw left), from the golden shots, played matches and one verdict
per doubt and per kind of event: its keyed parts said with the report catalogue's words,
checked against an oracle written from the catalogue alone, and one worked example by
hand; in English the referee's own sentence.
"""

from __future__ import annotations

import re

import pytest

from calibration import TableGeometry
from carom.i18n import LANGUAGES
from carom.report._html import ReportShot, _verdict_block
from carom.report._page import Page
from referee import (
    DOUBT_ENGLISH,
    EVENT_ENGLISH,
    MATCH_TABLE,
    Ball,
    BallContact,
    Reason,
    ReasonKey,
    Verdict,
    review_code,
    with_review,
)
from referee._review import decisive_review, doubt_review
from tests.carom.i18n.said import said_in
from tests.carom.report.test_rules_and_notes import RECORDS
from tests.referee.golden import golden_files, run_golden
from tests.referee.test_review import EVENTS, EXAMPLES

ENGLISH_WORDS = re.compile(
    r"decides the call|\belse\b|uncertain|cannot be ruled out|\bunseen\b|the video|the camera|"
    r"nobody known|although|was due|assumed|cannot tell|contact at|cushion at|\bpocket\b"
)
MISS = Verdict(inning_ends=True, reason_parts=(Reason.of(ReasonKey.NO_BALL_HIT),))
SHORT = Verdict(
    inning_ends=True,
    reason_parts=(Reason.of(ReasonKey.CUSHIONS_SHORT, cushions=2, second="white", needed=3),),
)


def _turns() -> list[Verdict]:
    """A review of each turn the match did not expect (``referee._turn_and_break``)."""
    parts = [
        Reason.of(ReasonKey.REVIEW_TURN_OWNER, player="Ben", cue="yellow", expected="Ana"),
        Reason.of(ReasonKey.REVIEW_TURN_DUE, player="Ana", cue="white", ball="yellow"),
        Reason.of(ReasonKey.REVIEW_NOBODY_SHARED, ball="white", player="Ana"),
        Reason.of(ReasonKey.REVIEW_NOBODY_SHARED_ALL, n=3, ball="white", player="Ana"),
        Reason.of(ReasonKey.REVIEW_NOBODY_ROTATE, n=3, player="Ana"),
        Reason.of(ReasonKey.REVIEW_NOBODY_MANY, n=2, ball="white", player="Ana"),
        Reason.of(ReasonKey.REVIEW_NOBODY_NONE, ball="dotted", player="Ana"),
    ]
    return [with_review(MISS, (p,)) for p in parts]


def _reviews() -> list[Verdict]:
    golden = [v for v in (run_golden(p)[0] for p in golden_files()) if v.review]
    played = [r.verdict for r in RECORDS if r.verdict.review]
    doubts = [with_review(MISS, doubt_review(text)) for text in EXAMPLES.values()]
    decided = [
        with_review(SHORT, decisive_review(e, SHORT))
        for e in (
            *EVENTS,
            BallContact(t_s=1.5, balls=(Ball.RED, Ball.YELLOW), doubt=EXAMPLES["graze"]),
        )
    ]
    return [*golden, *played, *doubts, *decided, *_turns()]


@pytest.fixture(scope="module")
def reviews() -> list[Verdict]:
    return _reviews()


def test_the_reviews_meet_every_review_key_doubt_and_event(reviews: list[Verdict]) -> None:
    parts = [p for v in reviews for p in v.review_parts]
    review_keys = {k for k in ReasonKey if k.startswith("review_")}
    assert {p.key for p in parts} >= review_keys
    doubts = {review_code("doubt", str(p.field_map()["doubt"]))[0] for p in parts
              if "doubt" in p.field_map()}  # fmt: skip
    assert doubts == set(DOUBT_ENGLISH)
    events = {review_code("event", str(p.field_map()["event"]))[0] for p in parts
              if "event" in p.field_map()}  # fmt: skip
    assert events == set(EVENT_ENGLISH)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_review_reasons_are_said_in_the_report_s_language(
    lang: str, reviews: list[Verdict]
) -> None:
    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    for v in reviews:
        said = page.review(v)
        if lang == "en":
            assert said == v.review
            continue
        assert said == "; ".join(said_in(lang, p) for p in v.review_parts), v.review
        free = any(str(p.field_map().get("doubt", "")).startswith(("text:", "low_confidence:"))
                   for p in v.review_parts)  # fmt: skip
        assert free or not ENGLISH_WORDS.search(said), (lang, said)


def test_a_korean_review_reads_as_korean() -> None:
    """One worked example, written by hand: the oracle could share a mistake."""
    kiss = BallContact(t_s=19.556, balls=(Ball.WHITE, Ball.YELLOW), t_err_s=0.0009)
    verdict = with_review(SHORT, decisive_review(kiss, SHORT))
    assert verdict.review == (
        "time uncertain by ±1 ms: white-yellow contact at 19.556 s decides the call "
        "(else: 2 cushions before the second ball (white), 3 needed)"
    )
    said = Page("ko", TableGeometry(MATCH_TABLE), 0.5).review(verdict)
    assert said == (
        "시간 오차 ±1 ms: 19.556초의 흰 공-노란 공 접촉이(가) 판정을 좌우함 "
        "(아니면: 두 번째 공(흰 공) 전에 쿠션 2개, 3개 필요)"
    )


def test_the_report_card_shows_the_review_in_its_language() -> None:
    kiss = BallContact(t_s=19.556, balls=(Ball.WHITE, Ball.YELLOW), t_err_s=0.0009)
    verdict = with_review(SHORT, decisive_review(kiss, SHORT))
    shot = ReportShot(index=1, player="Ben", cue_ball=Ball.YELLOW, verdict=verdict)
    korean = _verdict_block(Page("ko", TableGeometry(MATCH_TABLE), 0.5), shot)
    assert "판정을 좌우함" in korean and "decides the call" not in korean
    english = _verdict_block(Page("en", TableGeometry(MATCH_TABLE), 0.5), shot)
    assert "decides the call" in english
