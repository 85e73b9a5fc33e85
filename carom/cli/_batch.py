"""The ``carom batch`` command line: many videos, resumable, on this machine or Ray."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from carom.cli._analyze import add_detector_option, add_lang_option
from carom.cli._outputs import check_out_folder, path_arg
from carom.match import add_match_options

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom batch``."""
    p = sub.add_parser(
        "batch",
        help="referee many recorded videos (folders, globs, URLs, a manifest), resumably",
        description="Analyse every video SOURCES name as carom analyze would, into "
        "DIR/<video>/ (shots.json, report.html, trajectories, calibration), with the index "
        "DIR/batch.json and the season's statistics (DIR/stats.html and CSVs). A rerun "
        "skips the videos finished with the same content and options and redoes the "
        "rest; a video that fails is recorded with its error and the batch goes on. "
        "Runs on a pool of local processes, or on Ray with --ray (docs/batch.md). Exit "
        "status 0 when every video is done or skipped, 5 when one or more failed.",
    )
    p.add_argument("sources", nargs="+", metavar="SOURCE",
                   help="video files, folders, glob patterns (quoted), http(s) URLs, or a "
                   "manifest (.csv or .json: one video a row with its own players, "
                   "discipline, calibration ...; docs/batch.md)")  # fmt: skip
    p.add_argument("--out", type=path_arg, required=True, metavar="DIR", help="the batch folder")
    p.add_argument("--workers", type=_positive, default=os.cpu_count() or 1, metavar="N",
                   help="local worker processes, or Ray CPUs of a local Ray (default: the "
                   "number of cores)")  # fmt: skip
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="run on Ray: alone, a local Ray; with ADDRESS (ray://host:10001 or "
                   "host:6379), that cluster (needs the ray extra)")  # fmt: skip
    p.add_argument("--gpus-per-video", type=_share, metavar="F",
                   help="with --ray: the share of a GPU each video asks for when the "
                   "detector uses the network (default 0.25 where the cluster has GPUs; 0: "
                   "CPUs only)")  # fmt: skip
    p.add_argument("--ray-gpus", type=_count, metavar="N",
                   help="with --ray alone: the GPUs of the local Ray (default: those Ray "
                   "finds; 0 keeps the GPU for other work)")  # fmt: skip
    p.add_argument("--calibration", type=Path, help="one calibration file for every video")
    p.add_argument("--annotate", action="store_true", help="also write annotated MP4s")
    p.add_argument("--no-trajectories", dest="trajectories", action="store_false",
                   help="do not write trajectories.json and .csv")  # fmt: skip
    p.add_argument("--fast-decode", action="store_true", help="as carom analyze --fast-decode")
    add_detector_option(p)
    add_lang_option(p)
    p.add_argument("--no-stats", dest="stats", action="store_false",
                   help="do not write the season's statistics at the end")  # fmt: skip
    p.add_argument("--json", action="store_true",
                   help="no progress and no tables; print the index and statistics as "
                   "JSON")  # fmt: skip
    add_match_options(p)


