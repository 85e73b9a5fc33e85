"""Files the app writes whole: a reader (a web page, ``carom score``) never sees half of one.

:func:`cannot_write_in` asks a folder, before any work, whether a file can be made in it:
by making one (``os.access`` says yes to root everywhere, ``/proc`` included, and knows
nothing of a read-only mount). :func:`make_folder` makes a command's output folder with
that check, one line naming the way out when it cannot. :func:`work_prefix` names a
process's private temporary folders after the machine and the process, so that those a
killed process left can be told from a running one's and removed
(:func:`remove_left_by_ended`), and a process about to end at once can remove its own
(:func:`remove_own`).
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import socket
import tempfile
from pathlib import Path
from typing import Any

from referee import CaromError

__all__ = [
    "cannot_write_in",
    "check_utf8_name",
    "make_folder",
    "not_utf8",
    "remove_empty",
    "remove_left_by_ended",
    "remove_own",
    "work_prefix",
    "write_json_atomic",
]

#: This machine in the names of private folders: 6 hex digits of its host name (a
#: folder may be shared by machines, whose processes this one cannot see).
_HOST = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:6]


def not_utf8(text: str) -> str | None:
    r"""``text`` with the bytes that are not UTF-8 shown as ``\xe9``; None if it is UTF-8.

    Python keeps such bytes of a file name (or an argument) as lone surrogates.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return None


def check_utf8_name(path: Path) -> None:
    r"""Refuse a file found in a folder or by a pattern whose name is not UTF-8.

    Python keeps such bytes as lone surrogates, which no file, terminal or JSON index
    can be written with (the analysis ran, then failed with an internal error).

    Raises:
        CaromError: one line, the name's bytes shown as ``\xe9``.
    """
    if (shown := not_utf8(str(path))) is not None:
        raise CaromError(f"{shown}: its name is not UTF-8 text (written in another "
                         "encoding); rename it with UTF-8 letters")  # fmt: skip


def write_json_atomic(path: Path, doc: Any) -> None:
    """Write ``doc`` as JSON to ``path`` (made with its folders) by an atomic replace."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def cannot_write_in(folder: Path) -> str | None:
    """Why no file can be made in ``folder`` (an existing folder), or None when one can.

    A file is made there and removed again: the only answer that holds for every user,
    file system and mount.
    """
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".carom-check-")
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    os.close(fd)
    os.unlink(name)
    return None


def make_folder(folder: Path, option: str, what: str = "") -> list[Path]:
    """Make ``folder`` (given as ``option``) if missing; the folders made, deepest first.

    ``what`` names what goes there in the messages ("the results"). A file in the way,
    a folder that cannot be made or one no file can be written in: one line
    (:class:`CaromError`) naming the way out; in the last case the folders made now are
    removed again.
    """
    made = [p for p in (folder, *folder.parents) if not p.exists()]
    for_what = f" for {what}" if what else ""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CaromError(f"{option} {folder}: is a file, not a folder; give a folder{for_what} "
                         "(it is made if missing)") from None  # fmt: skip
    except OSError as exc:
        raise CaromError(f"{option} {folder}: cannot make the folder{for_what} "
                         f"({exc.strerror}); give a folder you may write to") from None  # fmt: skip
    if (why := cannot_write_in(folder)) is not None:
        remove_empty(made)
        there = f"{what} there" if what else "there"
        raise CaromError(f"{option} {folder}: cannot write {there} ({why}); "
                         "give a folder you may write to")  # fmt: skip
    return made


def remove_empty(folders: list[Path]) -> None:
    """Remove those of ``folders`` (deepest first) that are empty folders."""
    for folder in folders:
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


def work_prefix(name: str, pid: int | None = None) -> str:
    """``NAME-HOST-PID-``: the prefix of a private folder of process ``pid`` (this one)."""
    return f"{name}-{_HOST}-{os.getpid() if pid is None else pid}-"


def remove_left_by_ended(folder: Path, name: str, pids: list[int] | None = None) -> int:
    """Remove the ``work_prefix(name)`` folders in ``folder`` whose process has ended.

    Only this machine's, and only those of ``pids`` when given (a pool's killed
    workers); a running process keeps its folder. Returns how many were removed.
    """
    removed = 0
    prefix = f"{name}-{_HOST}-"
    for path in folder.glob(f"{glob.escape(prefix)}*"):
        pid = path.name[len(prefix) :].split("-", 1)[0]
        if not pid.isdigit() or (pids is not None and int(pid) not in pids):
            continue
        if path.is_dir() and not _running(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
            removed += not path.exists()
    return removed


def remove_own(folder: Path, name: str) -> None:
    """Remove this process's ``work_prefix(name)`` folders in ``folder`` (before it ends)."""
    for path in folder.glob(f"{glob.escape(work_prefix(name))}*"):
        shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine (another user's included).

    A zombie (ended, not yet reaped by its parent) has ended.
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc (macOS): it exists
    return state != "Z"
