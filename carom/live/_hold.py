"""One process at a time referees a match: a lock beside the database, dropped by the kernel.

Theory of operation. ``carom live`` and ``carom serve`` each write a match's journal. Two
of them on one match would take turns writing it: the store refuses the second writer's
next input (:mod:`carom.live._store`), but by then its scoreboard and pages have shown a
score that never counted. So the process that opens a match to referee it
(:meth:`carom.live.LiveSession.open`) holds a POSIX record lock on byte ``match_id`` of
``DB-holds``, a file beside the database (as SQLite's ``DB-wal`` and ``DB-shm``), and a
second process that opens the same match is refused at once with the holder's pid.

* The kernel drops a record lock when its process ends, however it ends (``kill -9``, a
  power cut): a crash never leaves a match held.
* Record locks belong to the process, not to a descriptor: the process that holds a
  match may open it again (the web console resuming its set-up) without refusing itself.
  For the same reason each holds file is opened once per process and kept open: closing
  any descriptor of a file would drop all of the process's locks on it.
* Reading a match (exports, the pages' history, ``carom matches``) holds nothing.
* Where no file can be made beside the database, or the system has no record locks,
  nothing is held and the store's own check is the only guard.
"""

from __future__ import annotations

import errno
import os
import struct
import sys
import threading
from pathlib import Path

from carom.live._store import LiveError

__all__ = ["held_line", "hold_match", "holds_path", "release_match"]

try:
    import fcntl
except ImportError:  # Windows: no record locks
    fcntl = None  # type: ignore[assignment]

_FILES: dict[Path, int] = {}  # holds file -> the process's one descriptor of it
_GUARD = threading.Lock()


def holds_path(db: Path) -> Path:
    """The holds file of the database ``db``: ``DB-holds`` beside it."""
    return db.with_name(db.name + "-holds")


def held_line(match_id: int, pid: int | None) -> str:
    """The one line that refuses to open a match another process referees."""
    who = f"another process (pid {pid})" if pid else "another process"
    return (
        f"match {match_id} is being refereed by {who}: a carom live or carom serve on this "
        "database; stop it first, then try again"
    )


def hold_match(db: Path, match_id: int) -> None:
    """Hold ``match_id`` of the database ``db`` for this process (module docstring).

    Raises:
        LiveError: another process holds it (:func:`held_line`).
    """
    fd = _descriptor(db)
    if fd is None:
        return
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, match_id)
    except OSError as exc:
        if exc.errno not in (errno.EACCES, errno.EAGAIN):
            return  # a file system without record locks: no hold
        raise LiveError(held_line(match_id, _holder_pid(fd, match_id))) from None


def held_by(db: Path, match_id: int) -> int | None:
    """The pid of another process holding ``match_id`` of ``db``; None: not held (or untold)."""
    fd = _descriptor(db)
    return None if fd is None else _holder_pid(fd, match_id)


def release_match(db: Path, match_id: int) -> None:
    """Let another process referee ``match_id`` of ``db`` (a no-op if not held)."""
    fd = _FILES.get(holds_path(db).resolve())
    if fd is not None:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, match_id)


def _descriptor(db: Path) -> int | None:
    """This process's descriptor of ``db``'s holds file, opened (made) once; None: none."""
    if fcntl is None:
        return None
    path = holds_path(db).resolve()
    with _GUARD:
        if path not in _FILES:
            try:
                _FILES[path] = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:
                return None  # a folder that takes no new file: no hold
        return _FILES[path]


def _holder_pid(fd: int, match_id: int) -> int | None:
    """The pid of the process holding byte ``match_id`` (Linux and macOS), else None."""
    if sys.platform.startswith("linux"):
        layout, fields = "hhqqi4x", (fcntl.F_WRLCK, os.SEEK_SET, match_id, 1, 0)
        at = 4
    elif sys.platform == "darwin":
        layout, fields = "qqihh", (match_id, 1, 0, fcntl.F_WRLCK, os.SEEK_SET)
        at = 2
    else:
        return None
    try:
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack(layout, *fields))
    except OSError:
        return None
    pid = int(struct.unpack(layout, answer)[at])
    return pid if pid > 0 else None
