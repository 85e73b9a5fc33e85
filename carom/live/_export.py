"""Exports of a live match: the ``carom-shots/1`` shot log, its trajectories, a CSV result line.

The shot log holds the lag and the shots *in effect* (undone inputs left out, a
person's foul calls as ``call`` events, review decisions already folded into the
events), each with its verdict; ``carom score`` on it gives the same shots and
score. Referee corrections (points, turn) have no place in ``carom-shots/1``: they
are listed by :func:`corrections_in_effect` so a caller can say so. The trajectories
(:func:`trajectories`) are those of the same shots, with the same indexes, from what
the journal kept of each shot's tracks.

The result line's text cells (player names, the winner, the date and discipline) hold
what people typed: one that a spreadsheet would read as a formula (it starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return) is written with a leading ``'``, so it
shows as text (OWASP's "CSV injection" recipe). The numeric cells are written as they
are: a negative number stays a number.
"""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path
from typing import Any

from carom.live._codec import config_doc, lag_json
from carom.live._session import LiveSession
from carom.live._steps import CorrectStep, LagStep, PlayStep
from carom.live._store import LiveError
from carom.trajectories import Trajectories
from referee import Correction, MatchResult, Phase, match_stats, record_json, shot_json

__all__ = [
    "CSV_COLUMNS",
    "SEATS",
    "corrections_in_effect",
    "csv_cell",
    "csv_columns",
    "csv_text",
    "result_row",
    "shot_log",
    "trajectories",
    "write_csv",
]

#: A result line's seats: ``a`` is the first player in the order of play, ``h`` the 8th.
SEATS = "abcdefgh"
_PER_PLAYER = ("player", "points", "innings", "average", "high_run")


def csv_columns(n_players: int) -> tuple[str, ...]:
    """The columns of a result line of ``n_players`` (2 to 8) players.

    ``date, discipline``, then per seat ``player_X, points_X, innings_X, average_X,
    high_run_X``, then ``match_points_X`` per seat and ``winner``: two players give
    the columns the project always wrote, three add ``_c``, and so on.
    """
    if not 2 <= n_players <= len(SEATS):
        raise LiveError(f"a result line holds 2 to {len(SEATS)} players, got {n_players}")
    seats = SEATS[:n_players]
    per_player = tuple(f"{name}_{seat}" for seat in seats for name in _PER_PLAYER)
    return ("date", "discipline", *per_player, *(f"match_points_{s}" for s in seats), "winner")


#: The columns of a two-player result line.
CSV_COLUMNS = csv_columns(2)
#: Columns whose cells are numbers (never neutralised: ``-3`` stays a number).
_NUMERIC = ("points_", "innings_", "average_", "high_run_", "match_points_")
#: What a spreadsheet takes for the start of a formula (OWASP, CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(column: str, value: str) -> str:
    """``value`` as written in ``column``: a text cell that starts a formula gets a ``'``."""
    if column.startswith(_NUMERIC) or not value.startswith(_FORMULA_START):
        return value
    return "'" + value


def shot_log(session: LiveSession) -> dict[str, Any]:
    """The match as a ``carom-shots/1`` document with verdicts (re-scorable)."""
    doc = config_doc(session.state.config)
    lags = [op.lag for op in session.ops if isinstance(op, LagStep)]
    if lags:
        doc["lag"] = lag_json(lags[-1])  # the deciding lag; "lag again" ones decide nothing
    plays = [op for op in session.ops if isinstance(op, PlayStep)]
    shots = []
    for play, record in zip(plays, session.records, strict=True):
        shot = shot_json(play.shot)
        for i, event_doc in enumerate(shot["events"]):
            if i in play.info:
                confidence, evidence = play.info[i]
                event_doc["confidence"] = confidence
                if evidence:
                    event_doc["evidence"] = evidence
        shot["verdict"] = record_json(record)
        shots.append(shot)
    doc["shots"] = shots
    return doc


def trajectories(session: LiveSession) -> Trajectories:
    """The trajectories of the shots :func:`shot_log` exports, with the same indexes.

    A shot whose journal entry kept no trajectories (written by an older version, or
    the write failed) is left out.
    """
    kept = session.tracks()
    shots = []
    for play in (op for op in session.ops if isinstance(op, PlayStep)):
        track = kept.get(play.entry) if play.entry is not None else None
        if track is not None:
            shot = play.shot
            shots.append(replace(track, index=shot.index, cue_ball=shot.cue_ball,
                                 start_s=shot.start_s, end_s=shot.end_s))  # fmt: skip
    return Trajectories(table=session.state.config.table, shots=tuple(shots))


def corrections_in_effect(session: LiveSession) -> list[Correction]:
    """The referee corrections the shot log cannot carry."""
    return [op.correction for op in session.ops if isinstance(op, CorrectStep)]


def result_row(session: LiveSession) -> dict[str, str]:
    """The match's result line (figures over all sets; match points once it is over).

    Its keys are :func:`csv_columns` of the match's number of players, seat ``a``
    the first player in the order of play. A draw has ``winner`` ``draw``; the match
    points say who shares it.
    """
    state = session.state
    stats = match_stats(state)
    players = state.config.players
    over = state.phase is Phase.OVER
    result = MatchResult.from_state(state) if over else None
    row = {"date": session.created_at[:10], "discipline": str(state.config.discipline)}
    for seat, p in zip(SEATS, players, strict=False):
        s = stats[p]
        won = "" if result is None else str(result.match_points(p))
        row |= {f"player_{seat}": p, f"points_{seat}": str(s.points),
                f"innings_{seat}": str(s.innings), f"average_{seat}": s.average,
                f"high_run_{seat}": str(s.high_run), f"match_points_{seat}": won}  # fmt: skip
    row["winner"] = (state.winner or "draw") if over else ""
    return {k: row[k] for k in csv_columns(len(players))}


def csv_text(rows: list[dict[str, str]], *, header: bool = True) -> str:
    """Rows of one number of players as CSV text (the header line unless ``header`` is False)."""
    columns = _columns_of(rows)
    out = io.StringIO()
    # "\r\n" so that the writer quotes a cell holding a lone CR (with "\n" it does not,
    # and a reader ends the row there); the file's lines end in "\n" as they always did.
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\r\n")
    if header:
        writer.writeheader()
    writer.writerows({k: csv_cell(k, v) for k, v in row.items()} for row in rows)
    return out.getvalue().replace("\r\n", "\n")


def write_csv(path: Path, rows: list[dict[str, str]]) -> None:
    """Write ``rows``; a file that already starts with the same header gets them appended.

    A file of results with another number of players (other columns) is refused.
    """
    header = ",".join(_columns_of(rows))
    if path.exists() and path.stat().st_size > 0:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        if first != header:
            raise LiveError(
                f"{path}: has other columns than a carom result of {_players_in(rows)} "
                "players; pass a new file"
            )
        with path.open("a", encoding="utf-8", newline="") as f:
            f.write(csv_text(rows, header=False))
        return
    path.write_text(csv_text(rows), encoding="utf-8")


def _columns_of(rows: list[dict[str, str]]) -> tuple[str, ...]:
    """The columns of ``rows`` (all of one number of players; none: two players')."""
    columns = tuple(rows[0]) if rows else CSV_COLUMNS
    if any(tuple(r) != columns for r in rows):
        raise LiveError("result lines of matches with different numbers of players: one file each")
    return columns


def _players_in(rows: list[dict[str, str]]) -> int:
    return sum(1 for c in _columns_of(rows) if c.startswith("player_"))
