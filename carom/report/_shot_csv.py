"""The per-shot CSV: one row per judged shot of a ``carom-shots/1`` log (docs/shot-csv.md).

Built from the shot log document itself (the ``shots`` with their ``verdict``), so
``carom analyze``, ``carom export`` and the web history write the same rows for the
same log. The cue ball's first and second object balls and the cushions it touched
before the second are read from the shot's events, in time order, for the carom
disciplines (every discipline but ``five-pins`` and ``pin-carom-7``, where the cells are
empty); the pins that fell, and the ball that knocked each, from its pin events as the
referee counts them (each pin once; in five-pins only a pin the shot had standing).

Text cells hold what people typed or the referee said (names, reasons): one that a
spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return) gets a leading ``'``, as ``carom export --csv`` does (docs/security.md).
Numeric cells are written as they are.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee import CaromError

__all__ = [
    "SHOT_CSV_COLUMNS",
    "ShotCsvError",
    "cue_ball_contacts",
    "pins_down",
    "shot_csv_columns",
    "shot_csv_rows",
    "shot_csv_text",
    "write_shot_csv",
]

#: The seats of the per-player score columns: ``a`` is the first player in the order of play.
SEATS = "abcdefgh"
_FIXED = (
    "match", "shot", "player", "set", "inning", "points", "opponent_points", "penalty",
    "run", "cue_ball", "first_ball", "second_ball", "cushions_before_second_ball", "pins_down",
    "fouls", "review", "review_decision", "held_for", "reason", "start_s", "end_s",
)  # fmt: skip
_TEXT = frozenset({"match", "player", "fouls", "review", "held_for", "reason"})
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: Disciplines where "the second ball" means nothing (pins; the 7-pin game).
_NOT_CAROM = frozenset({"five-pins", "pin-carom-7"})


class ShotCsvError(CaromError):
    """The per-shot CSV cannot be built or written (the message names the file)."""


def shot_csv_columns(n_players: int) -> tuple[str, ...]:
    """The header for ``n_players`` (2 to 8): the fixed columns, then ``player_X, score_X``."""
    if not 2 <= n_players <= len(SEATS):
        raise ShotCsvError(f"a shot CSV holds 2 to {len(SEATS)} players, got {n_players}")
    seats = tuple(c for s in SEATS[:n_players] for c in (f"player_{s}", f"score_{s}"))
    return (*_FIXED, *seats)


#: The header of a two-player match.
SHOT_CSV_COLUMNS = shot_csv_columns(2)


def _cell(column: str, value: str) -> str:
    text = column in _TEXT or column.startswith("player_")
    return "'" + value if text and value.startswith(_FORMULA_START) else value


def cue_ball_contacts(events: Sequence[Mapping[str, Any]], cue: str) -> tuple[str, str, str]:
    """(first ball, second ball, cushions before the second) of one shot's events.

    The events are a shot log's (``kind`` ``ball``/``cushion`` ...), any order. A ball
    not hit is ``""``; the cushion count is ``""`` when no second ball was hit.
    """
    ordered = sorted(events, key=lambda e: float(e["t_s"]))
    first = second = ""
    cushions = 0
    for e in ordered:
        if e.get("kind") == "cushion" and e.get("ball") == cue and not second:
            cushions += 1
        elif e.get("kind") == "ball" and cue in e.get("balls", ()):
            other = next((b for b in e["balls"] if b != cue), "")
            if not first:
                first = other
            elif other not in (first, "") and not second:
                second = other
    return first, second, str(cushions) if second else ""


def pins_down(events: Sequence[Mapping[str, Any]], standing: Sequence[str] | None = None) -> str:
    """The pins that fell, in time order: ``PIN:BALL`` each, ``;`` between (docs/shot-csv.md).

    As the referee counts them: each pin once (its first fall), and only a pin that was
    ``standing`` (the shot's ``pins_standing``; ``None``: all). ``BALL`` is the ball that
    knocked the pin, empty when another pin did.
    """
    pins = sorted((e for e in events if e.get("kind") == "pin"), key=lambda e: float(e["t_s"]))
    fell: dict[str, str] = {}
    for e in pins:
        if standing is None or e["pin"] in standing:
            fell.setdefault(str(e["pin"]), str(e.get("ball") or ""))
    return ";".join(f"{pin}:{ball}" for pin, ball in fell.items())


def _row(shot: Mapping[str, Any], players: Sequence[str], match: str, discipline: str) -> list[str]:
    v = shot["verdict"]
    carom = discipline not in _NOT_CAROM
    # Five-pins ignores a pin down that was not standing; the 7-pin game's pins are all set.
    standing = shot.get("pins_standing") if discipline == "five-pins" else None
    cue = str(shot["cue_ball"])
    contacts = cue_ball_contacts(shot.get("events", []), cue) if carom else ("", "", "")
    fixed = [
        match, str(v["index"]), v["player"], str(v["set"]), str(v["inning"]), str(v["points"]),
        str(v["opponent_points"]), str(v["penalty"]), str(v["run"]), cue, *contacts,
        pins_down(shot.get("events", []), standing), ";".join(v["fouls"]),
        v["review"] or "", *_decided(shot.get("review_decision")), v["reason"],
        *(_seconds(shot.get(k)) for k in ("start_s", "end_s")),
    ]  # fmt: skip
    seats = [c for p in players for c in (p, str(v["score_after"][p]))]
    return [*fixed, *seats]


def _decided(decided: Mapping[str, Any] | None) -> tuple[str, str]:
    """(decision, why the shot was held) of a shot a person settled; empty cells otherwise."""
    if decided is None:
        return "", ""
    points = decided.get("points")
    decision = str(decided["decision"]) + ("" if points is None else f" {points}")
    return decision, str(decided["held_for"])


def _seconds(value: Any) -> str:
    """A shot's time with 3 decimals; empty when the log gives none (shots entered live)."""
    return "" if value is None else f"{float(value):.3f}"


def shot_csv_rows(doc: Mapping[str, Any], match: str) -> list[dict[str, str]]:
    """One row per shot of ``doc`` that has a ``verdict`` (columns: :func:`shot_csv_columns`).

    Args:
        doc: A ``carom-shots/1`` document with verdicts (``carom analyze``'s ``shots.json``,
            ``carom export``'s shot log).
        match: What the ``match`` column says: the video's file name, the match's id.
    """
    players = list(doc["match"]["players"])
    columns = shot_csv_columns(len(players))
    discipline = str(doc.get("discipline"))
    rows = []
    for shot in doc["shots"]:
        if shot.get("verdict") is not None:
            values = _row(shot, players, match, discipline)
            rows.append({c: _cell(c, v) for c, v in zip(columns, values, strict=True)})
    return rows


def shot_csv_text(doc: Mapping[str, Any], match: str) -> str:
    """The per-shot CSV of ``doc`` as text: the header line, then a row per shot."""
    columns = shot_csv_columns(len(doc["match"]["players"]))
    out = io.StringIO()
    # "\r\n" so that the writer quotes a cell holding a lone CR; lines end in "\n".
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(shot_csv_rows(doc, match))
    return out.getvalue().replace("\r\n", "\n")


def write_shot_csv(path: Path, doc: Mapping[str, Any], match: str) -> None:
    """Write the per-shot CSV of ``doc`` to ``path`` (replaced whole: a reader never sees half).

    Raises:
        ShotCsvError: the file cannot be written.
    """
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(shot_csv_text(doc, match), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        why = exc.strerror or exc.__class__.__name__
        raise ShotCsvError(f"shot CSV {path}: cannot write ({why}); check the folder") from None
