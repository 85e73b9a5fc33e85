"""``Match(undo_depth=...)``: a replay keeps the last states only, with the same records."""

from __future__ import annotations

import pytest

from referee import IllegalMoveError, Match, RulesError
from tests.referee.factories import config, drive

SCRIPT = "ppm mpf pmm ppp mpm"


def test_a_bounded_history_gives_the_same_states_and_records() -> None:
    full, bounded = Match(config(target=50)), Match(config(target=50), undo_depth=0)
    assert drive(full, SCRIPT) == drive(bounded, SCRIPT)
    assert full.records == bounded.records
    assert full.state == bounded.state
    assert len(bounded._history) == 1


def test_undo_goes_back_as_far_as_the_depth() -> None:
    full, bounded = Match(config(target=50)), Match(config(target=50), undo_depth=2)
    drive(full, SCRIPT)
    drive(bounded, SCRIPT)
    for _ in range(2):
        assert bounded.undo() == full.undo()
    assert bounded.records == full.records
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        bounded.undo()
    assert bounded.state == full.state  # refused: nothing changed


def test_no_undo_at_depth_zero_and_a_negative_depth_is_refused() -> None:
    match = Match(config(), undo_depth=0)
    drive(match, "p")
    with pytest.raises(IllegalMoveError):
        match.undo()
    with pytest.raises(RulesError, match="undo_depth: expected None or >= 0, got -1"):
        Match(config(), undo_depth=-1)
