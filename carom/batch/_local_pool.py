"""The default engine: a pool of local worker processes (``--workers N``).

Workers are started with ``spawn`` (a clean interpreter: no copy of the driver's
threads) and ignore Ctrl-C, which the driver handles for them: it stops the pool and
kills the workers (and removes their private folders); a worker whose driver died
(``kill -9``) removes its folder and ends within a second.
A worker that dies (a crash in a decoder, the kernel's OOM
killer) breaks the pool; every job it had is tried once more in a new pool, and a job
that breaks it twice is failed with that reason.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import tempfile
import threading
import time
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from carom.batch._engine import crashed
from carom.batch._jobs import VideoJob, VideoResult
from carom.batch._work import WORK_NAME, ProgressSink, analyze_job
from carom.files import remove_left_by_ended, remove_own

__all__ = ["LocalPool"]

_ATTEMPTS = 2
_WATCH_S = 0.5
#: Seconds a killed worker is waited for (to end and be reaped) before its folder goes.
_KILLED_S = 5.0
_sink: ProgressSink | None = None


def _start_worker(sink: ProgressSink, driver_pid: int) -> None:
    global _sink
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _sink = sink
    threading.Thread(target=_watch_driver, args=(driver_pid,), daemon=True).start()


def _watch_driver(driver_pid: int) -> None:
    """End this worker within a second of its driver's death (``kill -9``, a crash).

    Without it a worker would finish its video first, writing for no one.
    """
    while os.getppid() == driver_pid:
        time.sleep(_WATCH_S)
    remove_own(Path(tempfile.gettempdir()), WORK_NAME)  # the video under way's folder
    os._exit(1)


def _run(job: VideoJob) -> VideoResult:
    return analyze_job(job, _sink)


class LocalPool:
    """``workers`` local processes (see the module docstring)."""

    def __init__(self, workers: int) -> None:
        self.description = f"{workers} local worker process{'es' if workers > 1 else ''}"
        self._workers = workers
        self._context = multiprocessing.get_context("spawn")
        self._queue: Any = self._context.Queue()
        self._pool = self._new_pool()
        #: Each job's future, with the pool it went to (a break replaces that pool once).
        self._running: dict[Future[VideoResult], tuple[VideoJob, ProcessPoolExecutor]] = {}
        self._attempts: dict[str, int] = {}

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self._workers, mp_context=self._context,
                                   initializer=_start_worker,
                                   initargs=(self._queue, os.getpid()))  # fmt: skip

    def submit(self, job: VideoJob) -> None:
        """Queue ``job`` on the pool."""
        self._attempts[job.name] = self._attempts.get(job.name, 0) + 1
        self._running[self._pool.submit(_run, job)] = (job, self._pool)

    def next_result(self, timeout_s: float) -> VideoResult | None:
        """The next finished job's result (``None`` after ``timeout_s``)."""
        if not self._running:
            return None
        done, _ = wait(self._running, timeout=timeout_s, return_when=FIRST_COMPLETED)
        for future in done:
            job, pool = self._running.pop(future)
            try:
                return future.result()
            except BrokenProcessPool:
                if self._retry(job, pool):
                    continue
                return crashed(job, "the worker process died while analysing it (twice); "
                               "check the video and the machine's memory")  # fmt: skip
            except Exception as exc:  # a bug in a worker: that video fails, the batch goes on
                return crashed(job, f"internal error: {type(exc).__name__}: {exc}")
        return None

    def _retry(self, job: VideoJob, broken: ProcessPoolExecutor) -> bool:
        """Try ``job`` again in a new pool (made once per break); False if it had its tries."""
        if broken is self._pool:
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
        if self._attempts[job.name] >= _ATTEMPTS:
            return False
        self.submit(job)
        return True

    def progress(self) -> list[tuple[str, float]]:
        """The workers' progress reports since the last call."""
        out: list[tuple[str, float]] = []
        while len(out) < 1000:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return out

    def close(self, *, cancel: bool) -> None:
        """Shut the pool; ``cancel``: kill the workers now."""
        if cancel:
            _kill_workers(self._pool)
        self._pool.shutdown(wait=not cancel, cancel_futures=cancel)
        self._queue.close()
        self._queue.join_thread() if not cancel else self._queue.cancel_join_thread()


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's processes now (a shut pool would let each finish its video first).

    Python 3.14 has ``ProcessPoolExecutor.kill_workers``; before it the processes are
    only reachable through the pool's ``_processes``.
    """
    processes: Mapping[int, Any] = pool._processes or {}
    killed = list(processes.values())
    for process in killed:
        process.kill()
    for process in killed:
        process.join(_KILLED_S)
    # Their private folders (a video under way, a URL half read): never left behind.
    remove_left_by_ended(Path(tempfile.gettempdir()), WORK_NAME, [p.pid for p in killed])
