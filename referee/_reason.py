"""A verdict's reason as keyed phrases, so that pages and reports can say it in any language.

Theory of operation. The core writes each reason once, as a :class:`Reason`: a
:class:`ReasonKey` and its fields (ball names, counts, foul names as their values). Its
English sentence (:meth:`Reason.english`) is the one ``Verdict.reason`` has always
held, so logs and terminals read as before. A verdict whose reason is made of parts
(a point, then a zone's note) keeps them in order; ``TEXT`` is a part without a key
(its English is the ``text`` field: the core writes none now, shot logs written before
the zone notes were keyed hold them), which a translating reader shows as it is.

Readers translate by key with their own catalogue (``carom/i18n``): the fields named
in :data:`BALL_FIELDS` hold ball names, ``fouls`` holds foul names joined by ``,``,
``pins`` pin names joined by ``,``, and the fields of ``referee.ITEM_FIELDS``
(``items`` of five-pins, ``made`` of the 7-pin game) a pin game stroke's items
(:func:`referee.pin_items`), each said with its kind's template and joined as that
field says; ``layout`` where each ball stood against the break layout
(:func:`referee.layout_items`), each ball said with its form's and role's templates,
joined by ``, ``; the fields of ``referee.ZONE_FIELDS`` where a zone note's balls
stood (``referee._zone_notes``). Besides verdicts' reasons and announcements, keyed phrases say the
rule that judged a shot a break or play and a shot's notes (who was found at the
table, how a game ended: ``ShotRecord.break_part``, ``ShotRecord.note_parts``); their
player names are fields, said as they are. A review's parts (``Verdict.review_parts``,
``referee._review``) hold codes in the fields of :data:`REVIEW_FIELDS`: ``doubt`` and
``event`` (``referee._review_codes``), and ``instead``, the call without the deciding
event, as :func:`reason_json` in JSON.

Over 400 lines because it is one catalogue: every key and its English template, one
entry a key; split in two, a key and its sentence would live in different files.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from referee._errors import RulesError
from referee._layout_items import PLACE_ENGLISH, layout_items
from referee._pin_items import ITEM_FIELDS, PIN_ITEM_ENGLISH, pin_items
from referee._review_codes import doubt_english, event_english
from referee._zone_notes import ZONE_FIELDS, zone_field_english

__all__ = [
    "BALL_FIELDS",
    "PIN_FIELDS",
    "PLACE_ENGLISH",
    "REVIEW_FIELDS",
    "Reason",
    "ReasonKey",
    "english_reason",
    "reason_json",
    "reasons_from_json",
]

#: Fields that hold a ball's name (``white``, ``yellow``, ``red``, ``dotted``).
BALL_FIELDS = frozenset(
    {"first", "second", "only", "missing", "cue", "opponent", "ball", "other", "taker", "fouler"}
)
#: Fields of a review's parts that hold codes (``referee._review_codes``) or, ``instead``,
#: the call without the deciding event, its parts as JSON (:func:`reason_json`).
REVIEW_FIELDS = frozenset({"doubt", "event", "instead"})
#: Fields that hold a pin's name (``referee.Pin``); ``cushion`` holds a cushion's.
PIN_FIELDS = frozenset({"pin", "neighbour"})


class ReasonKey(StrEnum):
    """What a reason says; the fields each needs are in :data:`_ENGLISH`'s templates."""

    POINT = "point"
    POINT_AFTER_ONE = "point_after_one"
    POINT_AFTER = "point_after"
    CUSHIONS_SHORT_ONE = "cushions_short_one"
    CUSHIONS_SHORT = "cushions_short"
    NO_BALL_HIT = "no_ball_hit"
    MISSED_SECOND = "missed_second"
    FOUL = "foul"
    PINS_SCORED = "pins_scored"
    PINS_SCORED_BREAK = "pins_scored_break"
    PINS_NO_POINTS = "pins_no_points"
    PINS_NO_POINTS_BREAK = "pins_no_points_break"
    PINS_FOUL = "pins_foul"
    PINS_FOUL_STROKE = "pins_foul_stroke"
    PINS_IGNORED = "pins_ignored"
    PINS_FROZEN_BREAK = "pins_frozen_break"
    DECIDED = "decided"
    PIN7_ALL_SEVEN = "pin7_all_seven"
    PIN7_PENALTY = "pin7_penalty"
    PIN7_ALL_SEVEN_FOUL = "pin7_all_seven_foul"
    PIN7_FELL_AT_ZERO = "pin7_fell_at_zero"
    PIN7_SAFETY_WINS = "pin7_safety_wins"
    PIN7_OVERSHOOT = "pin7_overshoot"
    PIN7_SCORED = "pin7_scored"
    PIN7_NO_SCORE = "pin7_no_score"
    # announcements (``Verdict.announcement_parts``)
    FROZEN_BALL = "frozen_ball"
    FROZEN_CUSHION = "frozen_cushion"
    PINS_PLAY_ON = "pins_play_on"
    PINS_HAND_OPPOSITE = "pins_hand_opposite"
    PINS_HAND_CENTRE_LINE = "pins_hand_centre_line"
    PINS_HAND_BOTTOM = "pins_hand_bottom"
    PINS_HAND_TOP = "pins_hand_top"
    PINS_HAND_OPPOSITE_ASK = "pins_hand_opposite_ask"
    PINS_HAND_CENTRE_LINE_ASK = "pins_hand_centre_line_ask"
    PINS_HAND_BOTTOM_ASK = "pins_hand_bottom_ask"
    PINS_HAND_TOP_ASK = "pins_hand_top_ask"
    PINS_HAND_OPPOSITE_ASK_RED = "pins_hand_opposite_ask_red"
    PINS_HAND_CENTRE_LINE_ASK_RED = "pins_hand_centre_line_ask_red"
    PINS_HAND_BOTTOM_ASK_RED = "pins_hand_bottom_ask_red"
    PINS_HAND_TOP_ASK_RED = "pins_hand_top_ask_red"
    PIN7_SPOT_COVERED = "pin7_spot_covered"
    PIN7_AT_ZERO = "pin7_at_zero"
    WRONG_BREAK_OFF = "wrong_break_off"
    WRONG_BREAK_OUTSIDE = "wrong_break_outside"
    WRONG_BREAK_FAR = "wrong_break_far"
    # the rule that judged a stroke a break or play (``ShotRecord.break_parts``)
    BREAK_LOGGED = "break_logged"
    PLAY_LOGGED = "play_logged"
    BREAK_NO_POSITIONS = "break_no_positions"
    PLAY_NO_POSITIONS = "play_no_positions"
    BREAK_LAYOUT = "break_layout"
    BREAK_DUE = "break_due"
    PLAY_NO_LAYOUT = "play_no_layout"
    # a shot's notes: who is at the table, the end of a game (``ShotRecord.note_parts``)
    NOTE_FIRST_SEEN = "note_first_seen"
    NOTE_VIDEO_FIRST = "note_video_first"
    NOTE_CUT_TO_TARGET = "note_cut_to_target"
    NOTE_GAME_WON = "note_game_won"
    NOTE_INNINGS_WON = "note_innings_won"
    NOTE_INNINGS_DRAW = "note_innings_draw"
    NOTE_INNINGS_DRAW_BETWEEN = "note_innings_draw_between"
    NOTE_TARGET = "note_target"
    NOTE_TARGET_EQUALIZING = "note_target_equalizing"
    NOTE_EQUALIZING = "note_equalizing"
    NOTE_NOT_EQUALIZED = "note_not_equalized"
    NOTE_EQUALIZING_OVER = "note_equalizing_over"
    NOTE_EQUALIZED = "note_equalized"
    NOTE_LEVEL = "note_level"
    NOTE_MATCH_WON = "note_match_won"
    NOTE_MATCH_DRAW = "note_match_draw"
    NOTE_SET_WON = "note_set_won"
    NOTE_SET_DRAW = "note_set_draw"
    # a zone rule's note on a carom (straight-rail corners, balkline zones, anchors)
    ZONE_NOT_JUDGED = "zone_not_judged"
    ZONE_FREE = "zone_free"
    ZONE_REFUSED = "zone_refused"
    ZONE_REFUSED_NO_PATHS = "zone_refused_no_paths"
    ZONE_UNSEEN = "zone_unseen"
    ZONE_COUNT_UNKNOWN = "zone_count_unknown"
    ZONE_LEFT = "zone_left"
    ZONE_LAST = "zone_last"
    ZONE_MORE_ONE = "zone_more_one"
    ZONE_MORE = "zone_more"
    # why a person should look again (``Verdict.review_parts``; ``referee._review_codes``)
    REVIEW_DECIDES = "review_decides"
    REVIEW_DOUBT = "review_doubt"
    REVIEW_TURN_OWNER = "review_turn_owner"
    REVIEW_TURN_DUE = "review_turn_due"
    REVIEW_NOBODY_SHARED = "review_nobody_shared"
    REVIEW_NOBODY_SHARED_ALL = "review_nobody_shared_all"
    REVIEW_NOBODY_ROTATE = "review_nobody_rotate"
    REVIEW_NOBODY_MANY = "review_nobody_many"
    REVIEW_NOBODY_NONE = "review_nobody_none"
    REVIEW_BREAK_DUE = "review_break_due"
    REVIEW_ZONE_UNSEEN = "review_zone_unseen"
    REVIEW_ZONE_COUNT_UNKNOWN = "review_zone_count_unknown"

    @property
    def template(self) -> str:
        """The English template, its fields in braces (``{first} then {second}``)."""
        return _ENGLISH[self]

    TEXT = "text"


