"""Exports of a live match: the ``carom-shots/1`` shot log and a CSV result line.

The shot log holds the lag and the shots *in effect* (undone inputs left out, a
person's foul calls as ``call`` events, review decisions already folded into the
events), each with its verdict; ``carom score`` on it gives the same shots and
score. Referee corrections (points, turn) have no place in ``carom-shots/1``: they
are listed by :func:`corrections_in_effect` so a caller can say so.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from carom.live._codec import config_doc, lag_json
from carom.live._machine import CorrectStep, LagStep, PlayStep
from carom.live._session import LiveSession
from carom.live._store import LiveError
from referee import Correction, MatchResult, Phase, match_stats, record_json, shot_json

__all__ = ["CSV_COLUMNS", "corrections_in_effect", "result_row", "shot_log", "write_csv"]

CSV_COLUMNS = (
    "date", "discipline",
    "player_a", "points_a", "innings_a", "average_a", "high_run_a",
    "player_b", "points_b", "innings_b", "average_b", "high_run_b",
    "match_points_a", "match_points_b", "winner",
)  # fmt: skip


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


def corrections_in_effect(session: LiveSession) -> list[Correction]:
    """The referee corrections the shot log cannot carry."""
    return [op.correction for op in session.ops if isinstance(op, CorrectStep)]


def result_row(session: LiveSession) -> dict[str, str]:
    """The match's result line (figures over all sets; match points once it is over)."""
    state = session.state
    stats = match_stats(state)
    a, b = state.config.players
    row = {"date": session.created_at[:10], "discipline": str(state.config.discipline)}
    for seat, p in (("a", a), ("b", b)):
        s = stats[p]
        row |= {f"player_{seat}": p, f"points_{seat}": str(s.points),
                f"innings_{seat}": str(s.innings), f"average_{seat}": s.average,
                f"high_run_{seat}": str(s.high_run)}  # fmt: skip
    over = state.phase is Phase.OVER
    result = MatchResult.from_state(state) if over else None
    for seat, p in (("a", a), ("b", b)):
        row[f"match_points_{seat}"] = "" if result is None else str(result.match_points(p))
    row["winner"] = (state.winner or "draw") if over else ""
    return {k: row[k] for k in CSV_COLUMNS}


def csv_text(rows: list[dict[str, str]], *, header: bool = True) -> str:
    """Rows as CSV text (with the header line unless ``header`` is False)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    if header:
        writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def write_csv(path: Path, rows: list[dict[str, str]]) -> None:
    """Write ``rows``; a file that already starts with the same header gets them appended."""
    header = ",".join(CSV_COLUMNS)
    if path.exists() and path.stat().st_size > 0:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        if first != header:
            raise LiveError(f"{path}: has other columns than a carom result; pass a new file")
        with path.open("a", encoding="utf-8", newline="") as f:
            f.write(csv_text(rows, header=False))
        return
    path.write_text(csv_text(rows), encoding="utf-8")
