"""The read-ahead thread: same items, same order, errors after the items before them."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from vision import VideoError, prefetched


def test_items_come_in_order() -> None:
    assert list(prefetched(range(100), depth=3)) == list(range(100))


def test_an_error_is_raised_after_the_items_before_it() -> None:
    def source() -> Iterator[int]:
        yield from range(5)
        raise VideoError("video x: truncated")

    got: list[int] = []
    items = prefetched(source())
    got += [next(items) for _ in range(5)]
    with pytest.raises(VideoError, match="truncated"):
        next(items)
    assert got == [0, 1, 2, 3, 4]


def test_closing_early_stops_the_reader() -> None:
    produced: list[int] = []

    def source() -> Iterator[int]:
        for i in range(10_000):
            produced.append(i)
            yield i

    before = threading.active_count()
    items = prefetched(source(), depth=2)
    assert [next(items) for _ in range(3)] == [0, 1, 2]
    items.close()
    assert threading.active_count() == before
    assert len(produced) <= 3 + 2 + 2  # what was read ahead, never the whole source