_NO_POINTS = (
    "no points: {cue} hit {opponent} first, but no pin fell and no carom was made (a legal stroke)"
)
_PINS_FOUL = "foul ({fouls}): {total} points to {opponent}'s player, fouls {penalty}"

_HAND = "Ball in hand for {taker}: place it in the "
_HALVES = {
    "opposite": "half opposite {fouler}",
    "centre_line": "bottom (head) half, as {fouler} lies on the centre line",
    "bottom": "bottom (head) half, opposite {fouler}",
    "top": "top (foot) half, opposite {fouler}",
}
_ASK = "; or ask for {fouler} on the top spot"
#: The red covers the top spot: the fouler's ball goes on the matching mark in the other
#: half, and the ball in hand into the top half [000 §13.5].
_ASK_RED = (
    "; or, as the red covers the top spot, ask for {fouler} on the matching spot at "
    "the bottom (head) cushion, {taker} then in the top (foot) half"
)
_WHERE = "{group} in {regions} ({nth} carom there)"
_REFUSED = "zone limit: " + _WHERE + ", none left {refused}: the carom does not count"
_WRONG = "wrong break position: {ball} is {distance_mm} mm %s {place} (at most {limit_mm} mm)"
_NOBODY = "nobody known at the table and %s: {player} assumed (correct the turn if not)"
_CHECK = "check the last stroke's verdict"
_UNSEEN = "; cannot tell whether one left (no end position of {balls})"
_RUN_BEFORE = "; the run began before the record: how many caroms were made there is not known"

