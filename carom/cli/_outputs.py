"""Outputs a command will write, refused before any work when they cannot be written.

One line naming the option and the way out (exit status 2). Whether a file can be made in
a folder is found by making one (:func:`carom.files.cannot_write_in`): ``os.access``
says yes to root everywhere, ``/proc`` and read-only mounts included.
"""

from __future__ import annotations

import os
from pathlib import Path

from carom.files import cannot_write_in

__all__ = ["check_out_folder", "check_output", "path_arg"]


def check_output(path: Path, option: str) -> None:
    """Refuse, before any work, an output file ``path`` that could not be written.

    Its folder is made if missing; a folder at ``path``, a file where a folder should
    be, or a folder we may not write to is one line naming ``option``.

    Raises:
        CaromError: the line.
    """
    from referee import CaromError  # not at import: the parser is built without it

    if path.is_dir():
        raise CaromError(f"{option} {path}: is a folder; give a file name")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = "a file is in the way" if isinstance(exc, FileExistsError) else exc.strerror
        raise CaromError(f"{option} {path}: cannot make its folder ({why}); "
                         "give a path you may write to") from None  # fmt: skip
    why = cannot_write_in(path.parent)
    if why is None and path.exists() and not os.access(path, os.W_OK):
        why = "the file is read-only"
    if why is not None:
        raise CaromError(f"{option} {path}: not writable ({why}); give a path you may write to")


def check_out_folder(folder: Path, option: str) -> None:
    """Refuse, before any work, a results ``folder`` that could not be made or written.

    Nothing is made: the folder, or its nearest existing parent when it is missing,
    is checked.

    Raises:
        CaromError: the line.
    """
    from referee import CaromError  # not at import: the parser is built without it

    there = next(p for p in (folder, *folder.parents) if p.exists() or p == p.parent)
    if not there.is_dir():
        raise CaromError(f"{option} {folder}: {there} is a file, not a folder; "
                         "give a folder (it is made if missing)")  # fmt: skip
    if (why := cannot_write_in(there)) is not None:
        raise CaromError(f"{option} {folder}: cannot write there ({why}); "
                         "give a folder you may write to")  # fmt: skip


def path_arg(text: str) -> Path:
    """An argparse ``type`` for an output path: an empty one (``--out ''``) is refused.

    ``Path("")`` is the current folder: the results went there unasked.
    """
    import argparse

    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; give a file or folder name")
    return Path(text)
