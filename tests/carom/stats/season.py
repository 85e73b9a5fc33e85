"""A small season built from the bundled sample shot logs (plain factory functions).

Copies with renamed players and lower targets make some matches finish (a win, a draw
with shots after its end) and put players in several matches and disciplines.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).parents[3] / "sample_videos"
NASTY = "<b>&"
Doc = dict[str, Any]


def sample(name: str) -> Doc:
    data: Doc = json.loads((SAMPLES / f"{name}.shots.json").read_text(encoding="utf-8"))
    return data


def renamed(doc: Doc, names: Mapping[str, str]) -> Doc:
    """The log with players renamed everywhere the match set-up names them."""
    out = copy.deepcopy(doc)
    match = out["match"]
    match["players"] = [names.get(p, p) for p in match["players"]]
    for key in ("cue_balls", "target"):
        if isinstance(match.get(key), dict):
            match[key] = {names.get(k, k): v for k, v in match[key].items()}
    if match.get("first_player"):
        match["first_player"] = names.get(match["first_player"], match["first_player"])
    return out


def changed(doc: Doc, **match: Any) -> Doc:
    """The log with its match set-up changed (target, innings_limit, equalizing...)."""
    out = copy.deepcopy(doc)
    out["match"].update(match)
    return out


SEASON: dict[str, Callable[[], Doc]] = {
    "01-3c-open": lambda: sample("three_cushion_match"),
    "02-3c-final": lambda: changed(sample("three_cushion_match"), target=2),
    "03-hard-3c": lambda: renamed(changed(sample("hard_three_cushion"), target=2), {"A": "Cleo"}),
    "04-five-pins": lambda: renamed(
        changed(sample("five_pins_match"), innings_limit=2), {"B": "Cleo"}
    ),
    # Five-pins has no equalizing inning (rules.md §6): the draw is a balkline game whose
    # one inning each ends level at the innings limit (B's miss), with a stroke after it.
    "05-balkline-draw": lambda: with_misses(
        changed(sample("balkline_47_2"), innings_limit=1), "yellow", "white"
    ),
    "06-balkline": lambda: renamed(sample("balkline_47_2"), {"A": NASTY, "B": "Cleo"}),
    "07-seven-pins": lambda: sample("seven_pins_match"),
    "08-3c-nasty": lambda: renamed(changed(sample("three_cushion_match"), target=2), {"A": NASTY}),
}


def write_log(path: Path, doc: Doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def write_season(root: Path) -> list[Path]:
    """``root/<name>/shots.json`` for every match of :data:`SEASON`, in name order."""
    return [write_log(root / name / "shots.json", make()) for name, make in SEASON.items()]


def with_misses(doc: Doc, *cue_balls: str) -> Doc:
    """The log with strokes of these cue balls that touch nothing after its last."""
    out = copy.deepcopy(doc)
    for ball in cue_balls:
        last = out["shots"][-1]
        t_s = last["end_s"] + 2.0
        out["shots"].append({"index": last["index"] + 1, "start_s": t_s, "end_s": t_s + 3.0,
                             "cue_ball": ball, "events": []})  # fmt: skip
    return out
