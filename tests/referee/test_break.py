"""The break is recognised from the balls' layout, never assumed [rules.md §3].

Golden layouts live in ``tests/referee/breaks/<discipline>/<case>.<call>.json``:
``break`` (the break layout, right), ``wrong-break`` (recognised, a ball out of
place: announced), ``play`` (not the break layout). Each discipline has cases just
inside and just outside both tolerances.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import (
    MATCH_TABLE,
    Ball,
    Discipline,
    RuleOptions,
    Spot,
    Table,
    check_break_layout,
)

BREAKS = Path(__file__).parent / "breaks"
FILES = sorted(BREAKS.rglob("*.json"))
CALLS = ("break", "wrong-break", "play")


def _load(path: Path) -> tuple[Discipline, Table, dict[Ball, tuple[float, float]], Ball]:
    doc: dict[str, Any] = json.loads(path.read_text())
    table = Table(**doc["table"]) if "table" in doc else MATCH_TABLE
    positions = {Ball(b): (xy[0], xy[1]) for b, xy in doc["start_positions_mm"].items()}
    return Discipline(doc["discipline"]), table, positions, Ball(doc["cue_ball"])


def _call_of(path: Path) -> str:
    return path.name.split(".")[-2]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_break_layout(path: Path) -> None:
    discipline, table, positions, cue = _load(path)
    check = check_break_layout(discipline, table, positions, cue, RuleOptions())
    assert check is not None
    call = _call_of(path)
    assert call in CALLS
    assert check.recognised == (call != "play"), check.detail
    assert bool(check.faults) == (call == "wrong-break"), check.faults
    for fault in check.faults:
        assert fault.key.startswith("wrong_break_")
        assert fault.english().startswith("wrong break position: ")


def test_every_discipline_family_has_inside_and_outside_cases() -> None:
    calls = Counter((p.parent.name, _call_of(p)) for p in FILES)
    for family in ("three-cushion", "one-cushion", "straight-rail", "five-pins", "pin-carom-7"):
        for call in CALLS:
            assert calls[(family, call)] >= 1, (family, call)
    balkline = {p.parent.name for p in FILES if p.parent.name.startswith("balkline")}
    assert len(balkline) >= 2


def test_a_missing_ball_gives_no_check() -> None:
    positions = {Ball.WHITE: (710.0, 558.0), Ball.RED: (2130.0, 710.0)}
    opts = RuleOptions()
    assert (
        check_break_layout(Discipline.THREE_CUSHION, MATCH_TABLE, positions, Ball.WHITE, opts)
        is None
    )


def test_the_tolerances_are_options() -> None:
    hx, hy = MATCH_TABLE.spot(Spot.HEAD)
    fx, fy = MATCH_TABLE.spot(Spot.FOOT)
    positions = {Ball.WHITE: (hx, hy - 152.4), Ball.YELLOW: (hx, hy), Ball.RED: (fx + 40, fy)}
    strict = RuleOptions(break_recognise_mm=30.0)
    loose = RuleOptions(break_layout_mm=50.0)
    assert not _check(positions, strict).recognised
    assert _check(positions, loose).recognised and not _check(positions, loose).faults


def _check(positions: dict[Ball, tuple[float, float]], opts: RuleOptions) -> Any:
    return check_break_layout(Discipline.THREE_CUSHION, MATCH_TABLE, positions, Ball.WHITE, opts)


@settings(deadline=None)  # a busy machine must not fail a pure property
@given(
    dx=st.floats(-300.0, 300.0),
    dy=st.floats(-300.0, 300.0),
    which=st.sampled_from([Ball.WHITE, Ball.YELLOW, Ball.RED]),
)
def test_moving_one_ball_farther_never_makes_a_layout_more_of_a_break(
    dx: float, dy: float, which: Ball
) -> None:
    """Recognition is monotone: a ball moved away from the exact layout by a distance
    larger than the recognition reach plus the head-string reach is never a break."""
    hx, hy = MATCH_TABLE.spot(Spot.HEAD)
    fx, fy = MATCH_TABLE.spot(Spot.FOOT)
    exact = {Ball.WHITE: (hx, hy - 152.4), Ball.YELLOW: (hx, hy), Ball.RED: (fx, fy)}
    x, y = exact[which]
    moved = {**exact, which: (x + dx, y + dy)}
    check = _check(moved, RuleOptions())
    assert check is not None
    if math.hypot(dx, dy) <= 15.0 and which is not Ball.WHITE:
        assert check.recognised and not check.faults
    if abs(dx) > 75.0 + 1e-6:  # off the head string / the spot along the table
        assert not check.recognised
