"""The discipline registry: every discipline has one entry, and the match reads it."""

from __future__ import annotations

import pytest

from referee import (
    DISCIPLINES,
    Ball,
    BreakLayout,
    Discipline,
    LagRule,
    MatchConfig,
    RulesError,
    rules_of,
)


def test_every_discipline_has_an_entry_named_after_it() -> None:
    assert set(DISCIPLINES) == set(Discipline)
    for discipline, rules in DISCIPLINES.items():
        assert rules.discipline is discipline
        assert len(set(rules.balls)) == 3 and rules.default_target > 0


def test_the_registry_is_read_only() -> None:
    with pytest.raises(TypeError):
        DISCIPLINES[Discipline.THREE_CUSHION] = DISCIPLINES[Discipline.ONE_CUSHION]  # type: ignore[index]


@pytest.mark.parametrize("discipline", list(Discipline))
def test_the_match_set_up_follows_the_entry(discipline: Discipline) -> None:
    rules = rules_of(discipline)
    cue = {} if rules.shared_cue_ball else {"A": Ball.WHITE, "B": Ball.YELLOW}
    cfg = MatchConfig(discipline=discipline, players=("A", "B"), cue_balls=cue,
                      target={"A": 10, "B": 10})  # fmt: skip
    assert MatchConfig.default_target(discipline) == rules.default_target
    assert (cfg.countdown_from is not None) == rules.countdown
    assert cfg.ball_of("A") == (rules.shared_cue_ball or Ball.WHITE)
    if rules.max_players == 2:
        with pytest.raises(RulesError, match="two-player game"):
            MatchConfig(discipline=discipline, players=("A", "B", "C"), cue_balls={},
                        target={"A": 10, "B": 10, "C": 10})  # fmt: skip


def test_the_special_games_say_what_is_special() -> None:
    five, seven = rules_of(Discipline.FIVE_PINS), rules_of(Discipline.PIN_CAROM_7)
    assert five.alternates_every_stroke and five.break_layout is BreakLayout.FIVE_PINS
    assert five.lag is LagRule.FIVE_PINS and len(five.pins) == 5
    assert seven.shared_cue_ball is Ball.RED and seven.pockets and len(seven.pins) == 7
    assert seven.lag is LagRule.ENTERED and seven.break_layout is BreakLayout.SEVEN_PINS
    plain = [r for r in DISCIPLINES.values() if r not in (five, seven)]
    assert all(r.break_layout is BreakLayout.IN_LINE and not r.pins for r in plain)
