"""Why scoring is paused, as a keyed phrase the scoreboard and the console translate.

The live loop pauses scoring with an English sentence (``LiveSession.paused``): the
camera was lost (``carom.live.loop``'s ``CAMERA_LOST``), or the drift check found the
camera moved (``calibration``'s drift warning, with the cloth's colour change or the
table's shift). :func:`paused_parts` reads each of these into its ``pause.<key>``
message and fields (numbers as written in English, ``+1.5``); any other sentence is
None, and the pages show it as it is. Tests hold the templates to their writers.
"""

from __future__ import annotations

import re
import string
from typing import Any

__all__ = ["PAUSE_ENGLISH", "paused_parts"]

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
_NUMBER = r"[+-]?[0-9]+(?:\.[0-9]+)?"


def _regex(template: str) -> re.Pattern[str]:
    out = []
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name:
            out.append(f"(?P<{name}>{_NUMBER})")
    return re.compile("".join(out))


_REGEXES = {key: _regex(template) for key, template in PAUSE_ENGLISH.items()}


def paused_parts(why: str | None) -> dict[str, Any] | None:
    """``{"key", "fields"}`` for a known pause sentence; None for none or another one."""
    if not why:
        return None
    for key, regex in _REGEXES.items():
        found = regex.fullmatch(why)
        if found is not None:
            return {"key": key, "fields": found.groupdict()}
    return None
