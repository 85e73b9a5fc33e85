"""``carom analyze --annotate``: a second pass over the video, drawing what was found.

The first pass logs every frame's tracked positions (a few numbers per frame, so a
long video costs a few megabytes); once every shot is known, the second pass decodes
the video again and draws the balls, trails, each event at its own time and the
running score. Two passes because an event is known only when its shot has ended.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from carom.analyze._options import AnalyzeRun
from carom.report import AnnotatedWriter, BallPx
from referee import Ball
from vision import ScoredEvent, TrackStep, open_source

__all__ = ["FrameLog", "annotate_video"]


class FrameLog:
    """Per frame: the tracked centres (k, 2) table mm and whether each was seen."""

    def __init__(self) -> None:
        self.frame_idx: list[int] = []
        self.xy_mm: list[NDArray[np.float32]] = []
        self.seen: list[NDArray[np.bool_]] = []
        self.balls: tuple[Ball, ...] = ()

    def add(self, step: TrackStep) -> None:
        """Log one tracker step."""
        self.balls = step.balls
        self.frame_idx.append(step.frame_idx)
        self.xy_mm.append(step.xy_mm.astype(np.float32))
        self.seen.append(step.seen.copy())


def _score_lines(run: AnalyzeRun) -> list[tuple[float, str]]:
    """(time the shot ended, score text after it), in order."""
    out = []
    for analyzed, record in run.shots:
        if record is not None:
            board = "  ".join(f"{p} {n}" for p, n in record.score_after.items())
            out.append((analyzed.shot.end_s or 0.0, board))
    return out


def annotate_video(
    run: AnalyzeRun, log: FrameLog, path: Path, progress: Callable[[int], None] | None = None
) -> int:
    """Write the annotated MP4; returns the number of frames written."""
    calib = run.calibration
    assert calib is not None
    events: list[ScoredEvent] = sorted(
        (s for shot, _ in run.shots for s in shot.scored), key=lambda s: s.event.t_s
    )
    scores = _score_lines(run)
    row = {f: i for i, f in enumerate(log.frame_idx)}
    radius_mm = calib.geometry.radius_mm
    source = open_source(str(run.options.video))
    k_event = k_score = 0
    with AnnotatedWriter(path, source.size_px, source.fps, calib) as writer:
        for frame in source:
            balls: dict[Ball, BallPx] = {}
            if (i := row.get(frame.frame_idx)) is not None:
                xy = log.xy_mm[i].astype(np.float64)
                ok = np.isfinite(xy[:, 0])
                uv = calib.mm_to_px(np.nan_to_num(xy), radius_mm)
                for j in np.flatnonzero(ok):
                    balls[log.balls[j]] = ((float(uv[j, 0]), float(uv[j, 1])), bool(log.seen[i][j]))
            start = k_event
            while k_event < len(events) and events[k_event].event.t_s <= frame.t_s:
                k_event += 1
            while k_score < len(scores) and scores[k_score][0] <= frame.t_s:
                k_score += 1
            text = scores[k_score - 1][1] if k_score else ""
            writer.write(frame, balls, events[start:k_event], text)
            if progress is not None:
                progress(frame.frame_idx + 1)
        written = writer.frames_written
    source.close()
    return written
