"""Whether an MP4 / MOV file was cut off before its index was written.

A camera or a screen recorder writes the ``moov`` box (the index of every frame) when
the recording ends; a recording cut off (power, a full card, a killed recorder) keeps
its ``mdat`` (the frames) and has no index, and FFmpeg says only "Invalid data found".
The top-level boxes are walked by their headers (size, type); nothing else is read.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

__all__ = ["index_missing"]

#: Top-level boxes walked at most (a real file has a handful).
_MAX_BOXES = 10_000


def index_missing(path: Path) -> bool:
    """True when ``path`` is an ISO media file (``ftyp`` first) with frames but no index."""
    try:
        with path.open("rb") as f:
            size = f.seek(0, 2)
            kinds = _top_level_kinds(f, size)
    except OSError:
        return False
    return bool(kinds) and kinds[0] == b"ftyp" and b"mdat" in kinds and b"moov" not in kinds


def _top_level_kinds(f: BinaryIO, size: int) -> list[bytes]:
    """The types of the top-level boxes of the open binary file ``f`` of ``size`` bytes."""
    kinds: list[bytes] = []
    at = 0
    while at + 8 <= size and len(kinds) < _MAX_BOXES:
        f.seek(at)
        length, kind = struct.unpack(">I4s", f.read(8))
        if length == 1:  # a 64-bit size follows the type
            wide = f.read(8)
            length = struct.unpack(">Q", wide)[0] if len(wide) == 8 else 0
        elif length == 0:  # the box runs to the end of the file
            length = size - at
        kinds.append(kind)
        if length < 8:
            break  # not a box header: the walk ends here
        at += length
    return kinds
