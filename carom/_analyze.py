"""``carom analyze``: a recorded video in, the judged shots, a report and a scoresheet out.

Composition root of the offline pipeline: frame source -> detector -> tracker ->
shots (vision) -> the referee's match. Every judged shot is written to
``DIR/shots.json`` at once (atomic replace), so a video that breaks off half-way
still leaves every complete shot on disk.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from calibration import Calibration, CalibrationError, load_calibration
from carom._match_file import MatchFile
from carom._score import ScoreRun
from referee import (
    FORMAT,
    Ball,
    CaromError,
    Discipline,
    LagResult,
    Match,
    MatchConfig,
    Phase,
    RuleOptions,
    ShotRecord,
    StartState,
    Table,
    event_json,
    record_json,
    shot_json,
    start_json,
)
from vision import AnalyzedShot, lag_of, open_source

__all__ = ["AnalyzeOptions", "AnalyzeRun", "match_config"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AnalyzeOptions:
    """What ``carom analyze`` was asked to do."""

    video: Path
    out: Path
    table: Table
    discipline: Discipline = Discipline.THREE_CUSHION
    calibration: Path | None = None
    players: tuple[str, ...] = ("A", "B")
    first_player: str | None = None
    target: int | None = None
    annotate: bool = False
    fast_decode: bool = False
    #: ``color`` (colour rules), ``onnx`` (the learned model alone) or ``auto`` (the
    #: model only where the colour detector is unsure); see docs/detector.md.
    detector: str = "auto"
    #: The rest of the set-up (cue balls, handicaps, sets, rule options, the start of a
    #: match joined in progress ...): the match file and the flags over it. The fields
    #: above win where they differ (``match_config``).
    match: MatchFile = field(default_factory=MatchFile)


@dataclass(slots=True)
class AnalyzeRun:
    """Everything analysed so far; survives an error half-way."""

    options: AnalyzeOptions
    match: Match
    calibration: Calibration | None = None
    lag: LagResult | None = None
    shots: list[tuple[AnalyzedShot, ShotRecord | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: CaromError | None = None
    frames: int = 0
    seconds: float = 0.0

    def score_run(self) -> ScoreRun:
        """The scoring view (for the scoresheet)."""
        return ScoreRun(self.match, self.lag, self.error)


def match_config(opts: AnalyzeOptions) -> MatchConfig:
    """The referee's set-up: ``opts.match`` under ``opts``' other fields.

    The discipline, table, players, first player and target of ``opts`` win. A
    camera names the shooter: ``follow_cue_ball`` is on unless the match file sets it
    (docs/rules-options.md).
    """
    match = opts.match
    if match.players != opts.players:
        match = match.renamed(opts.players)
    first = opts.first_player if opts.first_player is not None else match.first_player
    target = dict.fromkeys(opts.players, opts.target) if opts.target else match.target
    match = replace(match, discipline=opts.discipline, table=opts.table, first_player=first,
                    target=target)  # fmt: skip
    return match.config(camera=True)


def calibration_for(
    opts: AnalyzeOptions, size_px: tuple[int, int], frame_30: Any | None = None
) -> Calibration:
    """Load ``--calibration`` (checked against the video size) or fit one from the video.

    The fit tries a few frames a second or more apart (the first frame of a clip is
    often smeared by the encoder, a player may stand in front of a cushion) and keeps
    the first with a "good" report, else the one with the smallest error.
    ``frame_30`` (BGR, h x w x 3): frame 30, when the caller has already decoded it
    (the video is then opened a second time only if that frame is not good).
    """
    if opts.calibration is not None:
        return load_calibration(opts.calibration, expect_size_px=size_px)
    from calibration import calibrate_frame, save_result

    best, error = None, None
    for frame in _calibration_frames(opts.video, frame_30):
        try:
            result = calibrate_frame(frame, opts.table, discipline=opts.discipline)
        except CaromError as exc:
            error = exc
            continue
        if best is None or result.report.overall.rms_mm < best.report.overall.rms_mm:
            best = result
        if result.report.verdict == "good":
            break
    if best is None:
        raise CalibrationError(
            f"{opts.video}: {error}; calibrate by hand (carom calibrate VIDEO --corners ...) "
            "and pass --calibration FILE"
        )
    opts.out.mkdir(parents=True, exist_ok=True)
    save_result(best, opts.out / "calibration.json", opts.out / "calibration_overlay.png")
    return best.calibration


def _calibration_frames(video: Path, frame_30: Any | None = None) -> Iterator[Any]:
    """Frames 30, 60, 120, 240 and 0 of ``video`` (those it has), decoded once.

    With ``frame_30`` given, that one comes first and the video is opened only if
    the caller asks for more.
    """
    wanted: tuple[int, ...] = (30, 60, 120, 240)
    if frame_30 is not None:
        yield frame_30
        wanted = wanted[1:]
    source = open_source(str(video))
    first = None
    try:
        for frame in source:
            first = frame.image_bgr if first is None else first
            if frame.frame_idx in wanted:
                yield frame.image_bgr
            if frame.frame_idx >= wanted[-1]:
                break
    finally:
        source.close()
    if first is not None:
        yield first


def judge_shot(run: AnalyzeRun, analyzed: AnalyzedShot) -> ShotRecord | None:
    """Feed one analysed shot to the match.

    A lag seen before the first stroke decides who breaks. Without one the match is
    joined in progress (the first stroke's cue ball names the player at the table,
    its layout says whether it is a break): nothing is assumed.
    """
    state = run.match.state
    lag = lag_of(analyzed)
    if lag is not None and not run.match.records:
        if state.phase is Phase.LAG:
            run.lag = run.match.lag(lag)
            return None
        run.notes.append(f"a lag was seen, but {state.shooter} was set to break: lag not judged")
        return None
    if state.phase is Phase.LAG:
        run.match.join(StartState())
        run.notes.append(
            "no lag seen: the match is joined in progress (the first stroke's cue ball names "
            "the player at the table; the balls' layout says whether it is a break)"
        )
    if run.match.state.phase is Phase.OVER:
        run.notes.append(f"shot {analyzed.shot.index}: played after the match ended; not judged")
        return None
    record = run.match.play(_renumbered(analyzed, len(run.match.records)))
    if record.index == 0 and "following the video" in record.note:
        said = record.note.split(": following the video")[0]
        run.notes.append(f"--first contradicts the video ({said}): following the video; "
                         f"use --first {record.player}")  # fmt: skip
    return record


def _renumbered(analyzed: AnalyzedShot, index: int) -> Any:
    from dataclasses import replace

    return replace(analyzed.shot, index=index)


def shots_document(run: AnalyzeRun) -> dict[str, Any]:
    """The ``carom-shots/1`` log of what was analysed, verdicts attached."""
    cfg = run.match.state.config
    shots = []
    for analyzed, record in run.shots:
        if record is None:
            continue
        doc = shot_json(_renumbered(analyzed, record.index))
        confidence = {id(s.event): s for s in analyzed.scored}
        for event_doc, event in zip(doc["events"], analyzed.shot.events, strict=True):
            if (s := confidence.get(id(event))) is not None:
                event_doc["confidence"] = round(s.confidence, 3)
                if s.evidence:
                    event_doc["evidence"] = s.evidence
        doc["verdict"] = record_json(record)
        shots.append(doc)
    out: dict[str, Any] = {
        "format": FORMAT,
        "table": {"length_mm": cfg.table.length_mm, "width_mm": cfg.table.width_mm,
                  "ball_diameter_mm": cfg.table.ball_diameter_mm},
        "discipline": str(cfg.discipline),
        "match": _match_doc(run),
        "shots": shots,
    }  # fmt: skip
    if (lag := _lag_doc(run)) is not None:
        out["lag"] = lag
    return out


def _match_doc(run: AnalyzeRun) -> dict[str, Any]:
    """The log's ``match``: set-up, the rule options that differ, how the record began.

    ``carom score`` on the log then replays the very same match: the lag (its
    events), or the join of a match in progress (``start``).
    """
    cfg = run.match.state.config
    doc: dict[str, Any] = {"players": list(cfg.players), "first_player": cfg.first_player}
    if cfg.cue_balls:
        doc["cue_balls"] = {p: str(b) for p, b in cfg.cue_balls.items()}
    elif cfg.rotates and cfg.rotation_balls != (Ball.WHITE, Ball.YELLOW):
        doc["cue_balls"] = [str(b) for b in cfg.rotation_balls]  # the whites that rotate
    if len(set(cfg.target.values())) == 1:
        doc["target"] = next(iter(cfg.target.values()))
    else:
        doc["target"] = dict(cfg.target)
    defaults = RuleOptions().as_dict()
    rules = {k: v for k, v in cfg.options.as_dict().items() if defaults[k] != v}
    if rules:
        doc["rules"] = rules
    start = cfg.start if cfg.start is not None else (StartState() if _joined(run) else None)
    if start is not None:
        doc["start"] = start_json(start)
    return doc


def _joined(run: AnalyzeRun) -> bool:
    """The match was joined in progress because no lag was seen."""
    return run.lag is None and run.match.state.config.first_player is None


def _lag_doc(run: AnalyzeRun) -> dict[str, Any] | None:
    lags = [a.shot for a, r in run.shots if a.lag and r is None]
    if run.lag is None or not lags:
        return None
    lag = lags[-1]  # the one that decided (an undecided lag is played again)
    return {
        "events": [event_json(e) for e in lag.events],
        "start_positions_mm": {str(b): list(xy) for b, xy in lag.start_positions_mm.items()},
        "end_positions_mm": {str(b): list(xy) for b, xy in lag.end_positions_mm.items()},
    }


def write_json_atomic(path: Path, doc: Any) -> None:
    """Write JSON so that a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def now_iso() -> str:
    """The current UTC time (the app layer reads the clock, the core never does)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


Progress = Callable[[int, int | None, float], None]
