"""``carom analyze`` writes ``shots.csv`` beside ``shots.json``: the same shots, field by field."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.carom.live._helpers import carom_cmd
from tests.carom.report.shot_csv_check import check_against_log

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"
PLAYERS = "Ana,=B<b>&"  # the second name would be a formula in a spreadsheet


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], Path]:
    out = tmp_path_factory.mktemp("analyze")
    cmd = [*carom_cmd(), "analyze", str(SAMPLE), "--out", str(out), "--players", PLAYERS, "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    summary: dict[str, object] = json.loads(done.stdout)
    return summary, out


def test_the_shot_csv_matches_the_shot_log_field_by_field(
    analysed: tuple[dict[str, object], Path],
) -> None:
    _, out = analysed
    doc = json.loads((out / "shots.json").read_text(encoding="utf-8"))
    rows = check_against_log((out / "shots.csv").read_text(encoding="utf-8"), doc, SAMPLE.name)
    # The sample's truth: four shots, three of them points after 3, 4 and 3 cushions.
    assert [r["points"] for r in rows] == ["1", "0", "1", "1"]
    assert [r["cushions_before_second_ball"] for r in rows if r["points"] == "1"] == ["3", "4", "3"]
    assert [r["first_ball"] for r in rows] == ["red", "red", "white", "white"]
    assert rows[1]["second_ball"] == "" and rows[1]["cushions_before_second_ball"] == ""
    assert {r["player"] for r in rows} == {"Ana", "'=B<b>&"}
    assert rows[-1]["player_b"] == "'=B<b>&" and rows[-1]["score_b"] == "2"


def test_the_summary_names_the_shot_csv(analysed: tuple[dict[str, object], Path]) -> None:
    summary, out = analysed
    files = summary["files"]
    assert isinstance(files, dict) and files["shots_csv"] == str(out / "shots.csv")
    # Every file it names was written, the fitted calibration and its overlay too.
    assert {"calibration", "calibration_overlay", "report", "shots"} <= files.keys()
    assert all(Path(str(f)).is_file() for f in files.values()), files
