"""The videos a batch is given: files, folders, glob patterns, URLs and manifests.

``carom batch SOURCES...`` takes any mix of

* a video file (any name: the analysis says if it is not a video);
* a folder: every video under it (``.mp4 .mkv .avi .mov .ts .m4v .webm .mpg .mpeg``
  at any depth; hidden folders and the batch's own output folder left out);
* a glob pattern (``'season/**/*.mp4'``; quote it so the shell leaves it alone);
* an ``http``, ``https`` or ``file`` URL (read by the worker, not by this machine);
* a manifest, ``.csv`` or ``.json``: one video a row with its own set-up
  (:mod:`carom.batch._manifest`).

Each becomes a :class:`SourceEntry`: the source and the manifest fields over the
command line's options (none for a plain source), in the order given.
"""

from __future__ import annotations

import glob
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from carom.batch._fetch import is_url
from carom.batch._manifest import is_manifest, read_manifest
from carom.files import check_utf8_name
from referee import CaromError

__all__ = ["VIDEO_SUFFIXES", "SourceEntry", "expand_sources"]

VIDEO_SUFFIXES = frozenset(
    {".mp4", ".mkv", ".avi", ".mov", ".ts", ".m4v", ".webm", ".mpg", ".mpeg"}
)


@dataclass(frozen=True, slots=True)
class SourceEntry:
    """One video: a path or URL, and the manifest's fields for it (``where``: its row)."""

    source: str
    fields: Mapping[str, str] = field(default_factory=dict)
    where: str = ""


def expand_sources(sources: Sequence[str], out_dir: Path) -> list[SourceEntry]:
    """Every video the ``sources`` name, in order; nothing under ``out_dir``.

    Raises:
        CaromError: a source is neither a file, a folder, a URL nor a pattern that
            matches a file, or a manifest is wrong (one line naming it).
    """
    if not sources:
        raise CaromError("no videos: give video files, folders, glob patterns, URLs or a manifest")
    out = out_dir.resolve()
    entries: list[SourceEntry] = []
    for source in sources:
        entries.extend(_expand(source, out))
    return entries


def _expand(source: str, out: Path) -> Iterator[SourceEntry]:
    if is_url(source):
        yield SourceEntry(source)
        return
    path = Path(source)
    if path.is_file() and is_manifest(path):
        yield from (SourceEntry(s, f, w) for s, f, w in read_manifest(path))
    elif path.is_file():
        yield SourceEntry(source)
    elif path.is_dir():
        videos = _videos_under(path)
        found = [p for p in videos if not p.resolve().is_relative_to(out)]
        if videos and not found:  # every one under --out: the results folder itself
            raise CaromError(f"{source}: its videos are all under --out {out}, where the "
                             "results go (never read as sources); give --out another "
                             "folder")  # fmt: skip
        if not found:
            kinds = " ".join(sorted(VIDEO_SUFFIXES))
            raise CaromError(f"{source}: no video in this folder (looked for {kinds}); "
                             "give another folder")  # fmt: skip
        for p in found:
            check_utf8_name(p)
        yield from (SourceEntry(str(p)) for p in found)
    elif glob.has_magic(source):
        matched = sorted(Path(p) for p in glob.glob(source, recursive=True))
        files = [p for p in matched if p.is_file() and not p.resolve().is_relative_to(out)]
        if not files:
            raise CaromError(f"{source}: the pattern matches no file; check it (quote it so "
                             "the shell leaves it to carom)")  # fmt: skip
        for p in files:
            check_utf8_name(p)
        yield from (SourceEntry(str(p)) for p in files)
    else:
        raise CaromError(f"{source}: no such file or folder; give a video, a folder, a glob "
                         "pattern, a URL or a manifest (.csv, .json)")  # fmt: skip


def _videos_under(folder: Path) -> list[Path]:
    """Videos under ``folder`` in path order, not looking into hidden folders."""
    found = []
    for path in sorted(folder.rglob("*")):
        hidden = any(part.startswith(".") for part in path.relative_to(folder).parts)
        if not hidden and path.is_file() and path.suffix.lower() in VIDEO_SUFFIXES:
            found.append(path)
    return found
