"""A video that fails before any shot (no table in view) leaves no shot log in its batch
folder, so the season's statistics do not count it as a match played."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from tests.carom.cli._in_process import carom_in_process
from tests.carom.cli._no_table import floor, write_clip

ROOT = Path(__file__).parents[3]


def test_a_video_with_no_table_is_failed_and_not_a_match_in_the_statistics(
    tmp_path: Path,
) -> None:
    videos = tmp_path / "videos"
    videos.mkdir()
    write_clip(videos / "floor.mp4", floor(), seconds=1.0)
    shutil.copy(ROOT / "examples" / "one_shot.mp4", videos / "one_shot.mp4")
    out = tmp_path / "season"
    done = carom_in_process("batch", str(videos), "--out", str(out), "--workers", "1", "--json")
    assert done.returncode == 5, done.stderr  # a video failed
    doc = json.loads(done.stdout)
    status = {Path(v["source"]).name: v["status"] for v in doc["videos"]}
    assert status == {"floor.mp4": "failed", "one_shot.mp4": "done"}
    assert sorted(p.name for p in (out / "floor").iterdir()) == ["batch-video.json"]
    assert [m["name"] for m in doc["statistics"]["matches"]] == ["one_shot"]
    with (out / "stats-matches.csv").open(newline="") as f:
        assert {row["name"] for row in csv.DictReader(f)} == {"one_shot"}  # a row a player
