"""The app's side of a scoreboard: what a shot shows on it, and a shot log replayed on one.

The wire protocols, the link and the emulator are :mod:`hardware`'s; here is what the
referee's results become on a board (:func:`event_of`), ``carom score --scoreboard``
(:func:`replay_to_scoreboard`) and whether the board took the final state
(:func:`confirm_final`, :func:`board_warning`). Live mode shows its session on a board
through the same :func:`event_of` and confirms its end the same way.
"""

from carom.board._confirm import (
    FINAL_CONFIRM_S,
    LATE_S,
    FinalBoard,
    board_summary,
    board_warning,
    board_warning_parts,
    confirm_final,
)
from carom.board._messages import event_of
from carom.board._replay import BoardReplay, replay_to_scoreboard

__all__ = [
    "FINAL_CONFIRM_S",
    "LATE_S",
    "BoardReplay",
    "FinalBoard",
    "board_summary",
    "board_warning",
    "board_warning_parts",
    "confirm_final",
    "event_of",
    "replay_to_scoreboard",
]
