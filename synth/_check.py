"""Run ``carom analyze`` on a rendered clip and score it against the clip's truth.

One function for the accuracy tests and ``bench/vision_accuracy.py``: positions at
rest and in motion, events (recall, precision, time error) and verdicts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from carom._analyze import AnalyzeOptions, AnalyzeRun
from carom._analyze_run import analyze_video
from carom._annotate_pass import FrameLog
from carom._score import score_document
from referee import Discipline, Table, record_json
from synth._evaluate import (
    EventScore,
    PositionScore,
    compare_events,
    compare_positions,
    truth_events,
)

__all__ = ["ClipCheck", "check_clip"]


@dataclass(frozen=True, slots=True)
class ClipCheck:
    """How ``carom analyze`` did on one clip."""

    name: str
    run: AnalyzeRun
    positions: PositionScore
    events: EventScore
    verdicts_total: int
    verdicts_agree: int
    verdict_diffs: tuple[str, ...]


def _table(truth: dict[str, Any]) -> Table:
    t = truth["table"]
    return Table(length_mm=t["length_mm"], width_mm=t["width_mm"],
                 ball_diameter_mm=2 * t["ball_radius_mm"])  # fmt: skip


def _tracked(log: FrameLog) -> dict[int, dict[str, tuple[float, float]]]:
    out: dict[int, dict[str, tuple[float, float]]] = {}
    for f, xy, seen in zip(log.frame_idx, log.xy_mm, log.seen, strict=True):
        out[f] = {
            str(b): (float(xy[j, 0]), float(xy[j, 1]))
            for j, b in enumerate(log.balls)
            if seen[j] and np.isfinite(xy[j, 0])
        }
    return out


def _verdict_key(v: dict[str, Any]) -> tuple[Any, ...]:
    return (v["points"], v.get("opponent_points", 0), v.get("penalty", 0), tuple(v["fouls"]))


def _truth_verdicts(video: Path, truth: dict[str, Any]) -> list[dict[str, Any]]:
    """The verdicts of the truth's own shot log, judged as ``carom analyze`` judges.

    The same match set-up as :func:`check_clip` gives analyze (A first, the turn
    following the cue ball), so like is compared with like.
    """
    log = video.with_name(video.stem + ".shots.json")
    if not log.exists():
        return list(truth["verdicts"])
    doc = json.loads(log.read_text())
    doc["match"] = {"players": ["A", "B"], "cue_balls": {"A": "white", "B": "yellow"},
                    "first_player": "A", "rules": {"follow_cue_ball": True}}  # fmt: skip
    return [record_json(r) for r in score_document(doc).match.records]


def check_clip(
    video: Path, out: Path, calibration: Path | None = None, detector: str = "auto"
) -> ClipCheck:
    """Analyse ``video`` (truth beside it: same name, ``.json``) and score the result.

    ``detector``: ``color``, ``onnx`` or ``auto`` (the ``carom analyze`` default).
    """
    truth = json.loads(video.with_suffix(".json").read_text())
    named = truth["extra"].get("discipline") or truth["table"].get("discipline")
    discipline = Discipline(named or Discipline.THREE_CUSHION)  # a recorded real shot: 3C
    opts = AnalyzeOptions(video=video, out=out, table=_table(truth), discipline=discipline,
                          calibration=calibration, first_player="A",
                          detector=detector)  # fmt: skip
    log = FrameLog()
    run = analyze_video(opts, frame_log=log)
    found = [e for shot, _ in run.shots for e in shot.shot.events]
    events = compare_events(truth_events(truth), found)
    mine = [_verdict_key(record_json(r))
            for _, r in run.shots if r is not None]  # fmt: skip
    theirs = [_verdict_key(v) for v in _truth_verdicts(video, truth)]
    agree = sum(a == b for a, b in zip(mine, theirs, strict=False))
    pairs = enumerate(zip(mine, theirs, strict=False))
    diffs = tuple(f"shot {i}: analyze {a} truth {b}" for i, (a, b) in pairs if a != b)
    if len(mine) != len(theirs):
        diffs += (f"{len(mine)} shots judged, truth has {len(theirs)}",)
    return ClipCheck(video.stem, run, compare_positions(truth, _tracked(log)), events,
                     len(theirs), agree, diffs)  # fmt: skip
