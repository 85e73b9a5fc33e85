"""The pipeline's calibration step when no calibration file is given: fit one from frames.

Theory of operation. One pass over the source gives two kinds of picture:

1. **The empty table** (:class:`calibration.EmptyTableBuilder`): a frame every 0.25 s
   from 0.5 s on (the first key frame of a clip is often smeared), until 8 s of clear
   frames or 16 s of video, and their per-pixel median where nothing moves: balls,
   cues and players that move do not hide the rails. A video's pass decodes only
   some frames (a sparse read, ``vision.open_source``): when its key frames come at
   most ``KEY_GAP_MAX_S`` apart (the median gap over those 16 s, read from the
   packets: ``vision.key_frame_times_s``), the key frames alone, one taken every gap
   (0.25 to 0.5 s); else the frames other frames refer to, one every 0.25 s. On the
   1080p60 bench clip (a key frame every 0.32 s) the pass took 0.99 s before (every
   frame up to frame 240, then the frames others refer to) and 0.44 s with its key
   frames, the median 0.35 s and 0.29 s. A camera is watched until the view is
   clear (``say`` hears "waiting for a clear view of the table: 3 of 8 s"), at most
   ``CAMERA_WAIT_S``.
2. **Single frames** 30, 60, 120, 240 and 0 of a video (the newest frame of a
   camera), decoded only if the median gave no ``good`` fit (a second read of the
   first 4 s).

The median is fitted first; a ``good`` fit is kept. Else the single frames in turn, the
first ``good`` kept; else the most confident fit (``doubtful`` before ``failed``).
``good``: saved. ``doubtful``: saved, and ``say`` hears one line with the overlay's path.
``failed``, or no frame with a table: :class:`calibration.CalibrationFailed` whose one
line gives the exact commands to mark the corners instead (:func:`how_to_mark`); a failed
fit's overlay is written as ``calibration_failed_overlay.png``, no calibration file.
"""

from __future__ import annotations

import itertools
import math
import re
import shlex
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2

from calibration import (
    Calibration,
    CalibrationError,
    CalibrationFailed,
    CalibrationResult,
    EmptyTableBuilder,
    Outcome,
    calibrate_frame,
    save_result,
)
from carom.pipeline._calibration_check import WIZARD_URL
from hardware import is_camera_spec
from referee import CaromError, Discipline, Table
from vision import IMAGE_SUFFIXES, VideoError, image_sequence, key_frame_times_s, open_source

__all__ = [
    "CAMERA_WAIT_S",
    "KEY_GAP_MAX_S",
    "WIZARD_URL",
    "best_calibration",
    "camera_calibration_path",
    "doubtful_line",
    "failed_line",
    "fit_calibration",
    "how_to_mark",
    "save_overlay",
]

#: A camera is watched at most this long for a clear view of the table.
CAMERA_WAIT_S = 60.0
_SINGLE_FRAMES = (30, 60, 120, 240)
_SKIP_S = 0.5  # the first key frame of a clip is often smeared by the encoder
_VIDEO_SPAN_S = 16.0  # a video is read at most this far for the empty table
#: A video whose key frames come at most this far apart (median, s) gives the empty
#: table from its key frames alone.
KEY_GAP_MAX_S = 0.5
_RANK = {Outcome.GOOD: 2, Outcome.DOUBTFUL: 1, Outcome.FAILED: 0}

Say = Callable[[str], None]


def fit_calibration(
    source: str,
    table: Table,
    discipline: Discipline,
    out: Path,
    frame_30: Any | None = None,
    *,
    say: Say | None = None,
    name: str = "calibration",
    wizard_db: Path | None = None,
) -> Calibration:
    """Fit the camera to ``table`` from ``source`` (module docstring); save it in ``out``.

    ``out/NAME.json`` and ``out/NAME_overlay.png`` are written for a good or doubtful
    fit (``name`` defaults to ``calibration``), ``out/NAME_failed_overlay.png`` for a
    failed one. ``frame_30`` (BGR, h x w x 3): frame 30, when the caller has already
    decoded it. ``say`` hears the waiting for a camera and a doubtful fit.
    ``wizard_db``: the database of ``carom live``, whose camera calibration this is: a
    failure's way out names the wizard of ``carom serve --db`` that database (it saves
    where the next start finds it), instead of ``--calibration``.

    Raises:
        CalibrationFailed: no fit, or only failed ones (the message says how to mark
            the corners instead).
    """
    try:
        best = best_calibration(source, table, discipline, frame_30, say=say)
    except CalibrationError as exc:
        raise _failed(source, None, exc, None, wizard_db) from None
    out.mkdir(parents=True, exist_ok=True)
    if best.report.verdict is Outcome.FAILED:
        overlay = out / f"{name}_failed_overlay.png"
        save_overlay(best, overlay)
        raise _failed(source, best, None, overlay, wizard_db)
    overlay = out / f"{name}_overlay.png"
    save_result(best, out / f"{name}.json", overlay)
    if best.report.verdict is Outcome.DOUBTFUL and say is not None:
        say(doubtful_line(best, overlay))
    return best.calibration