_ENGLISH: dict[ReasonKey, str] = {
    ReasonKey.POINT: "point: {first} then {second}",
    ReasonKey.POINT_AFTER_ONE: "point: {first} then {second} after 1 cushion",
    ReasonKey.POINT_AFTER: "point: {first} then {second} after {cushions} cushions",
    ReasonKey.CUSHIONS_SHORT_ONE: "1 cushion before the second ball ({second}), {needed} needed",
    ReasonKey.CUSHIONS_SHORT: (
        "{cushions} cushions before the second ball ({second}), {needed} needed"
    ),
    ReasonKey.NO_BALL_HIT: "no object ball hit",
    ReasonKey.MISSED_SECOND: "missed the second ball: hit only {only}, not {missing}",
    ReasonKey.FOUL: "foul: {fouls}",
    ReasonKey.PINS_SCORED: "{points} points: {items}",
    ReasonKey.PINS_SCORED_BREAK: "break, {points} points: {items}",
    ReasonKey.PINS_NO_POINTS: _NO_POINTS,
    ReasonKey.PINS_NO_POINTS_BREAK: "break, " + _NO_POINTS,
    ReasonKey.PINS_FOUL: _PINS_FOUL,
    ReasonKey.PINS_FOUL_STROKE: _PINS_FOUL + " + stroke {points} from {items}",
    ReasonKey.PINS_IGNORED: "ignored: {pins} pin down but not standing",
    ReasonKey.DECIDED: "decided by the referee: the stroke scores {points}",
    ReasonKey.PINS_FROZEN_BREAK: (
        "no points: the stroke from the break position after frozen balls may not score "
        "({points} points not counted: {items})"
    ),
    ReasonKey.PIN7_ALL_SEVEN: "all 7 pins: the game is won",
    ReasonKey.PIN7_PENALTY: "{penalty} points added to the count",
    ReasonKey.PIN7_ALL_SEVEN_FOUL: "all 7 pins on a foul cost the starting count",
    ReasonKey.PIN7_FELL_AT_ZERO: "overshoot: pins {pins} fell at zero and score nothing",
    ReasonKey.PIN7_SAFETY_WINS: "legal safety at zero: the game is won",
    ReasonKey.PIN7_OVERSHOOT: (
        "overshoot: {made} would take the count {remaining} below zero; no score"
    ),
    ReasonKey.PIN7_SCORED: "{points} points: {made}",
    ReasonKey.PIN7_NO_SCORE: "no score: {made}",
    ReasonKey.FROZEN_BALL: "{ball} is frozen to {other}",
    ReasonKey.FROZEN_CUSHION: "{ball} is frozen to the {cushion} cushion",
    ReasonKey.PINS_PLAY_ON: "No ball in hand: {taker} plays from where it lies.",
    **{ReasonKey(f"pins_hand_{h}"): _HAND + where + "." for h, where in _HALVES.items()},
    **{ReasonKey(f"pins_hand_{h}_ask"): _HAND + where + _ASK + "." for h, where in _HALVES.items()},
    **{
        ReasonKey(f"pins_hand_{h}_ask_red"): _HAND + where + _ASK_RED + "."
        for h, where in _HALVES.items()
    },
    ReasonKey.PIN7_SPOT_COVERED: (
        "{pin} pin: its spot is covered; stand it halfway to the {neighbour} pin until the "
        "spot is free"
    ),
    ReasonKey.PIN7_AT_ZERO: "count at zero: a legal safety (no pin, a ball to a cushion) now wins",
    ReasonKey.WRONG_BREAK_OFF: _WRONG % "off",
    ReasonKey.WRONG_BREAK_OUTSIDE: _WRONG % "outside",
    ReasonKey.WRONG_BREAK_FAR: _WRONG % "too far from",
    ReasonKey.BREAK_LOGGED: "a break: the shot log says so",
    ReasonKey.PLAY_LOGGED: "not a break: the shot log says so",
    ReasonKey.BREAK_NO_POSITIONS: "a break: no start positions, and the break position is due",
    ReasonKey.PLAY_NO_POSITIONS: "play: no start positions, and the game is under way",
    ReasonKey.BREAK_LAYOUT: "a break: the balls stand in the break layout ({layout})",
    ReasonKey.BREAK_DUE: (
        "a break: the break position was due but the balls are not in it ({layout})"
    ),
    ReasonKey.PLAY_NO_LAYOUT: "play: the balls are not in the break layout ({layout})",
    ReasonKey.NOTE_FIRST_SEEN: "{player} at the table: the first stroke is played with {ball}",
    ReasonKey.NOTE_VIDEO_FIRST: (
        "the video shows {player}'s {ball} played first, not {expected}'s {other}: following "
        "the video (set {player} as the first player, or swap the cue balls)"
    ),
    ReasonKey.NOTE_CUT_TO_TARGET: "{player}'s total cut back to the target {target}",
    ReasonKey.NOTE_GAME_WON: "{player} wins the game",
    ReasonKey.NOTE_INNINGS_WON: "inning limit {limit} reached: {winner} wins",
    ReasonKey.NOTE_INNINGS_DRAW: "inning limit {limit} reached: draw",
    ReasonKey.NOTE_INNINGS_DRAW_BETWEEN: "inning limit {limit} reached: draw between {players}",
    ReasonKey.NOTE_TARGET: "{player} reached the target",
    ReasonKey.NOTE_TARGET_EQUALIZING: (
        "{player} reached the target: equalizing inning for {players}"
    ),
    ReasonKey.NOTE_EQUALIZING: "equalizing inning for {player}",
    ReasonKey.NOTE_NOT_EQUALIZED: "{player} did not equalize: {winner} wins",
    ReasonKey.NOTE_EQUALIZING_OVER: "the equalizing innings are over: {winner} wins",
    ReasonKey.NOTE_EQUALIZED: "{player} equalized: draw",
    ReasonKey.NOTE_LEVEL: "{players} level at the target: draw",
    ReasonKey.NOTE_MATCH_WON: "match over: {winner} wins",
    ReasonKey.NOTE_MATCH_DRAW: "match over: draw",
    ReasonKey.NOTE_SET_WON: "set {set} to {winner}",
    ReasonKey.NOTE_SET_DRAW: "set {set} to nobody (draw)",
    ReasonKey.ZONE_NOT_JUDGED: "zone rule not judged (no start position of {balls})",
    ReasonKey.ZONE_FREE: "no zone restriction: {placed}",
    ReasonKey.ZONE_REFUSED: _REFUSED,
    ReasonKey.ZONE_REFUSED_NO_PATHS: (
        _REFUSED + " (no path samples: a ball that left and came back is not seen)"
    ),
    ReasonKey.ZONE_UNSEEN: _WHERE + _UNSEEN + ": carom allowed",
    ReasonKey.ZONE_COUNT_UNKNOWN: "{group} in {regions}" + _RUN_BEFORE + ": carom allowed",
    ReasonKey.ZONE_LEFT: _WHERE + ": {left}, the carom counts",
    ReasonKey.ZONE_LAST: _WHERE + ": one must leave by the next carom",
    ReasonKey.ZONE_MORE_ONE: _WHERE + ": 1 more carom there before one must leave",
    ReasonKey.ZONE_MORE: _WHERE + ": {free} more caroms there before one must leave",
    ReasonKey.REVIEW_DECIDES: "{doubt}: {event} decides the call (else: {instead})",
    ReasonKey.REVIEW_DOUBT: "{doubt}",
    ReasonKey.REVIEW_TURN_OWNER: (
        "{player} plays the {cue} although the rules had {expected} at the table: "
        + _CHECK
        + ", or call a wrong-ball foul"
    ),
    ReasonKey.REVIEW_TURN_DUE: (
        "{player} plays the {cue} although the {ball} was due: "
        + _CHECK
        + " (whose inning it was), or call a wrong-ball foul"
    ),
    ReasonKey.REVIEW_NOBODY_SHARED: _NOBODY % "both play the {ball}",
    ReasonKey.REVIEW_NOBODY_SHARED_ALL: _NOBODY % "all {n} play the {ball}",
    ReasonKey.REVIEW_NOBODY_ROTATE: _NOBODY % "the whites rotate among the {n} players",
    ReasonKey.REVIEW_NOBODY_MANY: _NOBODY % "{n} players play the {ball}",
    ReasonKey.REVIEW_NOBODY_NONE: _NOBODY % "nobody plays the {ball}",
    ReasonKey.REVIEW_BREAK_DUE: "the break position was due but the balls are not in it ({layout})",
    ReasonKey.REVIEW_ZONE_UNSEEN: _WHERE + _UNSEEN,
    ReasonKey.REVIEW_ZONE_COUNT_UNKNOWN: "{group} in {regions}" + _RUN_BEFORE,
    ReasonKey.TEXT: "{text}",
}


