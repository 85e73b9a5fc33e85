"""Each journal entry's account line: English as ``carom live`` always printed it, and keyed.

A real session on a real SQLite file plays the example match with every kind of entry
(the lag, shots, a foul called, time-outs, corrections, undo, a pause and a shot held
while paused, review decisions). For each update the keyed account's English is the
line the old templates gave (written out here), and every key has words in every web
catalogue with the same fields.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carom.i18n import LANGUAGES, catalogue, template_fields
from carom.live import (
    ACCOUNT_ENGLISH,
    JOIN_ENGLISH,
    Account,
    DecisionKind,
    FoulCall,
    LiveSession,
    MatchStore,
    ReviewDecision,
    SessionUpdate,
    TimeoutCall,
    UndoCall,
)
from carom.live._account import LAG_FAULT_ENGLISH, correction_account, lag_account
from carom.live._codec import shot_doc
from carom.web._paused import account_doc, held_paused
from referee import (
    Ball,
    BallContact,
    Correction,
    CorrectionKind,
    Cushion,
    CushionContact,
    Discipline,
    Foul,
    Lag,
    LagResult,
    MatchConfig,
    OffTable,
    Pin,
    PinDown,
    ShotRecord,
    StartState,
    judge_lag,
)
from tests.carom.i18n.account_said import account_in
from tests.carom.live.shotpool import NOW, example_inputs, example_setup


def test_every_account_has_words_in_every_web_catalogue_with_its_fields() -> None:
    web = catalogue("web")
    for key, english in LAG_FAULT_ENGLISH.items():
        assert web.text("en", f"what.lag_{key}") == english
        assert all(f"what.lag_{key}" in web.messages[lang] for lang in LANGUAGES)
    for key, english in ACCOUNT_ENGLISH.items():
        assert web.text("en", f"what.{key}") == english
        for lang in LANGUAGES:
            said = web.messages[lang][f"what.{key}"]
            assert template_fields(said) == template_fields(english), (lang, key)


def _old_shot_line(record: ShotRecord) -> str:
    """The shot line as ``carom live`` wrote it before accounts were keyed."""
    v = record.verdict
    fouls = f" foul {', '.join(v.fouls)};" if v.fouls else ""
    board = ", ".join(f"{p} {n}" for p, n in record.score_after.items())
    return f"shot {record.index} by {record.player}: {v.points:+d};{fouls} {v.reason} [{board}]"


def _play(tmp_path: Path) -> list[tuple[SessionUpdate, str]]:
    """Every kind of entry, each update with the line the old templates gave."""
    store = MatchStore(tmp_path / "live.db")
    s = LiveSession.open(store, example_setup(), now_iso=NOW)
    out: list[tuple[SessionUpdate, str]] = []
    inputs = example_inputs()
    u = s.submit(inputs[0], video_t_s=0.0, now_iso=NOW)
    assert s.lag is not None
    out.append((u, f"lag: {s.lag.reason}"))
    for shot in inputs[1:4]:
        u = s.submit(shot, video_t_s=1.0, now_iso=NOW)
        out.append((u, _old_shot_line(s.records[-1])))
    u = s.call(FoulCall(Foul.TOUCH), who="ref", now_iso=NOW)
    out.append((u, "foul touch called: " + _old_shot_line(s.records[-1])))
    shooter = s.state.shooter
    u = s.call(TimeoutCall(), who="ref", now_iso=NOW)
    timeout = f"time-out for {shooter} (1 this game)"
    out.append((u, timeout))
    out.append((s.call(UndoCall(), who="ref", now_iso=NOW), f"undo: {timeout}"))
    other = next(p for p in s.state.config.players if p != shooter)
    for c in (
        Correction(CorrectionKind.POINTS, other, 2, "scorer's slip"),
        Correction(CorrectionKind.POINTS, other, -2),
        Correction(CorrectionKind.TURN, other),
        Correction(CorrectionKind.TURN, shooter),
        Correction(CorrectionKind.TURN, other),
        Correction(CorrectionKind.BREAK_POSITION, other),
    ):
        u = s.call(c, who="ref", now_iso=NOW)
        out.append((u, f"correction: {s.state.audit[-1].detail}"))
    why = "camera lost: the match waits"
    out.append((s.set_paused(why, now_iso=NOW), f"scoring paused: {why}"))
    u = s.submit(inputs[4], video_t_s=2.0, now_iso=NOW)
    assert u.pending is not None
    held = f"played while scoring was paused ({why})"
    assert u.pending.reason == held
    out.append((u, f"shot {u.pending.shot.index} by {u.pending.record.player} held for review: "
                   f"{held}"))  # fmt: skip
    out.append((s.set_paused(None, now_iso=NOW), "scoring resumed"))
    u = s.decide(ReviewDecision(DecisionKind.POINTS, 1), who="ref", now_iso=NOW)
    out.append((u, "review points 1: " + _old_shot_line(s.records[-1])))
    out.append((s.snapshot(), f"new match {s.match_id} at version {s.version}"))
    store.close()
    return out


def test_each_entry_s_account_is_the_old_line_in_english_and_keyed(tmp_path: Path) -> None:
    keys = set()
    for update, line in _play(tmp_path):
        assert update.what == line
        assert update.account is not None and update.account.english == line
        doc = account_doc(update.account)
        keys |= set(re.findall(r"'key': '([a-z_]+)'", str(doc)))
        assert "correct_other" not in str(doc) and "lag_other" not in str(doc), line
    assert {"correct_points", "correct_turn", "correct_turn_back", "correct_break"} <= keys
    assert {"lag", "shot", "foul_called", "timeout", "undo", "paused", "held"} <= keys
    assert {"played_paused", "resumed", "review", "session"} <= keys


def test_a_first_stroke_with_no_lag_before_it_is_said_to_join_the_match(tmp_path: Path) -> None:
    """No lag and no first player: the first shot's line says the match is joined there,
    in every language of the console, and the undo of it says so too."""
    s = LiveSession.open(MatchStore(tmp_path / "live.db"), example_setup(first_player=None),
                         now_iso=NOW)  # fmt: skip
    first = s.submit(example_inputs()[1], video_t_s=1.0, now_iso=NOW)
    shot = _old_shot_line(s.records[-1])
    assert first.what == f"{JOIN_ENGLISH}: {shot}"
    assert first.account is not None and first.account.fields["then"].key == "shot"
    doc = account_doc(first.account)
    for lang in LANGUAGES:
        said = account_in(lang, doc)
        head = catalogue("web").messages[lang]["what.joined"].removesuffix("{then}")
        assert said == head + account_in(lang, doc["fields"]["then"]), lang
    second = s.submit(example_inputs()[2], video_t_s=2.0, now_iso=NOW)
    assert second.what == _old_shot_line(s.records[-1])  # joined once
    s.call(UndoCall(), who="ref", now_iso=NOW)
    undone = s.call(UndoCall(), who="ref", now_iso=NOW)
    assert undone.what == f"undo: {JOIN_ENGLISH}: {shot}"
    assert not s.records


def test_a_lag_seen_after_the_breaker_was_set_is_said_and_not_judged(tmp_path: Path) -> None:
    """``--first`` set the breaker, and the video shows a lag: it was scored as a stroke
    ("shot 0 A: no object ball hit", an inning A never played), where carom analyze
    notes it and judges nothing. Resumed from the journal, the same."""
    store = MatchStore(tmp_path / "live.db")
    inputs = example_inputs()
    breaker = example_setup().config.players[1]
    s = LiveSession.open(store, example_setup(first_player=breaker), now_iso=NOW)
    u = s.submit(inputs[0], video_t_s=0.0, now_iso=NOW)
    assert inputs[0].lag and not s.records and s.lag is None
    assert u.what == f"a lag was seen, but {breaker} was set to break: lag not judged"
    assert u.account is not None and u.account.key == "lag_not_judged"
    for lang in LANGUAGES:
        assert breaker in account_in(lang, account_doc(u.account))
    s.submit(inputs[1], video_t_s=1.0, now_iso=NOW)
    assert [r.index for r in s.records] == [0] and s.records[0].player == breaker
    records = s.records
    store.close()
    again = LiveSession.open(MatchStore(tmp_path / "live.db"), example_setup(first_player=breaker),
                             now_iso=NOW)  # fmt: skip
    assert again.records == records


def test_a_lag_after_a_start_naming_no_shooter_is_said_and_not_judged(tmp_path: Path) -> None:
    """A start leaves the player at the table to the first stroke: a lag seen then was
    played as a stroke (no words), where carom analyze notes it. Its entry's rule keeps
    that for an entry stored by the version before (``lag_rule: "report"``)."""
    players = example_setup().config.players
    setup = example_setup(first_player=None, start=StartState(board={players[0]: 5}))
    store = MatchStore(tmp_path / "live.db")
    s = LiveSession.open(store, setup, now_iso=NOW)
    lag, first = example_inputs()[:2]
    u = s.submit(lag, video_t_s=0.0, now_iso=NOW)
    assert u.what == "a lag was seen, but the match was set to begin from a start: lag not judged"
    assert u.account is not None and u.account.key == "lag_not_judged_start"
    assert not s.records
    for lang in LANGUAGES:
        said = account_in(lang, account_doc(u.account))
        assert said and "{" not in said and (lang == "en" or "lag" not in said), (lang, said)
    s.submit(first, video_t_s=1.0, now_iso=NOW)
    records = s.records
    assert len(records) == 1 and records[0].index == 0
    store.close()
    reopened = MatchStore(tmp_path / "live.db")
    assert LiveSession.open(reopened, setup, now_iso=NOW).records == records
    reopened.close()
    older = MatchStore(tmp_path / "older.db")
    s = LiveSession.open(older, setup, now_iso=NOW)
    doc, paths = shot_doc(lag.shot, {})
    payload = {"video_t_s": 0.0, "lag": True, "lag_rule": "report", "shot": doc}
    s._commit("shot", payload, paths, "vision", NOW)
    assert len(s.records) == 1  # played as a stroke, as the version before did
    records = s.records
    older.close()
    again = LiveSession.open(MatchStore(tmp_path / "older.db"), setup, now_iso=NOW)
    assert again.records == records


def test_a_lag_an_earlier_version_stored_as_a_stroke_replays_as_it_was_made(
    tmp_path: Path,
) -> None:
    """Its journal entry has no ``lag_rule``: the match it recorded keeps its result (the
    lag played as a stroke), before and after a resume, and the entries after it apply."""
    store = MatchStore(tmp_path / "live.db")
    setup = example_setup(first_player=example_setup().config.players[1])
    s = LiveSession.open(store, setup, now_iso=NOW)
    lag, first = example_inputs()[:2]
    doc, paths = shot_doc(lag.shot, {})
    s._commit("shot", {"video_t_s": 0.0, "lag": True, "shot": doc}, paths, "vision", NOW)
    s.call(UndoCall(), who="ref", now_iso=NOW)  # the entries after it refer to it
    s.submit(first, video_t_s=1.0, now_iso=NOW)
    assert len(s.records) == 1  # the stroke-lag was taken back, the break played
    records = s.records
    store.close()
    again = LiveSession.open(MatchStore(tmp_path / "live.db"), setup, now_iso=NOW)
    assert again.records == records


def test_a_pause_within_an_account_is_keyed_for_the_pages(tmp_path: Path) -> None:
    lines = {u.what: u for u, _ in _play(tmp_path)}
    pause = lines["scoring paused: camera lost: the match waits"].account
    assert pause is not None
    paused = account_doc(pause)
    assert paused["fields"]["why_parts"] == {"key": "camera_lost", "fields": {}}
    held = next(u for w, u in lines.items() if "held for review" in w)
    assert held.account is not None
    doc = account_doc(held.account)
    assert doc["fields"]["reason"]["key"] == "played_paused"
    assert doc["fields"]["reason"]["fields"]["why_parts"]["key"] == "camera_lost"
    assert held.pending is not None
    assert held_paused(held.pending.reason) == {
        "why": "camera lost: the match waits",
        "why_parts": {"key": "camera_lost", "fields": {}},
    }
    assert held_paused("graze: white 1.2 mm from the left cushion") is None


_NAME = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
                max_size=12)  # fmt: skip


@given(player=_NAME, points=st.integers(-50, 50).filter(bool), note=st.text(max_size=20))
def test_any_points_correction_reads_into_its_key(player: str, points: int, note: str) -> None:
    detail = f"{points:+d} points to {player}" + (f" ({note})" if note else "")
    said = correction_account("correct points", detail)
    assert said.english == f"correction: {detail}"
    assert said.fields["detail"].key == "correct_points"


@given(winner=_NAME, gap=st.integers(0, 3000), faults=st.lists(_NAME, max_size=3))
def test_every_lag_result_reads_into_its_key(winner: str, gap: int, faults: list[str]) -> None:
    loser = winner + "2"
    results = {
        "lag_entered": LagResult(winner, winner, {}, f"{winner} won the lag (entered)"),
        "lag_nearer": LagResult(winner, winner, {winner: (), loser: ()},
                                f"{winner} won: {gap} mm nearer the head cushion"),
        "lag_both_lost": LagResult(None, None, {}, "both players lost the lag: lag again"),
        "lag_tie": LagResult(None, None, {}, "equal distance from the head cushion: lag again"),
    }  # fmt: skip
    if faults:
        why = "; ".join(faults)
        results["lag_fault"] = LagResult(winner, winner, {winner: (), loser: tuple(faults)},
                                         f"{winner} won: {loser} {why}")  # fmt: skip
    for key, result in results.items():
        said = lag_account(result)
        assert said.english == f"lag: {result.reason}"
        assert said.fields["result"].key in (key, "lag_fault"), key


def test_an_unknown_key_is_refused() -> None:
    with pytest.raises(KeyError, match="unknown key"):
        Account("shot_made_up")
    assert re.fullmatch(r"undo: the lag", Account("undo", {"what": Account("the_lag")}).english)


def test_each_lag_fault_the_referee_gives_reads_into_its_key() -> None:
    """Real lags judged by the referee, one fault each (five-pins for the pin and the long
    cushion): every fault it writes is one of ``LAG_FAULT_ENGLISH``, keyed in the account."""
    w, y = Ball.WHITE, Ball.YELLOW
    start = {w: (650.0, 400.0), y: (650.0, 1020.0)}
    foot_y = CushionContact(t_s=2.1, ball=y, cushion=Cushion.FOOT)
    foot_w = CushionContact(t_s=2.0, ball=w, cushion=Cushion.FOOT)
    cases = [
        (Discipline.THREE_CUSHION, (foot_y,), "no_foot"),
        (Discipline.THREE_CUSHION, (foot_w, foot_y, OffTable(t_s=3.0, ball=w)), "off_table"),
        (Discipline.THREE_CUSHION,
         (foot_w, foot_y, BallContact(t_s=3.0, balls=(w, Ball.RED))), "touched_red"),
        (Discipline.THREE_CUSHION,
         (foot_w, foot_y, CushionContact(t_s=3.0, ball=w, cushion=Cushion.RIGHT)), "crossed"),
        (Discipline.FIVE_PINS,
         (foot_w, foot_y, PinDown(t_s=3.0, pin=Pin.CENTER, ball=w)), "knocked_pin"),
        (Discipline.FIVE_PINS,
         (foot_w, foot_y, CushionContact(t_s=1.0, ball=w, cushion=Cushion.LEFT)), "long_cushion"),
    ]  # fmt: skip
    for discipline, events, key in cases:
        config = MatchConfig(discipline=discipline, players=("A", "B"),
                             cue_balls={"A": w, "B": y}, target={"A": 40, "B": 40})  # fmt: skip
        lag = Lag(events=tuple(sorted(events, key=lambda e: e.t_s)), start_positions_mm=start,
                  end_positions_mm={w: (300.0, 380.0), y: (200.0, 1000.0)})  # fmt: skip
        result = judge_lag(lag, config)
        assert result.winner == "B", (key, result.reason)
        said = lag_account(result)
        assert said.english == f"lag: {result.reason}"
        assert key in said.fields["result"].fields["fault_keys"], (key, result.faults)
    assert set(LAG_FAULT_ENGLISH) == {case[2] for case in cases}


def test_undoing_a_held_shot_says_it_is_discarded(tmp_path: Path) -> None:
    """ "undo: shot 3 by F held for review: ..." read as if the shot still waited (found by
    a review as a club operator)."""
    from carom.live import UndoCall
    from tests.carom.live.shotpool import NOW, held_example

    session = held_example(tmp_path)
    n = session.pending.shot.index if session.pending is not None else -1
    update = session.call(UndoCall(), who="test", now_iso=NOW)
    assert update.account is not None and update.account.key == "undo_held"
    assert update.what.startswith(f"undo: shot {n} by ") and " discarded (it was held for " in (
        update.what
    )
    assert session.pending is None
