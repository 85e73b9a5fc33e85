"""Exports of a live match: the ``carom-shots/1`` shot log, its trajectories, a CSV result line.

The shot log holds the lag and the shots *in effect* (undone inputs left out, a
person's foul calls as ``call`` events, review decisions already folded into the
events), each with its verdict and, for a shot a person settled, its
``review_decision`` (what was decided, why the shot was held, the doubtful events, who
and when); ``carom score`` on it gives the same shots and score. Referee corrections
(points, turn) have no place in ``carom-shots/1``: they are listed by
:func:`corrections_in_effect` so a caller can say so. The trajectories
(:func:`trajectories`) are those of the same shots, with the same indexes, from what
the journal kept of each shot's tracks.

The result line's text cells (player names, the winner, the date and discipline) hold
what people typed: one that a spreadsheet would read as a formula (it starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return) is written with a leading ``'``, so it
shows as text (OWASP's "CSV injection" recipe). The numeric cells are written as they
are: a negative number stays a number.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO

from carom.live._codec import config_doc, lag_json
from carom.live._session import LiveSession
from carom.live._steps import CorrectStep, Decided, Info, JoinStep, LagStep, PlayStep
from carom.live._store import LiveError
from carom.trajectories import Trajectories
from referee import (
    Correction,
    MatchConfig,
    MatchResult,
    Phase,
    event_json,
    match_stats,
    record_json,
    shot_json,
)

__all__ = [
    "CSV_COLUMNS",
    "SEATS",
    "corrections_in_effect",
    "csv_cell",
    "csv_columns",
    "csv_text",
    "judged_setup",
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
    config = judged_setup(session)
    doc = config_doc(config)
    lags = [op.lag for op in session.ops if isinstance(op, LagStep)]
    if lags and config.start is None:
        doc["lag"] = lag_json(lags[-1])  # the deciding lag; "lag again" ones decide nothing
    plays = [op for op in session.ops if isinstance(op, PlayStep)]
    shots = []
    for play, record in zip(plays, session.records, strict=True):
        shot = shot_json(play.shot)
        _with_info(shot["events"], play.info)
        if play.decided is not None:
            shot["review_decision"] = _decided_json(play.decided)
        shot["verdict"] = record_json(record)
        shots.append(shot)
    doc["shots"] = shots
    return doc


def judged_setup(session: LiveSession) -> MatchConfig:
    """The set-up ``session``'s match is judged under, with the start it was joined at.

    A match joined because no lag decided who breaks (the first stroke's ball told who
    was at the table) has that start (``StartState()``: nothing known) as its
    ``MatchConfig.start``, as its shot log says; any other, the set-up it was opened with.
    """
    config = session.state.config
    joins = [op.start for op in session.ops if isinstance(op, JoinStep)]
    return config if config.start is not None or not joins else replace(config, start=joins[-1])


def _decided_json(decided: Decided) -> dict[str, Any]:
    """A shot log's ``review_decision``: how a person settled a shot held for review."""
    out: dict[str, Any] = {"decision": decided.decision, "held_for": decided.held_for}
    if decided.points is not None:
        out["points"] = decided.points
    if decided.by_corrections:
        out["by_corrections"] = True
    out["doubtful_events"] = _with_info([event_json(e) for e in decided.doubtful],
                                        decided.doubtful_info)  # fmt: skip
    for key, value in (("by", decided.who), ("at", decided.at)):
        if value is not None:
            out[key] = value
    return out


def _with_info(events: list[dict[str, Any]], info: Info) -> list[dict[str, Any]]:
    """``events`` (shot-log objects) given vision's confidence and evidence, by position."""
    for i, event_doc in enumerate(events):
        if i in info:
            confidence, evidence = info[i]
            event_doc["confidence"] = confidence
            if evidence:
                event_doc["evidence"] = evidence
    return events


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


def write_csv(path: Path, rows: list[dict[str, str]], *, into: Path | None = None) -> None:
    """Write ``rows``; a file that already starts with the same header gets them appended.

    A file of results with another number of players (other columns), or one that is
    not UTF-8 text (not a CSV at all: a video, a spreadsheet), is refused and left as
    it was. With ``into``, ``path`` is only read: the whole new file (``path``'s lines,
    then ``rows``) is written to ``into``, which the caller renames over ``path``.

    Raises:
        LiveError: the file at ``path`` is not a CSV of the same results, or unreadable.
        OSError: the file cannot be written.
    """
    dest = path if into is None else into
    if not _appends_to(path, rows):
        dest.write_text(csv_text(rows), encoding="utf-8")
        return
    if into is not None:
        shutil.copyfile(path, into)
    lead = "" if _ends_a_line(dest) else "\n"
    with dest.open("a", encoding="utf-8", newline="") as f:
        f.write(lead + csv_text(rows, header=False))


def _appends_to(path: Path, rows: list[dict[str, str]]) -> bool:
    """Whether ``path`` holds results to append ``rows`` to (False: no file, or empty)."""
    try:
        with path.open("rb") as f:
            text = _utf8_text(f)
    except FileNotFoundError:
        return False
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise LiveError(f"{path}: cannot read ({why}); give a new file name") from None
    if text is None:
        raise LiveError(f"{path}: not a CSV of carom results (not UTF-8 text); "
                        "give a new file name or that CSV")  # fmt: skip
    if not text:
        return False
    if text.removeprefix("\ufeff").partition("\n")[0].rstrip("\r") != ",".join(_columns_of(rows)):
        raise LiveError(
            f"{path}: has other columns than a carom result of {_players_in(rows)} "
            "players; pass a new file"
        )
    return True


def _utf8_text(f: BinaryIO) -> str | None:
    """The file's first line (``""``: an empty file); None when it is not UTF-8 text.

    Read to its end, a block at a time, and given up at the first byte that is not
    text (a video is found out at its first block, not read whole).
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    first = ""
    try:
        while block := f.read(1 << 20):
            if b"\0" in block:
                return None
            text = decoder.decode(block)
            first = first if "\n" in first else first + text
        first += decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    return first


def _ends_a_line(path: Path) -> bool:
    """Whether the (non-empty) file ends with a line end, so a row appended starts a line."""
    with path.open("rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def _columns_of(rows: list[dict[str, str]]) -> tuple[str, ...]:
    """The columns of ``rows`` (all of one number of players; none: two players')."""
    columns = tuple(rows[0]) if rows else CSV_COLUMNS
    if any(tuple(r) != columns for r in rows):
        raise LiveError("result lines of matches with different numbers of players: one file each")
    return columns


def _players_in(rows: list[dict[str, str]]) -> int:
    return sum(1 for c in _columns_of(rows) if c.startswith("player_"))
