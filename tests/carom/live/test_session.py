"""The live session on real SQLite files: write-ahead journal, resume, review, calls."""

from __future__ import annotations

import contextlib
import sqlite3
import tempfile
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.live import (
    DecisionKind,
    FoulCall,
    LiveError,
    LiveSession,
    LiveSetup,
    MatchStore,
    ReviewDecision,
    ReviewPending,
    SessionUpdate,
    TimeoutCall,
    UndoCall,
)
from referee import Ball, CaromError, Correction, CorrectionKind, Foul, MatchState, Phase, Shot
from tests.carom.live.shotpool import (
    NOW,
    SOURCE,
    analyzed,
    example_inputs,
    example_log,
    example_setup,
    golden_shots,
    long_config,
)

ACCEPT = ReviewDecision(DecisionKind.ACCEPT)
REJECT = ReviewDecision(DecisionKind.REJECT)


def _at(i: int) -> str:
    return f"2026-11-29T23:{i // 60:02d}:{i % 60:02d}+00:00"


def _play_example(session: LiveSession) -> list[MatchState]:
    """The example match, review accepted; the state after every version (index = version)."""
    states = [session.state]
    for i, shot in enumerate(example_inputs()):
        update = session.submit(shot, video_t_s=10.0 * i, now_iso=_at(i))
        states.append(update.state)
        if update.pending is not None:
            states.append(session.decide(ACCEPT, who="ref", now_iso=_at(i)).state)
    return states


def _rows(store: MatchStore, match_id: int) -> int:
    return len(store.journal(match_id))


