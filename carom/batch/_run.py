"""The batch driver: hand the jobs to an engine, install each result whole, keep the index.

Theory of operation. :func:`run_batch` takes the plan (:mod:`carom.batch._plan`),
removes what a killed run left half-written, writes the index, submits every job and
then waits for results: each one's files are installed into ``DIR/<name>/`` at once
(:func:`carom.batch._folders.install`) and the index is rewritten, so at any moment
the folder and the index describe only finished work. A failed video (its error in
the index and its marker; the complete shots before the error kept) never stops the
batch; one whose folder holds an earlier run's finished results keeps them (the
error in the index says so), so a URL out of reach or a file damaged since never
costs a finished analysis. Ctrl-C stops the engine at once (the workers are killed),
installs nothing more, removes the half-written folders and re-raises; a rerun goes on
from there.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carom.batch._engine import Engine
from carom.batch._folders import clear_partials, finished_key, install
from carom.batch._index import IndexEntry, write_index
from carom.batch._jobs import JobStatus, VideoResult
from carom.batch._plan import PlannedVideo
from carom.batch._progress import BatchProgress

__all__ = ["BatchSummary", "run_batch"]

_WAIT_S = 0.25
#: Said after the error of a video whose earlier finished results were kept.
KEPT = "the results of an earlier run are kept in {name}/ (the next run tries again)"


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """How a batch ended: the index's entries, the engine, the wall time."""

    entries: tuple[IndexEntry, ...]
    engine: str
    wall_s: float
    interrupted: bool = False

    def count(self, status: JobStatus) -> int:
        """Videos that ended with ``status``."""
        return sum(1 for e in self.entries if e.status is status)

    @property
    def video_s(self) -> float:
        """Seconds of video analysed in this run (done and failed videos)."""
        return sum(
            e.video_s for e in self.entries if e.status in (JobStatus.DONE, JobStatus.FAILED)
        )

    def doc(self) -> dict[str, Any]:
        """The index's ``run`` block (and ``--json``'s summary)."""
        c = {s.value: self.count(s) for s in JobStatus}
        c["not_run"] = sum(1 for e in self.entries if e.status is None)
        return {"engine": self.engine, "videos": len(self.entries), **c,
                "interrupted": self.interrupted, "wall_s": round(self.wall_s, 3),
                "video_s": round(self.video_s, 3),
                "throughput": round(self.video_s / max(self.wall_s, 1e-9), 3)}  # fmt: skip


def run_batch(
    plans: list[PlannedVideo],
    engine: Engine,
    out_dir: Path,
    progress: BatchProgress,
    clock: Callable[[], float] = time.monotonic,
) -> BatchSummary:
    """Run the plan on ``engine`` into ``out_dir`` (the module docstring).

    Raises:
        KeyboardInterrupt: after the engine stopped and the index was written.
        CaromError: a result cannot be installed (after the engine stopped).
    """
    started = clock()
    run = _Run(plans, engine, out_dir, progress, (started, clock))
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        clear_partials(out_dir)
        run.write()
        run.start()
        while run.waiting:
            run.step()
    except KeyboardInterrupt:
        # The index says so first, and again once the engine stopped: a stop that went
        # wrong (a second Ctrl-C, a worker's own error) left it "not interrupted".
        run.write(interrupted=True)
        try:
            engine.close(cancel=True)
            clear_partials(out_dir)
        finally:
            run.write(interrupted=True)
            progress.close()
        raise
    except Exception:  # a result that cannot be installed: the workers stop too
        engine.close(cancel=True)
        clear_partials(out_dir)
        progress.close()
        raise
    engine.close(cancel=False)
    clear_partials(out_dir)
    progress.close()
    return run.write()


class _Run:
    """The state of one batch run (the index entries by folder name, what is out)."""

    def __init__(
        self, plans: list[PlannedVideo], engine: Engine, out_dir: Path,
        progress: BatchProgress, started: tuple[float, Callable[[], float]],
    ) -> None:  # fmt: skip
        self.plans, self.engine, self.out_dir = plans, engine, out_dir
        self.progress, (self.started, self.clock) = progress, started
        self.by_name: Mapping[str, PlannedVideo] = {p.entry.name: p for p in plans if p.job}
        self.waiting = 0

    def start(self) -> None:
        for plan in self.plans:
            if plan.job is None:
                self.progress.finished(plan.entry)
        for plan in self.plans:
            if plan.job is not None:
                self.engine.submit(plan.job)
                self.waiting += 1

    def step(self) -> None:
        result = self.engine.next_result(_WAIT_S)
        for name, video_s in self.engine.progress():
            self.progress.advanced(name, video_s)
        self.progress.draw()
        if result is None:
            return
        self.waiting -= 1
        plan = self.by_name[result.name]
        _record(plan.entry, result)
        folder = self.out_dir / result.name
        if result.status is JobStatus.FAILED and finished_key(folder) is not None:
            # A video finished before that fails now (a URL out of reach, a file
            # damaged since): its finished results stay; the index says so.
            plan.entry.error = f"{result.error}; {KEPT.format(name=result.name)}"
        elif result.status is not JobStatus.SKIPPED:
            install(self.out_dir, result, plan.entry.source)
        self.write()
        self.progress.finished(plan.entry)

    def write(self, *, interrupted: bool = False) -> BatchSummary:
        summary = BatchSummary(tuple(p.entry for p in self.plans), self.engine.description,
                               self.clock() - self.started, interrupted)  # fmt: skip
        ended = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        write_index(self.out_dir, list(summary.entries), {**summary.doc(), "written": ended})
        return summary


def _record(entry: IndexEntry, result: VideoResult) -> None:
    entry.status, entry.error = result.status, result.error
    entry.key = result.key or entry.key
    if result.status is not JobStatus.SKIPPED:  # skipped: the plan has the folder's figures
        entry.video_s, entry.frames, entry.shots = result.video_s, result.frames, result.shots
    entry.work_s, entry.worker, entry.notes = result.work_s, result.worker, list(result.notes)
