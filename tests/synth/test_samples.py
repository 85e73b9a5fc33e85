"""The bundled samples: within budget, documented, and still what the code makes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
import pytest

from referee import record_json
from synth._make import shot_log
from synth._samples import SAMPLES, sequence
from synth._samples_run import readme as samples_readme

FOLDER = Path(__file__).parents[2] / "sample_videos"


def _files(name: str) -> list[Path]:
    return [FOLDER / f"{name}{suffix}" for suffix in (".mp4", ".json", ".shots.json")]


def test_every_sample_is_there_within_budget_and_in_the_readme() -> None:
    readme = (FOLDER / "README.md").read_text()
    total = 0
    for name in SAMPLES:
        sizes = [p.stat().st_size for p in _files(name)]
        assert sum(sizes) <= 3_000_000, name
        total += sum(sizes)
        assert f"`{name}`" in readme
    assert total <= 20_000_000
    assert readme == samples_readme(FOLDER)  # what carom synth --samples writes, no hand edits


@pytest.mark.parametrize("name", list(SAMPLES))
def test_sample_video_matches_its_truth(name: str) -> None:
    truth = json.loads((FOLDER / f"{name}.json").read_text())
    cap = cv2.VideoCapture(str(FOLDER / f"{name}.mp4"))
    assert cap.get(cv2.CAP_PROP_FRAME_COUNT) == truth["video"]["n_frames"] == len(truth["frames"])
    assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(truth["video"]["fps"])
    ok, frame = cap.read()
    assert ok and frame.shape[:2] == (truth["video"]["height_px"], truth["video"]["width_px"])


def _close(a: Any, b: Any, where: str = "") -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _close(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{where}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        assert math.isclose(a, b, abs_tol=1e-3), f"{where}: {a} != {b}"
    else:
        assert a == b, where


@pytest.mark.parametrize("name", list(SAMPLES))
def test_sample_shot_log_and_verdicts_are_what_the_code_plays(name: str) -> None:
    """The shot log and the truth file's verdicts (every field: reasons, breaks, notes)."""
    played = sequence(SAMPLES[name].sequence)
    committed = json.loads((FOLDER / f"{name}.shots.json").read_text())
    _close(json.loads(json.dumps(shot_log(played))), committed, name)
    verdicts = json.loads((FOLDER / f"{name}.json").read_text())["verdicts"]
    fresh = json.loads(json.dumps([record_json(p.record) for p in played.played]))
    _close(fresh, verdicts, f"{name}.json verdicts")


def test_hard_sample_has_the_players_arm_over_a_ball() -> None:
    truth = json.loads((FOLDER / "hard_three_cushion.json").read_text())
    covered = [
        frame["frame_idx"]
        for frame in truth["frames"]
        for ball in frame["balls"].values()
        if ball and ball["covered"]
    ]
    assert len(covered) >= 10
