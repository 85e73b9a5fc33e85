"""``carom score``: judge the shots of one or more shot logs; a scoresheet or JSON out."""

from __future__ import annotations

import argparse
import logging
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carom.console import say
from referee import CaromError, Discipline, ShotLogError

if TYPE_CHECKING:
    from carom.match import ScoreRun

__all__ = [
    "BOARD_URL_SCHEMES",
    "add_board_options",
    "add_parser",
    "board_address",
    "board_url",
    "run",
    "tell_board",
]

#: The URL schemes pyserial's ``serial_for_url`` opens (its ``serial.urlhandler``).
BOARD_URL_SCHEMES = ("socket", "rfc2217", "loop", "spy", "hwgrep", "alt", "cp2110")


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
    add_board_options(score, "also show the match on a scoreboard, shot by shot")
    score.add_argument("--scoreboard-delay", type=_delay_seconds, default=0.5, metavar="S",
                       help="seconds between shots on the scoreboard, 0 to 60 (0.5)")  # fmt: skip


#: The board protocols the commands offer (``hardware.dialects()``; named here so that
#: building the parser loads no serial code).
BOARD_DIALECTS = ("frames", "text")


def add_board_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--scoreboard URL`` (``what`` it does), its baud, bus address and final confirm."""
    parser.add_argument("--scoreboard", metavar="URL", type=board_url,
                        help=f"{what} (pty path, /dev/ttyUSB0, socket://host:port)")  # fmt: skip
    parser.add_argument("--scoreboard-baud", type=int, default=19200, choices=[19200, 9600],
                        help="serial speed of the board (19200 8N1)")  # fmt: skip
    parser.add_argument("--scoreboard-addr", type=board_address, default=0, metavar="N",
                        help="the board's bus address (its DIP switches), 0..254, decimal or "
                        "0x hex (0)")  # fmt: skip
    parser.add_argument("--scoreboard-dialect", choices=BOARD_DIALECTS, default="frames",
                        help="the board's protocol: frames (two-way, acknowledged) or text "
                        "(one line a snapshot, for the simplest one-way boards; nothing is "
                        "acknowledged, what was written counts) (frames)")  # fmt: skip
    parser.add_argument(
        "--scoreboard-confirm", type=_confirm_seconds, default=10.0, metavar="S",
        help="at the end, send the final state again for at most S seconds until the board "
        "acknowledges it; if it never does, say so and exit with status 6 (10)",
    )  # fmt: skip


def tell_board(command: str, line: str) -> None:
    """``carom: LINE`` on stderr, and in the ``--log-file`` (marked said: not twice)."""
    from carom.console import SAID

    print(f"carom: {line}", file=sys.stderr, flush=True)
    logging.getLogger(f"carom.{command}").error("%s", line, extra={SAID: True})


def board_address(text: str) -> int:
    """A board's bus address, decimal or ``0x`` hex, 0..254 (0xFF is the broadcast one)."""
    try:
        value = int(text, 0)
    except ValueError:
        value = -1
    if not 0 <= value <= 0xFE:
        raise argparse.ArgumentTypeError(
            f"{text!r}: use a bus address 0..254, decimal or hex 0x00..0xFE "
            "(0xFF is the broadcast address, never a board's)"
        )
    return value


def board_url(text: str) -> str:
    """``--scoreboard URL``: a device path, or a URL of a scheme the board link opens.

    The link (pyserial's ``serial_for_url``) takes ``SCHEME://`` only for its own
    schemes; any other would fail as a device (status 6) on every retry.
    """
    scheme, sep, _ = text.partition("://")
    if sep and scheme.lower() not in BOARD_URL_SCHEMES:
        forms = ", ".join(f"{s}://" for s in BOARD_URL_SCHEMES[1:])
        raise argparse.ArgumentTypeError(
            f"{text!r}: {scheme}:// is no scoreboard port; use a device path (/dev/ttyUSB0, "
            f"a pty) or socket://host:port (the link also opens {forms})"
        )
    return text


