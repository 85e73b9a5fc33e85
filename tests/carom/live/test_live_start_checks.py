"""``carom live`` checks a given calibration against the camera's picture before play."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from calibration import Calibration, Distortion, load_calibration, save_calibration
from carom.live import MatchStore
from tests.carom.live._helpers import live_cmd, run_live, write_truth_calibration


def test_a_calibration_with_a_wrong_lens_stops_live_before_any_shot(tmp_path: Path) -> None:
    truth = load_calibration(write_truth_calibration(tmp_path / "truth.json"))
    wrong = Calibration(truth.geometry, replace(truth.camera, distortion=Distortion(k1=0.5)),
                        truth.created)  # fmt: skip
    save_calibration(tmp_path / "wrong.json", wrong)
    db = tmp_path / "live.db"
    done = run_live(live_cmd(tmp_path / "wrong.json", db, None, "--pace", "0"))
    assert done.returncode == 2, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("carom: ")]
    assert f"--calibration {tmp_path / 'wrong.json'}: does not fit this video" in line
    assert "Traceback" not in done.stderr
    store = MatchStore(db, create=False)
    try:
        assert all(not store.journal(row.id) for row in store.matches())  # nothing scored
    finally:
        store.close()
