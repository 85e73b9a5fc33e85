"""The pure referee core: typed shot events in, verdicts and a new match state out.

Standard library only: no clock, no files, no pixels. See ``README.md`` for a tour.
"""

from referee._config import DEFAULT_TARGETS, MatchConfig
from referee._errors import CaromError, IllegalMoveError, RulesError, ShotLogError, UnknownBallError
from referee._events import BallContact, Call, CushionContact, Event, OffTable, PinDown, Pocketed
from referee._lag import Lag, LagResult, judge_lag
from referee._names import Ball, Cushion, Discipline, Foul, NextPosition, Pin, Pocket, Spot
from referee._options import RuleOptions
from referee._rules import judge
from referee._shot import Carry, Shot, ShotContext
from referee._shotlog import FORMAT, ShotLog, parse_event, parse_shot, parse_shot_log
from referee._table import MATCH_TABLE, Table
from referee._verdict import Respot, Verdict

__all__ = [
    "DEFAULT_TARGETS",
    "FORMAT",
    "MATCH_TABLE",
    "Ball",
    "BallContact",
    "Call",
    "CaromError",
    "Carry",
    "Cushion",
    "CushionContact",
    "Discipline",
    "Event",
    "Foul",
    "IllegalMoveError",
    "Lag",
    "LagResult",
    "MatchConfig",
    "NextPosition",
    "OffTable",
    "Pin",
    "PinDown",
    "Pocket",
    "Pocketed",
    "Respot",
    "RuleOptions",
    "RulesError",
    "Shot",
    "ShotContext",
    "ShotLog",
    "ShotLogError",
    "Spot",
    "Table",
    "UnknownBallError",
    "Verdict",
    "judge",
    "judge_lag",
    "parse_event",
    "parse_shot",
    "parse_shot_log",
]
