"""``carom analyze --annotate``: a second pass over the video, drawing what was found.

The first pass logs every frame's tracked positions (a few numbers per frame, so a
long video costs a few megabytes); once every shot is known, the second pass decodes
the video again and draws the balls, trails, each event at its own time and the
running score. Two passes because an event is known only when its shot has ended.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from carom.analyze._options import AnalyzeRun
from carom.analyze._run_notes import RunNote
from carom.report import AnnotatedWriter, BallPx, VideoWords, pick_glyphs
from referee import Ball, new_match
from vision import ScoredEvent, TrackStep, open_source

__all__ = ["BITRATE_FACTOR", "FrameLog", "annotate_video", "source_bitrate", "target_bitrate"]


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


#: The annotated copy's bit rate over its source's: the rings, trails and labels add
#: detail the encoder must keep (docs/vision.md, "The annotated video").
BITRATE_FACTOR = 1.2
_MIN_BPS, _MAX_BPS = 100_000, 50_000_000


def _board(players: Sequence[str], board: Mapping[str, int]) -> str:
    """``Ana 3 : 1 Ben`` for two players; ``A 3  B 1  C 0`` for more."""
    if len(players) == 2:
        a, b = players
        return f"{a} {board.get(a, 0)} : {board.get(b, 0)} {b}"
    return "  ".join(f"{p} {board.get(p, 0)}" for p in players)


def _score_lines(run: AnalyzeRun) -> list[tuple[float, str]]:
    """(from when, score text), in order: the start score at 0 s, then each judged shot's."""
    config = run.match.state.config
    start = new_match(config)
    out = [(0.0, _board(config.players, {p: start.board(p) for p in config.players}))]
    for analyzed, record in run.shots:
        if record is not None:
            out.append((analyzed.shot.end_s or 0.0, _board(config.players, record.score_after)))
    return out


def source_bitrate(video: Path, n_frames: int, fps: float) -> int | None:
    """The source's mean bit rate, bit/s: its size over its duration (None: unknown)."""
    try:
        size = video.stat().st_size
    except OSError:
        return None
    if n_frames <= 0 or fps <= 0 or size <= 0:
        return None
    return round(size * 8 / (n_frames / fps))


def target_bitrate(video: Path, n_frames: int, fps: float) -> int | None:
    """The annotated copy's bit rate, bit/s: the source's times :data:`BITRATE_FACTOR`.

    Kept within 0.1..50 Mbit/s; None (the writer's default) when the source's is unknown.
    """
    rate = source_bitrate(video, n_frames, fps)
    if rate is None:
        return None
    return min(_MAX_BPS, max(_MIN_BPS, round(rate * BITRATE_FACTOR)))


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
    total = getattr(source, "n_frames_expected", 0) or 0
    rate = target_bitrate(run.options.video, total, source.fps)
    k_event = k_score = 0
    words = VideoWords(run.options.lang)
    glyphs, missing = pick_glyphs([*(text for _, text in scores), *words.texts()])
    if missing:
        run.note(RunNote.of("font_missing", letters=missing[:12]))
    with AnnotatedWriter(path, source.size_px, source.fps, calib, bitrate_bps=rate,
                         words=words, glyphs=glyphs) as writer:  # fmt: skip
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
