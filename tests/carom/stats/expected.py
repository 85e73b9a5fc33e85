"""The expected numbers, computed without carom.stats: ``carom score --json`` and raw JSON."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from carom.match import run_json, score_file, standings_json

CAROM = {"three-cushion", "one-cushion", "straight-rail"}


def score_json(path: Path) -> dict[str, Any]:
    """What ``carom score --json LOG`` prints, as a dict."""
    return run_json(score_file(path))


def table_json(paths: list[Path]) -> dict[tuple[str, str], dict[str, Any]]:
    """``carom score``'s standings over each discipline's finished matches, by (player,
    discipline)."""
    runs = [score_file(p) for p in paths]
    kinds = {r.match.state.config.discipline for r in runs}
    return {
        (row["player"], str(kind)): row
        for kind in kinds
        for row in standings_json([r for r in runs if r.match.state.config.discipline == kind])
    }


def opening(shot: dict[str, Any]) -> str:
    """The cue ball's opening counted from the raw events (stable sort by ``t_s``)."""
    cue, cushions = shot["cue_ball"], 0
    for e in sorted(shot["events"], key=lambda e: e["t_s"]):
        if e["kind"] == "cushion" and e["ball"] == cue:
            cushions += 1
        elif e["kind"] == "ball" and cue in e["balls"]:
            names = ["ball_first", "cushion_first_1", "cushion_first_2", "cushion_first_3plus"]
            return names[min(cushions, 3)]
    return "no_ball_contact"


def categories(path: Path) -> dict[str, Counter[str]]:
    """Per player: each count by name and ``foul_<name>``, from the log and the verdicts."""
    log = json.loads(path.read_text(encoding="utf-8"))
    scored = score_json(path)
    out: dict[str, Counter[str]] = {p: Counter() for p in scored["players"]}
    carom = log["discipline"] in CAROM or log["discipline"].startswith("balkline")
    for record in scored["shots"]:
        shot, count = log["shots"][record["index"]], out[record["player"]]
        count["shots"] += 1
        if not shot.get("events"):
            count["without_events"] += 1
            continue
        count["scoring"] += record["points"] > 0
        count["misses"] += record["points"] == 0 and not record["fouls"]
        count["review"] += record["review"] is not None
        count["breaks"] += record["break"]
        count.update(f"foul_{f}" for f in record["fouls"])
        if carom:
            count[opening(shot)] += 1
    return out
