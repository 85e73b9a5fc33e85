"""A batch manifest: one video a row, each with its own set-up (docs/batch.md).

CSV with a header row, or JSON (a list of objects, or ``{"videos": [...]}``). The
columns (keys):

=================  ===============================================================
``path``           the video: a path (relative to the manifest's folder) or a URL
``name``           the video's results folder (default: the video's file name)
``discipline``     as ``--discipline``
``players``        as ``--players``: ``Ana,Ben`` (a JSON list works too)
``table``          as ``--table``
``calibration``    a calibration file (relative to the manifest's folder)
``match``          a match file (relative to the manifest's folder)
``first``          as ``--first``
``target``         as ``--target``
``start_score``    ... and ``start_innings``, ``start_shooter``, ``start_run``,
                   ``start_breaker``, ``start_set``, ``start_sets_won``,
                   ``start_break``: the match joined in progress (``--start-*``)
=================  ===============================================================

An empty cell leaves the command line's option in force. Column names may use ``-``
for ``_``. A column not listed, a row without ``path`` or a manifest over 16 MB is
refused in one line naming the manifest and the row.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from carom.batch._fetch import is_url
from referee import CaromError
from referee.jsonbound import DocumentLimits, decode_document

__all__ = ["COLUMNS", "NAMES_SEP", "ManifestError", "is_manifest", "read_manifest"]

#: Between the names of a JSON list of ``players`` in its field (a name may hold a comma
#: there, which ``--players`` would then refuse by name instead of splitting it).
NAMES_SEP = "\x1f"

COLUMNS = (
    "path", "name", "discipline", "players", "table", "calibration", "match", "first",
    "target", "start_score", "start_innings", "start_shooter", "start_run", "start_breaker",
    "start_set", "start_sets_won", "start_break",
)  # fmt: skip
_PATHS = ("calibration", "match")
_LIMITS = DocumentLimits(max_bytes=16 << 20)
_FIX = "see docs/batch.md for the manifest's columns"


class ManifestError(CaromError):
    """A manifest cannot be used (the message names it and the row)."""


def is_manifest(path: Path) -> bool:
    """A ``.csv`` or ``.json`` file: read as a manifest, not as a video."""
    return path.suffix.lower() in (".csv", ".json")


def read_manifest(path: Path) -> Iterator[tuple[str, dict[str, str], str]]:
    """``(source, fields, where)`` for each row; paths made relative to the manifest's folder."""
    raw = _read(path)
    rows = _csv_rows(raw, path) if path.suffix.lower() == ".csv" else _json_rows(raw, path)
    if not rows:
        raise ManifestError(f"{path}: the manifest lists no video; {_FIX}")
    for row, at in rows:
        where = f"{path} {at}"
        fields = _fields(row, where)
        source = fields.pop("path", "")
        if not source:
            raise ManifestError(f"{where}: no path; give each row the video's path or URL")
        yield _resolved(source, path.parent), _with_paths(fields, path.parent), where


def _read(path: Path) -> bytes:
    try:
        _LIMITS.check_size(path.stat().st_size, str(path), ManifestError, _FIX)
        with path.open("rb") as f:
            return f.read(_LIMITS.max_bytes + 1)
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read the manifest ({exc.strerror or exc})") from None


def _csv_rows(raw: bytes, path: Path) -> list[tuple[Mapping[str, Any], str]]:
    """Each row with where it is: ``line N``, the file's line (the header is line 1)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ManifestError(f"{path}: not UTF-8 text; save the manifest as UTF-8 CSV") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        _check_header(reader.fieldnames or [], path)
        return [(dict(r), f"line {reader.line_num}") for r in reader]
    except csv.Error as exc:
        raise ManifestError(f"{path}: not a readable CSV ({exc}); {_FIX}") from None


def _check_header(names: Sequence[str], path: Path) -> None:
    """Every column of the header (line 1) is one of ``COLUMNS``."""
    for key in names:
        if str(key).strip().replace("-", "_") not in COLUMNS:
            sep = "; separate the cells with commas" if ";" in key or "\t" in key else ""
            raise ManifestError(f"{path} line 1 (the header): unknown column {key!r}{sep}; "
                                f"the columns are {', '.join(COLUMNS)}")  # fmt: skip


def _json_rows(raw: bytes, path: Path) -> list[tuple[Mapping[str, Any], str]]:
    data = decode_document(raw, str(path), _LIMITS, ManifestError, _FIX)
    if isinstance(data, dict) and set(data) == {"videos"}:
        data = data["videos"]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ManifestError(f'{path}: expected a list of objects (or {{"videos": [...]}}); {_FIX}')
    return [(row, f"video {i} of the list") for i, row in enumerate(data, start=1)]


def _fields(row: Mapping[str, Any], where: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for key, value in row.items():
        if key is None:  # csv.DictReader's key for the cells past the header's
            extra = len(value)
            raise ManifestError(f"{where}: more cells than the header has columns ({extra} "
                                "too many); quote a cell that holds a comma")  # fmt: skip
        name = str(key).strip().replace("-", "_")
        if name not in COLUMNS:
            raise ManifestError(f"{where}: unknown column {key!r}; the columns are "
                                f"{', '.join(COLUMNS)}")  # fmt: skip
        text = _text(value, where, name)
        if text:
            fields[name] = text
    return fields


def _text(value: Any, where: str, name: str) -> str:
    if value is None:
        return ""
    if isinstance(value, list) and name == "players":
        return NAMES_SEP.join(str(v) for v in value)
    if isinstance(value, bool) and name == "start_break":
        return "yes" if value else "no"
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value).strip()
    raise ManifestError(f"{where}: {name}: expected text or a number, got {value!r}")


def _resolved(source: str, base: Path) -> str:
    if is_url(source) or Path(source).is_absolute():
        return source
    return str(base / source)


def _with_paths(fields: dict[str, str], base: Path) -> dict[str, str]:
    return {k: _resolved(v, base) if k in _PATHS else v for k, v in fields.items()}
