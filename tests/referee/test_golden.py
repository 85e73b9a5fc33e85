"""Hand-built shots with their expected verdicts (rules.md sections cited in each file)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from referee import Discipline
from tests.referee.golden import TAGS, check, golden_files, run_golden, tag_of

FILES = golden_files()


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_shot(path: Path) -> None:
    verdict, expected = run_golden(path)
    for key in ("points", "fouls", "inning_ends"):
        assert key in expected, f"{path.name}: expected.{key} is required"
    assert check(verdict, expected) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_tag_matches_expectation(path: Path) -> None:
    _, expected = run_golden(path)
    tag = tag_of(path)
    assert tag in TAGS, f"{path.name}: tag {tag!r} not one of {TAGS}"
    if tag == "review":
        assert expected.get("review") is True
    elif tag == "foul":
        assert expected["fouls"]
    elif tag == "point":
        assert expected["points"] > 0 and not expected["fouls"]
    else:
        assert expected["points"] == 0 and not expected["fouls"]


def test_every_discipline_has_at_least_15_golden_shots() -> None:
    dirs = Counter(p.parent.name for p in FILES)
    missing = {
        d.value: dirs.get(_dirname(d), 0) for d in Discipline if dirs.get(_dirname(d), 0) < 15
    }
    assert missing == {}


def _dirname(discipline: Discipline) -> str:
    return discipline.value.replace("/", "_")
