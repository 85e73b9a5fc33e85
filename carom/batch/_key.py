"""A video's batch key: the SHA-256 of its bytes and the digest of the options it was given.

A rerun skips a video whose folder was finished under the same key, and two sources
with the same key are one video (the second is a duplicate). The options digest
covers everything that changes what ``carom analyze`` writes: the match set-up, the
calibration's contents, the detector, the decoder, the annotated video and
trajectories switches, and the version of carom-referee (a new version may call a
shot differently, so its results are not taken for the old ones).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import BinaryIO

from carom.batch._jobs import AnalysisSettings
from carom.match import match_file_doc

__all__ = ["file_sha256", "job_key", "options_digest", "stream_sha256"]

_CHUNK = 1 << 20


def stream_sha256(stream: BinaryIO, sink: BinaryIO | None = None) -> str:
    """The SHA-256 (hex) of what ``stream`` reads to its end, copied to ``sink`` if given."""
    digest = hashlib.sha256()
    while chunk := stream.read(_CHUNK):
        digest.update(chunk)
        if sink is not None:
            sink.write(chunk)
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """The SHA-256 (hex) of the file at ``path`` (read in 1 MB pieces)."""
    with path.open("rb") as stream:
        return stream_sha256(stream)


def options_digest(settings: AnalysisSettings, version: str) -> str:
    """A digest of the options that shape the results (the module docstring)."""
    calibration = settings.calibration
    doc = {
        "match": match_file_doc(settings.match),
        "calibration": None if calibration is None else hashlib.sha256(calibration[1]).hexdigest(),
        "annotate": settings.annotate,
        "trajectories": settings.trajectories,
        "fast_decode": settings.fast_decode,
        "detector": settings.detector,
        "lang": settings.lang,
        "version": version,
    }
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def job_key(video_sha256: str, digest: str) -> str:
    """The key of a video under options: ``<video sha256 (16 hex)>-<options (12 hex)>``."""
    return f"{video_sha256[:16]}-{digest[:12]}"