@dataclass(frozen=True, slots=True)
class Reason:
    """One keyed phrase of a reason: ``key`` and its ``fields`` as (name, value) pairs.

    Raises :class:`RulesError` when the fields are not the ones the key's English needs.
    """

    key: ReasonKey
    fields: tuple[tuple[str, str | int], ...] = ()

    def __post_init__(self) -> None:
        if self.key not in _ENGLISH:
            raise RulesError(f"reason {self.key!r}: unknown key (a ReasonKey)")
        names = {name for name, _ in self.fields}
        want = _needed(self.key)
        if names != want:
            raise RulesError(f"reason {self.key}: fields {sorted(names)}, expected {sorted(want)}")
        for name in names & ITEM_FIELDS.keys():
            pin_items(str(self.field_map()[name]))  # raises for a malformed one
        if "layout" in names:
            layout_items(str(self.field_map()["layout"]))
        for name in names & ZONE_FIELDS:
            zone_field_english(name, self.field_map()[name])  # raises for a malformed one
        if "place" in names and self.field_map()["place"] not in PLACE_ENGLISH:
            raise RulesError(f"reason {self.key}: place {self.field_map()['place']!r} unknown")
        for name in names & REVIEW_FIELDS:
            _review_field_english(name, self.field_map()[name])  # raises for a malformed one

    @classmethod
    def of(cls, key: ReasonKey, **fields: str | int) -> Reason:
        """``Reason(key, fields)`` from keyword fields (in sorted order)."""
        plain = {k: v if isinstance(v, int) else str(v) for k, v in fields.items()}
        return cls(key, tuple(sorted(plain.items())))

    def field_map(self) -> dict[str, str | int]:
        """The fields as a dict."""
        return dict(self.fields)

    def english(self) -> str:
        """The English sentence (what ``Verdict.reason`` holds)."""
        values = self.field_map()
        if "fouls" in values:
            values["fouls"] = ", ".join(
                f.replace("_", " ") for f in str(values["fouls"]).split(",")
            )
        if "pins" in values:
            values["pins"] = ", ".join(str(values["pins"]).split(","))
        if "place" in values:
            values["place"] = PLACE_ENGLISH[str(values["place"])]
        for name in values.keys() & ITEM_FIELDS.keys():
            items = pin_items(str(values[name]))
            values[name] = ITEM_FIELDS[name].join(
                PIN_ITEM_ENGLISH[i.kind].format_map(i.fields()) for i in items
            )
        if "layout" in values:
            values["layout"] = ", ".join(i.english() for i in layout_items(str(values["layout"])))
        for name in values.keys() & ZONE_FIELDS:
            values[name] = zone_field_english(name, values[name])
        for name in values.keys() & REVIEW_FIELDS:
            values[name] = _review_field_english(name, values[name])
        return _ENGLISH[self.key].format_map(values)


