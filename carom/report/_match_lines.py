"""The match panel's lag and corrections in the report's language.

The referee says a lag's result and a correction in English (``LagResult.reason``, an
audit entry's action and detail). The lag is said from its keyed account
(``carom.live.lag_account``: who won and why, the loser's faults as keys); a
correction from its keyed account (``carom.live.correction_account``: points, the
turn, the turn back, the break position, each with the person's note) into
``correct_<key>``.
Anything else is shown as the referee wrote it.
"""

from __future__ import annotations

from typing import Any

from carom.live import Account, correction_account, lag_account
from carom.report._page import Page
from referee import LagResult

__all__ = ["audit_words", "lag_words"]

#: The audit's action of each kind of correction (``audit_action_<kind>``).
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
    """A correction's (action, detail) in the page's language (its keyed account)."""
    kind = _ACTIONS.get(action)
    if page.lang == "en" or kind is None:
        return action, detail
    said = correction_account(action, detail).fields["detail"]
    if not isinstance(said, Account) or said.key == "correct_other":
        return page.raw(f"audit_action_{kind}"), detail
    fields: dict[str, Any] = dict(said.fields)
    note = fields.pop("note")
    if "points" in fields:
        fields["points"] = ("+" if fields["points"] >= 0 else "") + page.num(fields["points"])
    noted = page.raw("note", note=note) if note else ""
    return page.raw(f"audit_action_{kind}"), page.raw(said.key, **fields, note=noted)
