"""The ``carom calibrate`` command line."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carom.cli._outputs import check_output, path_arg
from carom.progress import Progress

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from referee import Table


__all__ = ["add_parser", "failed_overlay", "frame_index", "progress_say", "run", "square_mm"]


def frame_index(text: str) -> int:
    """``--frame``: a frame number, 0 or more (argparse refuses anything else in one line)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a frame number 0, 1, 2 ..., got {text!r}"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a frame number 0 or more, got {value}")
    return value


def square_mm(text: str) -> float:
    """``--square-mm``: a checkerboard square side, finite, 1..500 mm."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 1.0 <= value <= 500.0):
        raise argparse.ArgumentTypeError(f"expected a square side of 1 to 500 mm, got {text!r}")
    return value


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom calibrate``."""
    p = sub.add_parser(
        "calibrate",
        help="fit the camera to the table",
        description="Find the table in SOURCE (a video file, an image or a camera index; "
        "from a video or a camera the empty table of several seconds of frames), fit the "
        "camera model, write the calibration file and an overlay image, and print the "
        "quality report. Exit status 0: good; 3: doubtful (written: look at the overlay; "
        "or the balls say the table is another size); "
        "4: failed (no calibration file; the line says how to mark the corners).",
    )
    p.add_argument("source", help="video file, image file or camera index (0, 1, ...)")
    p.add_argument("--out", type=path_arg, default=Path("calibration.json"),
                   help="calibration file (default calibration.json)")  # fmt: skip
    p.add_argument("--overlay", type=Path, help="overlay image (default: OUT with _overlay.png)")
    p.add_argument("--frame", type=frame_index, metavar="N",
                   help="fit this one frame of a video (default: the empty table from several "
                   "seconds of frames, then single frames; frame 0 with --corners)")  # fmt: skip
    p.add_argument("--table", default=None,
                   help="playing surface LENGTHxWIDTH in mm, or a preset: match, small, large, "
                   "pyramid (the 7-pin pocket table, 3550x1775); default: the pyramid with "
                   "--discipline pin-carom-7, else match (2840x1420)")  # fmt: skip
    p.add_argument("--discipline", help="draw this discipline's lines on the overlay")
    p.add_argument("--corners", help="marked corners 'u,v;u,v;u,v;u,v' px (where the cloth "
                   "meets the cushions, clockwise from the top left in the picture), for tables "
                   "auto misses")  # fmt: skip
    p.add_argument(
        "--diamonds", help="marked diamonds 'i:u,v;j:u,v' (index 0..23, px), with --corners"
    )
    p.add_argument("--interactive", action="store_true", help="click the corners in a window")
    p.add_argument(
        "--checkerboard", metavar="DIR_OR_GLOB",
        help="checkerboard pictures from this camera: fit the lens from them, then the pose only",
    )  # fmt: skip
    p.add_argument("--pattern", default="9x6", help="checkerboard inner corners COLSxROWS (9x6)")
    p.add_argument(
        "--square-mm", type=square_mm, default=25.0, help="checkerboard square side in mm (25)"
    )


