"""``carom stats``: a season's statistics from many shot logs; tables, CSV and HTML out."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from carom.cli._analyze import language_arg
from carom.cli._outputs import check_out_folder, path_arg

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``stats`` to the ``carom`` subcommands."""
    stats = sub.add_parser(
        "stats",
        help="a season's statistics from many shot logs (folders carom batch wrote)",
        description="Replay every shot log found (shots.json, *.shots.json; folders searched "
        "to any depth, folders named .* skipped) and total each player over the season: "
        "docs/stats.md.",
    )
    stats.add_argument(
        "paths",
        type=Path,
        nargs="+",
        metavar="PATH",
        help="a folder of shot logs (DIR/<video>/shots.json) or a shot log",
    )
    stats.add_argument(
        "--out",
        type=path_arg,
        metavar="FOLDER",
        help="where stats-players.csv, stats-matches.csv and stats.html go "
        "(default: the first PATH if it is a folder, else the current folder)",
    )
    stats.add_argument("--json", action="store_true", help="print a machine-readable document")
    stats.add_argument(
        "--lang", "--language", metavar="CODE", type=language_arg,
        help="stats.html's language: en, ko, tr, nl, fr or es (default: the system's, from "
        "LANG, if one of these, else en); the tables on the terminal and the CSV stay English",
    )  # fmt: skip


def out_folder(paths: list[Path], out: Path | None) -> Path:
    """``--out``, else the first path when it is a folder, else the current folder."""
    if out is not None:
        return out
    return paths[0] if paths and paths[0].is_dir() else Path.cwd()


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom stats``: 0, also when some logs were skipped (listed in the output).

    Raises:
        CaromError: no shot log found, a path missing, an output not writable (one line).
    """
    from carom.i18n import user_language
    from carom.stats import (
        collect_stats,
        stats_json,
        stats_text,
        write_stats_csv,
        write_stats_html,
    )

    folder = out_folder(args.paths, args.out)
    check_out_folder(folder, "--out" if args.out is not None else "the output folder")
    season = collect_stats(args.paths)
    written = write_stats_csv(season, folder)
    written.append(folder / "stats.html")
    write_stats_html(season, written[-1], lang=user_language(args.lang))
    if args.json:
        json.dump(stats_json(season), sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        print(stats_text(season))
    told = sys.stderr if args.json else sys.stdout  # the JSON on stdout stays one document
    print(f"wrote {', '.join(str(p) for p in written)}", file=told)
    return 0