def test_example_match_is_scored_stored_and_finished(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    assert not session.resumed
    _play_example(session)
    state = session.state
    assert state.phase is Phase.OVER and state.winner == "Ana"
    assert {p: state.board(p) for p in state.config.players} == {"Ana": 5, "Ben": 4}
    row = store.match(session.match_id)
    assert row.finished_at is not None and row.version == session.version == 16
    shots = store._db.execute("SELECT COUNT(*) FROM shots WHERE match_id = ?", (row.id,))
    assert shots.fetchone()[0] == 15  # the lag and 14 strokes, as vision delivered them
    again = LiveSession.open(store, example_setup(), now_iso=NOW)
    assert not again.resumed and again.match_id != session.match_id  # finished: a new match
    store.close()


def test_resume_at_every_journal_prefix_equals_the_live_state(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    store = MatchStore(path)
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    states = _play_example(session)
    store.close()
    reopened = MatchStore(path)
    for version, expected in enumerate(states):
        replayed = LiveSession.load(reopened, session.match_id, upto=version)
        assert replayed.version == version
        assert replayed.state == expected
    reopened.close()


def test_reopening_the_same_setup_resumes_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    store = MatchStore(path)
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    inputs = example_inputs()
    for i, shot in enumerate(inputs[:9]):  # stops with shot 7 held for review
        session.submit(shot, video_t_s=10.0 * i + 5.0, now_iso=_at(i))
    session.call(TimeoutCall(), who="ref", now_iso=NOW)
    assert session.pending is not None
    store.close()  # the process ends here
    again = LiveSession.open(MatchStore(path), example_setup(), now_iso=NOW)
    assert again.resumed and again.match_id == session.match_id
    assert again.state == session.state and again.version == session.version
    assert again.pending == session.pending and again.timeouts_used() == session.timeouts_used()
    assert again.resume_video_t_s == 85.0
    other = LiveSession.open(MatchStore(path), replace(example_setup(), source="cam1"), now_iso=NOW)
    assert not other.resumed  # another camera is another match


def test_a_review_blocks_scoring_until_decided(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    inputs = example_inputs()
    for i, shot in enumerate(inputs[:9]):
        update = session.submit(shot, video_t_s=float(i), now_iso=NOW)
    pending = update.pending
    assert pending is not None and "balls too close" in pending.reason
    assert pending.if_accepted.verdict.points == 1 and pending.if_rejected.verdict.points == 0
    before = (session.state, session.version, _rows(store, session.match_id))
    with pytest.raises(ReviewPending, match="waits for review"):
        session.submit(inputs[9], video_t_s=9.0, now_iso=NOW)
    assert (session.state, session.version, _rows(store, session.match_id)) == before
    update = session.decide(REJECT, who="referee", now_iso="2026-11-29T23:30:00+00:00")
    assert update.record is not None and update.record.verdict.points == 0
    assert update.record.verdict.review is None and update.pending is None
    with pytest.raises(LiveError, match="nothing to decide"):
        session.decide(ACCEPT, who="referee", now_iso=NOW)
    entry = store.journal(session.match_id)[-1]
    assert (entry.kind, entry.who, entry.at) == ("decide", "referee", "2026-11-29T23:30:00+00:00")
    session.submit(inputs[9], video_t_s=9.0, now_iso=NOW)  # scoring goes on


def test_undoing_a_decision_holds_the_shot_again_and_points_override(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    for i, shot in enumerate(example_inputs()[:9]):
        session.submit(shot, video_t_s=float(i), now_iso=NOW)
    held = session.pending
    session.decide(ACCEPT, who="ref", now_iso=NOW)
    assert session.state.board("Ana") == 4
    session.call(UndoCall(), who="ref", now_iso=NOW)
    assert session.pending == held and session.state.board("Ana") == 3
    # The referee says the stroke missed: no point, and the turn passes.
    update = session.decide(ReviewDecision(DecisionKind.POINTS, 0), who="ref", now_iso=NOW)
    assert update.state.board("Ana") == 3 and update.state.shooter == "Ben"
    assert update.record is not None  # the stroke's own verdict, not a correction after it
    assert update.record.verdict.reason == "decided by the referee: the stroke scores 0"
    assert not any(a.action.startswith("correct") for a in update.state.audit)
    update = session.call(UndoCall(), who="ref", now_iso=NOW)
    assert update.pending == held and update.state.shooter == "Ana"
    update = session.decide(ReviewDecision(DecisionKind.POINTS, 1), who="ref", now_iso=NOW)
    assert update.state.board("Ana") == 4 and update.state.shooter == "Ana"
    replayed = LiveSession.load(store, session.match_id)
    assert replayed.state == session.state and replayed.pending is None


def test_a_foul_call_rejudges_the_last_shot_and_undo_takes_it_back(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    inputs = example_inputs()
    session.submit(inputs[0], video_t_s=1.0, now_iso=NOW)
    scored = session.submit(inputs[1], video_t_s=2.0, now_iso=NOW)
    assert scored.state.board("Ana") == 1 and scored.state.shooter == "Ana"
    called = session.call(FoulCall(Foul.PUSH), who="Referee Kim", now_iso=_at(7))
    assert called.record is not None and called.record.verdict.fouls == (Foul.PUSH,)
    assert called.state.board("Ana") == 0 and called.state.shooter == "Ben"
    assert len(session.records) == 1
    entry = store.journal(session.match_id)[-1]
    assert (entry.kind, entry.payload["foul"], entry.who, entry.at) == (
        "call", "push", "Referee Kim", _at(7),
    )  # fmt: skip
    undone = session.call(UndoCall(), who="Referee Kim", now_iso=NOW)
    assert undone.state.board("Ana") == 1 and undone.state.shooter == "Ana"
    assert LiveSession.load(store, session.match_id).state == session.state


def test_a_foul_called_on_a_held_shot_decides_it(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    for i, shot in enumerate(example_inputs()[:9]):
        session.submit(shot, video_t_s=float(i), now_iso=NOW)
    assert session.pending is not None
    update = session.call(FoulCall(Foul.DOUBLE_HIT), who="ref", now_iso=NOW)
    assert update.pending is None and update.record is not None
    assert update.record.verdict.fouls == (Foul.DOUBLE_HIT,) and update.state.shooter == "Ben"


def test_a_jump_over_pins_is_no_foul_a_three_cushion_referee_can_call(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    assert str(session.state.config.discipline) == "three-cushion"
    for i, shot in enumerate(example_inputs()[:3]):
        session.submit(shot, video_t_s=float(i), now_iso=NOW)
    said = _refused(session, store, lambda: session.call(
        FoulCall(Foul.JUMP_OVER_PINS), who="ref", now_iso=NOW))  # fmt: skip
    assert said.startswith("foul 'jump_over_pins' cannot be called (callable: balls_moving")
    assert "pins" not in said.partition("callable:")[2]


def _refused(session: LiveSession, store: MatchStore, attempt: Callable[[], object]) -> str:
    before = (session.state, session.version, session.pending, store.journal(session.match_id))
    with pytest.raises(CaromError) as info:
        attempt()
    after = (session.state, session.version, session.pending, store.journal(session.match_id))
    assert after == before
    assert "\n" not in str(info.value)
    return str(info.value)


def test_illegal_inputs_change_neither_the_database_nor_memory(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    call = session.call
    assert "nothing to undo" in _refused(
        session, store, lambda: call(UndoCall(), who="r", now_iso=NOW)
    )
    assert "not a shot" in _refused(
        session, store, lambda: call(FoulCall(Foul.PUSH), who="r", now_iso=NOW)
    )
    assert "not being played" in _refused(
        session, store, lambda: call(TimeoutCall(), who="r", now_iso=NOW)
    )
    assert "nothing to decide" in _refused(
        session, store, lambda: session.decide(ACCEPT, who="r", now_iso=NOW)
    )
    session.submit(example_inputs()[0], video_t_s=1.0, now_iso=NOW)
    session.call(Correction(CorrectionKind.POINTS, "Ben", 2), who="ref", now_iso=NOW)
    for bad in (
        FoulCall(Foul.PUSH),  # the last input is a correction
        Correction(CorrectionKind.POINTS, "Zed", 1),
        Correction(CorrectionKind.TURN, "Ana"),  # Ana is at the table
        Correction(CorrectionKind.POINTS, "Ana", -3),
        FoulCall(Foul.ZONE_LIMIT),  # not a foul a person calls
        TimeoutCall("Zed"),
    ):
        _refused(session, store, lambda bad=bad: call(bad, who="r", now_iso=NOW))  # type: ignore[misc]
    assert LiveSession.load(store, session.match_id).state == session.state


def test_no_shot_after_the_match_is_over(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    _play_example(session)
    with pytest.raises(CaromError, match="match is over"):
        session.submit(example_inputs()[1], video_t_s=999.0, now_iso=NOW)
    assert _rows(store, session.match_id) == session.version
    session.call(UndoCall(), who="ref", now_iso=NOW)  # undo reopens the match
    assert session.state.phase is Phase.PLAYING
    assert store.match(session.match_id).finished_at is None


def test_timeouts_are_counted_per_player_per_game_and_persisted(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    setup = LiveSetup(long_config(), SOURCE, timeouts_per_game=1)
    session = LiveSession.open(MatchStore(path), setup, now_iso=NOW)
    session.call(TimeoutCall(), who="ref", now_iso=NOW)
    assert session.timeouts_used() == (1, 0)
    with pytest.raises(LiveError, match="used all 1 time-out"):
        session.call(TimeoutCall("Ana"), who="ref", now_iso=NOW)
    update = session.call(TimeoutCall("Ben"), who="ref", now_iso=NOW)
    assert update.timeouts == (1, 1)
    resumed = LiveSession.open(MatchStore(path), setup, now_iso=NOW)
    assert resumed.resumed and resumed.timeouts_used() == (1, 1)
    resumed.call(UndoCall(), who="ref", now_iso=NOW)
    assert resumed.timeouts_used() == (1, 0)


def test_a_shot_played_while_paused_is_held_not_scored(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
    shot = analyzed(golden_shots(review=False)[-1][0])
    session.set_paused("camera lost", now_iso=NOW)
    session.set_paused("camera lost", now_iso=NOW)
    assert _rows(store, session.match_id) == 1  # an unchanged pause is not written again
    update = session.submit(shot, video_t_s=1.0, now_iso=NOW)
    assert update.pending is not None and "paused (camera lost)" in update.pending.reason
    assert session.records == () and update.paused == "camera lost"
    replayed = LiveSession.load(store, session.match_id)
    assert replayed.paused == "camera lost" and replayed.pending == session.pending
    session.set_paused(None, now_iso=NOW)
    update = session.decide(ACCEPT, who="ref", now_iso=NOW)
    assert update.record is not None and len(session.records) == 1 and update.paused is None


def test_sinks_are_told_every_committed_change_in_order(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    seen: list[tuple[str, int]] = []

    def broken(update: SessionUpdate) -> None:
        raise OSError("scoreboard unplugged")

    session.subscribe(lambda u: seen.append(("first", u.version)))
    session.subscribe(broken)
    session.subscribe(lambda u: seen.append(("last", u.version)))
    for i, shot in enumerate(example_inputs()[:3]):
        session.submit(shot, video_t_s=float(i), now_iso=NOW)
    with pytest.raises(LiveError):
        session.decide(ACCEPT, who="ref", now_iso=NOW)  # refused: no sink hears of it
    assert seen == [("first", 1), ("last", 1), ("first", 2), ("last", 2), ("first", 3), ("last", 3)]
    assert len(session.sink_errors) == 3 and "scoreboard unplugged" in session.sink_errors[0]


def test_trajectories_are_stored_compactly_and_replay_exactly(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
    base = golden_shots(review=False)[0][0]
    paths = {
        b: tuple((round(k / 15, 4), round(x + 3.17 * k, 2), round(y - 1.5 * k, 2))
                 for k in range(150))
        for b, (x, y) in base.end_positions_mm.items()
    }  # fmt: skip
    session.submit(analyzed(replace(base, paths_mm=paths)), video_t_s=3.0, now_iso=NOW)
    entry = store.journal(session.match_id)[-1]
    assert entry.paths is not None and "paths_mm" not in entry.payload["shot"]
    assert len(entry.paths) < 1500  # 3 balls x 150 samples: under 4 bytes a sample
    replayed = LiveSession.load(store, session.match_id)
    played = replayed.ops[-1]
    assert isinstance(played.shot, Shot) and played.shot.paths_mm == paths  # type: ignore[union-attr]


def test_a_long_match_of_golden_shots_resumes_identically(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
    pool = golden_shots()
    states = [session.state]
    for k in range(90):
        white, yellow = pool[(k * 7) % len(pool)]
        shot = white if session.state.shooter == "Ana" else yellow
        update = session.submit(analyzed(shot), video_t_s=float(k), now_iso=_at(k))
        states.append(update.state)
        if update.pending is not None:
            decision = ACCEPT if k % 2 else REJECT
            states.append(session.decide(decision, who="ref", now_iso=_at(k)).state)
        if k % 11 == 5:
            states.append(session.call(UndoCall(), who="ref", now_iso=_at(k)).state)
            if session.pending is not None:  # the undo took back a decision: decide anew
                states.append(session.decide(ACCEPT, who="ref", now_iso=_at(k)).state)
    assert len(session.records) > 60
    for version in range(0, len(states), 9):
        assert LiveSession.load(store, session.match_id, upto=version).state == states[version]
    assert LiveSession.load(store, session.match_id).state == session.state
    assert store.integrity() == "ok"


def test_the_cue_ball_names_are_checked_by_the_referee(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
    shot = replace(golden_shots(review=False)[0][0], cue_ball=Ball.DOTTED)
    with pytest.raises(CaromError, match="not in play"):
        session.submit(analyzed(shot), video_t_s=1.0, now_iso=NOW)
    assert _rows(store, session.match_id) == 0 and session.version == 0
    assert example_log().match.players == ("Ana", "Ben")


_POOL = golden_shots()
_EXAMPLE = example_inputs()
_players = st.sampled_from(["Ana", "Ben", "Zed"])
_inputs = st.one_of(
    st.tuples(st.just("example"), st.integers(0, len(_EXAMPLE) - 1)),
    st.tuples(st.just("golden"), st.integers(0, len(_POOL) - 1)),
    st.tuples(st.just("decide"), st.sampled_from([None, 0, 1, 2])),
    st.tuples(st.just("foul"), st.sampled_from(sorted(Foul))),
    st.tuples(st.just("undo"), st.none()),
    st.tuples(st.just("timeout"), st.one_of(st.none(), _players)),
    st.tuples(st.just("points"), st.tuples(_players, st.integers(-2, 2))),
    st.tuples(st.just("turn"), _players),
    st.tuples(st.just("pause"), st.sampled_from([None, "camera lost"])),
)


def _apply(session: LiveSession, kind: str, arg: object) -> None:
    now = NOW
    if kind == "example":
        session.submit(_EXAMPLE[int(arg)], video_t_s=1.0, now_iso=now)  # type: ignore[call-overload]
    elif kind == "golden":
        white, yellow = _POOL[int(arg)]  # type: ignore[call-overload]
        shot = white if session.state.shooter != "Ben" else yellow
        session.submit(analyzed(shot), video_t_s=2.0, now_iso=now)
    elif kind == "decide":
        decision = REJECT if arg is None else ReviewDecision(DecisionKind.POINTS, int(arg))  # type: ignore[call-overload]
        session.decide(decision, who="ref", now_iso=now)
    elif kind == "foul":
        session.call(FoulCall(Foul(str(arg))), who="ref", now_iso=now)
    elif kind == "undo":
        session.call(UndoCall(), who="ref", now_iso=now)
    elif kind == "timeout":
        session.call(TimeoutCall(None if arg is None else str(arg)), who="ref", now_iso=now)
    elif kind == "points":
        assert isinstance(arg, tuple)
        session.call(Correction(CorrectionKind.POINTS, arg[0], arg[1]), who="ref", now_iso=now)
    elif kind == "turn":
        session.call(Correction(CorrectionKind.TURN, str(arg)), who="ref", now_iso=now)
    else:
        session.set_paused(None if arg is None else str(arg), now_iso=now)


def _view(session: LiveSession) -> tuple[object, ...]:
    return (session.version, session.state, session.pending, session.paused,
            session.timeouts_used(), session.records, session.resume_video_t_s)  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_inputs, min_size=1, max_size=25))
def test_any_sequence_of_inputs_leaves_the_database_equal_to_memory(
    steps: list[tuple[str, object]],
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = MatchStore(Path(tmp) / "live.db")
        setup = LiveSetup(example_log().match, SOURCE, timeouts_per_game=2)
        session = LiveSession.open(store, setup, now_iso=NOW)
        for kind, arg in steps:
            before = _view(session)
            try:
                _apply(session, kind, arg)
            except CaromError:
                assert _view(session) == before
            assert len(store.journal(session.match_id)) == session.version
        replayed = LiveSession.load(store, session.match_id, timeouts_per_game=2)
        assert _view(replayed) == _view(session)
        store.close()


def test_a_failed_write_changes_nothing_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    store = MatchStore(path, busy_timeout_s=0.05)
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    session.submit(example_inputs()[0], video_t_s=None, now_iso=NOW)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    before = (session.state, session.version)
    with pytest.raises(LiveError, match=r"cannot write \(database is locked\); check the disk"):
        session.submit(example_inputs()[1], video_t_s=2.0, now_iso=NOW)
    assert (session.state, session.version) == before and session.resume_video_t_s is None
    other.execute("ROLLBACK")
    other.close()
    session.submit(example_inputs()[1], video_t_s=2.0, now_iso=NOW)
    assert LiveSession.load(store, session.match_id).state == session.state
    store.close()


def test_two_sessions_on_one_match_cannot_both_write(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    first = LiveSession.open(MatchStore(path), example_setup(), now_iso=NOW)
    second = LiveSession.open(MatchStore(path), example_setup(), now_iso=NOW)
    assert second.match_id == first.match_id
    first.submit(example_inputs()[0], video_t_s=1.0, now_iso=NOW)
    with pytest.raises(LiveError, match="another process has written this match since it"):
        second.submit(example_inputs()[0], video_t_s=1.0, now_iso=NOW)
    assert second.version == 0


def test_a_processing_thread_and_a_keyboard_thread_share_one_session(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
    pool = golden_shots(review=False)
    seen: list[int] = []
    session.subscribe(lambda u: seen.append(u.version))

    def processing() -> None:
        for k in range(40):
            white, yellow = pool[k % len(pool)]
            shot = white if session.state.shooter == "Ana" else yellow
            with contextlib.suppress(CaromError):  # refused whole: nothing changed
                session.submit(analyzed(shot), video_t_s=float(k), now_iso=NOW)

    def keyboard() -> None:
        for k in range(40):
            call = (TimeoutCall(), UndoCall(), Correction(CorrectionKind.POINTS, "Ben", 1))[k % 3]
            with contextlib.suppress(CaromError):
                session.call(call, who="keyboard", now_iso=NOW)

    threads = [threading.Thread(target=processing), threading.Thread(target=keyboard)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert seen == list(range(1, session.version + 1))  # every commit told once, in order
    replayed = LiveSession.load(store, session.match_id)
    assert _view(replayed) == _view(session)
    store.close()
