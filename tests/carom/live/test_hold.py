"""One process at a time referees a match (``carom.live._hold``): real processes, real locks.

A holder is a fresh Python process that opens the example match and waits; this test's
process then tries to open the same match, as a second ``carom live`` or a server would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from carom.live import LiveError, LiveSession, MatchStore
from tests.carom.live.shotpool import NOW, example_setup

ROOT = Path(__file__).parents[3]
HOLDER = """
import sys
from pathlib import Path
from carom.live import LiveSession, MatchStore
from tests.carom.live.shotpool import NOW, example_setup
store = MatchStore(Path(sys.argv[1]))
session = LiveSession.open(store, example_setup(), now_iso=NOW)
print(session.match_id, flush=True)
sys.stdin.readline()  # hold until told (or killed)
if sys.argv[2:] == ["release"]:
    session.release()
    print("released", flush=True)
    sys.stdin.readline()
"""


def _holder(db: Path, *extra: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), *extra], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout is not None
    proc.match_id = int(proc.stdout.readline())  # type: ignore[attr-defined]
    return proc


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "club.db"


def test_a_match_another_process_referees_is_refused_with_its_pid_and_nothing_written(
    db: Path,
) -> None:
    holder = _holder(db)
    try:
        with MatchStore(db) as store:
            before = ([m.id for m in store.matches()], store.match(holder.match_id).version)  # type: ignore[attr-defined]
            with pytest.raises(LiveError) as refused:
                LiveSession.open(store, example_setup(), now_iso=NOW)
            assert str(refused.value) == (
                f"match {holder.match_id} is being refereed by another process "  # type: ignore[attr-defined]
                f"(pid {holder.pid}): a carom live or carom serve on this database; stop it "
                "first, then try again"
            )
            after = ([m.id for m in store.matches()], store.match(holder.match_id).version)  # type: ignore[attr-defined]
            assert after == before  # no new match beside it, no input written
    finally:
        _stop(holder)


def test_held_by_names_the_holder_while_it_lives(db: Path) -> None:
    from carom.live import held_by

    holder = _holder(db)
    try:
        assert held_by(db, holder.match_id) == holder.pid  # type: ignore[attr-defined]
        assert held_by(db, holder.match_id + 1) is None  # type: ignore[attr-defined]
    finally:
        _stop(holder)
    assert held_by(db, holder.match_id) is None  # type: ignore[attr-defined]


def test_a_holder_killed_leaves_the_match_free_to_resume(db: Path) -> None:
    holder = _holder(db)
    holder.send_signal(signal.SIGKILL)  # as kill -9 or a power cut: the kernel drops the lock
    _stop(holder)
    with MatchStore(db) as store:
        session = LiveSession.open(store, example_setup(), now_iso=NOW)
        assert session.resumed and session.match_id == holder.match_id  # type: ignore[attr-defined]


def test_a_released_match_may_be_refereed_by_another_process(db: Path) -> None:
    holder = _holder(db, "release")
    try:
        assert holder.stdin is not None and holder.stdout is not None
        with MatchStore(db) as store:
            with pytest.raises(LiveError, match="being refereed by another process"):
                LiveSession.open(store, example_setup(), now_iso=NOW)
            holder.stdin.write("\n")
            holder.stdin.flush()
            assert holder.stdout.readline() == "released\n"
            session = LiveSession.open(store, example_setup(), now_iso=NOW)
            assert session.match_id == holder.match_id  # type: ignore[attr-defined]
    finally:
        _stop(holder)


def test_the_holding_process_may_open_its_match_again(db: Path) -> None:
    """The web console resumes a set-up in the process that holds it: no refusal."""
    with MatchStore(db) as store:
        first = LiveSession.open(store, example_setup(), now_iso=NOW)
        again = LiveSession.open(store, example_setup(), now_iso=NOW)
        assert again.match_id == first.match_id and again.resumed
    assert (db.parent / "club.db-holds").is_file()


def test_a_second_carom_live_on_the_match_is_one_line_and_status_2(tmp_path: Path) -> None:
    """The first ``carom live`` (a quarter of real time: it holds the match for a minute)
    referees the clip; the same command again is refused before it reads a frame."""
    args = ["live", "--camera", str(ROOT / "examples" / "one_shot.mp4"), "--db",
            str(tmp_path / "club.db"), "--players", "A,B", "--shot-clock", "0"]  # fmt: skip
    first = subprocess.Popen([*_carom(), *args, "--pace", "0.25"], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert first.stderr is not None
        for line in first.stderr:  # its calibration, then the match it opened
            if "new match 1" in line:
                break
        else:
            pytest.fail(f"the first carom live ended ({first.wait()}) without opening a match")
        again = subprocess.run([*_carom(), *args, "--pace", "0"], cwd=tmp_path,
                               capture_output=True, text=True, timeout=120)  # fmt: skip
        assert again.returncode == 2, again.stderr
        assert again.stderr.strip().splitlines()[-1] == (
            f"carom: match 1 is being refereed by another process (pid {first.pid}): a carom "
            "live or carom serve on this database; stop it first, then try again"
        )
        # Another set-up is a new match beside it; the one refereed now is not "left
        # unfinished" to be resumed (it said so, and that the same options resume it).
        other = subprocess.run([*_carom(), *args[:-4], "--players", "B,A", "--shot-clock", "0",
                                "--pace", "0"], cwd=tmp_path, capture_output=True, text=True,
                               timeout=120)  # fmt: skip
        assert other.returncode == 0, other.stderr
        assert (
            f"carom live: match 1 (A - B) of this camera is being refereed by another process "
            f"(pid {first.pid}) with another set-up; this is a new match beside it"
        ) in other.stderr.splitlines(), other.stderr
        assert "left unfinished" not in other.stderr
    finally:
        _stop(first)


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()


def _carom() -> list[str]:
    exe = Path(sys.executable).with_name("carom")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "carom"]
