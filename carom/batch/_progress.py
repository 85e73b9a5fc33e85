"""What the user sees while a batch runs: one line a finished video, a progress bar.

On a terminal (stderr) the bar is redrawn in place at most four times a second:
videos finished of all, done / failed / skipped (/ duplicates), the seconds of video
analysed, the throughput in video seconds per wall second, and the ETA (from the videos' lengths
where their headers give them, else from the videos left). Each finished video is
one line on stdout, so a log of a batch run unattended (not a terminal: no bar)
still says what happened to each.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from carom.batch._index import IndexEntry
from carom.batch._jobs import JobStatus
from carom.progress import REDRAW_S, duration_text

__all__ = ["BatchProgress", "duration_text", "plural"]

_BAR = 20
#: No ETA before this many seconds: the rate is still mostly the workers' start.
_ETA_AFTER_S = 5.0


def plural(n: int, word: str) -> str:
    """``1 video``, ``3 videos``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


class BatchProgress:
    """Counts, throughput and ETA of a running batch (the module docstring)."""

    def __init__(
        self,
        total: int,
        expected_s: float | None,
        *,
        lines: TextIO | None,
        bar: TextIO | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._total, self._expected_s = total, expected_s
        self._lines, self._bar, self._clock = lines, bar, clock
        self._started = self._last = clock()
        self.counts = dict.fromkeys(JobStatus, 0)
        self._video_s = 0.0  # of the videos finished
        self._running: dict[str, float] = {}  # video -> seconds analysed so far

    @classmethod
    def for_terminal(cls, total: int, expected_s: float | None, quiet: bool) -> BatchProgress:
        """Lines on stdout and a bar on stderr if it is a terminal; nothing when ``quiet``."""
        bar = sys.stderr if sys.stderr.isatty() and not quiet else None
        return cls(total, expected_s, lines=None if quiet else sys.stdout, bar=bar)

    def advanced(self, name: str, video_s: float) -> None:
        """A worker has analysed ``video_s`` seconds of ``name``."""
        self._running[name] = max(video_s, self._running.get(name, 0.0))
        self.draw()

    def finished(self, entry: IndexEntry) -> None:
        """``entry`` has its status: count it and say it."""
        assert entry.status is not None
        self.counts[entry.status] += 1
        self._running.pop(entry.name, None)
        if entry.status in (JobStatus.DONE, JobStatus.FAILED):
            self._video_s += entry.video_s
        if self._lines is not None:
            self._clear()
            print(self._line(entry), file=self._lines, flush=True)
        self.draw(force=True)

    def _line(self, entry: IndexEntry) -> str:
        n = sum(self.counts.values())
        what = {
            JobStatus.DONE: f"{plural(entry.shots, 'shot')}, {entry.video_s:.1f} s of video in "
                            f"{entry.work_s:.1f} s",
            JobStatus.FAILED: f"{entry.error}",
            JobStatus.SKIPPED: "finished by an earlier run (same video and options)",
            JobStatus.DUPLICATE: f"{entry.source} is the same video, with the same options, "
                                 f"as {entry.duplicate_of}",
        }[entry.status or JobStatus.FAILED]  # fmt: skip
        return f"[{n}/{self._total}] {entry.status!s:9} {entry.name}: {what}"

    def analysed_s(self) -> float:
        """Seconds of video analysed so far, the videos under way included."""
        return self._video_s + sum(self._running.values())

    def status_text(self) -> str:
        """The bar's text (without the carriage return)."""
        elapsed = self._clock() - self._started
        n = sum(self.counts.values())
        fill = _BAR * n // max(self._total, 1)
        c = self.counts
        rate = self.analysed_s() / elapsed if elapsed > 0 else 0.0
        copies = c[JobStatus.DUPLICATE]  # counted apart, as the summary counts them
        more = f", {plural(copies, 'duplicate')}" if copies else ""
        return (f"[{'#' * fill}{'.' * (_BAR - fill)}] {n}/{self._total} videos: "
                f"{c[JobStatus.DONE]} done, {c[JobStatus.FAILED]} failed, "
                f"{c[JobStatus.SKIPPED]} skipped{more} | "
                f"{self.analysed_s():.0f} s of video, {rate:.1f} s/s | "
                f"{self._eta(elapsed, rate)}")  # fmt: skip

    def _eta(self, elapsed: float, rate: float) -> str:
        n = sum(self.counts.values())
        if n >= self._total:
            return f"took {duration_text(elapsed)}"
        if elapsed < _ETA_AFTER_S:  # the workers' start and the first reports: a wild guess
            return "ETA --"
        if self._expected_s is not None and rate > 0:
            return f"ETA {duration_text(max(self._expected_s - self.analysed_s(), 0) / rate)}"
        ran = self.counts[JobStatus.DONE] + self.counts[JobStatus.FAILED]
        if ran == 0:
            return "ETA --"
        return f"ETA {duration_text(elapsed / ran * (self._total - n))}"

    def draw(self, *, force: bool = False) -> None:
        """Redraw the bar (at most four times a second unless ``force``)."""
        now = self._clock()
        if self._bar is None or (not force and now - self._last < REDRAW_S):
            return
        self._last = now
        print(f"\r{self.status_text()}\x1b[K", end="", file=self._bar, flush=True)

    def _clear(self) -> None:
        if self._bar is not None:
            print("\r\x1b[K", end="", file=self._bar, flush=True)

    def close(self) -> None:
        """End the bar's line."""
        if self._bar is not None:
            self.draw(force=True)
            print(file=self._bar, flush=True)
