"""Golden shot files: ``tests/referee/shots/<discipline>/<name>.<tag>.json``.

A file holds one shot, the context it is judged in and the expected verdict; the
tag in the name (``point``, ``miss``, ``foul``, ``review``) must agree with it.
Keys of ``expected``: ``points``, ``fouls`` and ``inning_ends`` are required;
``opponent_points``, ``penalty``, ``review`` (bool), ``next_position``,
``wins_game``, ``respots`` ([{ball, spot}]), ``reason_contains``,
``announcements`` (exact list) and ``carry`` are checked when present.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee import (
    Ball,
    Carry,
    Discipline,
    RuleOptions,
    ShotContext,
    Table,
    Verdict,
    judge,
    parse_shot,
)

SHOTS_DIR = Path(__file__).parent / "shots"
TAGS = ("point", "miss", "foul", "review")


def golden_files() -> list[Path]:
    return sorted(SHOTS_DIR.glob("*/*.json"))


def tag_of(path: Path) -> str:
    return path.name.removesuffix(".json").rsplit(".", 1)[-1]


def context_of(doc: dict[str, Any]) -> ShotContext:
    discipline = Discipline(doc["discipline"])
    ctx = doc.get("context", {})
    seven = discipline is Discipline.PIN_CAROM_7
    carry = ctx.get("carry", {})
    return ShotContext(
        discipline=discipline,
        cue_ball=Ball(ctx.get("cue_ball", "red" if seven else "white")),
        opponent_ball=Ball(ctx.get("opponent_ball", "white1" if seven else "yellow")),
        object_ball=Ball(ctx.get("object_ball", "white2" if seven else "red")),
        table=Table(**ctx.get("table", {})),
        is_break=ctx.get("is_break", False),
        options=RuleOptions.from_mapping(ctx.get("rules", {})),
        carry=Carry(
            zone=carry.get("zone"),
            zone_caroms=carry.get("zone_caroms", 0),
            frozen_restart=carry.get("frozen_restart", False),
            zone_unknown=carry.get("zone_unknown", False),
        ),
        remaining=ctx.get("remaining"),
        start_count=ctx.get("start_count"),
        must_attempt=ctx.get("must_attempt", False),
    )


def run_golden(path: Path) -> tuple[Verdict, dict[str, Any]]:
    doc = json.loads(path.read_text())
    return judge(parse_shot(doc["shot"], "shot"), context_of(doc)), doc["expected"]


def check(verdict: Verdict, expected: dict[str, Any]) -> list[str]:
    """Differences between a verdict and the expectation, as readable lines."""
    got = {
        "points": verdict.points,
        "opponent_points": verdict.opponent_points,
        "penalty": verdict.penalty,
        "fouls": [str(f) for f in verdict.fouls],
        "inning_ends": verdict.inning_ends,
        "review": verdict.review is not None,
        "next_position": str(verdict.next_position),
        "wins_game": verdict.wins_game,
        "respots": [{"ball": str(r.ball), "spot": str(r.spot)} for r in verdict.respots],
        "announcements": list(verdict.announcements),
        "carry": {"zone": verdict.carry.zone, "zone_caroms": verdict.carry.zone_caroms}
        | ({"zone_unknown": True} if verdict.carry.zone_unknown else {}),
    }
    diffs = [
        f"{key}: expected {value!r}, got {got[key]!r}"
        for key, value in expected.items()
        if key in got and got[key] != value
    ]
    want = expected.get("reason_contains")
    if want is not None and want not in verdict.reason:
        diffs.append(f"reason: expected to contain {want!r}, got {verdict.reason!r}")
    return diffs
