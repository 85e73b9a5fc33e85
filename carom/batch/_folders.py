"""The batch folder: each video's results installed whole, or not at all.

A worker's files are written into ``DIR/.partial/<name>.<pid>/`` with the video's
marker (``batch-video.json``: its key, source, status and error) written last, then
the folder is renamed to ``DIR/<name>/`` (an earlier folder of that name is moved
aside first and removed after). A rename is atomic, so ``DIR/<name>/`` is always one
run's complete results; a kill at any moment leaves at most a ``.partial`` folder,
which the next run removes. A folder without a marker, or with another key, is not
finished: the next run analyses its video again and replaces it. Ctrl-C is held back
while a folder is installed (delivered just after).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from types import FrameType
from typing import Any

from carom.batch._jobs import JobStatus, VideoResult
from referee import CaromError

__all__ = ["MARKER", "PARTIAL", "clear_partials", "finished_key", "install", "read_marker"]

MARKER = "batch-video.json"
PARTIAL = ".partial"
_FORMAT = "carom-batch-video/1"


def read_marker(folder: Path) -> dict[str, Any] | None:
    """The marker of a video's folder (``None``: none, or unreadable: not finished)."""
    try:
        doc = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("format") == _FORMAT else None


def finished_key(folder: Path) -> str | None:
    """The key a complete, successful earlier run left in ``folder`` (else ``None``)."""
    doc = read_marker(folder)
    if doc is None or doc.get("status") != JobStatus.DONE:
        return None
    key = doc.get("key")
    return key if isinstance(key, str) else None


def clear_partials(out_dir: Path) -> None:
    """Remove what a killed run left half-written (``DIR/.partial``)."""
    shutil.rmtree(out_dir / PARTIAL, ignore_errors=True)


def install(out_dir: Path, result: VideoResult, source: str) -> Path:
    """Put ``result``'s files in ``DIR/<name>/`` whole (the module docstring); that folder.

    Raises:
        CaromError: the folder cannot be written (one line: the folder and the reason).
    """
    final = out_dir / result.name
    staging = out_dir / PARTIAL / f"{result.name}.{os.getpid()}"
    aside = staging.with_name(staging.name + ".old")
    with _interrupts_held():
        try:
            _stage(staging, result, source)
            if final.exists():
                os.replace(final, aside)
            os.replace(staging, final)
        except OSError as exc:
            raise CaromError(f"{final}: cannot write the results ({exc.strerror or exc}); "
                             "check the space and rights of --out") from None  # fmt: skip
        finally:
            shutil.rmtree(staging, ignore_errors=True)
            shutil.rmtree(aside, ignore_errors=True)
    return final


def _stage(staging: Path, result: VideoResult, source: str) -> None:
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for rel, data in result.files.items():
        path = staging / _safe(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    marker = {
        "format": _FORMAT, "key": result.key, "source": source,
        "status": str(result.status), "error": result.error, "video_s": round(result.video_s, 3),
        "frames": result.frames, "shots": result.shots,
    }  # fmt: skip
    (staging / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")


def _safe(rel: str) -> Path:
    """A worker's relative path, refused if it would leave the folder."""
    parts = PurePosixPath(rel).parts
    if not parts or PurePosixPath(rel).is_absolute() or ".." in parts or rel == MARKER:
        raise CaromError(f"a worker sent the file {rel!r}, which is not a results file; "
                         "check the workers run this version of carom-referee")  # fmt: skip
    return Path(*parts)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) waits until the block ends (main thread only; elsewhere a no-op).

    The Python handler is swapped for one that only notes the signal, then the old one
    is called. Blocking SIGINT in this thread's mask would not do: the kernel hands a
    process's signal to any thread that does not block it (the pool's threads, a
    library's native threads), and Python then raises in the main thread all the same.
    """
    caught: list[tuple[int, FrameType | None]] = []
    try:
        old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append((signum, frame)))
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        if caught and callable(old):
            old(*caught[0])
        elif caught and old == signal.SIG_DFL:
            os.kill(os.getpid(), signal.SIGINT)
