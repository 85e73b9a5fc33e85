"""The ``carom`` command line: the parser of every command, and the one error line.

Exit status: 0 done; 2 bad input or an error (one line on stderr, ``carom: ...``);
3 ``carom calibrate`` wrote a *doubtful* calibration (file and overlay written, look
at the overlay); 4 the calibration *failed* (``calibrate``, and ``analyze``, ``live``,
``serve`` fitting one): one line with the commands to mark the corners instead; 130
interrupted. docs/calibration.md, "Outcomes".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from referee import CaromError

__all__ = ["EXIT_BAD_INPUT", "EXIT_DOUBTFUL", "EXIT_FAILED", "main"]

EXIT_BAD_INPUT = 2
EXIT_DOUBTFUL = 3
EXIT_FAILED = 4


Adder = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def _commands() -> list[Adder]:
    """Each command's ``add_parser``, in the order ``carom --help`` lists them."""
    from carom.cli import _analyze, _calibrate, _emulator, _export, _live, _score, _serve, _synth

    return [
        _score.add_parser,
        _synth.add_parser,
        _calibrate.add_parser,
        _analyze.add_parser,
        _emulator.add_parser,
        _live.add_parser,
        _export.add_parsers,
        _serve.add_parser,
    ]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="carom", description="Automatic carom referee.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in _commands():
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 on bad input)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "score":
            from carom.cli._score import run as run_score

            return run_score(args)
        if args.command == "calibrate":
            from carom.cli._calibrate import run as run_calibrate

            return run_calibrate(args)
        if args.command == "analyze":
            from carom.cli._analyze import run as run_analyze

            return run_analyze(args)
        if args.command == "live":
            from carom.cli._live import run as run_live

            return run_live(args)
        if args.command in ("matches", "export"):
            from carom.cli._export import run_export, run_matches

            return run_matches(args) if args.command == "matches" else run_export(args)
        if args.command == "serve":
            from carom.cli._serve import run as run_serve

            return run_serve(args)
        if args.command == "scoreboard-emulator":
            from carom.cli._emulator import run_emulator

            return run_emulator(args)
        if args.command == "synth":
            from carom.cli._synth import run as run_synth

            return run_synth(args)
    except CaromError as exc:
        print(f"carom: {exc}", file=sys.stderr)
        return _status_of(exc)
    except KeyboardInterrupt:
        print("carom: interrupted", file=sys.stderr)
        return 130
    return 2  # pragma: no cover - argparse rejects unknown commands


def _status_of(exc: CaromError) -> int:
    """4 for a failed calibration, else 2 (the module docstring)."""
    # Only a command that calibrated has loaded the package: no import for the others.
    calibration = sys.modules.get("calibration")
    if calibration is not None and isinstance(exc, calibration.CalibrationFailed):
        return EXIT_FAILED
    return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
