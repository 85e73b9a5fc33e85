"""The match panel's lag and corrections in the report's language.

The referee says a lag's result and a correction in English (``LagResult.reason``, an
audit entry's action and detail). The lag is said from its keyed account
(``carom.live.lag_account``: who won and why, the loser's faults as keys); a
correction's detail is read back from the referee's forms (points, the turn, the turn
back, the break position, each with the person's note) into ``correct_<key>``.
Anything else is shown as the referee wrote it.
"""

from __future__ import annotations

import re
from typing import Any

from carom.i18n import NUMBER
from carom.live import Account, lag_account
from carom.report._page import Page
from referee import LagResult

__all__ = ["audit_words", "lag_words"]

#: A correction's detail as the referee writes it (``referee._match``), by key.
_CORRECTIONS = {
    "points": rf"(?P<points>{NUMBER}) points to (?P<player>.+?)",
    "turn_back": r"turn back to (?P<player>.+?): inning resumed",
    "turn": r"turn to (?P<player>.+?)",
    "break": r"break position for (?P<player>.+?)",
}
_NOTE = r"(?: \((?P<note>.*)\))?"
_ACTIONS = {"correct points": "points", "correct turn": "turn",
            "correct break_position": "break"}  # fmt: skip


def lag_words(page: Page, result: LagResult) -> str:
    """The lag's result in the page's language (the referee's words where not keyed)."""
    said = lag_account(result).fields["result"]
    if page.lang == "en" or not isinstance(said, Account) or said.key == "lag_other":
        return result.reason
    fields: dict[str, Any] = dict(said.fields)
    if "fault_keys" in fields:
        fields["faults"] = "; ".join(page.raw(f"lag_fault_{k}") for k in fields["fault_keys"])
    if "gap_mm" in fields:
        fields["gap_mm"] = page.num(fields["gap_mm"])
    return page.raw(f"lag_said_{said.key.removeprefix('lag_')}", **fields)


def audit_words(page: Page, action: str, detail: str) -> tuple[str, str]:
    """A correction's (action, detail) in the page's language."""
    kind = _ACTIONS.get(action)
    if page.lang == "en" or kind is None:
        return action, detail
    keys = ("turn_back", "turn") if kind == "turn" else (kind,)
    for key in keys:
        found = re.fullmatch(_CORRECTIONS[key] + _NOTE, detail)
        if found is None:
            continue
        fields = found.groupdict()
        note = fields.pop("note")
        if "points" in fields:
            n = int(fields["points"])
            fields["points"] = ("+" if n >= 0 else "") + page.num(n)
        said = page.raw(
            f"correct_{key}", **fields, note=page.raw("note", note=note) if note else ""
        )
        return page.raw(f"audit_action_{kind}"), said
    return page.raw(f"audit_action_{kind}"), detail
