"""``carom scoreboard-emulator``'s options: bad values refused before anything, nothing lost.

``--link`` never replaces what is not a symlink (a user's file or folder), and a path
where no symlink can be made is one line with status 2, not an internal error;
``--tcp``, ``--addr`` and ``--seconds`` out of range are usage errors (status 2).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from carom.cli._emulator import add_parser
from hardware import ScoreboardEmulator, ScoreboardError
from tests.carom.cli._in_process import carom_in_process, usage_error


def _carom(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "carom"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=60)


def _one_line(out: subprocess.CompletedProcess[str]) -> str:
    """The one ``carom: ...`` line of a command refused with status 2."""
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("carom: "), out.stderr
    assert out.stdout == ""
    return out.stderr.strip()


def test_a_file_at_the_link_path_is_refused_and_kept(tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("the only copy\n", encoding="utf-8")
    out = _carom("scoreboard-emulator", "--link", str(precious), "--seconds", "1")
    assert _one_line(out) == (
        f"carom: --link {precious}: a file is there, not a symlink; the emulator would replace "
        "it: give a path where nothing is (or an earlier emulator's symlink)"
    )
    assert not precious.is_symlink() and precious.read_text(encoding="utf-8") == "the only copy\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.txt"]  # no probe left


def test_a_folder_at_the_link_path_is_refused_and_kept(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "inside").write_text("kept", encoding="utf-8")
    line = _one_line(carom_in_process("scoreboard-emulator", "--link", str(folder)))
    assert line.startswith(f"carom: --link {folder}: a folder is there, not a symlink;")
    assert (folder / "inside").read_text(encoding="utf-8") == "kept"
    root = _one_line(carom_in_process("scoreboard-emulator", "--link", "/"))  # no name at all
    assert root.startswith("carom: --link /: a folder is there, not a symlink;")


@pytest.mark.parametrize("where", ["nodir/x", "file/x", "/proc/carom-board"])
def test_a_link_where_no_symlink_can_be_made_is_one_line(tmp_path: Path, where: str) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    link = tmp_path / where if not where.startswith("/") else Path(where)
    line = _one_line(carom_in_process("scoreboard-emulator", "--link", str(link)))
    assert line.startswith(f"carom: --link {link}: cannot make a symlink there (")
    assert line.endswith("); give a path in a folder you can write")


def test_a_stale_symlink_of_an_earlier_emulator_is_replaced_then_removed(tmp_path: Path) -> None:
    link = tmp_path / "board"
    link.symlink_to("/dev/pts/no-such-pty")  # an emulator killed with -9 left it
    out = _carom("scoreboard-emulator", "--link", str(link), "--seconds", "0")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"scoreboard emulator on {link}\n")
    assert not link.is_symlink()  # re-pointed at the pty, so removed with it
    assert list(tmp_path.iterdir()) == []


def test_the_library_never_replaces_a_file_either(tmp_path: Path) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("kept", encoding="utf-8")
    with pytest.raises(ScoreboardError, match="not a symlink"):
        ScoreboardEmulator.open_pty(link=precious)
    assert precious.read_text(encoding="utf-8") == "kept"


@pytest.mark.parametrize("port", ["-1", "70000", "65536", "http", "1.5"])
def test_a_port_out_of_range_is_a_usage_error(port: str) -> None:
    line = usage_error(carom_in_process("scoreboard-emulator", "--tcp", port), "--tcp")
    assert line.endswith(f"{port!r}: use a port 0..65535 (0: a free one)")


def test_a_port_out_of_range_is_refused_by_the_real_command() -> None:
    usage_error(_carom("scoreboard-emulator", "--tcp", "70000"), "--tcp")


def test_port_0_listens_on_a_free_one() -> None:
    out = carom_in_process("scoreboard-emulator", "--tcp", "0", "--seconds", "0")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("scoreboard emulator on socket://127.0.0.1:")
    assert not out.stdout.startswith("scoreboard emulator on socket://127.0.0.1:0\n")


@pytest.mark.parametrize("addr", ["999", "-1", "255", "0xFF", "0x100", "board", ""])
def test_an_address_off_the_bus_is_a_usage_error(addr: str) -> None:
    line = usage_error(carom_in_process("scoreboard-emulator", "--addr", addr), "--addr")
    assert "use a bus address 0..254, decimal or hex 0x00..0xFE" in line


@pytest.mark.parametrize(("addr", "value"), [("0", 0), ("17", 17), ("0x1f", 31), ("254", 254)])
def test_an_address_on_the_bus_is_taken_decimal_or_hex(addr: str, value: int) -> None:
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command"))
    assert parser.parse_args(["scoreboard-emulator", "--addr", addr]).addr == value
    out = carom_in_process("scoreboard-emulator", "--tcp", "0", "--addr", addr, "--seconds", "0")
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("seconds", ["-1", "nan", "inf", "-inf", "soon"])
def test_a_time_that_is_no_time_is_a_usage_error(seconds: str) -> None:
    out = carom_in_process("scoreboard-emulator", f"--seconds={seconds}")
    line = usage_error(out, "--seconds")
    assert line.endswith(f"{seconds!r}: use seconds >= 0 (leave it out to run until Ctrl-C)")


def test_a_negative_time_is_refused_by_the_real_command() -> None:
    usage_error(_carom("scoreboard-emulator", "--seconds", "-1"), "--seconds")


def test_a_link_to_a_live_pty_or_a_file_is_refused_and_tcp_takes_no_link(tmp_path: Path) -> None:
    """A second emulator took a running one's link over and removed it when it stopped
    (the first ran on without it); ``--tcp`` with ``--link`` left the link out silently."""
    master, slave = os.openpty()  # a running emulator's pty
    try:
        link = tmp_path / "board"
        link.symlink_to(os.ttyname(slave))
        line = _one_line(
            carom_in_process("scoreboard-emulator", "--link", str(link), "--seconds", "1")
        )  # no hang if it is not refused
        assert line == (f"carom: --link {link}: points to {os.ttyname(slave)}, which is there (a "
                        "running emulator's pty, or your own file); stop that emulator or give "
                        "another path")  # fmt: skip
        assert os.readlink(link) == os.ttyname(slave)  # kept as it was
    finally:
        os.close(master)
        os.close(slave)
    precious = tmp_path / "precious.txt"
    precious.write_text("kept", encoding="utf-8")
    line = _one_line(carom_in_process("scoreboard-emulator", "--tcp", "0", "--link",
                                      str(precious), "--seconds", "0"))  # fmt: skip
    assert line.startswith("carom: --link makes a symlink to the emulator's pty; with --tcp")
    assert precious.read_text(encoding="utf-8") == "kept" and not os.path.islink(precious)