def _table(text: str | None, discipline: str | None) -> Table:
    """``--table`` (a preset or LENGTHxWIDTH); without it the discipline's table.

    ``carom calibrate --discipline pin-carom-7`` wrote a 2840 mm table with pockets,
    which ``carom analyze --discipline pin-carom-7`` then refused (its table: the pyramid).
    """
    from carom.cli._analyze import parse_table
    from carom.match import parse_discipline

    kind = parse_discipline(discipline) if discipline else None
    return parse_table("match" if text is None else text, kind)


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom calibrate``: 0 good, 3 doubtful, 4 failed; CaromError on bad input."""
    from calibration import CalibrationError, Outcome
    from carom.cli._calibrate_args import parse_diamonds

    table = _table(args.table, args.discipline)
    overlay = args.overlay or args.out.with_name(args.out.stem + "_overlay.png")
    check_output(args.out, "--out")  # before the fit, not after it
    check_output(overlay, "--overlay")
    _check_names(args, overlay)
    diamonds = parse_diamonds(args.diamonds) if args.diamonds else None
    if diamonds and not (args.corners or args.interactive):
        raise CalibrationError("--diamonds needs --corners (or --interactive) as well")
    result = _fit(args, table, diamonds)
    print(result.report.text())
    if result.report.verdict is Outcome.FAILED:
        _failed(args, result, overlay)
    from calibration import save_result

    save_result(result, args.out, overlay)
    print(f"wrote {args.out} and {overlay}")
    from carom.cli._main import EXIT_DOUBTFUL

    size = _table_size(args, result.calibration)
    if size is not None:
        print(f"carom: {size}", file=sys.stderr)
    if result.report.verdict is Outcome.DOUBTFUL:
        from carom.pipeline import doubtful_line

        print(f"carom: {doubtful_line(result, overlay, going_on=False)}; if they do not, "
              f"{_doubtful_way_on(args, result.report.advice)}", file=sys.stderr)  # fmt: skip
        return EXIT_DOUBTFUL
    return EXIT_DOUBTFUL if size is not None else 0


def _doubtful_way_on(args: argparse.Namespace, advice: str) -> str:
    """What to do when a doubtful fit's lines miss the edges, for what was given.

    It said "mark diamonds too" to someone who had marked 22, and "mark the corners"
    for a lens to refit, which corners cannot tell.
    """
    lens = "give the lens (--checkerboard pictures of a printed board, docs/calibration.md)"
    if args.diamonds:
        return f"mark more diamonds, or {lens}"
    if args.corners is not None or args.interactive:
        return f"mark diamonds too (--diamonds 'i:u,v;j:u,v', docs/calibration.md), or {lens}"
    if advice.startswith("refit lens"):
        return f"{lens}, or mark the corners with --corners or --interactive"
    return "mark the corners with --corners or --interactive"


def _check_names(args: argparse.Namespace, overlay: Path) -> None:
    """Refuse, before the fit, outputs that would overwrite the source or each other.

    Checked: ``--out``, the overlay and a failed fit's overlay against every file the
    source reads (the file, or a folder's or glob's pictures), an overlay inside the
    picture folder (read as one of its pictures next time), and an overlay name no
    picture format has (OpenCV failed after the fit).
    """
    import cv2

    from referee import CaromError
    from vision import image_sequence

    if not args.source.strip():
        raise CaromError("SOURCE is empty; give a video, a picture, a folder of pictures or "
                         "a camera index")  # fmt: skip
    source = Path(args.source)
    inputs = [source] if source.is_file() else (image_sequence(args.source) or [])
    outputs = ((args.out, "--out", "file name"), (overlay, "--overlay", "file name"),
               (failed_overlay(overlay), "a failed fit's overlay", "--out"))  # fmt: skip
    what = "the source" if source.is_file() else "a picture"
    for path, option, fix in outputs:
        if path.exists() and any(path.samefile(p) for p in inputs):
            raise CaromError(f"{option} {path}: is {what} being calibrated; give another {fix}")
    if source.is_dir() and overlay.resolve().parent == source.resolve():
        raise CaromError(f"--overlay {overlay}: inside the picture folder {source}, where it "
                         "would be read as one of its pictures; give another folder (--out, "
                         "--overlay)")  # fmt: skip
    if overlay.resolve() == args.out.resolve():
        raise CaromError(f"--overlay {overlay}: is the calibration file (--out); give another "
                         "file name")  # fmt: skip
    if not cv2.haveImageWriter(str(overlay)):
        raise CaromError(f"--overlay {overlay}: not a picture's name; give one ending in .png "
                         "(or .jpg)")  # fmt: skip


def failed_overlay(overlay: Path) -> Path:
    """Where a failed fit's overlay goes: ``NAME_failed_overlay.png`` beside ``overlay``."""
    return overlay.with_name(overlay.stem.removesuffix("_overlay") + "_failed_overlay.png")


def _table_size(args: argparse.Namespace, calib: Any) -> str | None:
    """The table-size line (:func:`carom.pipeline.table_size_line`) for ``calib``, if any.

    Read in the still image, or in frames 30, 20 and 10 of a video (the frame given
    with ``--frame`` first); a camera is not read again for it.
    """
    from carom.pipeline import table_size_line
    from hardware import is_camera_spec
    from referee import CaromError
    from vision import IMAGE_SUFFIXES, read_frame

    if is_camera_spec(args.source):
        return None
    still = Path(args.source).suffix.lower() in IMAGE_SUFFIXES
    wanted = [0] if still else list(dict.fromkeys([args.frame or 30, 30, 20, 10]))
    images = []
    for idx in wanted:
        try:
            images.append(read_frame(args.source, idx))
        except CaromError:
            continue  # a short video: the frames it has
    return table_size_line(calib, images, "--table, then calibrate again")


