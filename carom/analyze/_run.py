"""The ``carom analyze`` loop: open, calibrate, stream the frames, judge, write."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from calibration import Calibration
from carom.analyze._annotate_pass import FrameLog, annotate_video
from carom.analyze._options import AnalyzeOptions, AnalyzeRun, calibration_for, match_config
from carom.analyze._run_notes import RunNote, start_innings_notes
from carom.analyze._shot_log import judge_shot, shot_trajectories, shots_document
from carom.files import make_folder, remove_empty, write_json_atomic
from carom.pipeline import VisionPipeline, check_calibration_fits, table_size_line
from carom.trajectories import CSV_NAME, JSON_NAME, write_trajectories
from referee import CaromError, Match
from vision import (
    AnalyzedShot,
    Analyzer,
    BallTrack,
    Frame,
    FrameSource,
    analyze_frames,
    open_source,
)

__all__ = ["analyze_video"]

_LEARN_FRAME = 30

#: progress(frames done, frames in the video or None, seconds of video done)
Progress = Callable[[int, int | None, float], None]
#: stage(name, frames it will count or None, the video's fps or None): a new stage
#: begins ("calibrating", "analysing", "writing the annotated video"); the progress
#: calls that follow count its frames from 0.
Stage = Callable[[str, int | None, float | None], None]
#: What ``carom analyze`` writes beside ``shots.json``: an earlier run's are removed once
#: this run's calibration is settled (``shots.json`` itself is rewritten as shots end).
_EARLIER_RUN = (JSON_NAME, CSV_NAME, "report.html", "shots.csv", "annotated.mp4")


def analyze_video(
    opts: AnalyzeOptions,
    progress: Progress | None = None,
    frame_log: FrameLog | None = None,
    say: Callable[[str], None] | None = None,
    stage: Stage | None = None,
) -> AnalyzeRun:
    """Analyse ``opts.video``; every complete shot is judged and written as it ends.

    Errors after the video opened (a truncated file, a rule the referee refuses) are
    kept in ``run.error`` with everything analysed before them. ``frame_log`` collects
    every frame's tracked positions (the annotated video and accuracy checks use it).
    A doubtful calibration goes on: its line is a note and ``say`` hears it at once; a
    failed one raises :class:`calibration.CalibrationFailed` before any shot, and a
    video that cannot be read raises too: either leaves ``opts.out`` as it was (no shot
    log; a folder made for the run is removed again). The trajectories
    (``opts.trajectories``) are written once, when the analysis ends or stops early; old
    ones in ``opts.out`` are removed once the calibration is settled, so they never
    describe another run's shots. ``stage`` hears each stage begin (:data:`Stage`); with
    ``--annotate`` the second pass counts the annotated frames, its seconds of video
    from the video's frame rate.
    """
    begin = stage or (lambda _name, _total, _fps: None)
    made = make_folder(opts.out, "--out", "the results")
    run = AnalyzeRun(options=opts, match=Match(match_config(opts)))
    log = frame_log if frame_log is not None else (FrameLog() if opts.annotate else None)
    source = _open(opts, made)
    fps = source.fps
    try:
        frames = iter(source)
        warmup, learn, frame_30 = _first_second(frames, opts)
        total = getattr(source, "n_frames_expected", 0) or None  # None: unknown (a camera)
        begin("calibrating", None, None)
        run.calibration = _calibration(run, (learn, frame_30), source.size_px, say)
        _check_table_size(run, run.calibration, warmup, say)
        pipeline = VisionPipeline.for_match(run.match.state.config, opts.detector)
        analyzer = _analyzer(run, run.calibration, pipeline, (learn, source.fps), say)
        begin("analysing", total, fps)

        def on_frame(frame: Frame, a: Analyzer) -> None:
            run.frames, run.seconds = frame.frame_idx + 1, frame.t_s
            if log is not None and a.last_step is not None:
                log.add(a.last_step)
            if progress is not None:
                progress(run.frames, total, frame.t_s)

        shots = analyze_frames(itertools.chain(warmup, frames), analyzer, on_frame)
        _judge_all(run, shots, warmup[0].t_s, fps)
    except CaromError as exc:
        if run.calibration is None:
            remove_empty(made)
            raise
        run.error = exc
    finally:
        source.close()
        _write_logs(run)
    if opts.annotate and log is not None:
        begin("writing the annotated video", run.frames, fps)
        _annotate(run, log, progress, fps)
    return run


def _open(opts: AnalyzeOptions, made: list[Path]) -> FrameSource:
    """The video's frame source; one that cannot be opened removes the folders made."""
    try:
        return open_source(str(opts.video), deblock=not opts.fast_decode, beside_work=True)
    except CaromError:
        remove_empty(made)
        raise


