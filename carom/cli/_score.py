"""``carom score``: judge the shots of one or more shot logs; a scoresheet or JSON out."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee import Discipline

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``score`` to the ``carom`` subcommands."""
    score = sub.add_parser("score", help="judge the shots of a shot log (carom-shots/1 JSON)")
    score.add_argument(
        "shots", type=Path, nargs="+", metavar="SHOTS.json",
        help="the shot log; several logs (matches of one event) add the standings",
    )  # fmt: skip
    score.add_argument(
        "--discipline",
        choices=[d.value for d in Discipline],
        help="judge under this discipline instead of the log's own",
    )
    score.add_argument("--json", action="store_true", help="print a machine-readable document")
    score.add_argument(
        "--scoreboard", metavar="URL",
        help="also show the match on a scoreboard, shot by shot (pty path, /dev/ttyUSB0, "
        "socket://host:port)",
    )  # fmt: skip
    score.add_argument("--scoreboard-baud", type=int, default=19200, choices=[19200, 9600],
                       help="serial speed of the board (19200 8N1)")  # fmt: skip
    score.add_argument("--scoreboard-delay", type=float, default=0.5, metavar="S",
                       help="seconds between shots on the scoreboard (0.5)")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom score``: 2 when a log stopped early (the reason on stderr)."""
    from carom.match import run_json, score_file, standings_json
    from carom.report import render_sheet, render_standings

    discipline = Discipline(args.discipline) if args.discipline else None
    if args.scoreboard:
        from carom.board import replay_to_scoreboard

        runs = [replay_to_scoreboard(p, args.scoreboard, delay_s=args.scoreboard_delay,
                                     discipline=discipline, baud=args.scoreboard_baud)
                for p in args.shots]  # fmt: skip
    else:
        runs = [score_file(path, discipline) for path in args.shots]
    table = standings_json(runs) if len(runs) > 1 else None
    if args.json:
        docs = [run_json(r) for r in runs]
        doc = docs[0] if table is None else {"matches": docs, "standings": table}
        print(json.dumps(doc, indent=2))
    else:
        print("\n\n".join(render_sheet(r) for r in runs))
        if table is not None:
            print("\n" + render_standings(table))
    status = 0
    for path, result in zip(args.shots, runs, strict=True):
        if result.error is not None:
            print(f"carom: {path}: stopped: {result.error}", file=sys.stderr)
            status = 2
    return status
