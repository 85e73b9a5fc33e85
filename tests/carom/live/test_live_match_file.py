"""``carom live --match FILE``: the file's set-up is the live match's, flags over it.

The sample's first 15.5 s (its first shot: A scores 1) replayed losslessly
(``--pace 0``) through the real CLI into a real SQLite file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from carom.live import LiveSession, MatchStore
from referee import MatchState
from tests.carom.live._helpers import carom_cmd, run_live, write_truth_calibration
from tests.carom.web.test_camera import first_seconds

MATCH = """\
players = ["Ana", "Ben"]
first_player = "Ana"
target = {Ana = 15, Ben = 12}
[rules]
cushion_repeat_merge_s = 0.05
[clock]
length_s = 30.0
extensions = 1
"""


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("live-match")
    (work / "match.toml").write_text(MATCH)
    return {
        "clip": first_seconds(work / "clip.mp4"),
        "calibration": write_truth_calibration(work / "calibration.json"),
        "match": work / "match.toml",
        "work": work,
    }


def _live(setup: dict[str, Path], db: str, *extra: str) -> tuple[str, MatchState]:
    cmd = [*carom_cmd(), "live", "--camera", str(setup["clip"]), "--calibration",
           str(setup["calibration"]), "--match", str(setup["match"]), "--pace", "0",
           "--db", str(setup["work"] / db), *extra]  # fmt: skip
    done = run_live(cmd)
    assert done.returncode == 0, done.stderr
    store = MatchStore(setup["work"] / db, create=False)
    try:
        (row,) = store.matches()
        return done.stderr, LiveSession.load(store, row.id).state
    finally:
        store.close()


def test_the_files_set_up_is_refereed_and_the_same_command_resumes_it(
    setup: dict[str, Path],
) -> None:
    # --players in the two-word form, the same as A,B: the file's players renamed in order.
    err, state = _live(setup, "a.db", "--players", "A", "B")
    config = state.config
    assert config.players == ("A", "B") and config.first_player == "A"
    assert config.target == {"A": 15, "B": 12}
    assert config.options.cushion_repeat_merge_s == 0.05
    assert config.options.follow_cue_ball  # a camera names the shooter
    assert (state.board("A"), state.board("B")) == (1, 0)  # the truth's first shot
    assert "new match" in err
    again, _ = _live(setup, "a.db", "--players", "A,B")
    assert "resumed match" in again  # the same set-up, whichever --players form


def test_joining_in_progress_from_the_flags(setup: dict[str, Path]) -> None:
    _, state = _live(setup, "b.db", "--players", "A,B", "--start-score", "A=10,B=3",
                     "--start-innings", "A=4,B=4", "--start-shooter", "A")  # fmt: skip
    assert state.config.start is not None and state.config.start.board == {"A": 10, "B": 3}
    assert (state.board("A"), state.board("B")) == (11, 3)
    assert state.scores["A"].innings == 5  # the first stroke began A's fifth inning


def test_a_bad_match_file_is_one_line_and_status_2(setup: dict[str, Path]) -> None:
    bad = setup["work"] / "bad.toml"
    bad.write_text('players = ["A", "B"]\n[clock]\nlength_s = "thirty"\n')
    cmd = [
        *carom_cmd(),
        "live",
        "--camera",
        str(setup["clip"]),
        "--calibration",
        str(setup["calibration"]),
        "--match",
        str(bad),
        "--db",
        str(setup["work"] / "c.db"),
    ]
    done = run_live(cmd)
    assert done.returncode == 2
    assert done.stderr == f"carom: {bad}: clock.length_s: expected a number, got a string\n"