def best_calibration(
    source: str,
    table: Table,
    discipline: Discipline | None = None,
    frame_30: Any | None = None,
    *,
    say: Say | None = None,
) -> CalibrationResult:
    """The best fit to ``table`` from ``source``'s frames (module docstring), any verdict.

    Raises:
        CalibrationError: no frame gave a fit (the first frame's reason: no table
            found, no camera fits ...).
    """
    tell = say or (lambda _text: None)
    best: CalibrationResult | None = None
    error: CalibrationError | None = None
    for frame in _calibration_frames(source, frame_30, tell):
        try:
            result = calibrate_frame(frame, table, discipline=discipline)
        except CalibrationError as exc:
            error = error or exc
            continue
        if best is None or _better(result, best):
            best = result
        if result.report.verdict is Outcome.GOOD:
            break
    if best is None:
        raise error or CalibrationError(f"{source}: the source gave no frame")
    return best


def camera_calibration_path(db: Path, camera: str) -> Path:
    """Where ``carom live`` and ``carom serve`` keep the calibration of ``camera``.

    Beside the match database ``db``: ``DB-calibration/camera-NAME.json``, NAME the
    camera spec as given (a video file's name alone) with anything but letters,
    digits, ``.``, ``_`` and ``-`` made ``-`` (``0`` -> ``camera-0.json``,
    ``rtsp://cam/1`` -> ``camera-rtsp-cam-1.json``, ``clips/a.mp4`` ->
    ``camera-a.mp4.json``). The wizard saves there; ``carom live --camera SRC`` and
    ``carom serve --camera SRC`` find it there.
    """
    spec = camera if is_camera_spec(camera) else Path(camera).name
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", spec).strip("-.") or "default"
    return db.parent / f"{db.stem}-calibration" / f"camera-{name}.json"


def _better(a: CalibrationResult, b: CalibrationResult) -> bool:
    """True when fit ``a`` beats ``b``: a better verdict, else a higher confidence."""
    ka = (_RANK[a.report.verdict], a.report.confidence, -a.report.overall.rms_mm)
    kb = (_RANK[b.report.verdict], b.report.confidence, -b.report.overall.rms_mm)
    return ka > kb


def doubtful_line(result: CalibrationResult, overlay: Path, *, going_on: bool = True) -> str:
    """The one line a doubtful fit gives: why, the confidence, the overlay to look at.

    ``going_on``: the command goes on with it (analyze, live); ``carom calibrate`` has
    only written it.
    """
    report = result.report
    then = "going on: check" if going_on else "written: check"
    return (
        f"calibration doubtful: {report.advice} (confidence {report.confidence:.2f}); {then} "
        f"that the lines in {overlay} lie on the table's edges"
    )


def how_to_mark(
    source: str, frame_idx: int = 30, out: str = "calibration.json", wizard_db: Path | None = None
) -> str:
    """The commands that calibrate ``source`` from corners a person marks, in one line.

    ``carom calibrate`` with ``--corners`` (a video's frame ``frame_idx``; a picture
    sequence's, or its last when it has fewer), or ``--interactive``; for a video or a
    camera also the browser wizard (``carom serve --camera`` opens no picture sequence;
    ``--db wizard_db`` when given: the wizard saves beside that database).
    """
    src = shlex.quote(source)
    pictures = image_sequence(source)
    still = pictures is None and Path(source).suffix.lower() in IMAGE_SUFFIXES
    if pictures is not None:
        frame = f" --frame {min(frame_idx, len(pictures) - 1)}" if len(pictures) > 1 else ""
    else:
        frame = "" if still or is_camera_spec(source) else f" --frame {frame_idx}"
    text = (
        f"to mark the corners by hand: carom calibrate {src}{frame} --corners "
        f"'u,v;u,v;u,v;u,v' --out {out} (or --interactive instead of --corners)"
    )
    if still or pictures is not None:
        return text
    db = "" if wizard_db is None else f" --db {shlex.quote(str(wizard_db))}"
    return f"{text}, or in the browser: carom serve --camera {src}{db}, then {WIZARD_URL}"


def failed_line(
    source: str,
    best: CalibrationResult | None,
    error: CaromError | None,
    overlay: Path | None,
    frame_idx: int = 30,
    out: str = "calibration.json",
    *,
    then_pass: bool = True,
    wizard_db: Path | None = None,
) -> str:
    """The one line a failed calibration gives: why, and how to mark the corners.

    ``best``: the failed fit (its advice is the reason), else ``error`` (no fit);
    ``overlay``: where the failed fit's overlay was written; ``then_pass``: end with
    "then pass --calibration OUT" (not for ``carom calibrate`` itself).
    """
    then = f"; then pass --calibration {out}" if then_pass else ""
    if wizard_db is not None:
        then = "; the wizard saves where carom live finds it"
    why = _failed_why(source, best, error, overlay)
    return f"{why}; {how_to_mark(source, frame_idx, out, wizard_db)}{then}"


