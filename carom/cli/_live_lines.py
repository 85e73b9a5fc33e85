"""What ``carom live`` prints of the match as it goes: each call's line, the score.

docs/live.md, "What it prints": a line per judged shot (:func:`shot_line`), a lag's
result, the join of a match no lag began, ``REVIEW:`` for a held shot, a person's call
with the score after it (:class:`CallPrinter`), and the score at the end
(:func:`say_result`).
"""

from __future__ import annotations

from typing import Any

from carom.console import say, show

__all__ = ["CallPrinter", "say_result", "shot_line"]


def say_result(session: Any) -> None:
    """The score and the match's phase, the board's way, when live mode ends."""
    state = session.state
    show("live", f"{_score_line(state)}  ({state.phase})")


def _score_line(state: Any) -> str:
    """The score the board's way: ``A 1 : 2 B``; 3+ players ``Ana 1 : Ben 2 : Cleo 0``."""
    players = state.config.players
    if len(players) == 2:
        a, b = players
        return f"{a} {state.board(a)} : {state.board(b)} {b}"
    return " : ".join(f"{p} {state.board(p)}" for p in players)


#: A lag's accounts (``carom.live.ACCOUNT_ENGLISH``): its result, or that it was not judged.
_LAG_ACCOUNTS = frozenset({"lag", "lag_not_judged", "lag_not_judged_start"})
#: The session changes a person made (keyboard, web console) that print a line too.
_PERSON_CALLS = ("correction:", "undo:", "time-out")


class CallPrinter:
    """Each committed call on stdout as it is made, one line (docs/live.md, "What it prints").

    ``shot 12  Ana  +1  point: red then yellow after 3 cushions  (Ana 23 : 19 Ben)``;
    a lag's result (``lag: B won: ...``), or that a lag seen while the breaker was set is
    not judged; before the first stroke, when no lag came before it, the join
    (``JOIN_ENGLISH``); a shot held for a person: ``REVIEW: <reason>`` (once, when it is
    first held); a correction, an undo or a time-out: the session's own line with the
    score after it.
    """

    def __init__(self) -> None:
        self._held: object = None
        self._told_first = False  # the first player the video contradicts: said once

    def __call__(self, update: Any) -> None:
        key = None if update.account is None else update.account.key
        if key == "joined":
            from carom.live import JOIN_ENGLISH

            show("live", JOIN_ENGLISH)  # the match's first stroke, no lag before it
        elif key in _LAG_ACCOUNTS:  # who breaks, or a lag seen after the breaker was set
            show("live", update.what)
        if update.record is not None:
            show("live", shot_line(update.record, update.state))
            if not self._told_first:
                self._told_first = _say_first_contradicted(update.record, update.state)
        elif update.what.startswith(_PERSON_CALLS):  # a person's call took effect
            show("live", f"{update.what}  ({_score_line(update.state)})")
        pending = update.pending
        # Once a held shot and reason: a call on the held shot (the clock's foul) holds it
        # again with the same reason, which was said twice with nothing between.
        held = None if pending is None else (pending.shot.index, pending.reason)
        if held is not None and held != self._held:
            show("live", f"REVIEW: {pending.reason or 'a person decides'}")
        self._held = held


def _say_first_contradicted(record: Any, state: Any) -> bool:
    """Say that the first stroke contradicts the first player set; True if it was said.

    The match follows the video; the operator who typed ``--first`` (or the match file's
    ``first_player``) is told, as ``carom analyze`` notes it. Not when a lag's winner or
    a start's shooter named the player (no first player was typed to blame).
    """
    from referee import ReasonKey

    config = state.config
    if record.index != 0 or config.first_player is None or config.start is not None:
        return False
    for part in record.note_parts:
        if part.key is ReasonKey.NOTE_VIDEO_FIRST:
            given = part.field_map()["expected"]
            say("live", f"first player {given} (--first, or the match file): {part.english()}")
            return True
    return False


def shot_line(record: Any, state: Any) -> str:
    """One judged shot in one line: number, player, points, the call, the score after it."""
    v = record.verdict
    points = f"+{v.points}" if v.points > 0 else "0"
    if v.opponent_points:
        points += f" (+{v.opponent_points} to the opponent)"
    if v.penalty:
        points += f" (+{v.penalty} penalty)"
    # What a referee says aloud (ball in hand, frozen balls, a wrong break position) goes on
    # the line: the players act on it (analyze and score print it below the shot).
    said = "".join(f"; {a}" for a in v.announcements)
    return (
        f"shot {record.index}  {record.player}  {points}  {v.reason}  ({_score_line(state)}){said}"
    )
