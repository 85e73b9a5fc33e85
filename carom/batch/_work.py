"""The worker's side: analyse one video exactly as ``carom analyze`` would.

:func:`analyze_job` runs in a worker process (the local pool's or a Ray worker's). It
reads the video (a local path, or a URL fetched into a private folder while its
SHA-256 is taken), analyses it with :func:`carom.analyze.analyze_video` into that
private folder, writes the report as ``carom analyze`` does, and returns every file
as bytes in a :class:`VideoResult`. It never raises for a bad video: the error is the
result (``failed``), with the complete shots analysed before it.

The private folder is named after the machine and the worker
(``TMPDIR/carom-batch-HOST-PID-RANDOM``): one a killed worker left behind is removed
by the pool that killed it, or by the next job on that machine.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import tempfile
import time
from pathlib import Path
from typing import Protocol

from carom.analyze import AnalyzeOptions, AnalyzeRun, Progress, analyze_video, write_html
from carom.batch._fetch import display_name, fetch_video, is_url
from carom.batch._jobs import JobStatus, VideoJob, VideoResult
from carom.batch._key import job_key
from carom.files import remove_left_by_ended, work_prefix
from carom.match import table_of
from referee import CaromError

__all__ = ["WORK_NAME", "ProgressSink", "analyze_job"]

#: The name of a worker's private folders (``TMPDIR/carom-batch-HOST-PID-RANDOM``).
WORK_NAME = "carom-batch"

#: Seconds between two progress reports of one worker.
_REPORT_EVERY_S = 1.0


class ProgressSink(Protocol):
    """Where a worker reports ``(video name, seconds of video analysed)`` (a queue)."""

    def put_nowait(self, item: tuple[str, float]) -> None:
        """Take one report without waiting."""


def analyze_job(job: VideoJob, sink: ProgressSink | None = None) -> VideoResult:
    """Analyse ``job``'s video; every outcome is a :class:`VideoResult` (module docstring)."""
    started = time.monotonic()
    # A worker killed mid-video (Ctrl-C, kill -9 of the batch) left its folder behind.
    remove_left_by_ended(Path(tempfile.gettempdir()), WORK_NAME)
    with tempfile.TemporaryDirectory(prefix=work_prefix(WORK_NAME)) as tmp:
        work = Path(tmp)
        try:
            video, key = _video_of(job, work)
        except CaromError as exc:
            return _result(job, job.key or "", JobStatus.FAILED, started, error=str(exc))
        if job.key is None and key == job.done_key:
            return _result(job, key, JobStatus.SKIPPED, started)
        out, said = work / "out", list[str]()
        try:
            run = _analyze(job, video, out, sink, said)
        except CaromError as exc:  # before any shot: a failed calibration, an unreadable file
            return _result(job, key, JobStatus.FAILED, started, error=str(exc), out=out)
        status = JobStatus.DONE if run.error is None else JobStatus.FAILED
        error = None if run.error is None else f"stopped early: {run.error}"
        notes = [*dict.fromkeys([*said, *run.notes])]
        return _result(job, key, status, started, error=error, out=out, run=run, notes=notes)


def _analyze(
    job: VideoJob, video: Path, out: Path, sink: ProgressSink | None, said: list[str]
) -> AnalyzeRun:
    """``carom analyze`` into ``out``: the analysis, then the report, as the command does.

    ``said`` gets the lines ``carom analyze`` would say on stderr (where the network
    runs, a doubtful calibration): the result's notes, not the report's.
    """
    opts = _options(job, video, out)
    run = analyze_video(opts, _progress(job.name, sink), say=said.append)
    # The report names the files where the batch puts them, not the worker's folder.
    shown = dataclasses.replace(opts, video=Path(display_name(job.source)), out=Path(job.name))
    write_html(dataclasses.replace(run, options=shown), out / "report.html", opts.lang)
    return run


def _options(job: VideoJob, video: Path, out: Path) -> AnalyzeOptions:
    settings, match = job.settings, job.settings.match
    calibration = None
    if settings.calibration is not None:
        name, data = settings.calibration
        calibration = out.parent / "calibration-given" / Path(name).name
        calibration.parent.mkdir()
        calibration.write_bytes(data)
    return AnalyzeOptions(
        video=video, out=out, table=table_of(match), discipline=match.discipline,
        calibration=calibration, players=match.players, first_player=match.first_player,
        annotate=settings.annotate, trajectories=settings.trajectories,
        fast_decode=settings.fast_decode, detector=settings.detector, lang=settings.lang,
        match=match,
    )  # fmt: skip


def _progress(name: str, sink: ProgressSink | None) -> Progress | None:
    if sink is None:
        return None
    last = [0.0]

    def report(_done: int, _total: int | None, t_s: float) -> None:
        now = time.monotonic()
        if now - last[0] >= _REPORT_EVERY_S and t_s > 0:
            last[0] = now
            sink.put_nowait((name, t_s))

    return report


def _video_of(job: VideoJob, work: Path) -> tuple[Path, str]:
    """The video as a local file and its key (a URL is fetched and hashed on the way)."""
    if is_url(job.source):
        local, sha = fetch_video(job.source, work / "video")
        return local, job_key(sha, job.options_digest)
    path = Path(job.source)
    if not path.is_file():
        host = socket.gethostname()
        raise CaromError(f"{job.source}: no such video on worker {host}; give a path "
                         "every worker can read (a shared folder) or a URL")  # fmt: skip
    return path, job.key or ""


def _result(
    job: VideoJob,
    key: str,
    status: JobStatus,
    started: float,
    *,
    error: str | None = None,
    out: Path | None = None,
    run: AnalyzeRun | None = None,
    notes: list[str] | None = None,
) -> VideoResult:
    return VideoResult(
        name=job.name, status=status, key=key, error=error,
        files=_files(out) if out is not None else {},
        video_s=run.seconds if run else 0.0, frames=run.frames if run else 0,
        shots=len(run.shots) if run else 0, work_s=time.monotonic() - started,
        notes=tuple(notes or ()), worker=f"{socket.gethostname()}:{os.getpid()}",
    )  # fmt: skip


def _files(out: Path) -> dict[str, bytes]:
    """Every file under ``out`` by its relative path (none if it was never made)."""
    if not out.is_dir():
        return {}
    return {
        p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()
    }
