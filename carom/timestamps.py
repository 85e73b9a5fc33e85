"""Wall-clock time stamps of the app (the referee core never reads a clock)."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["now_iso"]


def now_iso() -> str:
    """The current UTC time to the second, ISO 8601 (``2026-12-02T01:30:00+00:00``)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()
