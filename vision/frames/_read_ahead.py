"""Decode ahead on a thread: the decoder never waits for a slow frame's analysis.

FFmpeg's frame threads keep only a few frames in flight; when one frame's analysis
takes long (a full-table search, a ball refined at full resolution) they stall with
nothing to do, and when the analysis is quick the main thread waits for them. A
bounded queue between a reading thread and the consumer lets each side run at its
own pace over a few dozen milliseconds. PyAV decodes without the GIL, and frames are
views of the decoder's planes (no conversion on the reading thread), so the two
overlap. Measured on the 1080p60 bench clip: docs/vision.md "Speed".
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from typing import Generic, TypeVar

__all__ = ["ReadAhead"]

T = TypeVar("T")

_POLL_S = 0.1  # how often a blocked reader looks whether the consumer went away


class _End:
    """The reader finished (``error``: the exception it ended with, re-raised here)."""

    def __init__(self, error: BaseException | None) -> None:
        self.error = error


class ReadAhead(Generic[T]):
    """``items`` produced up to ``depth`` ahead on a daemon thread; iterate once.

    An exception of ``items`` (a truncated video) is raised to the consumer after the
    items before it. :meth:`close` (or leaving the loop) stops the reader at its next
    item; ``close`` also waits for it, so that whatever ``items`` holds (a decoder) is
    released on the reading thread before the caller goes on.
    """

    def __init__(self, items: Iterator[T], depth: int, nice: int = 0) -> None:
        """``nice`` > 0 lowers the reading thread's scheduling priority by that much.

        The threads it starts inherit it (FFmpeg's decoder threads, created when the
        reader opens the codec), so the consumer is served first.
        """
        self._items = items
        self._nice = nice
        self._buffer: queue.Queue[T | _End] = queue.Queue(maxsize=depth)
        self._gone = threading.Event()
        self.thread = threading.Thread(target=self._run, name="read-ahead", daemon=True)
        self.thread.start()

    def _put(self, item: T | _End) -> bool:
        while not self._gone.is_set():
            try:
                self._buffer.put(item, timeout=_POLL_S)
                return True
            except queue.Full:
                continue
        return False

    def _run(self) -> None:
        error: BaseException | None = None
        _lower_priority(self._nice)
        try:
            for item in self._items:
                if not self._put(item):
                    break
        except BaseException as exc:  # handed to the consumer, raised there
            error = exc
        finally:
            if self._gone.is_set():
                close = getattr(self._items, "close", None)
                if close is not None:
                    close()
        self._put(_End(error))

    def __iter__(self) -> Iterator[T]:
        try:
            while True:
                try:
                    got = self._buffer.get(timeout=_POLL_S)
                except queue.Empty:
                    if self._gone.is_set():
                        return  # closed (from another thread too): the reader sends no end
                    continue
                if isinstance(got, _End):
                    if got.error is not None:
                        raise got.error
                    return
                yield got
        finally:
            self._gone.set()

    def close(self, timeout_s: float = 10.0) -> None:
        """Stop the reader and wait for it; from the reading thread itself: nothing.

        (The producer's own clean-up may call this on the reading thread as it ends;
        the consumer must still get the end of the items then.)
        """
        if threading.current_thread() is self.thread:
            return
        self._gone.set()
        self.thread.join(timeout_s)


def _lower_priority(nice: int) -> None:
    """Lower the calling thread's priority by ``nice`` (Linux: per thread); else nothing."""
    if nice <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        now = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(now + nice, 19))
    except OSError:
        pass  # not allowed here (a sandbox): the decoder competes as before
