"""The batch index, ``DIR/batch.json`` (``carom-batch/1``, docs/batch.md).

One entry a video given (``videos``): its source, results folder (``name``), status
(``done``, ``failed``, ``skipped``, ``duplicate``), error, key, SHA-256, size and
modification time (a rerun hashes again only a file whose size or time changed),
seconds of video and frames analysed, shots, the worker and its time; and the run's
summary (``run``). It is rewritten whole (atomic replace) after every video, so a
kill leaves the last complete state. The folders' markers, not the index, decide
what a rerun skips (:mod:`carom.batch._folders`): the index only saves hashing and
keeps each source's folder name from run to run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from carom.batch._jobs import JobStatus
from carom.files import write_json_atomic

__all__ = ["INDEX", "IndexEntry", "PreviousIndex", "read_previous", "write_index"]

INDEX = "batch.json"
_FORMAT = "carom-batch/1"


@dataclass(slots=True, kw_only=True)
class IndexEntry:
    """A video's line in the index (filled in as the batch goes on)."""

    name: str
    source: str
    status: JobStatus | None = None
    error: str | None = None
    key: str | None = None
    sha256: str | None = None
    size_bytes: int | None = None
    mtime_ns: int | None = None
    duplicate_of: str | None = None
    video_s: float = 0.0
    frames: int = 0
    shots: int = 0
    work_s: float = 0.0
    worker: str = ""
    notes: list[str] = field(default_factory=list)

    def doc(self) -> dict[str, Any]:
        """As the index writes it (``status`` null: not run yet, e.g. after Ctrl-C)."""
        out = asdict(self)
        out["status"] = None if self.status is None else str(self.status)
        out["video_s"], out["work_s"] = round(self.video_s, 3), round(self.work_s, 3)
        return out


@dataclass(frozen=True, slots=True)
class PreviousIndex:
    """What an earlier run's index tells this one: hashes by file state, names by source."""

    #: source -> (size, mtime_ns, sha256)
    hashes: Mapping[str, tuple[int, int, str]] = field(default_factory=dict)
    #: source -> the folder name it had (the first, if it had several: other options)
    names: Mapping[str, str] = field(default_factory=dict)
    #: (source, key) -> the folder name it had under that key
    named: Mapping[tuple[str, str], str] = field(default_factory=dict)


def read_previous(out_dir: Path) -> PreviousIndex:
    """The earlier run's index in ``out_dir`` (empty if none or unreadable: then we hash)."""
    try:
        doc = json.loads((out_dir / INDEX).read_text(encoding="utf-8"))
        videos = doc["videos"] if doc.get("format") == _FORMAT else []
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return PreviousIndex()
    hashes: dict[str, tuple[int, int, str]] = {}
    names: dict[str, str] = {}
    named: dict[tuple[str, str], str] = {}
    for v in videos if isinstance(videos, list) else []:
        if not isinstance(v, dict) or not isinstance(v.get("source"), str):
            continue
        src = v["source"]
        if isinstance(v.get("name"), str) and v.get("duplicate_of") is None:
            names.setdefault(src, v["name"])
            if isinstance(v.get("key"), str):
                named[src, v["key"]] = v["name"]
        size, mtime, sha = v.get("size_bytes"), v.get("mtime_ns"), v.get("sha256")
        if isinstance(size, int) and isinstance(mtime, int) and isinstance(sha, str):
            hashes[src] = (size, mtime, sha)
    return PreviousIndex(hashes, names, named)


def write_index(out_dir: Path, entries: list[IndexEntry], run: Mapping[str, Any]) -> None:
    """Rewrite ``DIR/batch.json`` whole."""
    doc = {"format": _FORMAT, "run": dict(run), "videos": [e.doc() for e in entries]}
    write_json_atomic(out_dir / INDEX, doc)
