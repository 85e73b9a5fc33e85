"""Shared by the live tests: the sample clip, its truth and a calibration made from it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from calibration import Calibration, Camera, TableGeometry, save_calibration
from referee import Match, MatchState, Table, parse_shot_log

SAMPLES = Path(__file__).parents[3] / "sample_videos"
SAMPLE = SAMPLES / "three_cushion_match.mp4"
TRUTH_LOG = SAMPLES / "three_cushion_match.shots.json"


def write_truth_calibration(path: Path) -> Path:
    """The sample's true camera as a calibration file (what carom calibrate would fit)."""
    truth = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    cam = Camera.from_dict(truth["camera"])
    save_calibration(path, Calibration(TableGeometry(Table()), cam, "2026-11-29"))
    return path


def truth_state() -> MatchState:
    """The match state after the sample's shots, judged from the truth log."""
    log = parse_shot_log(json.loads(TRUTH_LOG.read_text(encoding="utf-8")))
    match = Match(log.match)
    for shot in log.shots:
        match.play(shot)
    return match.state


def carom_cmd() -> list[str]:
    """How to run the ``carom`` command of this environment."""
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "carom"]


def live_cmd(calibration: Path, db: Path, board: Path | None, *extra: str) -> list[str]:
    """``carom live`` on the sample with the truth's players."""
    cmd = [*carom_cmd(), "live", "--camera", str(SAMPLE), "--calibration", str(calibration),
           "--players", "A", "B", "--first", "A", "--db", str(db), *extra]  # fmt: skip
    return cmd + (["--scoreboard", str(board)] if board is not None else [])


def run_live(
    cmd: list[str], stdin: str = "", timeout_s: float = 120.0
) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` to the end with ``stdin`` as the keyboard."""
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout_s)
