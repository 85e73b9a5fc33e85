"""The ``carom`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from referee import CaromError, Discipline

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="carom", description="Automatic carom referee.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
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
    from carom._synth_cli import add_parser as add_synth

    add_synth(sub)
    from carom._calibrate_cli import add_parser as add_calibrate

    add_calibrate(sub)
    from carom._analyze_cli import add_parser as add_analyze

    add_analyze(sub)
    from carom._scoreboard_cli import add_emulator_parser

    add_emulator_parser(sub)
    from carom._live_cli import add_parser as add_live

    add_live(sub)
    from carom._export_cli import add_parsers as add_export

    add_export(sub)
    from carom.web._serve_cli import add_parser as add_serve

    add_serve(sub)
    return parser


def _score(args: argparse.Namespace) -> int:
    from carom._score import run_json, score_file, standings_json
    from carom._sheet import render_sheet, render_standings

    discipline = Discipline(args.discipline) if args.discipline else None
    if args.scoreboard:
        from carom._scoreboard_cli import replay_to_scoreboard

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
    for path, run in zip(args.shots, runs, strict=True):
        if run.error is not None:
            print(f"carom: {path}: stopped: {run.error}", file=sys.stderr)
            status = 2
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "score":
            return _score(args)
        if args.command == "calibrate":
            from carom._calibrate_cli import run as run_calibrate

            return run_calibrate(args)
        if args.command == "analyze":
            from carom._analyze_cli import run as run_analyze

            return run_analyze(args)
        if args.command == "live":
            from carom._live_cli import run as run_live

            return run_live(args)
        if args.command in ("matches", "export"):
            from carom._export_cli import run_export, run_matches

            return run_matches(args) if args.command == "matches" else run_export(args)
        if args.command == "serve":
            from carom.web._serve_cli import run as run_serve

            return run_serve(args)
        if args.command == "scoreboard-emulator":
            from carom._scoreboard_cli import run_emulator

            return run_emulator(args)
        if args.command == "synth":
            from carom._synth_cli import run as run_synth

            return run_synth(args)
    except CaromError as exc:
        print(f"carom: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("carom: interrupted", file=sys.stderr)
        return 130
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
