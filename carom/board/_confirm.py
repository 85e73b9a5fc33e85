"""Whether the board shows the final state: the end of a replay or a live match.

The board acknowledges every snapshot frame (docs/scoreboard-protocol.md), so the link
knows what the board took last (:class:`hardware.LinkStatus`). At the end the state is
sent again until the board acknowledges it, for at most :data:`FINAL_CONFIRM_S`
(``--scoreboard-confirm``); if it never does, the user is told in one line and the
command exits with status 6 (``EXIT_DEVICE``): a board left on a wrong score is never
an exit 0. During a match the web pages warn once the board has been behind for
:data:`LATE_S` (:func:`board_warning`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hardware import LinkState, LinkStatus, ScoreboardLink, Snapshot

__all__ = [
    "FINAL_CONFIRM_S",
    "LATE_S",
    "QUIET_CONFIRM_S",
    "FinalBoard",
    "board_summary",
    "board_warning",
    "board_warning_parts",
    "confirm_final",
    "snapshot_doc",
]

#: Seconds the final state is sent again, at most, for the board to acknowledge it.
FINAL_CONFIRM_S = 10.0

#: Seconds the final state is waited for before the user is told the command waits.
QUIET_CONFIRM_S = 1.0

#: Seconds the board may be behind before the web pages warn (a snapshot goes out
#: and is acked within ~0.1 s; a second or two of noise is repaired by the resends).
LATE_S = 2.0


@dataclass(frozen=True, slots=True)
class FinalBoard:
    """The board at the end: ``confirmed`` (or no board), else ``line`` says so."""

    confirmed: bool
    line: str = ""


def board_summary(snapshot: Snapshot | None) -> str:
    """A snapshot as a person reads it: ``Ana 5 : 4 Ben, over`` (``nothing`` for None)."""
    if snapshot is None:
        return "nothing"
    (a, b), (sa, sb) = snapshot.players, snapshot.scores
    return f"{a} {sa} : {sb} {b}, {'over' if snapshot.over else 'not over'}"


def _what_it_shows(status: LinkStatus, *, final: bool) -> str:
    """What the board took last, and what it should show (at the end: the final state).

    When the score it took is the one it should show, what waits is a newer clock or
    shot line: said so (it read "acknowledged last E 1 : 0 F; it should show E 1 : 0 F").
    """
    shown = status.shown
    said = f"it acknowledged last {board_summary(shown)}" if shown else "it acknowledged no state"
    same = shown is not None and board_summary(shown) == board_summary(status.current)
    if same:
        said += ", the score it should show; its newer clock or shot line is not confirmed"
    if status.state is not LinkState.UP and status.last_error:
        said += f"; the port: {status.last_error}"
    if same:
        return said
    should = "the final state is" if final else "it should show"
    return f"{said}; {should} {board_summary(status.current)}"


def board_warning(status: LinkStatus | None, late_s: float = LATE_S) -> str | None:
    """A warning when the board has been behind for ``late_s`` (None: it is not)."""
    if status is None or status.current is None or status.unconfirmed_s < late_s:
        return None
    return (f"the scoreboard has not confirmed the score for {late_s:g} s or more "
            f"({_what_it_shows(status, final=False)}); check the cable and the board")  # fmt: skip


def board_warning_parts(status: LinkStatus | None, late_s: float = LATE_S) -> dict[str, Any] | None:
    """:func:`board_warning` keyed for the pages (``board.late`` in the web catalogues).

    ``{"key": "late", "fields": {late_s, shown, port_error, current}}``: ``shown`` and
    ``current`` as :func:`snapshot_doc`; ``port_error`` None unless the port is down.
    """
    if board_warning(status, late_s) is None or status is None:
        return None
    port = status.last_error if status.state is not LinkState.UP and status.last_error else None
    fields = {"late_s": late_s, "shown": snapshot_doc(status.shown), "port_error": port,
              "current": snapshot_doc(status.current)}  # fmt: skip
    return {"key": "late", "fields": fields}


def _waiting_line(status: LinkStatus, more_s: float) -> str:
    return (f"scoreboard: the board at {status.url} has not confirmed the final state "
            f"({board_summary(status.current)}) yet; sending it again for up to "
            f"{more_s:.3g} s more")  # fmt: skip


def snapshot_doc(snapshot: Snapshot | None) -> dict[str, Any] | None:
    """A snapshot's players, scores and whether it is over (None for None)."""
    if snapshot is None:
        return None
    return {"players": list(snapshot.players), "scores": list(snapshot.scores),
            "over": snapshot.over}  # fmt: skip


def confirm_final(
    link: ScoreboardLink | None,
    timeout_s: float = FINAL_CONFIRM_S,
    waiting: Callable[[str], None] | None = None,
) -> FinalBoard:
    """Wait (at most ``timeout_s``) for the board to acknowledge the newest snapshot.

    Meanwhile the link resends it and brings a board that comes back up to date at
    once. No link: nothing to confirm. A board that has not confirmed it within
    :data:`QUIET_CONFIRM_S` (a working one does in ~0.1 s): ``waiting`` hears one line
    saying how much longer it is waited for, so the command's silence is explained.
    """
    if link is None:
        return FinalBoard(True)
    first_s = min(timeout_s, QUIET_CONFIRM_S)
    if link.confirm(first_s):
        return FinalBoard(True)
    if timeout_s > first_s:
        if waiting is not None:
            waiting(_waiting_line(link.status(), timeout_s - first_s))
        if link.confirm(timeout_s - first_s):
            return FinalBoard(True)
    status = link.status()
    # A board at another bus address answers nothing at all: name the one spoken to.
    address = f" and its bus address ({link.addr}: --scoreboard-addr)" if not status.shown else ""
    shows = _what_it_shows(status, final=True)
    line = (
        f"scoreboard: the board never confirmed the final state within {timeout_s:g} s "
        f"({shows}); check the cable and the board at {status.url}{address} "
        "(the result printed is the right one)"
    )
    return FinalBoard(False, line)
