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
    score.add_argument("shots", type=Path, metavar="SHOTS.json", help="the shot log")
    score.add_argument(
        "--discipline",
        choices=[d.value for d in Discipline],
        help="judge under this discipline instead of the log's own",
    )
    score.add_argument("--json", action="store_true", help="print a machine-readable document")
    return parser


def _score(args: argparse.Namespace) -> int:
    from carom._score import run_json, score_file
    from carom._sheet import render_sheet

    discipline = Discipline(args.discipline) if args.discipline else None
    run = score_file(args.shots, discipline)
    if args.json:
        print(json.dumps(run_json(run), indent=2))
    else:
        print(render_sheet(run))
    if run.error is not None:
        print(f"carom: {args.shots}: stopped: {run.error}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "score":
            return _score(args)
    except CaromError as exc:
        print(f"carom: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("carom: interrupted", file=sys.stderr)
        return 130
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
