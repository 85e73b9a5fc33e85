"""The calibration ``carom live`` and ``carom serve`` saved for a camera, damaged: one
line that says to delete it (the next start fits a new one), not only "run carom
calibrate", which writes where the next start does not look."""

from __future__ import annotations

from pathlib import Path

import pytest

from carom.pipeline import camera_calibration_path
from tests.carom.cli._in_process import carom_in_process

CLIP = Path(__file__).parents[3] / "examples" / "one_shot.mp4"


@pytest.mark.parametrize("command", ["live", "serve"])
def test_a_damaged_saved_calibration_says_to_delete_it(tmp_path: Path, command: str) -> None:
    db = tmp_path / "live.db"
    saved = camera_calibration_path(db, str(CLIP))
    saved.parent.mkdir(parents=True)
    saved.write_text('{"format": "carom-calibration/1", ', encoding="utf-8")
    more = ["--players", "A,B", "--pace", "0"] if command == "live" else ["--port", "0"]
    done = carom_in_process(command, "--camera", str(CLIP), "--db", str(db), *more)
    assert done.returncode == 2, done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith(f"carom: calibration file {saved}: not valid JSON"), last
    assert last.endswith(f"(it is the calibration saved for {CLIP}: delete it and the next "
                         "start fits a new one, or pass --calibration FILE)")  # fmt: skip
    assert saved.read_text(encoding="utf-8").endswith(", ")  # left as it was
