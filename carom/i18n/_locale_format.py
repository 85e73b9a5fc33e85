"""Numbers and dates as each language writes them (CLDR's common forms, no library)."""

from __future__ import annotations

import datetime

from carom.i18n._language import LANGUAGES

__all__ = ["format_date", "format_number"]

#: Decimal mark and thousands separator per language (French: a narrow no-break space).
_MARKS: dict[str, tuple[str, str]] = {
    "en": (".", ","),
    "ko": (".", ","),
    "tr": (",", "."),
    "nl": (",", "."),
    "fr": (",", "\u202f"),
    "es": (",", "."),
}

#: A date's short numeric form per language.
_DATES: dict[str, str] = {
    "en": "{y:04d}-{m:02d}-{d:02d}",
    "ko": "{y:04d}. {m}. {d}.",
    "tr": "{d:02d}.{m:02d}.{y:04d}",
    "nl": "{d:02d}-{m:02d}-{y:04d}",
    "fr": "{d:02d}/{m:02d}/{y:04d}",
    "es": "{d}/{m}/{y:04d}",
}


def format_number(lang: str, value: float, decimals: int = 0) -> str:
    """``value`` with ``decimals`` places as ``lang`` writes it (``1,234.5`` / ``1.234,5``).

    Averages are truncated elsewhere (the referee's text); this only writes the digits.
    """
    point, group = _MARKS.get(lang if lang in LANGUAGES else "en", _MARKS["en"])
    rounded = round(value, decimals)
    whole, _, frac = f"{abs(rounded):,.{decimals}f}".partition(".")
    sign = "-" if rounded < 0 else ""
    whole = whole.replace(",", group)
    return sign + (f"{whole}{point}{frac}" if frac else whole)


def format_date(lang: str, when: datetime.date) -> str:
    """``when`` as ``lang`` writes a short date (``2026-12-02``, ``02.12.2026`` ...)."""
    pattern = _DATES.get(lang, _DATES["en"])
    return pattern.format(y=when.year, m=when.month, d=when.day)
