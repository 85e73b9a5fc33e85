"""Finding the shot logs of a season and replaying each through the referee core.

A folder is searched to any depth for ``shots.json`` (what ``carom batch`` and
``carom analyze`` write, ``DIR/<video>/shots.json``) and ``*.shots.json`` (the bundled
samples), skipping folders whose name starts with ``.``; a file is read as a shot log
whatever its name. Each log is scored with ``carom.match.score_file`` (the numbers of
``carom score``); a log that cannot be read is listed with its reason and the others
are still counted. A log of shots whose bytes are another's (the same analysis found
twice, in a batch's folder and an analyze's) is counted once, the other listed as
skipped. A match recorded in several files is counted once
(:mod:`carom.stats._continued`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from carom.files import check_utf8_name
from carom.match import load_json, score_file
from carom.stats._continued import join_continued
from carom.stats._figures import match_figures, shots_by_index
from carom.stats._model import MatchFigures, SeasonStats
from carom.stats._season import rank_players
from referee import CaromError, Shot, ShotLogError

__all__ = ["collect_stats", "display_name", "find_logs", "read_match"]

_FIX = "give a folder carom batch or carom analyze wrote, or a shot log (shots.json)"
Skipped = list[tuple[Path, str]]


def collect_stats(paths: Sequence[Path | str]) -> SeasonStats:
    """The season of every shot log in ``paths`` (folders searched, files read as logs).

    Raises:
        CaromError: a path does not exist, or no shot log is found (or none could be
            read) at all (one line).
    """
    if isinstance(paths, str | Path):  # one path: a string is not a list of one-letter ones
        paths = [paths]
    logs, skipped = find_logs([Path(p) for p in paths])
    matches = []
    first_of: dict[str, Path] = {}  # a log's SHA-256 -> where it was read first
    for log in logs:
        try:
            digest, match = _digest(log), read_match(log)
            # The same analysis twice (a batch's and an analyze's); two logs of no shot
            # may be two matches that were never played.
            if digest in first_of and any(f.categories.shots for f in match.figures):
                skipped.append((log, f"the same shot log as {first_of[digest]}: counted once"))
                continue
            first_of.setdefault(digest, log)
            matches.append(match)
        except (CaromError, OSError, ValueError) as exc:
            skipped.append((log, _one_line(exc, log)))
    if not matches:  # every log found was skipped: an empty season would look written
        where = ", ".join(str(p) for p in paths)
        path, why = sorted(skipped)[0]
        first = why if why.startswith(str(path)) else f"{path}: {why}"
        raise CaromError(f"{where}: no shot log could be read (the first of {len(skipped)} "
                         f"skipped: {first}); {_FIX}")  # fmt: skip
    matches = join_continued(matches)
    return SeasonStats(tuple(matches), rank_players(matches), tuple(sorted(skipped)))


def _digest(path: Path) -> str:
    """The SHA-256 of the file's bytes (read in pieces: a log may be large)."""
    sha = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            sha.update(chunk)
    return sha.hexdigest()


def find_logs(paths: Sequence[Path]) -> tuple[list[Path], Skipped]:
    """The logs in ``paths`` (each once, each folder's in sorted order), folders unread."""
    found: list[Path] = []
    skipped: Skipped = []
    for path in paths:
        if path.is_dir():
            found += _logs_under(path, skipped)
        elif path.exists():
            found.append(path)
        else:
            raise CaromError(f"{path}: no such file or folder; {_FIX}")
    for log in found:  # before anything is written: its name goes into every output
        check_utf8_name(log)
    if not found and not skipped:
        where = ", ".join(str(p) for p in paths) or "no path given"
        raise CaromError(f"{where}: no shot log found (shots.json, *.shots.json); {_FIX}")
    return list(dict.fromkeys(found)), skipped


def _logs_under(root: Path, skipped: Skipped) -> list[Path]:
    def unreadable(exc: OSError) -> None:
        where = Path(exc.filename) if exc.filename else root
        skipped.append((where, f"{where}: cannot read the folder ({exc.strerror or exc})"))

    out = []
    for folder, subfolders, files in os.walk(root, onerror=unreadable):
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        out += [Path(folder, f) for f in files if _is_log_name(f)]
    return sorted(out)


def _is_log_name(name: str) -> bool:
    return name == "shots.json" or (name.endswith(".shots.json") and not name.startswith("."))


def display_name(path: Path) -> str:
    """``<video>`` for ``DIR/<video>/shots.json``; else the file name without its suffix."""
    if path.name == "shots.json":
        return path.parent.name or path.resolve().parent.name
    for suffix in (".shots.json", ".json"):
        if path.name.endswith(suffix) and len(path.name) > len(suffix):
            return path.name.removesuffix(suffix)
    return path.name


def read_match(path: Path) -> MatchFigures:
    """One log replayed (raises ShotLogError, one line, for a log that cannot be read)."""
    run = score_file(path)
    shots, total = _log_shots(path)
    return match_figures(run, shots, total, path, display_name(path))


def _log_shots(path: Path) -> tuple[dict[int, Shot] | None, int]:
    """The log's shots by index, only cue ball and events kept, and how many it has.

    ``None``, 0: the log cannot be read whole (over the 64 MB a whole read allows, which
    ``score_file`` streams): its opening and event categories are then not counted.
    """
    try:
        data = load_json(path)
    except ShotLogError:
        return None, 0
    shots = data.get("shots") if isinstance(data, dict) else None
    if not isinstance(shots, list):
        return None, 0
    return shots_by_index(shots), len(shots)


def _one_line(exc: BaseException, log: Path) -> str:
    """The first line of ``exc``; the log's name, printed before it, not said twice."""
    text = (str(exc).strip() or type(exc).__name__).splitlines()[0]
    if text.startswith(f"{log}: "):
        return text[len(f"{log}: ") :]
    return text
