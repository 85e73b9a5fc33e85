"""From the sources to the jobs: each video's options, key, folder name and status.

For every :class:`SourceEntry`: the options (the command line's, the manifest row's
fields over them), their digest, the video's SHA-256 (local files; taken again only
when the size or modification time changed since the last run's index) and so its
key. A video with the key of another is a ``duplicate`` of it (analysed once, counted
once): of the one the last run analysed under that key, else the first given. One
whose folder an earlier run finished under the same key is ``skipped``; the rest are
jobs. A URL is hashed by the worker that reads it.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from calibration import load_calibration
from carom.batch._fetch import display_name, is_url
from carom.batch._folders import PARTIAL, finished_key, read_marker
from carom.batch._index import INDEX, IndexEntry, PreviousIndex
from carom.batch._jobs import AnalysisSettings, JobStatus, VideoJob
from carom.batch._key import file_sha256, job_key, options_digest
from carom.batch._manifest import NAMES_SEP
from carom.batch._sources import SourceEntry
from carom.i18n import user_language
from carom.match import MatchFile, match_from_args
from carom.pipeline import check_calibration_table
from referee import CaromError

__all__ = ["PlannedVideo", "plan_batch"]

_CALIBRATION_MAX_BYTES = 1 << 20
#: Names the batch folder keeps for itself.
_RESERVED = frozenset({INDEX, PARTIAL, "stats.html", "stats-players.csv", "stats-matches.csv"})


@dataclass(slots=True)
class PlannedVideo:
    """A video of the batch: its index line, its job (``None``: nothing to run)."""

    entry: IndexEntry
    job: VideoJob | None
    #: The video's length from its header, for the ETA (``None``: unknown).
    expected_s: float | None = None


def plan_batch(
    sources: list[SourceEntry],
    base: argparse.Namespace,
    out_dir: Path,
    previous: PreviousIndex,
    version: str,
    hashing: Callable[[int, int], None] | None = None,
) -> list[PlannedVideo]:
    """Every video's plan, in the order given (``hashing(done, total)`` hears the hashing).

    Raises:
        CaromError: a manifest row's options or calibration are wrong (one line).
    """
    seen = []
    for i, src in enumerate(sources):
        settings = _settings(base, src)
        digest = options_digest(settings, version)
        entry = IndexEntry(name="", source=src.source)
        if not is_url(src.source):
            _hash(entry, Path(src.source), previous, src.where)
        key = job_key(entry.sha256, digest) if entry.sha256 else f"url:{src.source}:{digest}"
        seen.append((src, settings, digest, entry, key))
        if hashing is not None:
            hashing(i + 1, len(sources))
    owner = _owners([(src.source, key) for src, *_, key in seen], previous)
    names: dict[str, str] = {}
    taken: set[str] = set()
    kept = _kept_names(sources, previous)
    for i in sorted(set(owner.values())):  # the owners' folders, in the order given
        src, *_, key = seen[i]
        names[key] = _name(src, previous, taken, key, kept, out_dir)
    plans: list[PlannedVideo] = []
    for i, (src, settings, digest, entry, key) in enumerate(seen):
        entry.name = names[key]
        if owner[key] != i:
            entry.duplicate_of, entry.status = names[key], JobStatus.DUPLICATE
            plans.append(PlannedVideo(entry, None))
        else:
            plans.append(_planned(entry, src, settings, digest, key, out_dir))
    return plans


def _owners(keyed: list[tuple[str, str]], previous: PreviousIndex) -> dict[str, int]:
    """For each key, the source that is analysed (the others are its duplicates).

    The one the last run analysed under that key, else the first given: with the
    sources in another order, a copy listed first took the folder's name and the video
    finished under it was analysed again.
    """
    owner: dict[str, int] = {}
    for i, (source, key) in enumerate(keyed):
        first = owner.get(key)
        if first is None or ((source, key) in previous.named
                             and keyed[first] not in previous.named):  # fmt: skip
            owner[key] = i
    return owner


def _planned(
    entry: IndexEntry, src: SourceEntry, settings: AnalysisSettings, digest: str, key: str,
    out_dir: Path,
) -> PlannedVideo:  # fmt: skip
    done = finished_key(out_dir / entry.name)
    if done is not None:
        _figures(entry, out_dir / entry.name)
    if entry.sha256 is None:  # a URL: the worker hashes it and compares with ``done``
        job = VideoJob(source=src.source, name=entry.name, settings=settings,
                       options_digest=digest, done_key=done)  # fmt: skip
        return PlannedVideo(entry, job)
    entry.key = key
    if done == key:
        entry.status = JobStatus.SKIPPED
        return PlannedVideo(entry, None)
    job = VideoJob(source=src.source, name=entry.name, settings=settings,
                   options_digest=digest, key=key)  # fmt: skip
    return PlannedVideo(entry, job, _duration_s(Path(src.source)))


def _figures(entry: IndexEntry, folder: Path) -> None:
    """The figures of a finished folder (for a video skipped: the index keeps them)."""
    marker = read_marker(folder) or {}
    video_s, frames, shots = marker.get("video_s"), marker.get("frames"), marker.get("shots")
    entry.video_s = float(video_s) if isinstance(video_s, int | float) else 0.0
    entry.frames = frames if isinstance(frames, int) else 0
    entry.shots = shots if isinstance(shots, int) else 0


def _players(value: str, where: str) -> list[str]:
    """A row's ``players``: a cell as ``--players`` takes it, a JSON list's names as given."""
    if NAMES_SEP not in value:
        return [value]
    names = value.split(NAMES_SEP)
    if (comma := next((n for n in names if "," in n), None)) is not None:
        raise CaromError(f"{where}: --players: a name may not hold a comma ({comma!r}); "
                         "write it without one")  # fmt: skip
    return names


def _settings(base: argparse.Namespace, src: SourceEntry) -> AnalysisSettings:
    """The command line's options with the manifest row's fields over them."""
    args = copy.copy(base)
    for name, value in src.fields.items():
        if name == "players":
            args.players = _players(value, src.where)
        elif name in ("match", "calibration"):
            setattr(args, name, Path(value))
        elif name != "name":
            setattr(args, name, value)
    try:
        match = match_from_args(args)
        calibration = _calibration(args.calibration, match)
    except CaromError as exc:
        raise CaromError(f"{src.where}: {exc}" if src.where else str(exc)) from None
    return AnalysisSettings(
        match=match, calibration=calibration, annotate=args.annotate,
        trajectories=args.trajectories, fast_decode=args.fast_decode, detector=args.detector,
        lang=user_language(args.lang),
    )  # fmt: skip


def _calibration(path: Path | None, match: MatchFile) -> tuple[str, bytes] | None:
    """The calibration file's name and bytes (the workers may not see this machine's files).

    Read and checked here, before any work: a file that is no calibration, or one of
    another table than the match's, is the command's one line (exit status 2), not a
    failure of every video naming the workers' copy.
    """
    if path is None:
        return None
    try:
        if path.stat().st_size > _CALIBRATION_MAX_BYTES:
            raise CaromError(f"--calibration {path}: more than 1 MB, not a calibration file; "
                             "give the file carom calibrate wrote")  # fmt: skip
        data = path.read_bytes()
    except OSError as exc:
        raise CaromError(f"--calibration {path}: cannot read it ({exc.strerror or exc}); "
                         "check the path") from None  # fmt: skip
    check_calibration_table(load_calibration(path), match.config(camera=True).table, path)
    return path.name, data


def _hash(entry: IndexEntry, path: Path, previous: PreviousIndex, where: str = "") -> None:
    """The file's SHA-256, from the last index when its size and time are unchanged.

    Raises:
        CaromError: the file cannot be read (``where``: the manifest's row that names it).
    """
    try:
        st = path.stat()
        cached = previous.hashes.get(entry.source)
        if cached is not None and cached[:2] == (st.st_size, st.st_mtime_ns):
            sha = cached[2]
        else:
            sha = file_sha256(path)
    except OSError as exc:
        row = f"{where}: " if where else ""
        if isinstance(exc, FileNotFoundError):
            fix = "check the path" + (" (a manifest's are from its own folder)" if where else "")
        elif isinstance(exc, IsADirectoryError):
            fix = "give a video file" + (" (a folder is a source of its own)" if where else "")
        else:
            fix = "check its rights"
        raise CaromError(f"{row}{path}: cannot read the video ({exc.strerror or exc}); "
                         f"{fix}") from None  # fmt: skip
    entry.sha256, entry.size_bytes, entry.mtime_ns = sha, st.st_size, st.st_mtime_ns


def _kept_names(sources: list[SourceEntry], previous: PreviousIndex) -> set[str]:
    """The folder names the last run gave the sources of this batch (theirs to keep)."""
    given = {s.source for s in sources}
    kept = {n for (source, _), n in previous.named.items() if source in given}
    return kept | {n for source, n in previous.names.items() if source in given}


def _name(
    src: SourceEntry, previous: PreviousIndex, taken: set[str], key: str, kept: set[str],
    out_dir: Path,
) -> str:  # fmt: skip
    """The results folder: the manifest's, the last run's, the file name, or it with the key.

    The last run's name is looked up by source and key first (one video under two
    sets of options has two folders), and a name kept for another source is not taken
    (a new video of the same file name does not take an earlier one's folder), nor one
    whose folder holds another video's results (an earlier run of other sources: its
    marker names them).
    """
    own = previous.named.get((src.source, key)) or previous.names.get(src.source)
    given = src.fields.get("name") or own
    stem = _clean(given or Path(display_name(src.source)).stem)

    def blocked(n: str) -> bool:
        return (n in taken or (n in kept and n != own)
                or _holds_another(out_dir / n, src.source, key))  # fmt: skip

    name = stem if not blocked(stem) and stem not in _RESERVED else f"{stem}-{_short(key)}"
    if blocked(name):
        raise CaromError(f"{src.where or src.source}: the results folder {name!r} is taken "
                         "by another video; give another name")  # fmt: skip
    taken.add(name)
    return name


def _holds_another(folder: Path, source: str, key: str) -> bool:
    """``folder`` holds the results of another video than ``source`` (with another key)."""
    marker = read_marker(folder)
    return marker is not None and marker.get("source") != source and marker.get("key") != key


def _short(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def _clean(name: str) -> str:
    """A folder name: letters, digits, ``. _ -`` kept, the rest ``_``; never hidden or empty."""
    kept = "".join(c if c.isalnum() or c in "._-" else "_" for c in name).lstrip(".")
    return kept or "video"


def _duration_s(path: Path) -> float | None:
    """The video's length from its header (``None``: unreadable; the worker will say)."""
    from vision import VideoError, VideoFileSource

    try:
        source = VideoFileSource(path)
    except VideoError:
        return None
    try:
        return source.header_duration_s
    finally:
        source.close()
