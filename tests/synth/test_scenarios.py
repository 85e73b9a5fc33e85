"""The scenario registry: each shot has its shape and gets the expected verdict."""

from __future__ import annotations

import dataclasses

import pytest

from referee import BallContact, CaromError, Discipline, OffTable, PinDown, Pocketed
from synth import (
    Scenario,
    Search,
    SimulationError,
    UnknownScenarioError,
    scenario,
    scenario_names,
    search_stroke,
)

REQUIRED = {
    "3c-point",
    "3c-miss-two-cushions",
    "3c-kiss",
    "3c-thin-hit",
    "3c-third-cushion-late",
    "3c-along-cushion",
    "3c-frozen",
    "3c-break",
    "five-pins-score",
    "five-pins-foul",
    "ball-off-table",
    "7pin-pocket",
}


def test_registry_has_the_required_scenarios() -> None:
    assert set(scenario_names()) >= REQUIRED


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_scenario_has_its_shape_and_verdict(name: str) -> None:
    sc = scenario(name)
    sim = sc.simulate()
    verdict = sc.judge(sim)
    assert sc.want(sim, verdict), f"{name}: the stored stroke lost its shape"
    assert sc.expect.matches(verdict), f"{name}: {verdict.reason}"
    assert sc.description


def test_scenarios_use_the_referee_event_kinds() -> None:
    assert any(isinstance(e, PinDown) for e in scenario("five-pins-score").simulate().events)
    assert any(isinstance(e, OffTable) for e in scenario("ball-off-table").simulate().events)
    assert any(isinstance(e, Pocketed) for e in scenario("7pin-pocket").simulate().events)
    assert scenario("7pin-pocket").discipline is Discipline.PIN_CAROM_7


def test_frozen_scenario_starts_touching() -> None:
    sc = scenario("3c-frozen")
    places = dict(sc.positions_mm)
    white, red = places[sc.stroke.cue_ball], places[sc.object_ball]
    assert abs(((white[0] - red[0]) ** 2 + (white[1] - red[1]) ** 2) ** 0.5 - 61.5) < 1e-9
    assert not any(isinstance(e, BallContact) and e.t_s == 0.0 for e in sc.simulate().events)


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownScenarioError) as info:
        scenario("3c-nope")
    message = str(info.value)
    assert isinstance(info.value, CaromError)
    assert "\n" not in message and "3c-nope" in message and "3c-point" in message


def test_search_is_deterministic_and_finds_the_stored_stroke() -> None:
    sc = scenario("five-pins-foul")
    assert search_stroke(sc) == sc.stroke == search_stroke(sc)


def test_search_reports_an_impossible_shape() -> None:
    sc: Scenario = dataclasses.replace(scenario("3c-point"), want=lambda sim, verdict: False)
    with pytest.raises(SimulationError, match="no stroke"):
        search_stroke(sc, Search((0.0, 90.0), (1.0,)))
