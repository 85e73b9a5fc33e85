"""Fixed names of the shot log: balls, cushions, pins, pockets, disciplines, fouls.

These strings are part of the public ``carom-shots/1`` format; other tools rely on
them, so a value never changes once released.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from referee._errors import UnknownNameError

__all__ = [
    "CALL_FOULS",
    "Ball",
    "Cushion",
    "Discipline",
    "Foul",
    "NextPosition",
    "Pin",
    "Pocket",
    "Spot",
]


class _Names(StrEnum):
    """A closed set of names: a name outside it is an :class:`UnknownNameError`.

    It says the names it takes (a bare ValueError, outside the one error tree, said only
    that it was not one).
    """

    @classmethod
    def _missing_(cls, value: Any) -> Any:
        names = ", ".join(m.value for m in cls)
        kind = "".join(f" {c.lower()}" if c.isupper() else c for c in cls.__name__).strip()
        raise UnknownNameError(f"{value!r} is not a {kind} (one of: {names})")


class Ball(_Names):
    """A ball. ``dotted`` is the dotted white that replaces ``yellow`` in some sets.

    On the 7-pin pocket table the cue ball is ``red`` and the object balls are
    ``white1`` (beside spot 1, head end) and ``white2`` (beside spot 3, foot end).
    """

    WHITE = "white"
    YELLOW = "yellow"
    DOTTED = "dotted"
    RED = "red"
    WHITE1 = "white1"
    WHITE2 = "white2"


class Cushion(_Names):
    """A cushion, named from the table frame: x runs head -> foot, y left -> right."""

    HEAD = "head"
    FOOT = "foot"
    LEFT = "left"
    RIGHT = "right"


class Pin(_Names):
    """A pin. Five-pins: centre and four side pins named by their direction from it.

    7-pin carom: ``king`` in the centre, the four around it named the same way,
    ``spot1`` at the head end and ``spot3`` at the foot end.
    """

    CENTER = "center"
    HEAD = "head"
    FOOT = "foot"
    LEFT = "left"
    RIGHT = "right"
    KING = "king"
    SPOT1 = "spot1"
    SPOT3 = "spot3"


class Pocket(_Names):
    """A pocket of the 7-pin (Russian pyramid) table."""

    HEAD_LEFT = "head_left"
    HEAD_RIGHT = "head_right"
    MIDDLE_LEFT = "middle_left"
    MIDDLE_RIGHT = "middle_right"
    FOOT_LEFT = "foot_left"
    FOOT_RIGHT = "foot_right"


class Discipline(_Names):
    """A carom discipline (game)."""

    THREE_CUSHION = "three-cushion"
    ONE_CUSHION = "one-cushion"
    STRAIGHT_RAIL = "straight-rail"
    BALKLINE_47_1 = "balkline-47/1"
    BALKLINE_47_2 = "balkline-47/2"
    BALKLINE_71_2 = "balkline-71/2"
    BALKLINE_35_1 = "balkline-35/1"
    BALKLINE_35_2 = "balkline-35/2"
    BALKLINE_52_1 = "balkline-52/1"
    BALKLINE_52_2 = "balkline-52/2"
    FIVE_PINS = "five-pins"
    PIN_CAROM_7 = "pin-carom-7"

    @property
    def is_balkline(self) -> bool:
        """True for the balkline family (``balkline-LINE/N``)."""
        return self.value.startswith("balkline-")


class Foul(_Names):
    """Stable foul names. The first group can only come from a person's call."""

    # Calls: what a camera cannot see (rules.md "What a camera cannot see").
    DOUBLE_HIT = "double_hit"
    PUSH = "push"
    TOUCH = "touch"
    FOOT = "foot"
    MISCUE = "miscue"
    BALLS_MOVING = "balls_moving"
    ILLEGAL_JUMP = "illegal_jump"
    # The stroke began after the shot clock ran out: called by a person, or by live mode's
    # clock with ``shot_clock_expiry = "foul"`` (the rule texts set no time; docs/live.md).
    SHOT_CLOCK = "shot_clock"
    # Seen by the camera.
    WRONG_BALL = "wrong_ball"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    BALL_OFF_TABLE = "ball_off_table"
    BREAK_WRONG_BALL_FIRST = "break_wrong_ball_first"
    ZONE_LIMIT = "zone_limit"
    ILLEGAL_SAFETY = "illegal_safety"
    SAFETY_REPEATED = "safety_repeated"
    # Five-pins [rules.md §6].
    MISSED_OPPONENT_BALL = "missed_opponent_ball"
    RED_FIRST = "red_first"
    PINS_BEFORE_OPPONENT_BALL = "pins_before_opponent_ball"
    CUE_BALL_KNOCKED_PINS = "cue_ball_knocked_pins"
    JUMP_OVER_PINS = "jump_over_pins"
    # 7-pin carom [rules.md §7].
    CUE_BALL_PIN = "cue_ball_pin"
    ILLEGAL_PIN = "illegal_pin"
    BREAK_MISS = "break_miss"
    CUE_BALL_POCKETED = "cue_ball_pocketed"
    NO_CONTACT = "no_contact"
    BREAK_NOT_DIRECT = "break_not_direct"
    SAFETY_NO_CUSHION = "safety_no_cushion"
    SAFETY_PINS = "safety_pins"


#: Fouls a person may call with a ``call`` event.
CALL_FOULS: frozenset[Foul] = frozenset(
    {
        Foul.DOUBLE_HIT,
        Foul.PUSH,
        Foul.TOUCH,
        Foul.FOOT,
        Foul.MISCUE,
        Foul.BALLS_MOVING,
        Foul.ILLEGAL_JUMP,
        Foul.SHOT_CLOCK,
        Foul.JUMP_OVER_PINS,
        Foul.WRONG_BALL,
    }
)


class Spot(_Names):
    """Named table spots (positions in :class:`referee.Table`)."""

    HEAD = "head"
    FOOT = "foot"
    CENTER = "center"
    TOP = "top"
    RED_FIVE_PINS = "red_five_pins"
    LAG_LINE = "lag_line"
    # 7-pin carom: the pin spots 1 (head end) and 3 (foot end) of the pyramid table.
    SPOT1 = "spot1"
    SPOT3 = "spot3"


class NextPosition(_Names):
    """How the next stroke starts."""

    PLAY_ON = "play_on"
    BREAK = "break"
    BALL_IN_HAND = "ball_in_hand"