def _write_logs(run: AnalyzeRun) -> None:
    """The shot log and the trajectories, once a calibration let anything be refereed.

    First the notes of a start score without innings and of a ball at rest inside a
    cushion (:func:`_note_balls_inside_cushions`).
    """
    if run.calibration is None:
        return
    for note in start_innings_notes(run.match.state.config):
        run.note(note)
    _note_balls_inside_cushions(run)
    write_json_atomic(run.options.out / "shots.json", shots_document(run))
    if run.options.trajectories:
        write_trajectories(run.options.out, shot_trajectories(run))


def _first_second(frames: Iterator[Frame], opts: AnalyzeOptions) -> tuple[list[Frame], Frame, Any]:
    """The frames up to the one the table is learned from, that frame, frame 30's pixels.

    Frame 30's pixels are None when they are not the calibration's to reuse.
    """
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
    return warmup, learn, frame_30


def _calibration(
    run: AnalyzeRun,
    frames: tuple[Frame, Any],
    size_px: tuple[int, int],
    say: Callable[[str], None] | None,
) -> Calibration:
    """The calibration: ``--calibration`` checked against frame ``frames[0]``, or a fit.

    Once it is settled, an earlier run's files in the folder are removed (its
    trajectories, report, shot CSV and annotated video): an interrupted run leaves its
    own shot log of the shots complete so far, never another run's report beside it.

    ``frames[1]``: frame 30's pixels for the fit when decoded as it would be (or None).
    """
    opts, note = run.options, _noter(run, say)
    calib = calibration_for(opts, size_px, frames[1], note)
    if opts.calibration is not None:
        check_calibration_fits(
            calib, frames[0].image_bgr, opts.calibration, note, source=str(opts.video)
        )
    for name in _EARLIER_RUN:  # never beside this run's shots, even if it is interrupted
        (opts.out / name).unlink(missing_ok=True)
    return calib


def _check_table_size(
    run: AnalyzeRun, calib: Calibration, warmup: list[Frame], say: Callable[[str], None] | None
) -> None:
    """A note when the balls of the first second say the table is not ``calib``'s size.

    Read in the frame the table is learned from and every tenth before it (not the
    first: often smeared by the encoder).
    """
    images = [frame.image_bgr for frame in warmup[-1:0:-10]]
    given = run.options.calibration
    flag = (
        "--table, or the match file's table"
        if given is None
        else f"--table, and calibrate {given} again with it"
    )
    if (line := table_size_line(calib, images, flag)) is not None:
        _noter(run, say)(line)


def _analyzer(
    run: AnalyzeRun,
    calib: Calibration,
    pipeline: VisionPipeline,
    learn: tuple[Frame, float],
    say: Callable[[str], None] | None,
) -> Analyzer:
    """The analyser: colours from frame ``learn[0]`` at ``learn[1]`` fps.

    ``say`` hears where its network runs (the CPU or a GPU).
    """
    analyzer = pipeline.build(calib, learn[0], learn[0], learn[1], run.notes.append)
    if say is not None and (device := pipeline.device_line()) is not None:
        say(device)
    return analyzer


def _noter(run: AnalyzeRun, say: Callable[[str], None] | None) -> Callable[[str], None]:
    """A note for the report and the summary that ``say`` (if any) hears at once."""

    def note(text: str) -> None:
        run.notes.append(text)
        if say is not None:
            say(text)

    return note


def _annotate(run: AnalyzeRun, log: FrameLog, progress: Progress | None, fps: float) -> None:
    def step(done: int) -> None:
        if progress is not None:
            progress(done, run.frames, done / fps if fps > 0 else 0.0)

    try:
        annotate_video(run, log, run.options.out / "annotated.mp4", step)
    except CaromError as exc:
        run.notes.append(f"annotated video incomplete: {exc}")


