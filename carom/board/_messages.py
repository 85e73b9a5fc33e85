"""What a judged shot shows on a scoreboard besides the score: one event message."""

from __future__ import annotations

from hardware import EventKind, EventMessage
from referee import WRONG_BREAK, ReasonKey, ShotRecord

__all__ = ["event_of"]

#: The notes that say how a match ended: the board's ``END`` line says the result.
_RESULT_NOTES = frozenset({ReasonKey.NOTE_MATCH_WON, ReasonKey.NOTE_MATCH_DRAW})


def event_of(
    record: ShotRecord, players: tuple[str, ...], over: bool, *, decided: bool = False
) -> EventMessage:
    """The event message a judged shot makes on the board.

    ``players``: the players in the board's slots before the shot
    (:func:`hardware.board_players`); the event names the slot of the shot's player
    (with 3+ players the shooter is in the first slot), 0 when not shown. ``decided``: a
    person settled the shot held for review: its outcome, no longer ``REVIEW`` (the
    board went on showing "REVIEW" for a shot already settled). The shot that ends the
    match shows the result (``END: match over: Ana wins``), not its own reason: the
    last frame never said who won.
    """
    v = record.verdict
    who = players.index(record.player) if record.player in players else 0
    result = next((p for p in reversed(record.note_parts) if p.key in _RESULT_NOTES), None)
    if over and result is not None:  # the protocol's ``end``: the winner's slot (a draw: 0)
        winner = str(result.field_map().get("winner", ""))
        slot = players.index(winner) if winner in players else 0
        return EventMessage(EventKind.END, slot, result.english())
    if over:
        kind = EventKind.END
    elif v.review and not decided:
        kind = EventKind.REVIEW
    elif v.fouls:
        kind = EventKind.FOUL
    elif v.points > 0:
        kind = EventKind.POINT
    else:
        kind = EventKind.MISS
    return EventMessage(kind, who, _board_line(v.announcements) or _said_once(kind, v.reason))


def _said_once(kind: EventKind, reason: str) -> str:
    """The reason without a leading ``KIND:`` the board shows already (``POINT: point: ...``).

    A board draws the event as ``KIND: TEXT``; a reason that opens with the same word
    (``point: red then yellow ...``, ``foul: ...``) would say it twice.
    """
    head, sep, rest = reason.partition(": ")
    if sep and head.strip().lower() == str(kind).lower() and rest.strip():
        return rest.strip()
    return reason or str(kind)


def _board_line(announcements: tuple[str, ...]) -> str:
    """A wrong break position, said short enough for a board (else '')."""
    wrong = next((a for a in announcements if a.startswith(WRONG_BREAK)), "")
    short = wrong.split(" (at most")[0].replace(WRONG_BREAK, "wrong break")
    for long, brief in ((" is ", " "), ("the ", ""), ("too far from", "from")):
        short = short.replace(long, brief)
    return short
