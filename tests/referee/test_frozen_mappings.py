"""The mappings inside the frozen domain values cannot be changed after the value is made.

Before, ``config.target["A"] = 1`` (or changing the dict the config was made from)
changed a match under way, and ``match.state.scores[...] = ...`` its score.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import Lag, Match, Shot, StartState
from referee._frozen_dict import FrozenDict
from tests.referee.factories import R, W, Y, config, point

#: Every way a dict can be changed in place.
CHANGES: dict[str, Callable[[dict[Any, Any]], object]] = {
    "set": lambda d: d.__setitem__("A", 1),
    "del": lambda d: d.__delitem__("A"),
    "ior": lambda d: d.__ior__({"A": 1}),
    "clear": lambda d: d.clear(),
    "pop": lambda d: d.pop("A"),
    "pop default": lambda d: d.pop("Z", 0),
    "popitem": lambda d: d.popitem(),
    "setdefault": lambda d: d.setdefault("Z", 1),
    "update": lambda d: d.update(Z=1),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_a_config_s_target_refuses_every_change_and_the_match_keeps_its_target(
    change: Callable[[dict[Any, Any]], object],
) -> None:
    cfg = config(target=2, equalizing=False)
    match = Match(cfg)
    with pytest.raises(TypeError, match="part of a frozen value"):
        change(cfg.target)  # type: ignore[arg-type]
    assert cfg.target == {"A": 2, "B": 2}
    match.play(point(0, W))
    match.play(point(1, W))
    assert match.state.winner == "A"  # two points: the target given


def test_changing_the_caller_s_dicts_afterwards_changes_nothing() -> None:
    target, balls = {"A": 2, "B": 2}, {"A": W, "B": Y}
    cfg = dataclasses.replace(config(), target=target, cue_balls=balls)
    target["A"], balls["A"] = 99, R
    assert cfg.target == {"A": 2, "B": 2} and cfg.cue_balls == {"A": W, "B": Y}
    positions = {W: (100.0, 100.0)}
    shot = Shot(index=0, cue_ball=W, start_positions_mm=positions)
    positions[W] = (5.0, 5.0)
    assert shot.start_positions_mm == {W: (100.0, 100.0)}


def test_the_state_s_scores_shots_lags_and_start_refuse_changes() -> None:
    match = Match(config())
    match.play(point(0, W))
    state = match.state
    with pytest.raises(TypeError):
        state.scores["A"] = state.scores["B"]  # type: ignore[index]
    with pytest.raises(TypeError):
        state.sets_won.clear()  # type: ignore[attr-defined]
    assert state.scores["A"].points == 1 and match.state is state
    shot = Shot(index=1, cue_ball=W, end_positions_mm={W: (1.0, 2.0)}, paths_mm={W: ()})
    lag = Lag(start_positions_mm={W: (1.0, 2.0)})
    start = StartState(board={"A": 3}, innings={"A": 2}, sets_won={})
    for mapping in (shot.end_positions_mm, shot.paths_mm, lag.start_positions_mm,
                    start.board, start.innings, start.sets_won):  # fmt: skip
        with pytest.raises(TypeError):
            mapping.clear()  # type: ignore[attr-defined]


def test_a_config_pickles_copies_and_writes_as_before() -> None:
    """The batch sends configs to its worker processes; the shot log writes them."""
    cfg = config(target={"A": 5, "B": 3})
    for again in (pickle.loads(pickle.dumps(cfg)), copy.deepcopy(cfg), copy.copy(cfg)):
        assert again == cfg and isinstance(again.target, FrozenDict)
    assert json.dumps(cfg.target) == json.dumps({"A": 5, "B": 3})
    assert dataclasses.asdict(cfg)["target"] == {"A": 5, "B": 3}
    assert repr(cfg.target) == "{'A': 5, 'B': 3}"


@given(st.dictionaries(st.text(max_size=3), st.integers()), st.sampled_from(list(CHANGES)))
def test_a_frozen_dict_is_its_dict_and_no_change_takes(items: dict[str, int], name: str) -> None:
    frozen = FrozenDict(items)
    assert frozen == items and dict(frozen) == items and isinstance(frozen, dict)
    assert pickle.loads(pickle.dumps(frozen)) == items
    assert type(pickle.loads(pickle.dumps(frozen))) is FrozenDict
    with pytest.raises(TypeError):
        CHANGES[name](frozen)
    assert frozen == items
