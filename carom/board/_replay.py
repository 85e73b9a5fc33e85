"""``carom score LOG --scoreboard URL``: a board (real or emulated) driven by a shot log.

Shot by shot through :class:`hardware.ScoreboardLink`: after each shot the new
snapshot and the shot's event message (:func:`carom.board.event_of`); at the end the
final state until the board acknowledges it (:func:`carom.board.confirm_final`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from carom.board._confirm import FINAL_CONFIRM_S, FinalBoard, confirm_final
from carom.board._messages import event_of
from carom.match import ScoreRun, load_json
from hardware import ScoreboardError, ScoreboardLink, board_players, snapshot_from_state
from referee import CaromError, Discipline, Match, Phase, ShotLog, ShotRecord, parse_shot_log

__all__ = ["BoardReplay", "replay_to_scoreboard"]


@dataclass(frozen=True, slots=True)
class BoardReplay:
    """A log scored on a board: the scoring (``run``) and the board at the end."""

    run: ScoreRun
    final: FinalBoard


def replay_to_scoreboard(
    shot_log_path: Path,
    url: str,
    *,
    delay_s: float = 0.5,
    discipline: Discipline | None = None,
    link: ScoreboardLink | None = None,
    baud: int = 19200,
    addr: int = 0,
    dialect: str = "frames",
    confirm_s: float = FINAL_CONFIRM_S,
    waiting: Callable[[str], None] | None = None,
) -> BoardReplay:
    """Score a shot log shot by shot and show every step on the board at ``url``.

    After each shot the new snapshot is published and an event message sent; then the
    replay waits ``delay_s``. At the end the final state is sent again until the board
    acknowledges it, for at most ``confirm_s`` (:attr:`BoardReplay.final` says
    whether it did; ``waiting`` hears when the command waits for it). ``discipline``
    overrides the log's, as ``carom score`` does; ``link`` lets a caller pass a running
    link (left running); ``addr`` is the board's bus address, ``dialect`` its protocol.

    Raises:
        ShotLogError: the log is malformed (before any shot is shown).
        ScoreboardError: no port opens at ``url`` within 2 s.
    """
    log = parse_shot_log(load_json(shot_log_path), discipline)
    match = Match(log.match)
    own = link is None
    board = link or _connect(url, baud=baud, addr=addr, dialect=dialect)
    try:
        run = _play(board, match, log, delay_s)
        return BoardReplay(run, confirm_final(board, confirm_s, waiting))
    finally:
        if own:
            board.stop()


def _play(board: ScoreboardLink, match: Match, log: ShotLog, delay_s: float) -> ScoreRun:
    """The log's lag and shots on ``board``; a refused input ends it (kept in the run)."""
    board.publish(snapshot_from_state(match.state))
    try:
        lag = match.lag(log.lag) if log.lag is not None else None
    except CaromError as exc:
        return ScoreRun(match, None, exc)
    for shot in log.shots:
        shown = board_players(match.state) if match.state.shooter else None
        try:
            record = match.play(shot)
        except CaromError as exc:
            return ScoreRun(match, lag, exc)
        _show(board, match, record, shown or board_players(match.state))
        time.sleep(delay_s)
    return ScoreRun(match, lag)


def _connect(
    url: str, wait_s: float = 2.0, baud: int = 19200, addr: int = 0, dialect: str = "frames"
) -> ScoreboardLink:
    """A started link to the board at bus ``addr`` whose port opened within ``wait_s``.

    Raises:
        ScoreboardError: no port opened.
    """
    link = ScoreboardLink(url, baud=baud, addr=addr, dialect=dialect).start()
    if link.flush(wait_s):
        return link
    link.stop()
    raise ScoreboardError(
        f"{url}: no scoreboard there ({link.status().last_error or 'no answer'}); "
        "start `carom scoreboard-emulator` or check the port"
    )


def _show(
    board: ScoreboardLink, match: Match, record: ShotRecord, players: tuple[str, str]
) -> None:
    """The snapshot after the shot; the event names the slot the shooter had before it."""
    state = match.state
    board.publish(snapshot_from_state(state, review=record.verdict.review is not None))
    board.send_event(event_of(record, players, state.phase is Phase.OVER))
