"""The ``carom analyze`` command line."""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carom.cli._outputs import path_arg
from carom.console import SAID, is_quiet, show
from carom.match import TABLE_PRESETS, add_match_options, parse_discipline, parse_table
from carom.progress import Progress

if TYPE_CHECKING:
    from carom.analyze import AnalyzeRun

__all__ = [
    "TABLE_PRESETS",
    "add_parser",
    "interrupted_line",
    "parse_discipline",
    "parse_table",
    "run",
]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom analyze``."""
    p = sub.add_parser(
        "analyze",
        help="referee a recorded video: shots, verdicts, scoresheet and report",
        description="Track the balls in VIDEO, find every shot and its contacts, judge them "
        "and write DIR/shots.json (carom-shots/1 with verdicts), DIR/trajectories.json and "
        ".csv (every ball, every frame of every shot), DIR/report.html and, with "
        "--annotate, DIR/annotated.mp4. Without --calibration the table is calibrated from "
        "the video (the empty table of its first seconds, then single frames; "
        "DIR/calibration.json): a doubtful fit goes on with one line, a failed one stops "
        "with exit status 4 and the commands to mark the corners.",
    )
    p.add_argument("video", type=Path, help="video file (MP4, MKV, AVI ...)")
    p.add_argument("--calibration", type=Path, help="calibration file from carom calibrate")
    p.add_argument(
        "--out", type=path_arg, help="output folder (default: carom-analysis/VIDEO-NAME)"
    )
    p.add_argument("--annotate", action="store_true", help="also write an annotated MP4")
    p.add_argument(
        "--no-trajectories", dest="trajectories", action="store_false",
        help="do not write trajectories.json and .csv (every ball, every frame of every shot: "
        "about 5 MB of JSON and 9 MB of CSV for a three-cushion match at 60 fps; see "
        "docs/trajectories.md)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="quiet; print a JSON summary")
    add_detector_option(p)
    add_lang_option(p)
    p.add_argument(
        "--fast-decode", action="store_true",
        help="skip H.264 deblocking while decoding (faster; see docs/vision.md)",
    )  # fmt: skip
    add_match_options(p)


def add_detector_option(p: argparse.ArgumentParser) -> None:
    """``--detector color|onnx|auto`` (shared by analyze, live and batch; ``colour`` too)."""
    p.add_argument(
        "--detector", choices=("color", "onnx", "auto"), default="auto", type=_detector,
        help="ball detector: colour rules (color or colour), the learned model, or the model "
        "only where colour is unsure (default auto; see docs/detector.md)",
    )  # fmt: skip


def _detector(name: str) -> str:
    """The detector's name as given; ``colour``, as the help spells it, is ``color``."""
    return "color" if name == "colour" else name


def add_lang_option(p: argparse.ArgumentParser) -> None:
    """``--lang CODE``: the report's language (shared by analyze and batch)."""
    p.add_argument(
        "--lang", "--language", metavar="CODE", type=language_arg,
        help="the report's language: en, ko, tr, nl, fr or es (default: the system's, from "
        "LANG, if one of these, else en; docs/report.md)",
    )  # fmt: skip


def language_arg(text: str) -> str:
    """A ``--lang`` value: one of ``carom.i18n.LANGUAGES`` (argparse says the rest).

    A region or a locale's spelling is ignored (``es-ES``, ``es_ES``, ``ES``: ``es``).
    """
    from carom.i18n import LANGUAGES, language_code

    if (code := language_code(text)) is None:
        raise argparse.ArgumentTypeError(
            f"unknown language {text!r} (one of: {', '.join(LANGUAGES)})"
        )
    return code


def _options(args: argparse.Namespace) -> Any:
    from carom.analyze import AnalyzeOptions
    from carom.i18n import user_language
    from carom.match import match_from_args, table_of

    match = match_from_args(args)
    out = args.out or Path("carom-analysis") / args.video.stem
    return AnalyzeOptions(
        video=args.video, out=out, table=table_of(match), discipline=match.discipline,
        calibration=args.calibration, players=match.players, first_player=match.first_player,
        annotate=args.annotate, trajectories=args.trajectories, fast_decode=args.fast_decode,
        detector=args.detector, lang=user_language(args.lang),
        match=match,
    )  # fmt: skip