def english_reason(parts: Iterable[Reason]) -> str:
    """The English sentence of a reason's parts, joined with ``; ``."""
    return "; ".join(p.english() for p in parts)


def reason_json(parts: Iterable[Reason]) -> list[dict[str, object]]:
    """Parts as JSON objects ``{"key": ..., "fields": {...}}`` (shot logs, the web API)."""
    return [{"key": str(p.key), "fields": p.field_map()} for p in parts]


def reasons_from_json(data: object) -> tuple[Reason, ...]:
    """Parts back from :func:`reason_json`'s form; RulesError for anything else."""
    if not isinstance(data, list):
        raise RulesError("reason parts: expected a list")
    out = []
    for part in data:
        if not isinstance(part, dict) or set(part) != {"key", "fields"}:
            raise RulesError("reason parts: expected {key, fields} objects")
        key, fields = part["key"], part["fields"]
        if key not in _KEYS or not isinstance(fields, dict):
            raise RulesError(f"reason parts: unknown key {key!r} or fields not an object")
        if not all(isinstance(v, str | int) and not isinstance(v, bool) for v in fields.values()):
            raise RulesError(f"reason parts: {key}'s fields must be text or whole numbers")
        out.append(Reason(ReasonKey(key), tuple(sorted(fields.items()))))
    return tuple(out)


def _review_field_english(name: str, value: str | int) -> str:
    """A review field's English: a doubt's or an event's code, or the other call's parts."""
    if name == "doubt":
        return doubt_english(str(value))
    if name == "event":
        return event_english(str(value))
    try:
        instead = json.loads(str(value))
    except json.JSONDecodeError as exc:
        raise RulesError(f"review instead: not JSON ({exc.msg})") from None
    return english_reason(reasons_from_json(instead))


_KEYS = frozenset(k.value for k in ReasonKey)


def _needed(key: ReasonKey) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(_ENGLISH[key]) if f}