def _judge_all(
    run: AnalyzeRun, shots: Iterable[AnalyzedShot], first_t_s: float, fps: float
) -> None:
    """Judge each shot as it ends; one already rolling in the first frame is only noted."""
    for shot in shots:
        if _began_unseen(shot, first_t_s, fps):
            run.note(RunNote.of("began_unseen", t_s=f"{shot.shot.start_s:.1f}"))
            continue
        _take(run, shot)


def _began_unseen(shot: AnalyzedShot, first_t_s: float, fps: float) -> bool:
    """True if ``shot``'s balls were already moving in the video's first frame.

    Its stroke was played before the video began: who played it and what it hit
    first were never seen, so it is not judged (as ``carom live`` does not score
    motion that began before its frames; docs/break-lag-turn.md). A fast ball dates
    its start to the first frame; a slow one (dying out) to a frame or more later, so a
    ball whose track from the first frame already moves ``_ROLLING_MM`` in the first
    twentieth of a second and on in the tenth counts too. A stroke struck within that
    first twentieth of a second cannot be told from it.
    """
    start_s = shot.shot.start_s
    if start_s is None or start_s > first_t_s + _ROLLING_WINDOW_S:
        return False
    if start_s <= first_t_s + 0.5 / max(fps, 1.0):
        return True
    return any(_rolling_from(track, first_t_s) for track in shot.tracks.values())


#: A ball is rolling at the first frame when it moved this far (mm) from its first
#: position within the first half of ``_ROLLING_WINDOW_S``, and twice as far within it.
_ROLLING_MM = 1.5
_ROLLING_WINDOW_S = 0.1


def _rolling_from(track: BallTrack, first_t_s: float) -> bool:
    """True if ``track`` starts at the first frame with the ball already on its way."""
    t_s, xy_mm = np.asarray(track.t_s), np.asarray(track.xy_mm)
    if len(t_s) < 3 or t_s[0] > first_t_s + 1e-6 or not np.isfinite(xy_mm[0]).all():
        return False

    def moved_mm(within_s: float) -> float:
        k = int(np.searchsorted(t_s, first_t_s + within_s, side="right")) - 1
        return float(np.hypot(*(xy_mm[k] - xy_mm[0])))

    half = moved_mm(_ROLLING_WINDOW_S / 2)
    return half > _ROLLING_MM and moved_mm(_ROLLING_WINDOW_S) > max(2.0 * _ROLLING_MM, half)


def _take(run: AnalyzeRun, shot: AnalyzedShot) -> None:
    try:
        record = judge_shot(run, shot)
    except CaromError as exc:
        run.notes.append(f"shot at {shot.shot.start_s:.2f} s not judged: {exc}")
        record = None
    run.shots.append((shot, record))
    write_json_atomic(run.options.out / "shots.json", shots_document(run))


#: A ball at rest whose centre lies this much nearer a cushion than its radius cannot be
#: there (resting positions are measured within 5 mm): the calibration is off there.
_INSIDE_MM = 10.0


def _note_balls_inside_cushions(run: AnalyzeRun) -> None:
    """One note when a ball came to rest where it cannot be: inside a cushion.

    A fit from four marked corners put a resting red 11 mm from the cushion, closer than
    its own radius, and the analysis said nothing (the positions and cushion contacts
    through such a calibration may be off by centimetres).
    """
    if run.calibration is None or run.calibration.geometry.pockets:
        return  # a pocket table's jaws: balls sink there
    geo = run.calibration.geometry
    worst: tuple[float, str, float] | None = None
    for analyzed, _ in run.shots:
        for ball, (x, y) in analyzed.shot.end_positions_mm.items():
            gap = min(x, geo.length_mm - x, y, geo.width_mm - y)
            if gap < geo.radius_mm - _INSIDE_MM and (worst is None or gap < worst[0]):
                worst = (gap, str(ball), analyzed.shot.end_s or 0.0)
    if worst is not None:
        gap, name, t_s = worst
        run.notes.append(
            f"the {name} ball came to rest {gap:.0f} mm from a cushion at {t_s:.1f} s, closer "
            f"than its radius ({geo.radius_mm:g} mm): the calibration is off there; check its "
            "overlay, or calibrate again"
        )
