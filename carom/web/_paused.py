"""Why scoring is paused, as a keyed phrase the scoreboard and the console translate.

The live loop pauses scoring with an English sentence (``LiveSession.paused``): the
camera was lost (``carom.live.loop``'s ``CAMERA_LOST``), or the drift check found the
camera moved (``calibration``'s drift warning, with the cloth's colour change or the
table's shift). :func:`paused_parts` reads each of these into its ``pause.<key>``
message and fields (numbers as written in English, ``+1.5``); any other sentence is
None, and the pages show it as it is. Tests hold the templates to their writers.
The same reasons within the console's account lines are keyed by :func:`account_doc`.
"""

from __future__ import annotations

from typing import Any

from carom.i18n import TemplateReader
from carom.live import ACCOUNT_ENGLISH, Account

__all__ = ["PAUSE_ENGLISH", "account_doc", "held_paused", "paused_parts"]

_MOVED = "; the calibration no longer fits, re-run carom calibrate"
#: The pause sentences the live loop writes, by key (``pause.<key>`` in catalogues).
PAUSE_ENGLISH: dict[str, str] = {
    "camera_lost": "camera lost: the match waits",
    "camera_moved_cloth": (
        "camera moved: the cloth looks different (colour changed by {change}/255)" + _MOVED
    ),
    "camera_moved_table": (
        "camera moved: the table moved {shift_px} px in the picture ({du_px}, {dv_px})" + _MOVED
    ),
}
_READER = TemplateReader(PAUSE_ENGLISH)


def paused_parts(why: str | None) -> dict[str, Any] | None:
    """``{"key", "fields"}`` for a known pause sentence; None for none or another one."""
    code = _READER.read(why) if why else None
    return None if code is None else {"key": code[0], "fields": code[1]}


def account_doc(account: Account) -> dict[str, Any]:
    """An account line as the pages take it (``what_parts``): its pauses' reasons keyed.

    A pause's reason (``paused`` and ``played_paused`` accounts, at any depth) gets
    ``why_parts``: :func:`paused_parts` of its ``why``.
    """
    doc = account.json()
    _key_pauses(doc)
    return doc


def _key_pauses(doc: dict[str, Any]) -> None:
    fields = doc["fields"]
    if doc["key"] in ("paused", "played_paused"):
        fields["why_parts"] = paused_parts(fields.get("why"))
    for value in fields.values():
        if isinstance(value, dict) and set(value) == {"key", "fields"}:
            _key_pauses(value)


def held_paused(reason: str) -> dict[str, Any] | None:
    """``{"why", "why_parts"}`` when a shot was held because scoring was paused, else None."""
    head, tail = ACCOUNT_ENGLISH["played_paused"].split("{why}")
    if not (reason.startswith(head) and reason.endswith(tail)):
        return None
    why = reason[len(head) : len(reason) - len(tail)]
    return {"why": why, "why_parts": paused_parts(why)}
