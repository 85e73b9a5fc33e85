"""The pure referee core: typed shot events in, verdicts and a new match state out.

Standard library only: no clock, no files, no pixels. See ``README.md`` for a tour.
"""

from referee._break import (
    HEAD_STRING_REACH_MM,
    WRONG_BREAK,
    BreakCall,
    LayoutCheck,
    check_break_layout,
)
from referee._config import DEFAULT_TARGETS, MAX_PLAYERS, MatchConfig
from referee._disciplines import DISCIPLINES, BreakLayout, DisciplineRules, LagRule, rules_of
from referee._errors import CaromError, IllegalMoveError, RulesError, ShotLogError, UnknownBallError
from referee._events import BallContact, Call, CushionContact, Event, OffTable, PinDown, Pocketed
from referee._lag import Lag, LagResult, judge_lag
from referee._layout_items import (
    LAYOUT_BALL_ENGLISH,
    LAYOUT_ITEM_ENGLISH,
    PLACE_PREPOSITION,
    LayoutItem,
    layout_items,
)
from referee._match import (
    Match,
    apply_correction,
    apply_join,
    apply_lag,
    apply_shot,
    new_match,
    shot_context,
)
from referee._names import (
    CALL_FOULS,
    Ball,
    Cushion,
    Discipline,
    Foul,
    NextPosition,
    Pin,
    Pocket,
    Spot,
)
from referee._options import RuleOptions
from referee._pin_items import BALL_KINDS, ITEM_FIELDS, PIN_ITEM_ENGLISH, PinItem, pin_items
from referee._reason import (
    BALL_FIELDS,
    PIN_FIELDS,
    PLACE_ENGLISH,
    Reason,
    ReasonKey,
    english_reason,
    reason_json,
)
from referee._rules import judge
from referee._shot import Carry, Shot, ShotContext, TimedXY
from referee._shotlog import (
    FORMAT,
    SHOT_LOG_FIELDS,
    ShotLog,
    parse_event,
    parse_shot,
    parse_shot_log,
    parse_start,
)
from referee._shotlog_write import event_json, record_json, shot_json, start_json
from referee._start import StartState
from referee._state import (
    AuditEntry,
    Correction,
    CorrectionKind,
    GameResult,
    MatchState,
    Phase,
    Score,
    ShotRecord,
)
from referee._stats import (
    MatchResult,
    PlayerStats,
    Standing,
    average_text,
    match_stats,
    standings,
)
from referee._table import MATCH_TABLE, Table
from referee._turn_and_break import cue_ball_due
from referee._verdict import Respot, Verdict
from referee._zones import Corner, Rect, Region, balkline_mm, regions_for

__all__ = [
    "BALL_FIELDS",
    "BALL_KINDS",
    "CALL_FOULS",
    "DEFAULT_TARGETS",
    "DISCIPLINES",
    "FORMAT",
    "HEAD_STRING_REACH_MM",
    "ITEM_FIELDS",
    "LAYOUT_BALL_ENGLISH",
    "LAYOUT_ITEM_ENGLISH",
    "MATCH_TABLE",
    "MAX_PLAYERS",
    "PIN_FIELDS",
    "PIN_ITEM_ENGLISH",
    "PLACE_ENGLISH",
    "PLACE_PREPOSITION",
    "SHOT_LOG_FIELDS",
    "WRONG_BREAK",
    "AuditEntry",
    "Ball",
    "BallContact",
    "BreakCall",
    "BreakLayout",
    "Call",
    "CaromError",
    "Carry",
    "Corner",
    "Correction",
    "CorrectionKind",
    "Cushion",
    "CushionContact",
    "Discipline",
    "DisciplineRules",
    "Event",
    "Foul",
    "GameResult",
    "IllegalMoveError",
    "Lag",
    "LagResult",
    "LagRule",
    "LayoutCheck",
    "LayoutItem",
    "Match",
    "MatchConfig",
    "MatchResult",
    "MatchState",
    "NextPosition",
    "OffTable",
    "Phase",
    "Pin",
    "PinDown",
    "PinItem",
    "PlayerStats",
    "Pocket",
    "Pocketed",
    "Reason",
    "ReasonKey",
    "Rect",
    "Region",
    "Respot",
    "RuleOptions",
    "RulesError",
    "Score",
    "Shot",
    "ShotContext",
    "ShotLog",
    "ShotLogError",
    "ShotRecord",
    "Spot",
    "Standing",
    "StartState",
    "Table",
    "TimedXY",
    "UnknownBallError",
    "Verdict",
    "apply_correction",
    "apply_join",
    "apply_lag",
    "apply_shot",
    "average_text",
    "balkline_mm",
    "check_break_layout",
    "cue_ball_due",
    "english_reason",
    "event_json",
    "judge",
    "judge_lag",
    "layout_items",
    "match_stats",
    "new_match",
    "parse_event",
    "parse_shot",
    "parse_shot_log",
    "parse_start",
    "pin_items",
    "reason_json",
    "record_json",
    "regions_for",
    "rules_of",
    "shot_context",
    "shot_json",
    "standings",
    "start_json",
]
