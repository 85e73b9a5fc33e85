"""Run ``carom analyze`` on a rendered clip and score it against the clip's truth.

For the accuracy tests and the benches (``bench/vision_accuracy.py``,
``bench/lag_accuracy.py``): :func:`check_clip` scores positions at rest and in
motion, events (recall, precision, time error) and verdicts; :func:`check_lag` takes
the first motion vision calls a lag (:func:`vision.lag_of`), judges it with
:func:`referee.judge_lag` in the truth's match (A plays white, B yellow) and compares
the winner and every player's faults with the truth's ``lag`` entry. The clip and its
truth come from :mod:`synth`; this module is the app side, so synth never imports the
app.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from carom.analyze import AnalyzeOptions, AnalyzeRun, FrameLog, analyze_video
from carom.match import score_document
from referee import Discipline, LagResult, Table, judge_lag, parse_event, record_json
from synth import (
    EventScore,
    PositionScore,
    compare_events,
    compare_positions,
    lag_config,
    truth_events,
)
from vision import lag_of

__all__ = ["ClipCheck", "LagCheck", "check_clip", "check_lag"]


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


@dataclass(frozen=True, slots=True)
class LagCheck:
    """What vision made of one rendered lag.

    ``seen`` is the referee's result of the lag vision found (None: no motion was
    taken for a lag); ``truth`` the truth file's ``lag`` entry.
    """

    name: str
    truth: dict[str, Any]
    seen: LagResult | None
    events: EventScore
    n_motions: int

    @property
    def faults_seen(self) -> dict[str, list[str]]:
        """Each player's faults as judged from vision ({} when no lag was seen)."""
        return {} if self.seen is None else {p: list(f) for p, f in self.seen.faults.items()}

    @property
    def right(self) -> bool:
        """The winner and each player's faults agree with the truth."""
        if self.seen is None:
            return False
        same_faults: bool = self.faults_seen == self.truth["faults"]
        return self.seen.winner == self.truth["winner"] and same_faults


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


def check_lag(video: Path, out: Path, detector: str = "auto") -> LagCheck:
    """Analyse the rendered lag ``video`` (truth beside it, same name ``.json``)."""
    truth = json.loads(video.with_suffix(".json").read_text())
    if "lag" not in truth:
        raise ValueError(f"{video}: its truth has no lag")
    discipline = Discipline(truth["extra"]["discipline"])
    opts = AnalyzeOptions(video=video, out=out, table=_table(truth), discipline=discipline,
                          first_player="A", detector=detector)  # fmt: skip
    run = analyze_video(opts)
    lags = [lag for shot, _ in run.shots if (lag := lag_of(shot)) is not None]
    seen = judge_lag(lags[0], lag_config(discipline, opts.table)) if lags else None
    true_events = [parse_event(e, f"lag.events[{i}]") for i, e in enumerate(truth["lag"]["events"])]
    found = list(lags[0].events) if lags else []
    return LagCheck(video.stem, truth["lag"], seen, compare_events(true_events, found),
                    len(run.shots))  # fmt: skip
