"""The app's time stamps: ISO for files, a person's date and time for pages."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from carom.timestamps import local_time_in, now_iso


@pytest.fixture
def in_istanbul(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Europe/Istanbul")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("in_istanbul")
def test_a_report_s_date_is_local_and_written_as_its_language_writes_it() -> None:
    """A report's "written" line read ``2026-12-07T23:13:36+00:00`` in every language."""
    when = datetime(2026, 12, 7, 21, 13, 36, tzinfo=UTC)
    assert local_time_in("tr", when) == "08.12.2026 00:13 (UTC+03:00)"
    assert local_time_in("en", when) == "2026-12-08 00:13 (UTC+03:00)"
    assert local_time_in("ko", when).startswith("2026. 12. 8. 00:13")


def test_now_is_iso_to_the_second_in_utc() -> None:
    stamp = datetime.fromisoformat(now_iso())
    offset = stamp.utcoffset()
    assert offset is not None and offset.total_seconds() == 0 and stamp.microsecond == 0
