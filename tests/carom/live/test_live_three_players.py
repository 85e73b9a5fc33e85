"""``carom live`` with three players end to end: the sample replayed through the CLI.

``--players Ana,Ben,Cleo --first Ana`` on the three-cushion sample (``--pace 0``,
lossless) onto a pty board, with keyboard lines for the third player. The whites
rotate: Ana plays the white, misses, and Ben comes in with the yellow (the ball she
did not finish with) and scores twice. The board shows the player at the table and the
next one; the journal holds the keyboard calls; ``carom export --csv`` writes the three.
"""

from __future__ import annotations

import csv
import json
import subprocess
from pathlib import Path

from carom.cli import main
from carom.live import MatchStore, csv_columns
from hardware import ScoreboardEmulator
from tests.carom.live._helpers import SAMPLE, carom_cmd, write_truth_calibration


def test_a_three_player_match_runs_live_from_the_keyboard_to_the_export(tmp_path: Path) -> None:
    calibration = write_truth_calibration(tmp_path / "calibration.json")
    board_path, db = tmp_path / "board", tmp_path / "live.db"
    emu = ScoreboardEmulator.open_pty(link=board_path)
    cmd = [*carom_cmd(), "live", "--camera", str(SAMPLE), "--calibration", str(calibration),
           "--players", "Ana,Ben,Cleo", "--first", "Ana", "--db", str(db), "--pace", "0",
           "--scoreboard", str(board_path)]  # fmt: skip
    try:
        done = subprocess.run(cmd, input="timeout Cleo\ncorrect C +1\n", capture_output=True,
                              text=True, timeout=240)  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        # The result is the last line, after the calls made as they came.
        assert done.stdout.strip().splitlines()[-1] == "Ana 1 : Ben 2 : Cleo 1  (playing)", (
            done.stderr[-2000:]
        )
        # Ben is at the table after his two points; Cleo plays next.
        assert emu.wait_for(lambda e: e.snapshot is not None and e.snapshot.scores == (2, 1), 5)
        assert emu.snapshot is not None and emu.snapshot.players == ("Ben", "Cleo")
    finally:
        emu.stop()

    with MatchStore(db, create=False) as store:
        row = store.matches()[-1]
        entries = store.journal(row.id)
    assert row.players == ("Ana", "Ben", "Cleo")
    calls = [(e.who, e.payload) for e in entries if e.kind == "call"]
    assert calls == [
        ("keyboard", {"call": "timeout", "player": "Cleo"}),
        ("keyboard", {"call": "correct", "correction": {"kind": "points", "player": "Cleo",
                                                         "points": 1, "note": ""}}),
    ]  # fmt: skip
    shooters = [e.result["records"][0]["player"] for e in entries if e.kind == "shot"]
    assert shooters == ["Ana", "Ana", "Ben", "Ben"]

    out_csv, out_json = tmp_path / "results.csv", tmp_path / "log.json"
    assert main(["export", str(db), "--match", str(row.id), "--csv", str(out_csv),
                 "--json", str(out_json)]) == 0  # fmt: skip
    rows = list(csv.DictReader(out_csv.read_text().splitlines()))
    assert len(rows) == 1 and tuple(rows[0]) == csv_columns(3)
    assert [(rows[0][f"player_{s}"], rows[0][f"points_{s}"]) for s in "abc"] == [
        ("Ana", "1"), ("Ben", "2"), ("Cleo", "1"),  # Cleo: the correction
    ]  # fmt: skip
    assert json.loads(out_json.read_text())["match"]["players"] == ["Ana", "Ben", "Cleo"]
