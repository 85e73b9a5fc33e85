"""What a batch asks of a worker (:class:`VideoJob`) and what comes back (:class:`VideoResult`).

Both cross process and machine boundaries (a local process pool, a Ray cluster), so
they hold only plain values: the video's source (a path or a URL the worker can
read), the analysis options as :func:`carom.analyze_video` takes them, and the
calibration's *contents* (a worker on another machine cannot read the driver's
files). A result carries the files the analysis wrote, as bytes, for the driver to
install; nothing is written into the batch folder by a worker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from carom.match import MatchFile

__all__ = ["AnalysisSettings", "JobStatus", "VideoJob", "VideoResult"]


class JobStatus(StrEnum):
    """Where a video of the batch stands (the index's ``status``)."""

    DONE = "done"  #: analysed to its end; its folder is complete
    FAILED = "failed"  #: could not be analysed to its end (the error says why)
    SKIPPED = "skipped"  #: finished by an earlier run with the same content and options
    DUPLICATE = "duplicate"  #: the same content and options as another video of the batch


@dataclass(frozen=True, slots=True, kw_only=True)
class AnalysisSettings:
    """The options of ``carom analyze`` that a batch applies (per video, from a manifest)."""

    match: MatchFile
    #: The calibration file's name and contents (``None``: fitted from the video).
    calibration: tuple[str, bytes] | None = None
    annotate: bool = False
    trajectories: bool = True
    fast_decode: bool = False
    detector: str = "auto"
    #: The reports' language (``carom.i18n.LANGUAGES``).
    lang: str = "en"


@dataclass(frozen=True, slots=True, kw_only=True)
class VideoJob:
    """One video to analyse into the batch folder ``name``.

    ``key``: the content hash and options digest (``None`` for a URL: the worker
    reads the video and makes it); ``done_key``: the key of the folder an earlier run
    finished (a URL whose content did not change is then skipped by the worker).
    """

    source: str
    name: str
    settings: AnalysisSettings
    options_digest: str
    key: str | None = None
    done_key: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class VideoResult:
    """A worker's answer: the status, the files for ``DIR/<name>/`` and the figures."""

    name: str
    status: JobStatus
    key: str
    error: str | None = None
    #: Relative path in the video's folder -> contents.
    files: dict[str, bytes] = field(default_factory=dict)
    video_s: float = 0.0
    frames: int = 0
    shots: int = 0
    #: Wall seconds the worker spent (reading and analysing).
    work_s: float = 0.0
    notes: tuple[str, ...] = ()
    worker: str = ""