def _not_a_folder_of_videos(video: Path) -> None:
    """A folder holding videos is for ``carom batch``, not a sequence of pictures.

    Raises:
        CaromError: one line naming the videos and the batch command.
    """
    if not video.is_dir():
        return
    from carom.batch import VIDEO_SUFFIXES
    from referee import CaromError

    found = sorted(p.name for p in video.iterdir() if p.suffix.lower() in VIDEO_SUFFIXES)
    if not found and not any(p.is_file() for p in video.iterdir()):  # videos in subfolders
        below = (p for p in video.rglob("*") if p.suffix.lower() in VIDEO_SUFFIXES)
        found = sorted(str(p.relative_to(video)) for p in itertools.islice(below, 100))
    if found:
        shown = ", ".join(found[:3]) + (" ..." if len(found) > 3 else "")
        raise CaromError(
            f"{video}: a folder with {len(found)} video file(s) ({shown}); carom analyze "
            f"takes one video (or a folder of pictures, read as one); to referee every video "
            f"in it: carom batch {video} --out DIR"
        )


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom analyze``; raises CaromError on bad input before any shot."""
    from carom.analyze import analyze_video, summary_json, write_html
    from carom.report import render_sheet

    _not_a_folder_of_videos(args.video)
    opts = _options(args)
    bar = Progress.for_terminal(quiet=args.json)
    started, started_ns = time.monotonic(), time.time_ns()
    try:
        result = analyze_video(
            opts, lambda done, total, _t_s: bar.update(done, total),
            say=lambda text: _noted(bar, text),
            stage=lambda name, total, fps: bar.stage(name, total, fps=fps),
        )  # fmt: skip
    except KeyboardInterrupt:
        bar.clear()
        print(interrupted_line(opts.out / "shots.json", started_ns), file=sys.stderr)
        from carom.cli._main import EXIT_INTERRUPTED

        return EXIT_INTERRUPTED
    bar.clear()
    write_html(result, opts.out / "report.html", opts.lang)
    elapsed = time.monotonic() - started
    if args.json:
        print(json.dumps(summary_json(result, elapsed), indent=2))
    else:
        show("analyze", render_sheet(result.score_run()))
        _footer(result, elapsed)
    if result.error is not None:
        print(f"carom: {opts.video}: stopped early: {result.error}; the "
              f"{_complete_shots(len(result.shots))} in {opts.out / 'shots.json'}",
              file=sys.stderr)  # fmt: skip
        logging.getLogger("carom.analyze").error("%s: stopped early: %s", opts.video, result.error,
                                                 extra={SAID: True})  # fmt: skip
        from carom.cli._main import EXIT_MEDIA

        return EXIT_MEDIA
    return 0


def interrupted_line(shots_json: Path, started_ns: int) -> str:
    """The line an interrupted run ends with: where its complete shots are.

    ``shots_json`` is this run's when written since ``started_ns`` (a ``time.time_ns()``);
    there is none when the run stopped before its calibration was settled.
    """
    count = _shots_written(shots_json, started_ns)
    if count is None:
        return (f"carom analyze: interrupted before the first shot log was written; nothing "
                f"in {shots_json.parent} is from this run")  # fmt: skip
    return (f"carom analyze: interrupted; the {_complete_shots(count)} in {shots_json} "
            "(the same command analyses the video again from the start)")  # fmt: skip


def _complete_shots(count: int) -> str:
    return "1 complete shot is" if count == 1 else f"{count} complete shots are"


def _shots_written(shots_json: Path, started_ns: int) -> int | None:
    """The number of shots in ``shots_json`` if written since ``started_ns``, else None."""
    try:
        if shots_json.stat().st_mtime_ns < started_ns:
            return None
        shots = json.loads(shots_json.read_text(encoding="utf-8"))["shots"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return len(shots) if isinstance(shots, list) else None


def _noted(bar: Progress, text: str) -> None:
    """A remark while the analysis runs: above the progress line (not with ``-q``), logged."""
    if not is_quiet():
        bar.say(f"carom: {text}")
    logging.getLogger("carom.analyze").info("%s", text, extra={SAID: True})


def _footer(result: AnalyzeRun, elapsed_s: float) -> None:
    for note in result.notes:
        show("analyze", f"note: {note}")
    out = result.options.out
    speed = result.seconds / elapsed_s if elapsed_s > 0 else 0.0
    show("analyze", f"analysed {result.frames} frames ({result.seconds:.1f} s of video) in "
                    f"{elapsed_s:.1f} s ({speed:.1f}x real time)")  # fmt: skip
    wrote = [out / "shots.json", out / "shots.csv", out / "report.html"]
    if result.options.trajectories:
        wrote += [out / "trajectories.json", out / "trajectories.csv"]
    if result.options.calibration is None:  # fitted here: the file and its overlay
        wrote += [out / "calibration.json", out / "calibration_overlay.png"]
    if result.options.annotate:
        wrote.append(out / "annotated.mp4")
    show("analyze", "wrote " + ", ".join(str(p) for p in wrote))
