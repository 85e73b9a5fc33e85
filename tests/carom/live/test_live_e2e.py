"""``carom live`` end to end: the sample replayed through the CLI onto an emulated board.

Real processes, a real pty board (:class:`hardware.ScoreboardEmulator` in this test
process), a real SQLite file. The whole match is replayed at real-time pace
(``--pace 1``: 57 s of video) with the board unplugged and plugged in half-way; the
crash test replays at ``--pace 0`` (lossless, as fast as processed) to stay within the
test budget. The crash test and the bad-input tests run first, while the real-time
replay (a third of a core: it waits for the clock most of the time) goes on in the
background, so the suite does not wait 57 s for it alone.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from carom.live import LiveSession, MatchStore
from hardware import EventKind, ScoreboardEmulator, Snapshot
from tests.carom.live._helpers import live_cmd, run_live, truth_state, write_truth_calibration

#: What the real-time replay left: exit status, stdout, stderr, database, the board.
Replay = dict[str, object]


@pytest.fixture(scope="module")
def calibration(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_truth_calibration(tmp_path_factory.mktemp("cal") / "calibration.json")


@pytest.fixture(scope="module")
def replay(calibration: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Future[Replay]]:
    """The whole replay at real-time pace, started now and run in the background."""
    work = tmp_path_factory.mktemp("e2e")
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay") as pool:
        yield pool.submit(_replay_in_real_time, calibration, work)


@pytest.fixture(scope="module")
def uninterrupted(replay: Future[Replay]) -> Replay:
    """The replay's outcome (waits for its end: 57 s after it started)."""
    return replay.result(timeout=240)


def _replay_in_real_time(calibration: Path, work: Path) -> Replay:
    """One whole replay; half-way the board vanishes for 1.5 s and comes back."""
    board_path, db = work / "board", work / "live.db"
    emu = ScoreboardEmulator.open_pty(link=board_path)
    cmd = live_cmd(calibration, db, board_path, "--pace", "1", "--metrics", str(work / "m.json"))
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert emu.wait_for(lambda e: e.snapshot is not None and e.snapshot.scores[0] == 1, 60)
        emu.vanish()  # the board is unplugged after the first point ...
        time.sleep(1.5)
        emu = ScoreboardEmulator.open_pty(link=board_path)  # ... and plugged in again
        out, err = proc.communicate(timeout=180)
        emu.wait_for(lambda e: e.snapshot is not None and e.snapshot.scores == (1, 2), 5)
        return {"code": proc.returncode, "out": out, "err": err, "db": db,
                "snapshot": emu.snapshot, "events": emu.events, "work": work}  # fmt: skip
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
        emu.stop()


def _wait_for_rows(db: Path, n: int, proc: subprocess.Popen[str]) -> None:
    end = time.monotonic() + 60
    while len(_shots(db)) < n and proc.poll() is None and time.monotonic() < end:
        time.sleep(0.02)


def _has_match(db: Path) -> bool:
    if not db.exists():
        return False
    with sqlite3.connect(db) as con:
        try:
            return bool(con.execute("SELECT count(*) FROM matches").fetchone()[0])
        except sqlite3.OperationalError:  # killed before the schema was written
            return False


def _shots(db: Path) -> list[tuple[int, float]]:
    if not db.exists():
        return []
    with sqlite3.connect(db) as con:
        try:
            rows = con.execute("SELECT shot_index, video_t_s FROM shots ORDER BY seq").fetchall()
        except sqlite3.OperationalError:  # killed before the schema was written
            return []
    return [(int(i), float(t)) for i, t in rows]


def _final(db: Path) -> tuple[object, ...]:
    store = MatchStore(db, create=False)
    try:
        (row,) = store.matches()
        session = LiveSession.load(store, row.id)
        s = session.state
        verdicts = tuple((r.player, r.verdict.points, r.verdict.reason) for r in session.records)
        return tuple((s.board(p), s.scores[p].innings) for p in s.config.players) + verdicts
    finally:
        store.close()


def test_killed_at_random_moments_and_restarted_ends_in_the_same_state(
    replay: Future[Replay], calibration: Path, tmp_path: Path
) -> None:
    rng = random.Random(7)
    db, board_path = tmp_path / "live.db", tmp_path / "board"
    emu = ScoreboardEmulator.open_pty(link=board_path)
    cmd = live_cmd(calibration, db, board_path, "--pace", "0")
    resumed: list[tuple[bool, bool]] = []  # (a match was stored, the run said it resumed)
    try:
        for kill in range(3):
            stored = _has_match(db)
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)  # fmt: skip
            if kill == 0:  # anywhere in the first seconds, maybe before any shot is written
                time.sleep(rng.uniform(1.0, 3.0))
            else:  # anywhere in the second after one more shot was written (kills 2, 3)
                _wait_for_rows(db, len(_shots(db)) + 1, proc)
                time.sleep(rng.uniform(0.0, 1.0))
            proc.send_signal(signal.SIGKILL)
            _, err = proc.communicate(timeout=10)
            resumed.append((stored, "resumed match" in err))
        done = run_live(cmd)
        assert done.returncode == 0, done.stderr
        # every run that found the match stored resumed it (the first kill may come
        # before it was; the second comes after a shot was, so the third run found it)
        assert "resumed match" in done.stderr
        assert all(said for stored, said in resumed if stored) and resumed[2][0]
        assert emu.wait_for(lambda e: e.snapshot is not None and e.snapshot.scores == (1, 2), 5)
    finally:
        emu.stop()
    first_db = replay.result(timeout=240)["db"]  # the real-time replay, started first
    assert isinstance(first_db, Path)
    assert _final(db) == _final(first_db)
    assert [i for i, _ in _shots(db)] == [0, 1, 2, 3]  # no shot twice, none lost


@pytest.mark.parametrize(
    ("change", "needle", "status"),
    [
        ({"--camera": "nope.mp4"}, "no such file", 5),  # unreadable media
        ({"--calibration": "nope.json", "--discipline": "snooker"}, "--discipline", 2),
        ({"--calibration": "nope.json"}, "nope.json", 2),
    ],
)
def test_bad_input_is_one_line_and_its_status(
    change: dict[str, str], needle: str, status: int, calibration: Path, tmp_path: Path
) -> None:
    cmd = live_cmd(calibration, tmp_path / "live.db", None)
    for flag, value in change.items():
        if flag in cmd:
            cmd[cmd.index(flag) + 1] = value
        else:
            cmd += [flag, value]
    done = run_live(cmd)
    assert done.returncode == status and needle in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_replay_ends_with_the_truth_on_the_board_and_every_shot_in_the_db(
    uninterrupted: Replay,
) -> None:
    assert uninterrupted["code"] == 0, uninterrupted["err"]
    truth = truth_state()
    want = tuple(truth.board(p) for p in truth.config.players)
    snapshot = uninterrupted["snapshot"]
    assert isinstance(snapshot, Snapshot) and snapshot.scores == want == (1, 2)
    assert snapshot.innings == tuple(truth.scores[p].innings for p in truth.config.players)
    assert "A 1 : 2 B" in str(uninterrupted["out"])
    db = uninterrupted["db"]
    assert isinstance(db, Path)
    assert [i for i, _ in _shots(db)] == [0, 1, 2, 3]
    # the board that came back got the later verdicts as events
    assert EventKind.POINT in {e.kind for e in uninterrupted["events"]}  # type: ignore[attr-defined]
    assert "processing" in str(uninterrupted["err"])  # the live figures are reported
