"""Wall-clock time stamps of the app (the referee core never reads a clock)."""

from __future__ import annotations

from datetime import UTC, datetime

from carom.i18n import format_date

__all__ = ["local_time_in", "now_iso"]


def now_iso() -> str:
    """The current UTC time to the second, ISO 8601 (``2026-12-02T01:30:00+00:00``)."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def local_time_in(lang: str, when: datetime | None = None) -> str:
    """``when`` (default: now) in this machine's time zone, as ``lang`` writes a date.

    With the time and the zone's offset: ``07.12.2026 23:13 (UTC+01:00)`` in Turkish. A
    report's "written" line read ``2026-12-07T23:13:36+00:00`` in every language.
    """
    local = (when or datetime.now(UTC)).astimezone()
    offset = local.strftime("%z")
    zone = f"UTC{offset[:3]}:{offset[3:]}" if offset else "UTC"
    return f"{format_date(lang, local.date())} {local:%H:%M} ({zone})"
