"""``carom scoreboard-emulator``: a scoreboard in a terminal, on a pty or a TCP port."""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from carom.cli._score import board_address
from hardware import Faults, ScoreboardEmulator
from referee import CaromError

__all__ = ["add_parser", "fault_values", "parse_faults", "run_emulator"]

#: Each fault: (what its value means, whether a value is allowed).
_FAULTS: dict[str, tuple[str, Callable[[float], bool]]] = {
    "drop": ("a per-byte probability from 0 to 1", lambda v: 0.0 <= v <= 1.0),
    "corrupt": ("a per-byte probability from 0 to 1", lambda v: 0.0 <= v <= 1.0),
    "delay-ack": ("seconds >= 0, or inf (acks never come)", lambda v: v >= 0.0),
    "reboot": ("seconds > 0 between reboots", lambda v: 0.0 < v < math.inf),
    "vanish": ("seconds > 0 between vanishings", lambda v: 0.0 < v < math.inf),
}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``scoreboard-emulator`` to the ``carom`` subcommands."""
    p = sub.add_parser(
        "scoreboard-emulator",
        help="an emulated scoreboard on a pty or TCP port, shown in the terminal",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--pty", action="store_true", help="open a pty and print its path (default)")
    where.add_argument(
        "--tcp", type=_port, metavar="PORT",
        help="listen on 127.0.0.1:PORT instead (0..65535; 0: a free one)",
    )  # fmt: skip
    p.add_argument(
        "--link", type=Path, metavar="PATH",
        help="also make PATH a symlink to the pty (a stable URL across restarts); "
        "nothing but an earlier symlink may be there",
    )  # fmt: skip
    p.add_argument("--addr", type=_address, default=0, metavar="N",
                   help="bus address 0..254, decimal or 0x hex (default 0)")  # fmt: skip
    p.add_argument(
        "--fault", action="append", default=[], type=_fault_option, metavar="NAME=VALUE[,...]",
        help="drop=P, corrupt=P (per-byte probability 0..1), delay-ack=S (inf: never), "
        "reboot=EVERY_S, vanish=EVERY_S (the port closes and a new one opens 1 s later); "
        "several in one option (drop=0.02,corrupt=0.01) or in several options",
    )  # fmt: skip
    p.add_argument("--seconds", type=_seconds, default=math.inf, metavar="S",
                   help="quit after S seconds (>= 0; default: at Ctrl-C)")  # fmt: skip


def _port(text: str) -> int:
    """``--tcp``: a TCP port, 0..65535 (0: the system picks a free one)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: use a port 0..65535 (0: a free one)")
    return value


def _address(text: str) -> int:
    """``--addr``: a board's bus address, as the host's ``--scoreboard-addr`` takes it."""
    return board_address(text)


