"""``carom analyze``'s work: a recorded video in; judged shots, a shot log, a report out.

:func:`analyze_video` runs the pipeline (:class:`carom.pipeline.Pipeline`) over one
video: open, calibrate, stream the frames through the analyser, judge every shot
(:func:`judge_shot`) and write ``DIR/shots.json`` after each (atomic replace), so a
video that breaks off half-way still leaves every complete shot on disk; then the
report (:func:`write_html`) with the per-shot CSV ``DIR/shots.csv`` beside it
(:func:`write_shots_csv`, docs/shot-csv.md), the summary (:func:`summary_json`) and, asked for, the
annotated video. ``DIR/trajectories.json`` and ``.csv`` (every ball, every frame of
every shot: :func:`shot_trajectories`, written by :mod:`carom.trajectories`) are
written when the analysis ends, unless ``AnalyzeOptions.trajectories`` is off; a
batch runner that calls :func:`analyze_video` gets them the same way.
"""

from carom.analyze._annotate_pass import FrameLog, annotate_video
from carom.analyze._options import (
    AnalyzeOptions,
    AnalyzeRun,
    Progress,
    calibration_for,
    match_config,
)
from carom.analyze._report import SHOT_CSV_NAME, summary_json, write_html, write_shots_csv
from carom.analyze._run import analyze_video
from carom.analyze._shot_log import judge_shot, shot_trajectories, shots_document

__all__ = [
    "SHOT_CSV_NAME",
    "AnalyzeOptions",
    "AnalyzeRun",
    "FrameLog",
    "Progress",
    "analyze_video",
    "annotate_video",
    "calibration_for",
    "judge_shot",
    "match_config",
    "shot_trajectories",
    "shots_document",
    "summary_json",
    "write_html",
    "write_shots_csv",
]