def _positive(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return int(text)


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return int(text)


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"expected a share of a GPU from 0 to 1, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom batch``; bad sources or options raise CaromError before any work."""
    from carom.batch import (
        BatchProgress,
        expand_sources,
        plan_batch,
        plural,
        read_previous,
        run_batch,
    )
    from carom.cli._main import EXIT_INTERRUPTED, EXIT_MEDIA, version
    from carom.cli._signals import sigterm_interrupts

    out: Path = args.out
    _check_ray_address(args.ray)
    _check_ray_only(args)
    if out.exists() and not out.is_dir():
        from referee import CaromError

        raise CaromError(f"--out {out}: is a file; give a folder for the batch (made if missing)")
    check_out_folder(out, "--out")
    plans = plan_batch(expand_sources(args.sources, out), args, out, read_previous(out), version())
    jobs = [p for p in plans if p.job is not None]
    engine = _engine(args, len(jobs))
    known = [p.expected_s for p in jobs]
    expected = sum(k for k in known if k is not None) if None not in known else None
    progress = BatchProgress.for_terminal(len(plans), expected, quiet=args.json)
    if not args.json:
        on = f", on {engine.description}" if jobs else ""
        print(f"carom batch: {plural(len(plans), 'video')}, {len(jobs)} to analyse{on}; "
              f"results in {out}", flush=True)  # fmt: skip
    try:
        with sigterm_interrupts():  # a service manager's stop, as Ctrl-C
            summary = run_batch(plans, engine, out, progress)
    except KeyboardInterrupt:
        from carom.batch import JobStatus

        # A duplicate is not finished: it waits for the video it copies.
        done = sum(1 for p in plans if p.entry.status not in (None, JobStatus.DUPLICATE))
        print(f"carom batch: interrupted with {done} of {len(plans)} videos finished; "
              f"{out} holds only complete results; rerun the same command to go on",
              file=sys.stderr)  # fmt: skip
        return EXIT_INTERRUPTED
    stats = _stats(args, out)
    _report(args, summary, stats)
    from carom.batch import JobStatus

    return EXIT_MEDIA if summary.count(JobStatus.FAILED) else 0


def _check_ray_address(address: str | None) -> None:
    """``--ray videos/`` took a source for the address: say so before any work."""
    if address is None or address in ("local", "auto") or ":" in address:
        return
    from referee import CaromError

    raise CaromError(f"--ray {address}: not a Ray address (HOST:PORT, ray://HOST:PORT or auto); "
                     "for a local Ray write --ray after the sources, or --ray local")  # fmt: skip


def _check_ray_only(args: argparse.Namespace) -> None:
    """``--gpus-per-video`` and ``--ray-gpus`` without ``--ray``: refused, not ignored."""
    if args.ray is not None:
        return
    from referee import CaromError

    for flag, value in (("--gpus-per-video", args.gpus_per_video), ("--ray-gpus", args.ray_gpus)):
        if value is not None:
            raise CaromError(f"{flag} is for --ray (Ray's share of the GPUs); the local "
                             "workers use the machine's GPU as carom analyze does: add --ray "
                             f"or leave {flag} out")  # fmt: skip


def _engine(args: argparse.Namespace, n_jobs: int) -> Any:
    from carom.batch import LocalPool, RayEngine

    if args.ray is not None and n_jobs:
        address = None if args.ray == "local" else args.ray
        return RayEngine(address, args.workers, args.gpus_per_video, args.ray_gpus)
    return LocalPool(max(1, min(args.workers, n_jobs)))


def _stats(args: argparse.Namespace, out: Path) -> Any:
    """The season's statistics over the batch folder (``None``: off, or no shot log yet)."""
    if not args.stats:
        return None
    from carom.i18n import user_language
    from carom.stats import collect_stats, write_stats_csv, write_stats_html
    from referee import CaromError

    try:
        season = collect_stats([out])
    except CaromError:
        return None
    write_stats_csv(season, out)
    write_stats_html(season, out / "stats.html", lang=user_language(args.lang))
    return season


def _report(args: argparse.Namespace, summary: Any, season: Any) -> None:
    from carom.batch import INDEX, JobStatus, duration_text, plural

    out: Path = args.out
    if args.json:
        from carom.stats import stats_json

        doc = {"run": summary.doc(), "videos": [e.doc() for e in summary.entries],
               "statistics": None if season is None else stats_json(season)}  # fmt: skip
        print(json.dumps(doc, indent=1))
        return
    c = summary.count
    rate = summary.video_s / summary.wall_s if summary.wall_s > 0 else 0.0
    print(f"\nbatch: {plural(len(summary.entries), 'video')}: {c(JobStatus.DONE)} done, "
          f"{c(JobStatus.FAILED)} failed, {c(JobStatus.SKIPPED)} skipped (finished before), "
          f"{plural(c(JobStatus.DUPLICATE), 'duplicate')}; {summary.video_s:.0f} s of video in "
          f"{duration_text(summary.wall_s)} ({rate:.1f} s of video a second)")  # fmt: skip
    for e in summary.entries:
        if e.status is JobStatus.FAILED:
            print(f"failed: {e.name}: {e.error}")
    wrote = [out / INDEX]
    if season is not None:
        from carom.stats import stats_text

        print()
        print(stats_text(season))
        wrote += [out / "stats.html", out / "stats-players.csv", out / "stats-matches.csv"]
    print("wrote " + ", ".join(str(p) for p in wrote))