def _confirm_seconds(text: str) -> float:
    return _seconds_upto(text, 600.0)


def _delay_seconds(text: str) -> float:
    return _seconds_upto(text, 60.0)


def _seconds_upto(text: str, most: float) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= most:
        raise argparse.ArgumentTypeError(f"{text!r}: use seconds from 0 to {most:g}")
    return value


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom score``: 2 when a log stopped early (the reason on stderr).

    With ``--scoreboard``: 6 when the board never acknowledged the final state (one
    line on stderr after the scoresheet; 6 also when a log stopped early too).
    """
    from carom.cli._main import EXIT_DEVICE
    from carom.match import standings_json, stopped_reason, write_score_json
    from carom.report import render_sheet

    for path in args.shots:
        if Path(path).is_dir():  # a batch's folder: a season, not one shot log
            raise CaromError(f"{path}: a folder, not a shot log; give its shots.json (carom "
                             "score FOLDER/shots.json), or carom stats FOLDER for a season "
                             "of them")  # fmt: skip
    discipline = Discipline(args.discipline) if args.discipline else None
    runs, unconfirmed = _scored(args, discipline)
    table = standings_json(runs) if len(runs) > 1 else None
    if args.json:  # written as it goes: a huge log never becomes one string
        write_score_json(runs, table, sys.stdout)
    else:
        print("\n\n".join(render_sheet(r) for r in runs))
        if table is not None:
            print("\n" + _standings_text(args.shots, runs, table))
    status = 0
    for path, result in zip(args.shots, runs, strict=True):
        if result.error is not None:
            print(f"carom: {path}: stopped: {stopped_reason(result, discipline)}", file=sys.stderr)
            status = 2
    for line in unconfirmed:  # after everything else: the board is what is wrong
        tell_board("score", line)
        status = EXIT_DEVICE
    return status


def _scored(args: argparse.Namespace, discipline: Discipline | None) -> tuple[list[Any], list[str]]:
    """Each log scored (and sent to ``--scoreboard``); the lines of finals never confirmed.

    A log refused names its file first (a field alone, ``camera: unknown field``, names none).
    """
    from carom.match import score_file

    runs, unconfirmed = [], []
    for path in args.shots:
        try:
            if not args.scoreboard:
                runs.append(score_file(path, discipline))
                continue
            from carom.board import replay_to_scoreboard  # pyserial: only for a board

            replay = replay_to_scoreboard(path, args.scoreboard, delay_s=args.scoreboard_delay,
                                          discipline=discipline, baud=args.scoreboard_baud,
                                          addr=args.scoreboard_addr,
                                          dialect=args.scoreboard_dialect,
                                          confirm_s=args.scoreboard_confirm,
                                          waiting=lambda line: say("score", line))  # fmt: skip
        except ShotLogError as exc:
            raise (
                exc if str(exc).startswith(str(path)) else ShotLogError(f"{path}: {exc}")
            ) from None
        runs.append(replay.run)
        if not replay.final.confirmed:
            unconfirmed.append(replay.final.line)
    return runs, unconfirmed


def _standings_text(paths: list[Path], runs: list[ScoreRun], table: list[dict[str, Any]]) -> str:
    """The standings; logs not finished are named, and if none finished, their figures so far.

    Standings count finished matches only (match points need a result).
    """
    from carom.match import standings_json
    from carom.report import render_standings
    from referee import Phase

    open_logs = [
        str(p) for p, r in zip(paths, runs, strict=True) if r.match.state.phase is not Phase.OVER
    ]
    if not open_logs:
        return render_standings(table)
    note = f"standings count finished matches only; not finished: {', '.join(open_logs)}"
    if table:
        return f"{render_standings(table)}\n{note}"
    rows = [{**row, "match_points": "-"} for row in standings_json(runs, finished_only=False)]
    provisional = render_standings(rows).splitlines()[1:]
    head = "provisional figures so far (no match points until a match ends):"
    return "\n".join([note, head, *provisional])
