"""Reading the app's JSON and TOML documents from disk within limits (docs/shot-log.md).

The size is checked from ``stat`` before a byte is read, then the bytes go to
:func:`referee.jsonbound.decode_document` (nesting, digits, size again). The shot log
and the match file both come through here; the calibration file through the same
decoder (calibration cannot import the app).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee import CaromError
from referee.jsonbound import DocumentLimits, decode_document

__all__ = ["MATCH_FILE_LIMITS", "SHOT_LOG_LIMITS", "media_kind", "read_document"]

#: A shot log: a long match with evidence on every event stays far below it.
SHOT_LOG_LIMITS = DocumentLimits(max_bytes=64 << 20)
#: A match file: a few hundred bytes in practice.
MATCH_FILE_LIMITS = DocumentLimits(max_bytes=1 << 20)


def read_document(
    path: Path,
    source: str,
    limits: DocumentLimits,
    error: type[CaromError],
    fix: str,
    *,
    toml: bool = False,
) -> Any:
    """The decoded document in ``path`` (JSON, or TOML); one-line ``error`` otherwise.

    ``source`` names the file in messages; ``fix`` is the way out said at their end.
    """
    try:
        limits.check_size(path.stat().st_size, source, error, fix)
        with path.open("rb") as f:
            raw = f.read(limits.max_bytes + 1)  # never more than the limit, even if it grew
    except FileNotFoundError:
        raise error(f"{source}: cannot read it: no such file; check the path") from None
    except OSError as exc:
        raise error(f"{source}: cannot read it ({exc.strerror or exc}); {fix}") from None
    return decode_document(raw, source, limits, error, fix, toml=toml)


def media_kind(path: Path) -> str | None:
    """The kind of video or picture ``path`` holds by its first bytes, or None.

    ``"an MP4 (or MOV) video"``, ``"a picture"``; None for anything else (or a file that
    cannot be read: the reader says why). A document reader refuses such a file with
    the command that reads it, not "not UTF-8 text (0xfc at byte 43)".
    """
    try:
        with path.open("rb") as f:
            head = f.read(192)
    except OSError:
        return None
    if head[4:8] == b"ftyp":
        return "an MP4 (or MOV) video"
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "a Matroska (MKV or WebM) video"
    if head.startswith(b"RIFF") and head[8:12] == b"AVI ":
        return "an AVI video"
    if len(head) > 188 and head[0] == head[188] == 0x47:
        return "an MPEG-TS video"
    if head.startswith((b"\xff\xd8\xff", b"\x89PNG")):
        return "a picture"
    return None
