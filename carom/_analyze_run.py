"""The ``carom analyze`` loop: open, calibrate, stream the frames, judge, write."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import cv2

from calibration import Calibration
from carom._analyze import (
    AnalyzeOptions,
    AnalyzeRun,
    balls_for,
    calibration_for,
    judge_shot,
    match_config,
    shots_document,
    write_json_atomic,
)
from carom._annotate_pass import FrameLog, annotate_video
from referee import CaromError, Discipline, Match
from vision import (
    AnalyzedShot,
    Analyzer,
    AnalyzerSettings,
    Frame,
    Tracker,
    analyze_frames,
    make_detector,
    make_pin_check,
    open_source,
)

__all__ = ["analyze_video", "build_analyzer"]

_LEARN_FRAME = 30

#: progress(frames done, frames in the video or None, seconds of video done)
Progress = Callable[[int, int | None, float], None]


def build_analyzer(
    opts: AnalyzeOptions,
    calib: Calibration,
    first: Frame,
    pin_frame: Frame,
    fps: float,
    settings: AnalyzerSettings | None = None,
    warn: Callable[[str], None] | None = None,
) -> Analyzer:
    """The vision pipeline for ``opts`` and one camera.

    Colours are learned from ``first``, pins from ``pin_frame``; ``settings`` (live
    mode's shorter rest, say) or the defaults. The detector is ``opts.detector``; a
    missing or broken model file falls back to the colour detector and tells ``warn``.
    """
    # The detector calls OpenCV on small windows, thousands of times a second: waking
    # its thread pool costs more than the work, and the pool's threads fight the
    # video decoder's for the cores (measured on the 1080p bench clip: 6.2 ms of
    # main-thread CPU a frame with the default pool, 5.8 ms with one thread and no
    # pool threads busy at all). Process-wide, set here where the pipeline is built.
    cv2.setNumThreads(1)
    balls = balls_for(opts.discipline, opts.match.balls)  # the dotted white if named
    detector = make_detector(opts.detector, calib, first.image_bgr, balls, warn=warn)
    # The 7-pin whites look alike: named by their starting places, then by continuity.
    seven = opts.discipline is Discipline.PIN_CAROM_7
    start = calib.geometry.seven_pins_whites_mm() if seven else None
    tracker = Tracker(calib, balls, fps=fps, start_mm=start)
    pins = calib.geometry.pins_mm(opts.discipline)
    pin_check = (
        make_pin_check(opts.detector, calib, pin_frame.image_bgr, pins, warn=warn) if pins else None
    )
    return Analyzer(
        calib, detector, tracker, discipline=opts.discipline, pin_check=pin_check,
        settings=settings,
    )  # fmt: skip


def analyze_video(
    opts: AnalyzeOptions, progress: Progress | None = None, frame_log: FrameLog | None = None
) -> AnalyzeRun:
    """Analyse ``opts.video``; every complete shot is judged and written as it ends.

    Errors after the video opened (a truncated file, a rule the referee refuses) are
    kept in ``run.error`` with everything analysed before them. ``frame_log`` collects
    every frame's tracked positions (the annotated video and accuracy checks use it).
    """
    run = AnalyzeRun(options=opts, match=Match(match_config(opts)))
    log = frame_log if frame_log is not None else (FrameLog() if opts.annotate else None)
    source = open_source(str(opts.video), deblock=not opts.fast_decode)
    try:
        frames = iter(source)
        first = next(frames, None)
        if first is None:
            raise CaromError(f"{opts.video}: the video has no frame; check the file")
        # The first frame of a video is often smeared by the encoder (a key frame at a
        # low bitrate): the table and the pins are learned a second in, from a clean one.
        warmup = [first, *itertools.islice(frames, _LEARN_FRAME)]
        learn = warmup[-1]
        # Frame 30 is the calibration's first choice too: no second decode for it
        # (with --fast-decode its pixels differ from a deblocked decode: not reused).
        frame_30 = learn.image_bgr if learn.frame_idx == 30 and not opts.fast_decode else None
        run.calibration = calibration_for(opts, source.size_px, frame_30)
        analyzer = build_analyzer(
            opts, run.calibration, learn, learn, source.fps, warn=run.notes.append
        )
        total = getattr(source, "n_frames_expected", 0) or None  # None: unknown (a camera)

        def on_frame(frame: Frame, a: Analyzer) -> None:
            run.frames, run.seconds = frame.frame_idx + 1, frame.t_s
            if log is not None and a.last_step is not None:
                log.add(a.last_step)
            if progress is not None:
                progress(run.frames, total, frame.t_s)

        for shot in analyze_frames(itertools.chain(warmup, frames), analyzer, on_frame):
            _take(run, shot)
    except CaromError as exc:
        if run.calibration is None:
            raise
        run.error = exc
    finally:
        source.close()
        write_json_atomic(opts.out / "shots.json", shots_document(run))
    if opts.annotate and log is not None:
        _annotate(run, log, progress)
    return run


def _annotate(run: AnalyzeRun, log: FrameLog, progress: Progress | None) -> None:
    def step(done: int) -> None:
        if progress is not None:
            progress(done, run.frames, 0.0)

    try:
        annotate_video(run, log, run.options.out / "annotated.mp4", step)
    except CaromError as exc:
        run.notes.append(f"annotated video incomplete: {exc}")


def _take(run: AnalyzeRun, shot: AnalyzedShot) -> None:
    try:
        record = judge_shot(run, shot)
    except CaromError as exc:
        run.notes.append(f"shot at {shot.shot.start_s:.2f} s not judged: {exc}")
        record = None
    run.shots.append((shot, record))
    write_json_atomic(run.options.out / "shots.json", shots_document(run))
