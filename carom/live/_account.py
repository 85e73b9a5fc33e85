"""What each journal entry did, as a keyed line the console shows in its own language.

Every entry's effect has a one-line account (``Plan.what``: "shot 3 by Ana: +1; ...",
"undo: time-out for Ben (1 this game)"), written to ``carom live``'s terminal and
shown in the console's log. An :class:`Account` is that line as a key of
:data:`ACCOUNT_ENGLISH` and its fields: numbers, names, the verdict's keyed reason
(``reason_parts``), and accounts within accounts (an undo says what it took back).
Its :attr:`Account.english` is the line exactly as before; :meth:`Account.json` is
what the web API gives (``what_parts``), and the pages say it with ``what.<key>``.
A lag's faults come as keys too (``fault_keys``, :data:`LAG_FAULT_ENGLISH`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from carom.i18n import NUMBER
from referee import LagResult, ShotRecord, reason_json

__all__ = [
    "ACCOUNT_ENGLISH",
    "JOIN_ENGLISH",
    "LAG_FAULT_ENGLISH",
    "Account",
    "correction_account",
    "lag_account",
    "shot_account",
    "undid_timeout",
]

#: A first stroke with no lag before it: the match is joined there (``joined``'s words).
JOIN_ENGLISH = "no lag seen: the match is joined in progress (the score before is not known)"
#: Each account's English, by key (``what.<key>`` in the web catalogues).
ACCOUNT_ENGLISH: dict[str, str] = {
    "paused": "scoring paused: {why}",
    "resumed": "scoring resumed",
    "the_lag": "the lag",
    "lag": "lag: {result}",
    "lag_entered": "{winner} won the lag (entered)",
    "lag_both_lost": "both players lost the lag: lag again",
    "lag_fault": "{winner} won: {loser} {faults}",
    "lag_tie": "equal distance from the head cushion: lag again",
    "lag_nearer": "{winner} won: {gap_mm} mm nearer the head cushion",
    "lag_other": "{text}",
    "lag_not_judged": "a lag was seen, but {player} was set to break: lag not judged",
    "lag_not_judged_start": (
        "a lag was seen, but the match was set to begin from a start: lag not judged"
    ),
    "shot": "shot {n} by {player}: {points};{fouls} {reason} [{board}]",
    "held": "shot {n} by {player} held for review: {reason}",
    "played_paused": "played while scoring was paused ({why})",
    "review": "review {decision}: {shot}",
    "correction": "correction: {detail}",
    "correct_points": "{points} points to {player}{note}",
    "correct_turn": "turn to {player}{note}",
    "correct_turn_back": "turn back to {player}: inning resumed{note}",
    "correct_break": "break position for {player}{note}",
    "correct_other": "{text}",
    "undo": "undo: {what}",
    "undo_held": "undo: shot {n} by {player} discarded (it was held for review: {reason})",
    "foul_called": "foul {foul} called: {then}",
    "joined": JOIN_ENGLISH + ": {then}",
    "timeout": "time-out for {player} ({n} this game)",
    "session": "{how} match {id} at version {version}",
    "text": "{text}",  # a line given only in words
    # The web server's own lines (``carom serve``'s table).
    "no_match": "no match",
    "server_started": "server started",
    "match_started": "{how} match {id}",
    "match_from_live": "match {id} from carom live",
    "match_closed": "match {id} closed",
    "live_refereeing": "carom live is refereeing",
    "video_ended": "the video ended",
    "camera_stopped": "the camera stopped",
    "pipeline_stopped": "camera pipeline stopped: {error}",
}


#: A lag fault as the referee says it (``referee._lag``), by key (``what.lag_<key>``).
LAG_FAULT_ENGLISH: dict[str, str] = {
    "no_foot": "never touched the foot cushion",
    "off_table": "left the table",
    "touched_red": "touched the red",
    "crossed": "crossed into the opponent's half",
    "knocked_pin": "knocked a pin",
    "long_cushion": "touched a long cushion",
}
_LAG_FAULT_KEYS = {text: key for key, text in LAG_FAULT_ENGLISH.items()}


@dataclass(frozen=True, slots=True)
class Account:
    """One account line: its key and fields (str, int, list, or an Account within)."""

    key: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.key not in ACCOUNT_ENGLISH:
            raise KeyError(f"account: unknown key {self.key!r}")

    @property
    def english(self) -> str:
        """The line as ``carom live`` prints it."""
        said: dict[str, Any] = {}
        for name, value in self.fields.items():
            said[name] = value.english if isinstance(value, Account) else value
        if self.key == "shot":
            fouls = said["fouls"]
            said["fouls"] = f" foul {', '.join(fouls)};" if fouls else ""
            said["board"] = ", ".join(f"{p} {n}" for p, n in said["board"])
        if self.key in ("shot", "correct_points"):
            said["points"] = f"{said['points']:+d}"
        if self.key.startswith("correct_") and "note" in said:
            said["note"] = f" ({said['note']})" if said["note"] else ""
        return ACCOUNT_ENGLISH[self.key].format(**said)

    def json(self) -> dict[str, Any]:
        """``{"key", "fields"}``, accounts within as the same."""
        fields = {
            name: value.json() if isinstance(value, Account) else value
            for name, value in self.fields.items()
        }
        return {"key": self.key, "fields": fields}


def shot_account(record: ShotRecord) -> Account:
    """A shot as recorded: its points, fouls, reason (keyed) and the board after it."""
    v = record.verdict
    return Account("shot", {
        "n": record.index, "player": record.player, "points": v.points,
        "fouls": [str(f) for f in v.fouls], "reason": v.reason,
        "reason_parts": reason_json(v.reason_parts),
        "board": [[p, n] for p, n in record.score_after.items()],
    })  # fmt: skip


#: A correction's detail as the referee writes it (``referee._match``), by account key,
#: each with the person's note after it in brackets, if any.
_CORRECTIONS = {
    "correct_points": rf"(?P<points>{NUMBER}) points to (?P<player>.+?)",
    "correct_turn_back": r"turn back to (?P<player>.+?): inning resumed",
    "correct_turn": r"turn to (?P<player>.+?)",
    "correct_break": r"break position for (?P<player>.+?)",
}
#: The audit's action of each kind of correction, and the forms its detail takes.
_CORRECTION_KEYS = {
    "correct points": ("correct_points",),
    "correct turn": ("correct_turn_back", "correct_turn"),
    "correct break_position": ("correct_break",),
}


def correction_account(action: str, detail: str) -> Account:
    """A correction as the referee's audit says it (``action``, ``detail``), keyed.

    Read back from the referee's forms (points, the turn, the turn back, the break
    position, each with the person's note kept as written); any other as it is.
    """
    for key in _CORRECTION_KEYS.get(action, ()):
        found = re.fullmatch(_CORRECTIONS[key] + r"(?: \((?P<note>.*)\))?", detail, re.DOTALL)
        if found is not None:
            fields: dict[str, Any] = {"player": found["player"], "note": found["note"] or ""}
            if found.groupdict().get("points") is not None:
                fields["points"] = int(found["points"])
            return Account("correction", {"detail": Account(key, fields)})
    return Account("correction", {"detail": Account("correct_other", {"text": detail})})


def lag_account(result: LagResult) -> Account:
    """A lag's result as its keyed form (its faults as the referee says them)."""
    winner, faults = result.winner, result.faults
    candidates = [Account("lag_both_lost"), Account("lag_tie")]
    if winner is not None:
        loser = next((p for p in faults if p != winner), "")
        candidates.append(Account("lag_entered", {"winner": winner}))
        lost = faults.get(loser, ())
        fields: dict[str, Any] = {"winner": winner, "loser": loser, "faults": "; ".join(lost)}
        if all(f in _LAG_FAULT_KEYS for f in lost):
            fields["fault_keys"] = [_LAG_FAULT_KEYS[f] for f in lost]
        candidates.append(Account("lag_fault", fields))
        gap = result.reason.removeprefix(f"{winner} won: ").split(" mm nearer")[0]
        if gap.isascii() and gap.isdigit():
            candidates.append(Account("lag_nearer", {"winner": winner, "gap_mm": int(gap)}))
    said = next((a for a in candidates if a.english == result.reason), None)
    return Account("lag", {"result": said or Account("lag_other", {"text": result.reason})})


def undid_timeout(account: Account | None) -> bool:
    """True when ``account`` says a time-out was undone (a shot clock gives its seconds back)."""
    what = account.fields.get("what") if account is not None else None
    return (
        account is not None
        and account.key == "undo"
        and (isinstance(what, Account) and what.key == "timeout")
    )