def _seconds(text: str) -> float:
    """``--seconds``: a finite time >= 0 (NaN, inf and negatives are refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value < math.inf:
        raise argparse.ArgumentTypeError(
            f"{text!r}: use seconds >= 0 (leave it out to run until Ctrl-C)"
        )
    return value


def _check_link(link: Path) -> None:
    """Refuse a ``--link`` path the emulator cannot make, or would destroy (before it opens).

    Only a dangling symlink (an earlier emulator's, left by a crash: its pty is gone) is
    replaced; a file or a folder there is the user's, and a symlink to something that
    exists is a running emulator's pty (taken over, it was removed when the second one
    stopped) or the user's own. A probe symlink beside it shows the folder takes one.

    Raises:
        CaromError: what is wrong with the path, and the way out.
    """
    try:
        if link.is_symlink():
            if link.exists():
                raise CaromError(
                    f"--link {link}: points to {os.readlink(link)}, which is there (a running "
                    "emulator's pty, or your own file); stop that emulator or give another path"
                )
            return
        if link.exists():
            what = "a folder" if link.is_dir() else "a file"
            raise CaromError(
                f"--link {link}: {what} is there, not a symlink; the emulator would replace "
                "it: give a path where nothing is (or an earlier emulator's symlink)"
            )
        probe = link.with_name(f".{link.name}.{os.getpid()}.probe")
        probe.symlink_to(os.devnull)
    except OSError as exc:  # no such folder, not a folder, not writable, not searchable
        raise CaromError(
            f"--link {link}: cannot make a symlink there ({exc.strerror}); "
            "give a path in a folder you can write"
        ) from None
    probe.unlink(missing_ok=True)


def fault_values(text: str) -> dict[str, float]:
    """One ``--fault`` value, ``NAME=VALUE[,NAME=VALUE...]``, as checked numbers.

    Raises:
        CaromError: an unknown name, a missing or non-numeric value, a value out of its
            range (NaN never is), or a name given twice; the message names it.
    """
    values: dict[str, float] = {}
    for item in text.split(","):
        name, eq, number = (part.strip() for part in item.partition("="))
        if name not in _FAULTS:
            known = ", ".join(_FAULTS)
            raise CaromError(f"fault {item.strip()!r}: unknown name {name!r}; use {known}")
        meaning, allowed = _FAULTS[name]
        try:
            value = float(number) if eq else math.nan
        except ValueError:
            value = math.nan
        if not allowed(value):  # NaN fails every comparison
            raise CaromError(f"fault {item.strip()!r}: {name} takes {meaning}")
        if name in values:
            raise CaromError(f"fault {text!r}: {name} is given twice")
        values[name] = value
    return values


def _fault_option(text: str) -> str:
    """Check one ``--fault`` for argparse: refused at once, in one line."""
    try:
        fault_values(text)
    except CaromError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def parse_faults(specs: list[str]) -> tuple[Faults, float, float]:
    """``--fault`` values as (byte/ack faults, reboot period, vanish period), inf = never.

    Raises:
        CaromError: a value :func:`fault_values` refuses, or a name in two options.
    """
    values = {"drop": 0.0, "corrupt": 0.0, "delay-ack": 0.0, "reboot": math.inf, "vanish": math.inf}
    given: set[str] = set()
    for spec in specs:
        for name, value in fault_values(spec).items():
            if name in given:
                raise CaromError(f"fault {name} is given twice; give it once")
            given.add(name)
            values[name] = value
    faults = Faults(drop=values["drop"], corrupt=values["corrupt"], ack_delay_s=values["delay-ack"])
    return faults, values["reboot"], values["vanish"]


def _open(args: argparse.Namespace, faults: Faults) -> ScoreboardEmulator:
    if args.tcp is not None:
        return ScoreboardEmulator.listen_tcp(args.tcp, addr=args.addr, faults=faults)
    return ScoreboardEmulator.open_pty(link=args.link, addr=args.addr, faults=faults)


def run_emulator(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the emulator until Ctrl-C, SIGTERM (or ``--seconds``), redrawing the board.

    On the main thread both signals only set a flag the loop checks (every 0.2 s at
    most): it ends wherever it is, closes the port and removes the ``--link``
    symlink, then the handlers are as they were (a second signal while it stops is
    the default one). Off the main thread only ``--seconds`` ends it.
    """
    out = out or sys.stdout
    faults, reboot_s, vanish_s = parse_faults(args.fault)
    if args.link is not None and args.tcp is not None:
        raise CaromError(
            "--link makes a symlink to the emulator's pty; with --tcp there "
            "is none: leave out --link (the host uses socket://HOST:PORT)"
        )
    if args.link is not None:
        _check_link(args.link)
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        return _run(args, faults, (reboot_s, vanish_s), out, stop)
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def stopping(_signum: int, _frame: object) -> None:
        stop.set()  # a second signal while stopping is the default one
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    for sig, handler in before.items():
        if handler is not signal.SIG_IGN:  # a background job's Ctrl-C stays ignored
            signal.signal(sig, stopping)
    try:
        return _run(args, faults, (reboot_s, vanish_s), out, stop)
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


def _run(
    args: argparse.Namespace,
    faults: Faults,
    every_s: tuple[float, float],
    out: TextIO,
    stop: threading.Event,
) -> int:
    reboot_s, vanish_s = every_s
    emu = _open(args, faults)
    try:
        print(f"scoreboard emulator on {emu.url}", file=out, flush=True)
        start = last_reboot = last_vanish = time.monotonic()
        shown: list[str] = []
        while time.monotonic() - start < args.seconds and not stop.is_set():
            now = time.monotonic()
            if now - last_reboot >= reboot_s:
                emu.reboot()
                last_reboot = now
            if now - last_vanish >= vanish_s:
                emu.vanish()
                print("-- vanished; back in 1 s --", file=out, flush=True)
                if stop.wait(1.0):
                    break
                emu, last_vanish, shown = _open(args, faults), time.monotonic(), []
                print(f"scoreboard emulator on {emu.url}", file=out, flush=True)
            board = emu.render()
            if board != shown:
                _draw(board, out)
                shown = board
            emu.wait_for(_changed_from(board, stop), 0.2)
    finally:
        emu.stop()
    return 0


def _changed_from(board: list[str], stop: threading.Event) -> Callable[[ScoreboardEmulator], bool]:
    def changed(emu: ScoreboardEmulator) -> bool:
        return stop.is_set() or emu.render() != board

    return changed


def _draw(board: list[str], out: TextIO) -> None:
    clear = "\x1b[H\x1b[2J" if out.isatty() else ""
    print(clear + "\n".join(board), file=out, flush=True)
