"""The discipline registry: one entry per game, everything the referee knows of it.

Adding a discipline means adding a :class:`Discipline` name and one
:class:`DisciplineRules` entry here: its judge (a pure ``(Shot, ShotContext) ->
Verdict`` function), the balls on the table, its pins and pockets, the default
target, how the turn goes and what its break layout is. The match, the break
check, the shot-log reader and the app read these facts instead of testing for
particular disciplines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from referee._carom_games import judge_carom_game
from referee._errors import RulesError
from referee._five_pins import judge_five_pins
from referee._names import CALL_FOULS, Ball, Discipline, Foul, Pin
from referee._pin_carom7 import DEFAULT_START_COUNT, judge_pin_carom7
from referee._shot import Shot, ShotContext
from referee._verdict import Verdict
from referee._zones import zone_rule_for

__all__ = [
    "DISCIPLINES",
    "BreakLayout",
    "DisciplineRules",
    "Judge",
    "LagRule",
    "call_fouls",
    "discipline_named",
    "rules_of",
]

Judge = Callable[[Shot, ShotContext], Verdict]


class BreakLayout(StrEnum):
    """Which break position [rules.md §3] the discipline starts a game from."""

    #: red on the foot spot, the other ball on the head spot, the breaker's on the
    #: head string within 152.4 mm of it (three-cushion, one-cushion, straight rail,
    #: balkline).
    IN_LINE = "in_line"
    #: five-pins: red on its spot, the other ball on the top spot, the breaker's in
    #: the bottom half.
    FIVE_PINS = "five_pins"
    #: the 7-pin game: a white beside each spot pin, the red in the house.
    SEVEN_PINS = "seven_pins"


class LagRule(StrEnum):
    """How the lag is judged [rules.md §2]."""

    #: by the general rules (the red, crossing, the foot cushion, off the table).
    GENERAL = "general"
    #: five-pins adds a pin knocked and a long cushion touched as faults.
    FIVE_PINS = "five_pins"
    #: no lag by events (the 7-pin game): the winner is entered.
    ENTERED = "entered"


@dataclass(frozen=True, slots=True, kw_only=True)
class DisciplineRules:
    """One discipline's facts.

    ``balls``: the three balls on the table, the two cue balls (or the shared cue
    ball and the first white) first. ``shared_cue_ball``: every player shoots this
    ball (the 7-pin game's red); ``None``: each player has a cue ball.
    ``countdown``: the board counts down from the target to zero (7-pin).
    ``alternates_every_stroke``: one stroke each, scoring or not (five-pins).
    ``max_players``: ``None`` for no limit beyond the match's own; five-pins is a
    two-player game (its fouls give points to *the* opponent).
    ``equalizing_inning``: the player who did not break gets an equalizing inning when
    the breaker reaches the target first [rules.md §5, the scoring disciplines]; in
    five-pins the first to reach the target wins [§6], the 7-pin game ends at zero [§7].
    """

    discipline: Discipline
    judge: Judge
    balls: tuple[Ball, Ball, Ball]
    default_target: int
    break_layout: BreakLayout = BreakLayout.IN_LINE
    lag: LagRule = LagRule.GENERAL
    pins: frozenset[Pin] = frozenset()
    pockets: bool = False
    shared_cue_ball: Ball | None = None
    countdown: bool = False
    alternates_every_stroke: bool = False
    max_players: int | None = None
    equalizing_inning: bool = True


_CAROM_BALLS = (Ball.WHITE, Ball.YELLOW, Ball.RED)
_FIVE_PINS = frozenset({Pin.CENTER, Pin.HEAD, Pin.FOOT, Pin.LEFT, Pin.RIGHT})
_SEVEN_PINS = frozenset({Pin.KING, Pin.HEAD, Pin.FOOT, Pin.LEFT, Pin.RIGHT, Pin.SPOT1, Pin.SPOT3})
_BALKLINE_TARGET = 200


def _zone_judge(discipline: Discipline) -> Judge:
    rule = zone_rule_for(discipline)

    def judge(shot: Shot, ctx: ShotContext) -> Verdict:
        return judge_carom_game(shot, ctx, rule)

    return judge


def _entries() -> dict[Discipline, DisciplineRules]:
    out = {
        Discipline.THREE_CUSHION: DisciplineRules(
            discipline=Discipline.THREE_CUSHION, judge=judge_carom_game, balls=_CAROM_BALLS,
            default_target=40,
        ),
        Discipline.ONE_CUSHION: DisciplineRules(
            discipline=Discipline.ONE_CUSHION, judge=judge_carom_game, balls=_CAROM_BALLS,
            default_target=100,
        ),
        Discipline.STRAIGHT_RAIL: DisciplineRules(
            discipline=Discipline.STRAIGHT_RAIL, judge=_zone_judge(Discipline.STRAIGHT_RAIL),
            balls=_CAROM_BALLS, default_target=300,
        ),
        Discipline.FIVE_PINS: DisciplineRules(
            discipline=Discipline.FIVE_PINS, judge=judge_five_pins, balls=_CAROM_BALLS,
            default_target=60, break_layout=BreakLayout.FIVE_PINS, lag=LagRule.FIVE_PINS,
            pins=_FIVE_PINS,
            alternates_every_stroke=True, max_players=2, equalizing_inning=False,
        ),
        Discipline.PIN_CAROM_7: DisciplineRules(
            discipline=Discipline.PIN_CAROM_7, judge=judge_pin_carom7,
            balls=(Ball.RED, Ball.WHITE1, Ball.WHITE2), default_target=DEFAULT_START_COUNT,
            break_layout=BreakLayout.SEVEN_PINS, lag=LagRule.ENTERED, pins=_SEVEN_PINS,
            pockets=True,
            shared_cue_ball=Ball.RED, countdown=True, equalizing_inning=False,
        ),
    }  # fmt: skip
    for d in Discipline:
        if d.is_balkline:
            out[d] = DisciplineRules(discipline=d, judge=_zone_judge(d), balls=_CAROM_BALLS,
                                     default_target=_BALKLINE_TARGET)  # fmt: skip
    return out


#: Every discipline's rules, by name (read-only).
DISCIPLINES: Mapping[Discipline, DisciplineRules] = MappingProxyType(_entries())


def rules_of(discipline: Discipline) -> DisciplineRules:
    """The registry entry of ``discipline`` (a :class:`Discipline` or its name).

    Raises:
        RulesError: no discipline has that name.
    """
    return DISCIPLINES[discipline_named(discipline)]


def discipline_named(name: Discipline | str) -> Discipline:
    """The :class:`Discipline` ``name`` names (``"three-cushion"``: the member itself).

    The rules compare disciplines by identity, so a plain string equal to a member's
    value must become the member (it was judged as another discipline's break).

    Raises:
        RulesError: no discipline has that name.
    """
    try:
        return Discipline(name)
    except ValueError:
        known = ", ".join(Discipline)
        raise RulesError(f"discipline {name!r}: unknown; one of {known}") from None


def call_fouls(discipline: Discipline) -> frozenset[Foul]:
    """The fouls a person may call in ``discipline``.

    ``CALL_FOULS``, without the pin foul where there are no pins (a jump over pins in
    three-cushion is no foul at all).
    """
    if rules_of(discipline).pins:
        return CALL_FOULS
    return CALL_FOULS - {Foul.JUMP_OVER_PINS}
