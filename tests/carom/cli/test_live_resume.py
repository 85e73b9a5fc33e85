"""``carom live`` restarted as a club restarts it: another spelling of the video's path,
an option left out, a review still waiting (found by a new installer's tries).

The clip is the sample's first 5 s, cut in the middle of its first shot: the video ends
before the balls stop, so the shot waits for review. Each run is the real command
(``--pace 0``), with the sample's true calibration.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from carom.live import LiveSession, LiveSetup, MatchStore, source_identity
from tests.carom.live._helpers import carom_cmd, write_truth_calibration
from tests.carom.live.shotpool import NOW, example_setup
from tests.carom.web.test_camera import first_seconds

REVIEW = "REVIEW: the video ended before every ball stopped"


def _live(clip: str, tmp_path: Path, *players: str) -> list[str]:
    cmd = [*carom_cmd(), "live", "--camera", clip, "--calibration", str(tmp_path / "cal.json"),
           "--players", *(players or ("A", "B")), "--first", "A", "--db",
           str(tmp_path / "club.db"), "--pace", "0", "--shot-clock", "0"]  # fmt: skip
    done = subprocess.run(cmd, input="", capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [line.removeprefix("carom live: ") for line in (done.stderr + done.stdout).splitlines()]


def test_the_same_video_by_another_path_resumes_and_its_waiting_review_is_said_again(
    tmp_path: Path,
) -> None:
    write_truth_calibration(tmp_path / "cal.json")
    first_seconds(tmp_path / "cut.mp4", end_s=5.0)
    first = _live("cut.mp4", tmp_path)  # named from its folder, as typed by hand
    assert "new match 1" in first and REVIEW in first, first
    assert "the video ended; shot 0 waits for review: decide it at the keyboard" in first
    assert ("shot 0 still waits for review and nobody can decide it here (the keyboard is "
            "closed); the same command resumes the match and asks again") in first  # fmt: skip
    # A service restarts it with the absolute path: the same match, its review again.
    again = _live(str(tmp_path / "cut.mp4"), tmp_path)
    # The score it resumes with, not a journal version that tells an operator nothing.
    assert any(line.startswith("resumed match 1 at A 0 : 0 B") for line in again), again
    assert REVIEW in again, again
    # An option left out (other players): a new match, and the unfinished one named.
    other = _live("./cut.mp4", tmp_path, "A", "C")
    assert "new match 2" in other, other
    assert any(line.startswith("match 1 (A - B, begun ") and "was left unfinished with "
               "another set-up: the same options" in line for line in other), other  # fmt: skip


def test_a_match_begun_under_the_path_as_typed_is_resumed_under_its_absolute_path(
    tmp_path: Path,
) -> None:
    """A match begun before sources were keyed by their absolute path (its key holds the
    path as typed) is found through the alias."""
    setup = example_setup()
    typed = "clips/table1.mp4"
    with MatchStore(tmp_path / "club.db") as store:
        old = LiveSession.open(store, LiveSetup(setup.config, typed), now_iso=NOW)
        old.release()
        now = LiveSession.open(
            store,
            LiveSetup(setup.config, source_identity(typed), aliases=(typed,)),
            now_iso=NOW,
        )
        assert now.resumed and now.match_id == old.match_id
    assert source_identity(typed) == os.path.abspath(typed)
    assert source_identity("0") == "0" and source_identity("rtsp://cam/1") == "rtsp://cam/1"