def _failed_why(
    source: str, best: CalibrationResult | None, error: CaromError | None, overlay: Path | None
) -> str:
    """``SOURCE: calibration failed: WHY`` (:func:`failed_line` without the way out)."""
    if best is None:
        why = str(error) if error is not None else "the source gave no frame"
    else:
        report = best.report
        seen = f"; see {overlay}" if overlay is not None else ""
        why = f"{report.advice} (confidence {report.confidence:.2f}{seen})"
    return f"{source}: calibration failed: {why}"


def _failed(
    source: str, best: CalibrationResult | None, error: CaromError | None, overlay: Path | None,
    wizard_db: Path | None = None,
) -> CalibrationFailed:  # fmt: skip
    return CalibrationFailed(failed_line(source, best, error, overlay, wizard_db=wizard_db),
                             reason=_failed_why(source, best, error, overlay))  # fmt: skip


def save_overlay(result: CalibrationResult, path: Path) -> None:
    """Write only the overlay PNG of ``result`` (a failed fit keeps no calibration file).

    Raises:
        CalibrationError: the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), result.overlay_bgr, [cv2.IMWRITE_PNG_COMPRESSION, 1]):
        raise CalibrationError(f"{path}: cannot write the overlay image; check the folder")


def _calibration_frames(source: str, frame_30: Any | None, say: Say) -> Iterator[Any]:
    """The empty table first, then the single frames (module docstring)."""
    if is_camera_spec(source):
        yield from _camera_frames(source, say)
        return
    builder = _video_pass(source)
    if builder.n_frames:
        yield builder.build().image_bgr
    yield from _single_frames(source, frame_30)


def _video_pass(source: str) -> EmptyTableBuilder:
    """The empty table's builder fed from the sparse read of ``source`` (module docstring)."""
    try:
        keys = key_frame_times_s(source, _VIDEO_SPAN_S)
    except VideoError:
        keys = ()  # image files, or no video: the read below says which
    gaps = sorted(b - a for a, b in itertools.pairwise(keys))
    gap_s = gaps[len(gaps) // 2] if len(gaps) >= 2 else math.inf
    keys_only = gap_s <= KEY_GAP_MAX_S
    builder = EmptyTableBuilder()
    if keys_only:  # one key frame every median gap, at least every_s apart
        builder = EmptyTableBuilder(every_s=max(gap_s, builder.every_s))
    frames = open_source(source, sparse_after_idx=0, sparse_keys=keys_only)
    try:
        for frame in frames:
            # Only the frames the builder takes are converted to colour (a decoded
            # frame's image_bgr is made on first use); it keeps them uncopied.
            if frame.t_s >= _SKIP_S and builder.due(frame.t_s):
                builder.offer(frame.image_bgr, frame.t_s, handed_over=True)
            if builder.done or frame.t_s >= _VIDEO_SPAN_S:
                break
    finally:
        frames.close()
    return builder


def _single_frames(source: str, frame_30: Any | None) -> Iterator[Any]:
    """Frames 30, 60, 120, 240 and 0 of ``source``, decoded when the first is asked for.

    ``frame_30``: frame 30 as the caller decoded it (or None), yielded without a read.
    """
    if frame_30 is not None:
        yield frame_30
    wanted = {0, *_SINGLE_FRAMES} - ({30} if frame_30 is not None else set())
    singles: dict[int, Any] = {}
    frames = open_source(source)
    try:
        for frame in frames:
            if frame.frame_idx in wanted:
                singles[frame.frame_idx] = frame.image_bgr
            if frame.frame_idx >= max(wanted):
                break
    finally:
        frames.close()
    for idx in (*_SINGLE_FRAMES, 0):
        if idx in singles:
            yield singles[idx]


def _camera_frames(source: str, say: Say) -> Iterator[Any]:
    """A camera: the empty table once the view was clear long enough, then the newest frame."""
    builder = EmptyTableBuilder()
    frames = open_source(source)
    newest = None
    started = time.monotonic()
    told = -1
    try:
        for frame in frames:
            newest = frame.image_bgr
            if builder.offer(frame.image_bgr, frame.t_s):
                clear = int(builder.clear_s)
                if clear != told:
                    say(f"waiting for a clear view of the table: {clear} of "
                        f"{builder.span_s:g} s")  # fmt: skip
                    told = clear
            if builder.done or time.monotonic() - started > CAMERA_WAIT_S:
                break
    finally:
        frames.close()
    if builder.n_frames:
        if not builder.done:
            say(f"the view of the table was not clear for {builder.span_s:g} s within "
                f"{CAMERA_WAIT_S:g} s: calibrating from what was seen")  # fmt: skip
        yield builder.build().image_bgr
    if newest is not None:
        yield newest
