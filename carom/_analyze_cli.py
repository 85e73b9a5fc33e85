"""The ``carom analyze`` command line."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carom._analyze import AnalyzeRun
    from referee import Table

__all__ = ["TABLE_PRESETS", "add_parser", "parse_table", "run"]

#: ``--table`` names: playing surface (length, width) mm, ball diameter mm.
TABLE_PRESETS: dict[str, tuple[float, float, float]] = {
    "match": (2840.0, 1420.0, 61.5),
    "small": (2764.0, 1382.0, 61.5),
    "large": (3072.0, 1536.0, 61.5),
    "pyramid": (3550.0, 1775.0, 68.0),
}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom analyze``."""
    p = sub.add_parser(
        "analyze",
        help="referee a recorded video: shots, verdicts, scoresheet and report",
        description="Track the balls in VIDEO, find every shot and its contacts, judge them "
        "and write DIR/shots.json (carom-shots/1 with verdicts), DIR/report.html and, with "
        "--annotate, DIR/annotated.mp4. Without --calibration the table is calibrated from "
        "the first frame (DIR/calibration.json).",
    )
    p.add_argument("video", type=Path, help="video file (MP4, MKV, AVI ...)")
    p.add_argument("--calibration", type=Path, help="calibration file from carom calibrate")
    p.add_argument("--table", default="match",
                   help="table preset (" + ", ".join(TABLE_PRESETS) + ") or LENGTHxWIDTH in mm; "
                   "default match = 2840x1420")  # fmt: skip
    p.add_argument("--discipline", default="three-cushion", help="the game (three-cushion)")
    p.add_argument("--out", type=Path, help="output folder (default: carom-analysis/VIDEO-NAME)")
    p.add_argument("--players", default="A,B", help="the two players, breaker's side first: A,B")
    p.add_argument("--first", help="the player who breaks (default: the lag, else the first)")
    p.add_argument("--target", type=int, help="points to win (default by discipline)")
    p.add_argument("--annotate", action="store_true", help="also write an annotated MP4")
    p.add_argument("--json", action="store_true", help="quiet; print a JSON summary")
    add_detector_option(p)
    p.add_argument(
        "--fast-decode", action="store_true",
        help="skip H.264 deblocking while decoding (faster; see docs/vision.md)",
    )  # fmt: skip


def add_detector_option(p: argparse.ArgumentParser) -> None:
    """``--detector color|onnx|auto`` (shared by analyze and live)."""
    p.add_argument(
        "--detector", choices=("color", "onnx", "auto"), default="auto",
        help="ball detector: colour rules, the learned model, or the model only where "
        "colour is unsure (default auto; see docs/detector.md)",
    )  # fmt: skip


def parse_table(text: str, discipline: Any = None) -> Table:
    """A preset name or ``LENGTHxWIDTH`` (mm) -> the table; one-line error otherwise."""
    from referee import CaromError, Discipline, Table

    key = text.strip().lower()
    if key == "match" and discipline is Discipline.PIN_CAROM_7:
        key = "pyramid"
    if key in TABLE_PRESETS:
        length, width, ball = TABLE_PRESETS[key]
        return Table(length_mm=length, width_mm=width, ball_diameter_mm=ball)
    try:
        length, width = (float(v) for v in key.split("x"))
        return Table(length_mm=length, width_mm=width)
    except (ValueError, CaromError):
        names = ", ".join(TABLE_PRESETS)
        raise CaromError(
            f"--table: expected a preset ({names}) or LENGTHxWIDTH in mm like 2840x1420, "
            f"got {text!r}"
        ) from None


def parse_discipline(text: str) -> Any:
    """``--discipline`` as a :class:`referee.Discipline`; a one-line error if unknown."""
    from referee import CaromError, Discipline

    try:
        return Discipline(text)
    except ValueError:
        names = ", ".join(d.value for d in Discipline)
        raise CaromError(f"--discipline: unknown {text!r} (one of: {names})") from None


def _options(args: argparse.Namespace) -> Any:
    from carom._analyze import AnalyzeOptions
    from referee import CaromError

    discipline = parse_discipline(args.discipline)
    players = tuple(p.strip() for p in args.players.split(","))
    if len(players) != 2 or not all(players) or players[0] == players[1]:
        raise CaromError(f"--players: expected two different names like A,B, got {args.players!r}")
    if args.first is not None and args.first not in players:
        raise CaromError(f"--first: {args.first!r} is not one of the players {args.players}")
    out = args.out or Path("carom-analysis") / args.video.stem
    return AnalyzeOptions(
        video=args.video, out=out, table=parse_table(args.table, discipline),
        discipline=discipline, calibration=args.calibration, players=players,
        first_player=args.first, target=args.target, annotate=args.annotate,
        fast_decode=args.fast_decode, detector=args.detector,
    )  # fmt: skip


def _progress(quiet: bool) -> Any:
    if quiet or not sys.stderr.isatty():
        return None
    last = [0.0, time.monotonic()]

    def show(done: int, total: int | None, t_s: float) -> None:
        now = time.monotonic()
        if now - last[0] < 0.5:
            return
        last[0] = now
        rate = done / max(now - last[1], 1e-9)
        of = f"/{total} ({100 * done // total}%)" if total else ""
        print(f"\r  frame {done}{of}  video {t_s:6.1f} s  {rate:5.0f} fps ", end="",
              file=sys.stderr, flush=True)  # fmt: skip

    return show


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom analyze``; raises CaromError on bad input before any shot."""
    from carom._analyze_report import summary_json, write_html
    from carom._analyze_run import analyze_video
    from carom._sheet import render_sheet

    opts = _options(args)
    progress = _progress(args.json)
    started = time.monotonic()
    result = analyze_video(opts, progress)
    if progress is not None:
        print(file=sys.stderr)
    write_html(result, opts.out / "report.html")
    elapsed = time.monotonic() - started
    if args.json:
        print(json.dumps(summary_json(result, elapsed), indent=2))
    else:
        print(render_sheet(result.score_run()))
        _footer(result, elapsed)
    if result.error is not None:
        print(f"carom: {opts.video}: stopped early: {result.error}; the "
              f"{len(result.shots)} complete shots are in {opts.out / 'shots.json'}",
              file=sys.stderr)  # fmt: skip
        return 2
    return 0


def _footer(result: AnalyzeRun, elapsed_s: float) -> None:
    for note in result.notes:
        print(f"note: {note}")
    out = result.options.out
    speed = result.seconds / elapsed_s if elapsed_s > 0 else 0.0
    print(f"analysed {result.frames} frames ({result.seconds:.1f} s of video) in {elapsed_s:.1f} s"
          f" ({speed:.1f}x real time)")  # fmt: skip
    wrote = [out / "shots.json", out / "report.html"]
    if result.options.calibration is None:
        wrote.append(out / "calibration.json")
    if result.options.annotate:
        wrote.append(out / "annotated.mp4")
    print("wrote " + ", ".join(str(p) for p in wrote))