def _fit(args: argparse.Namespace, table: Table, diamonds: list[list[float]] | None) -> Any:
    """The fit: of one frame (``--frame``, an image, marked corners) or of many.

    Many: the best of a video's or a camera's frames (the empty table first). A fit
    that raises (no table, no camera fits) is a failed one.
    """
    from calibration import CalibrationError, CalibrationFailed, calibrate_frame
    from carom.cli._calibrate_args import (
        corners_inside,
        lens_from_checkerboards,
        parse_corners,
        parse_pattern,
    )
    from carom.match import parse_discipline
    from carom.pipeline import best_calibration, how_to_mark
    from vision import read_frame

    discipline = parse_discipline(args.discipline) if args.discipline else None
    lens = None
    if args.checkerboard:
        pattern = parse_pattern(args.pattern)
        lens = lens_from_checkerboards(args.checkerboard, pattern, args.square_mm)
        print(f"lens from checkerboards: fx {lens[0].fx_px:.1f} px, k1 {lens[1].k1:.4f}, "
              f"rms {lens[2]:.3f} px")  # fmt: skip
    corners = parse_corners(args.corners) if args.corners is not None else None
    marking = corners is not None or args.interactive
    many = not marking and lens is None and args.frame is None and _many_frames(args.source)
    frame = None if many else read_frame(args.source, args.frame or 0)
    if args.frame and Path(args.source).is_file() and not _many_frames(args.source):
        print(f"carom: note: --frame {args.frame} left out: {args.source} is one picture",
              file=sys.stderr)  # fmt: skip
    if corners is not None and frame is not None:
        corners_inside(corners, frame.shape[1], frame.shape[0])
    if args.interactive and frame is not None:
        corners = _click_corners(frame)
    try:
        if frame is None:
            bar = Progress.for_terminal()
            bar.stage(f"calibrating from {args.source}")
            try:
                return best_calibration(args.source, table, discipline, say=progress_say(bar))
            finally:
                bar.clear()
        return calibrate_frame(
            frame, table, corners=corners, diamonds=diamonds, lens=lens, discipline=discipline
        )
    except CalibrationError as exc:
        if marking:
            raise CalibrationFailed(f"{args.source}: calibration failed: {exc}"
                                    f"{MARKED_AGAIN}") from None  # fmt: skip
        way = how_to_mark(args.source, args.frame or 30, str(args.out))
        raise CalibrationFailed(f"{args.source}: calibration failed: {exc}; {way}") from None


def _many_frames(source: str) -> bool:
    """True for a video file or a camera (not a still image): many frames to fit from."""
    from vision import IMAGE_SUFFIXES

    return Path(source).suffix.lower() not in IMAGE_SUFFIXES


def _failed(args: argparse.Namespace, result: Any, overlay: Path) -> None:
    """A failed fit: its overlay under a clear name, no calibration file; raise the line."""
    from calibration import CalibrationFailed
    from carom.pipeline import failed_line, save_overlay

    failed = failed_overlay(overlay)
    save_overlay(result, failed)
    print(f"wrote {failed} (no calibration file: the fit failed)")
    frame = args.frame if args.frame is not None else 30
    line = failed_line(args.source, result, None, failed, frame, str(args.out), then_pass=False)
    if args.corners is not None or args.interactive:  # marked already: not "mark them"
        line = line.partition("; to mark the corners by hand: ")[0] + MARKED_AGAIN
    raise CalibrationFailed(line)


#: The way out of a failed fit to marked points. Right corners fail too when the lens
#: bends the edges (four points cannot tell a lens): the way on is then the lens.
MARKED_AGAIN = (
    "; check the marked corners: where the cloth meets the cushions, clockwise from the top "
    "left in the picture (and the diamonds' indices, if marked); if they are right, the "
    "lens bends the picture more than marked corners can tell: mark six diamonds or more "
    "too (--diamonds), or give the lens (--checkerboard)"
)


_WAITING = re.compile(r"waiting for a clear view of the table: (\d+) of ([\d.]+) s")


def progress_say(bar: Progress, command: str = "calibrate") -> Callable[[str], None]:
    """What the fit says, as ``bar`` shows it: the wait for a clear view as a stage.

    "waiting for a clear view of the table: 3 of 8 s" (a camera) is the progress line
    ``waiting for a clear view of the table  3/8 s``, not a new line each second; any
    other line is printed on a clean row, ``carom COMMAND: TEXT``, and logged.
    """
    from carom.console import say as say_line

    waiting = [False]

    def say(text: str) -> None:
        found = _WAITING.fullmatch(text)
        if found is None or not bar.active:
            bar.clear()
            say_line(command, text)
            return
        if not waiting[0]:
            bar.stage("waiting for a clear view of the table", round(float(found[2])), unit="s")
            waiting[0] = True
        bar.update(int(found[1]))

    return say


def _click_corners(frame: NDArray[np.uint8]) -> list[list[float]]:
    """Let a person click the four playing-surface corners in an OpenCV window."""
    import cv2

    from calibration import CalibrationError

    if not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform != "linux"
    ):
        raise CalibrationError("--interactive needs a display; use --corners 'u,v;...' instead")
    points: list[list[float]] = []
    try:
        cv2.namedWindow("carom calibrate: click the 4 corners, q to quit")
    except cv2.error:
        raise CalibrationError(
            "--interactive needs OpenCV with windows (pip install opencv-python); "
            "use --corners 'u,v;u,v;u,v;u,v' instead"
        ) from None
    title = "carom calibrate: click the 4 corners, q to quit"
    cv2.setMouseCallback(
        title, lambda ev, x, y, *_: points.append([x, y]) if ev == cv2.EVENT_LBUTTONDOWN else None
    )
    while len(points) < 4:
        cv2.imshow(title, frame)
        if cv2.waitKey(30) & 0xFF == ord("q"):
            break
    cv2.destroyAllWindows()
    if len(points) < 4:
        raise CalibrationError("--interactive: fewer than 4 corners clicked; nothing written")
    return points
