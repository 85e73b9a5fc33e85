"""``carom scoreboard-emulator``: a scoreboard in a terminal, on a pty or a TCP port."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from hardware import Faults, ScoreboardEmulator, ScoreboardError

__all__ = ["add_parser", "parse_faults", "run_emulator"]

_FAULTS = ("drop", "corrupt", "delay-ack", "reboot", "vanish")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
