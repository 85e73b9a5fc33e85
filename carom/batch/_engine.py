"""What runs the jobs: a local process pool or a Ray cluster, behind one protocol."""

from __future__ import annotations

from typing import Protocol

from carom.batch._jobs import JobStatus, VideoJob, VideoResult

__all__ = ["Engine", "crashed"]


class Engine(Protocol):
    """Runs :func:`carom.batch._work.analyze_job` on each job submitted, somewhere.

    Every job submitted comes back exactly once from :meth:`next_result`, as a result
    (a worker that died or raised is a ``failed`` result naming what happened).
    """

    #: What runs the jobs, for the user (``2 local processes``, ``Ray at ...``).
    description: str

    def submit(self, job: VideoJob) -> None:
        """Queue ``job``."""

    def next_result(self, timeout_s: float) -> VideoResult | None:
        """The next finished job's result, or ``None`` after ``timeout_s`` without one."""

    def progress(self) -> list[tuple[str, float]]:
        """The workers' reports since the last call: (video name, seconds analysed)."""

    def close(self, *, cancel: bool) -> None:
        """Stop the workers; ``cancel``: at once, dropping the jobs not finished."""


def crashed(job: VideoJob, what: str) -> VideoResult:
    """The result of a job whose worker died or raised (``what`` says how)."""
    return VideoResult(name=job.name, status=JobStatus.FAILED, key=job.key or "", error=what)
