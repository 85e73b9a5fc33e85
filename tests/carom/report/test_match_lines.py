"""The report's match panel: the lag and the corrections in the page's language.

Lag results as the referee words them (each fault it writes is held to the referee in
``tests/carom/live/test_account.py``) and real corrections applied by it (points with a
note, the turn, the turn back, the break position): in Korean none of the referee's
English is left, names and notes are kept; in English it is the referee's text. A report
with both is rendered and its panel read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from calibration import TableGeometry
from carom.report import write_report
from carom.report._match_lines import audit_words, lag_words
from carom.report._page import Page
from carom.report._report_stats import MatchSummary, PlayerLine
from referee import (
    MATCH_TABLE,
    Ball,
    Correction,
    CorrectionKind,
    Discipline,
    LagResult,
    MatchConfig,
    StartState,
    apply_correction,
    apply_join,
    new_match,
)

ENGLISH = re.compile(r"\b(won|lag|points to|turn|inning|break position|correct|nearer|head)\b")
KO = Page("ko", TableGeometry(MATCH_TABLE), 0.5)
EN = Page("en", TableGeometry(MATCH_TABLE), 0.5)


def _lags() -> list[LagResult]:
    faults = ("never touched the foot cushion", "crossed into the opponent's half")
    return [
        LagResult("Ana", "Ana", {}, "Ana won the lag (entered)"),
        LagResult("Ana", "Ana", {"Ana": (), "Ben": faults},
                  f"Ana won: Ben {'; '.join(faults)}"),
        LagResult("Ben", "Ben", {"Ana": (), "Ben": ()}, "Ben won: 140 mm nearer the head cushion"),
        LagResult(None, None, {}, "both players lost the lag: lag again"),
        LagResult(None, None, {}, "equal distance from the head cushion: lag again"),
    ]  # fmt: skip


def test_each_lag_result_in_korean() -> None:
    for result in _lags():
        said = lag_words(KO, result)
        assert not ENGLISH.search(said) and re.search("[가-힣]", said), said
        assert lag_words(EN, result) == result.reason
        for name in ("Ana", "Ben"):
            assert (name in said) == (name in result.reason)


def _audit() -> list[tuple[str, str]]:
    config = MatchConfig(discipline=Discipline.THREE_CUSHION, players=("Ana", "Ben"),
                         cue_balls={"Ana": Ball.WHITE, "Ben": Ball.YELLOW},
                         target={"Ana": 40, "Ben": 40})  # fmt: skip
    state = apply_join(new_match(config), StartState(shooter="Ana"))
    for c in (
        Correction(CorrectionKind.POINTS, "Ben", 2, "scorer's slip (table 3)"),
        Correction(CorrectionKind.POINTS, "Ben", -1),
        Correction(CorrectionKind.TURN, "Ben"),
        Correction(CorrectionKind.BREAK_POSITION, "Ben", note="frozen"),
        Correction(CorrectionKind.TURN, "Ana"),
    ):
        state = apply_correction(state, c)
    return [(a.action, a.detail) for a in state.audit]


def test_each_correction_in_korean() -> None:
    for action, detail in _audit():
        said_action, said = audit_words(KO, action, detail)
        assert not ENGLISH.search(said_action + " " + said), (action, detail, said)
        assert "Ana" in said or "Ben" in said
        assert audit_words(EN, action, detail) == (action, detail)
    _, noted = audit_words(KO, "correct points", "+2 points to Ben (scorer's slip (table 3))")
    assert "scorer's slip (table 3)" in noted


def test_the_report_s_panel_says_them_in_korean(tmp_path: Path) -> None:
    line = PlayerLine(player="Ana", board=1, innings=1, average="1.000", high_run=1, sets_won=0)
    lag, audit = _lags()[2], tuple((1, 0, a, d) for a, d in _audit())
    summary = MatchSummary(discipline="three-cushion", players=("Ana", "Ben"),
                           lines=(line, replace(line, player="Ben")), lag=lag.reason,
                           lag_result=lag, audit=audit)  # fmt: skip
    path = tmp_path / "report.html"
    write_report(path, [], title="t", meta={}, summary=summary, lang="ko")
    text = path.read_text(encoding="utf-8")
    assert lag_words(KO, _lags()[2]) in text and "nearer the head cushion" not in text
    assert "points to Ben" not in text and "3쿠션" in text
