"""A per-shot CSV read back and compared, field by field, with the shot log it came from.

The expected cells are worked out here from the log parsed by the referee (typed events),
not by the code under test.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from referee import BallContact, CushionContact, PinDown, Shot, parse_shot_log

DOC = Path(__file__).parents[3] / "docs" / "shot-csv.md"
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def documented_columns() -> list[str]:
    """The column names of the table in docs/shot-csv.md, in order."""
    return re.findall(r"^\| `([a-z_]+)` \|", DOC.read_text(encoding="utf-8"), flags=re.M)


def read_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def _safe(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA) else text


def contacts(shot: Shot) -> tuple[str, str, str]:
    """(first ball, second ball, cushions before the second) from the typed events."""
    cue, events = shot.cue_ball, sorted(shot.events, key=lambda e: e.t_s)
    hits = [(e.t_s, e.other(cue)) for e in events if isinstance(e, BallContact) and e.involves(cue)]
    if not hits:
        return "", "", ""
    first = hits[0][1]
    second = next(((t, b) for t, b in hits if b != first), None)
    if second is None:
        return str(first), "", ""
    cushions = [e for e in events if isinstance(e, CushionContact) and e.ball == cue]
    return str(first), str(second[1]), str(sum(1 for e in cushions if e.t_s < second[0]))


def expected_row(doc: dict[str, Any], shot: Shot, match: str, carom: bool) -> dict[str, str]:
    v = doc["shots"][shot.index]["verdict"]
    row = {
        "match": _safe(match), "shot": str(v["index"]), "player": _safe(v["player"]),
        "set": str(v["set"]), "inning": str(v["inning"]), "points": str(v["points"]),
        "opponent_points": str(v["opponent_points"]), "penalty": str(v["penalty"]),
        "run": str(v["run"]), "cue_ball": str(shot.cue_ball),
    }  # fmt: skip
    first, second, cushions = contacts(shot) if carom else ("", "", "")
    fell: dict[str, str] = {}  # the referee's count: each standing pin once, its first fall
    for e in sorted((e for e in shot.events if isinstance(e, PinDown)), key=lambda e: e.t_s):
        if (
            shot.pins_standing is None
            or e.pin in shot.pins_standing
            or doc["discipline"] != "five-pins"
        ):
            fell.setdefault(str(e.pin), "" if e.ball is None else str(e.ball))
    row |= {"first_ball": first, "second_ball": second, "cushions_before_second_ball": cushions,
            "pins_down": ";".join(f"{pin}:{ball}" for pin, ball in fell.items()),
            "fouls": ";".join(v["fouls"]), "review": _safe(v["review"] or ""),
            "reason": _safe(v["reason"]), "start_s": _seconds(shot.start_s),
            "end_s": _seconds(shot.end_s)}  # fmt: skip
    mark = doc["shots"][shot.index].get("review_decision") or {"decision": "", "held_for": ""}
    points = "" if mark.get("points") is None else f" {mark['points']}"
    row |= {"review_decision": mark["decision"] + points, "held_for": _safe(mark["held_for"])}
    for seat, player in zip("abcdefgh", doc["match"]["players"], strict=False):
        row |= {f"player_{seat}": _safe(player), f"score_{seat}": str(v["score_after"][player])}
    return row


def check_against_log(text: str, doc: dict[str, Any], match: str) -> list[dict[str, str]]:
    """Every row of ``text`` equals the one worked out from its shot in ``doc``."""
    rows = read_rows(text)
    log = parse_shot_log(doc)
    carom = doc["discipline"] not in ("five-pins", "pin-carom-7")
    judged = [s for s in log.shots if doc["shots"][s.index].get("verdict") is not None]
    assert len(rows) == len(judged) > 0
    seats = [
        f"{k}_{s}" for s in "abcdefgh"[: len(doc["match"]["players"])] for k in ("player", "score")
    ]
    assert list(rows[0]) == documented_columns() + seats
    for row, shot in zip(rows, judged, strict=True):
        assert row == expected_row(doc, shot, match, carom), f"shot {shot.index}"
    return rows


def _seconds(t_s: float | None) -> str:
    return "" if t_s is None else f"{t_s:.3f}"
