"""Decode ahead in a thread, so decoding and analysis overlap on two cores.

PyAV releases the GIL while FFmpeg demuxes, decodes and converts a frame, and most of
the analysis runs in OpenCV and numpy, which release it too: a reader thread keeps a
few decoded frames ready while the main thread works on the previous one. Measured on
the 1080p60 bench clip (``bench/vision_speed.py``): see ``bench/results``.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Iterable
from typing import TypeVar

__all__ = ["prefetched"]

T = TypeVar("T")


class _End:
    """Sentinel: the source ended (``error`` set when it raised)."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error


def prefetched(items: Iterable[T], depth: int = 4) -> Generator[T, None, None]:
    """``items`` in order, read up to ``depth`` ahead by a daemon thread.

    An exception raised by the source is raised here after the items before it.
    Closing the returned generator early stops the reader at its next item. Memory:
    at most ``depth + 1`` items are held (a 1080p BGR frame is 6 MB).
    """
    slots: queue.Queue[T | _End] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def read() -> None:
        try:
            for item in items:
                if not _put(slots, item, stop):
                    return
        except BaseException as exc:
            _put(slots, _End(exc), stop)
            return
        _put(slots, _End(), stop)

    reader = threading.Thread(target=read, name="frame-reader", daemon=True)
    reader.start()
    try:
        while not isinstance(item := slots.get(), _End):
            yield item
        if item.error is not None:
            raise item.error
    finally:
        stop.set()
        _drain(slots)
        reader.join(timeout=5.0)


def _put(slots: queue.Queue[T | _End], item: T | _End, stop: threading.Event) -> bool:
    """Wait for room unless the consumer left; False when it did."""
    while not stop.is_set():
        try:
            slots.put(item, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False


def _drain(slots: queue.Queue[T | _End]) -> None:
    while True:
        try:
            slots.get_nowait()
        except queue.Empty:
            return
