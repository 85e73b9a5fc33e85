"""Files the app writes whole: a reader (a web page, ``carom score``) never sees half of one.

:func:`cannot_write_in` asks a folder, before any work, whether a file can be made in it:
by making one (``os.access`` says yes to root everywhere, ``/proc`` included, and knows
nothing of a read-only mount).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["cannot_write_in", "write_json_atomic"]


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
