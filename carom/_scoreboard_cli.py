"""``carom scoreboard-emulator`` and ``carom score LOG --scoreboard URL``.

The emulator is a board in a terminal; the replay drives a board (real or emulated)
from a shot log, shot by shot, through :class:`hardware.ScoreboardLink`.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from carom._score import ScoreRun, load_json
from hardware import (
    EventKind,
    EventMessage,
    Faults,
    ScoreboardEmulator,
    ScoreboardError,
    ScoreboardLink,
    board_players,
    snapshot_from_state,
)
from referee import WRONG_BREAK, CaromError, Discipline, Match, Phase, ShotRecord, parse_shot_log

__all__ = [
    "add_emulator_parser",
    "event_of",
    "parse_faults",
    "replay_to_scoreboard",
    "run_emulator",
]

_FAULTS = ("drop", "corrupt", "delay-ack", "reboot", "vanish")


def add_emulator_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``scoreboard-emulator`` to the ``carom`` subcommands."""
    p = sub.add_parser(
        "scoreboard-emulator",
        help="an emulated scoreboard on a pty or TCP port, shown in the terminal",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--pty", action="store_true", help="open a pty and print its path (default)")
    where.add_argument("--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT instead")
    p.add_argument(
        "--link", type=Path, metavar="PATH",
        help="also make PATH a symlink to the pty (a stable URL across restarts)",
    )  # fmt: skip
    p.add_argument("--addr", type=lambda t: int(t, 0), default=0, help="bus address (default 0)")
    p.add_argument(
        "--fault", action="append", default=[], metavar="NAME=VALUE",
        help="drop=P, corrupt=P (per-byte probability), delay-ack=S (inf: never), "
        "reboot=EVERY_S, vanish=EVERY_S (the port closes and a new one opens 1 s later)",
    )  # fmt: skip
    p.add_argument("--seconds", type=float, default=math.inf, help="quit after this long")


def parse_faults(specs: list[str]) -> tuple[Faults, float, float]:
    """``--fault`` values as (byte/ack faults, reboot period, vanish period), inf = never.

    Raises:
        ScoreboardError: an unknown fault name or a value that is not a number.
    """
    values = {"drop": 0.0, "corrupt": 0.0, "delay-ack": 0.0, "reboot": math.inf, "vanish": math.inf}
    for spec in specs:
        name, _, text = spec.partition("=")
        if name not in _FAULTS:
            raise ScoreboardError(f"unknown fault {name!r}; use one of {', '.join(_FAULTS)}")
        try:
            values[name] = float(text or "1")
        except ValueError:
            raise ScoreboardError(f"fault {spec!r}: {text!r} is not a number") from None
    faults = Faults(drop=values["drop"], corrupt=values["corrupt"], ack_delay_s=values["delay-ack"])
    return faults, values["reboot"], values["vanish"]


def _open(args: argparse.Namespace, faults: Faults) -> ScoreboardEmulator:
    if args.tcp is not None:
        return ScoreboardEmulator.listen_tcp(args.tcp, addr=args.addr, faults=faults)
    return ScoreboardEmulator.open_pty(link=args.link, addr=args.addr, faults=faults)


def run_emulator(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the emulator until Ctrl-C (or ``--seconds``), redrawing the board on change."""
    out = out or sys.stdout
    faults, reboot_s, vanish_s = parse_faults(args.fault)
    emu = _open(args, faults)
    print(f"scoreboard emulator on {emu.url}", file=out, flush=True)
    start = last_reboot = last_vanish = time.monotonic()
    shown: list[str] = []
    try:
        while time.monotonic() - start < args.seconds:
            now = time.monotonic()
            if now - last_reboot >= reboot_s:
                emu.reboot()
                last_reboot = now
            if now - last_vanish >= vanish_s:
                emu.vanish()
                print("-- vanished; back in 1 s --", file=out, flush=True)
                time.sleep(1.0)
                emu, last_vanish, shown = _open(args, faults), time.monotonic(), []
                print(f"scoreboard emulator on {emu.url}", file=out, flush=True)
            board = emu.render()
            if board != shown:
                _draw(board, out)
                shown = board
            emu.wait_for(_changed_from(board), 0.2)
    except KeyboardInterrupt:
        pass  # Ctrl-C is how the emulator is meant to end
    finally:
        emu.stop()
    return 0


def _changed_from(board: list[str]) -> Callable[[ScoreboardEmulator], bool]:
    def changed(emu: ScoreboardEmulator) -> bool:
        return emu.render() != board

    return changed


def _draw(board: list[str], out: TextIO) -> None:
    clear = "\x1b[H\x1b[2J" if out.isatty() else ""
    print(clear + "\n".join(board), file=out, flush=True)


def event_of(record: ShotRecord, players: tuple[str, ...], over: bool) -> EventMessage:
    """The event message a judged shot makes on the board.

    ``players``: the players in the board's slots before the shot
    (:func:`hardware.board_players`); the event names the slot of the shot's player
    (with 3+ players the shooter is in the first slot), 0 when not shown.
    """
    v = record.verdict
    who = players.index(record.player) if record.player in players else 0
    if over:
        kind = EventKind.END
    elif v.review:
        kind = EventKind.REVIEW
    elif v.fouls:
        kind = EventKind.FOUL
    elif v.points > 0:
        kind = EventKind.POINT
    else:
        kind = EventKind.MISS
    return EventMessage(kind, who, _board_line(v.announcements) or v.reason or str(kind))


def _board_line(announcements: tuple[str, ...]) -> str:
    """A wrong break position, said short enough for a board (else '')."""
    wrong = next((a for a in announcements if a.startswith(WRONG_BREAK)), "")
    short = wrong.split(" (at most")[0].replace(WRONG_BREAK, "wrong break")
    for long, brief in ((" is ", " "), ("the ", ""), ("too far from", "from")):
        short = short.replace(long, brief)
    return short


def replay_to_scoreboard(
    shot_log_path: Path,
    url: str,
    *,
    delay_s: float = 0.5,
    discipline: Discipline | None = None,
    link: ScoreboardLink | None = None,
    baud: int = 19200,
) -> ScoreRun:
    """Score a shot log shot by shot and show every step on the board at ``url``.

    After each shot the new snapshot is published and an event message sent; then the
    replay waits ``delay_s``. At the end it waits (at most 2 s) for the board to have
    the last snapshot and events. ``discipline`` overrides the log's, as ``carom
    score`` does; ``link`` lets a caller pass a running link.

    Raises:
        ShotLogError: the log is malformed (before any shot is shown).
        ScoreboardError: no port opens at ``url`` within 2 s.
    """
    log = parse_shot_log(load_json(shot_log_path), discipline)
    match = Match(log.match)
    own = link is None
    board = link or _connect(url, baud=baud)
    lag = None
    try:
        board.publish(snapshot_from_state(match.state))
        try:
            lag = match.lag(log.lag) if log.lag is not None else None
        except CaromError as exc:
            return ScoreRun(match, lag, exc)
        for shot in log.shots:
            shown = board_players(match.state) if match.state.shooter else None
            try:
                record = match.play(shot)
            except CaromError as exc:
                return ScoreRun(match, lag, exc)
            _show(board, match, record, shown or board_players(match.state))
            time.sleep(delay_s)
        return ScoreRun(match, lag)
    finally:
        if own:
            board.flush(2.0)
            board.stop()


def _connect(url: str, wait_s: float = 2.0, baud: int = 19200) -> ScoreboardLink:
    """A started link whose port opened within ``wait_s``; else ScoreboardError."""
    link = ScoreboardLink(url, baud=baud).start()
    if link.flush(wait_s):
        return link
    link.stop()
    raise ScoreboardError(
        f"{url}: no scoreboard there ({link.status().last_error or 'no answer'}); "
        "start `carom scoreboard-emulator` or check the port"
    )


def _show(
    board: ScoreboardLink, match: Match, record: ShotRecord, players: tuple[str, str]
) -> None:
    """The snapshot after the shot; the event names the slot the shooter had before it."""
    state = match.state
    board.publish(snapshot_from_state(state, review=record.verdict.review is not None))
    board.send_event(event_of(record, players, state.phase is Phase.OVER))
