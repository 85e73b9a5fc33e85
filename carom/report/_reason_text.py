"""A verdict's reason in the report's language, from its keyed parts (``referee.Reason``)."""

from __future__ import annotations

from carom.i18n import catalogue
from referee import BALL_FIELDS, Reason, Verdict

__all__ = ["reason_text"]


def reason_text(lang: str, verdict: Verdict) -> str:
    """``verdict``'s reason in ``lang``, not escaped.

    Each keyed part comes from the report catalogue (``reason_<key>``), its ball and
    foul names in the language too; the referee's English sentence where the verdict
    has no parts or the catalogue lacks one of their keys.
    """
    english = catalogue("report").messages["en"]
    parts = verdict.reason_parts
    if lang == "en" or not parts or any(f"reason_{p.key}" not in english for p in parts):
        return verdict.reason
    return "; ".join(
        catalogue("report").text(lang, f"reason_{p.key}", **_fields(lang, p)) for p in parts
    )


def _fields(lang: str, part: Reason) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, value in part.fields:
        if name in BALL_FIELDS:
            out[name] = _word(lang, "ball", str(value))
        elif name == "fouls":
            out[name] = ", ".join(_word(lang, "foul", f) for f in str(value).split(","))
        else:
            out[name] = value
    return out


def _word(lang: str, prefix: str, name: str) -> str:
    """A ball's or foul's name in ``lang`` (the name, spaced, if the catalogue lacks it)."""
    key = f"{prefix}_{name}"
    if key in catalogue("report").messages["en"]:
        return catalogue("report").text(lang, key)
    return name.replace("_", " ")
