"""Rule options: where the rules are vague or differ between sources, a documented switch.

Each field cites the rules.md section it settles. The defaults follow UMB practice
as digested in rules.md; ``docs/rules-options.md`` explains each choice.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from referee._errors import ShotLogError
from referee.jsonread import ask_bool, ask_int, ask_num, show

__all__ = ["RuleOptions"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleOptions:
    """Switches for rules that sources leave open. All lengths in table mm."""

    #: §3: the break must hit the red first (hitting the opponent's ball is a foul).
    break_red_first: bool = True
    #: §4: three-cushion, the shooter's own ball off the table gives the opponent
    #: the break position (False: the opponent plays the balls as they lie).
    own_ball_off_gives_break: bool = True
    #: §4 [001 §26]: an object ball leaving the table is a foul in scoring games
    #: other than three-cushion (False: it is just re-spotted).
    object_ball_off_is_foul: bool = False
    #: §5: a ball whose centre is within this distance of touching another ball or
    #: a cushion is announced frozen.
    frozen_tolerance_mm: float = 1.0
    #: §5 straight rail: with the balls in one corner zone, caroms count freely
    #: until the N-th, which must drive a restricted ball out of the corner in the
    #: same stroke (``None``: no corner zones; [000] says both 1 and 2).
    corner_zone_limit: int | None = None
    #: §5 straight rail: legs of the corner triangle along each cushion, on a
    #: 2840 mm table (scaled with the table length).
    corner_zone_mm: float = 355.0
    #: §5 balkline: anchor squares restrict like zones.
    anchor_squares: bool = True
    #: §5 balkline: anchor square side on a 2840 mm table (scaled).
    anchor_square_mm: float = 178.0
    #: §5 balkline: an object ball that crosses a zone line and comes back counts
    #: as having left the zone (needs ``paths_mm``; without paths only the end
    #: position is known).
    returning_ball_left_zone: bool = True
    #: §5 balkline: a ball whose centre lies within this distance of a line is in
    #: both zones.
    line_tolerance_mm: float = 0.0
    #: §4 [001 §23-25]: the safety rule. A stroke declared an intentional safety
    #: (``"safety": true``) must drive a ball to a cushion after the cue ball's
    #: first object-ball contact, and may not follow the shooter's own safety or
    #: foul. Off by default (the USBA does not apply it in three-cushion).
    safety_rule: bool = False
    #: §4 three-cushion: two contacts of a ball with the same cushion, with no other
    #: event of that ball between and less than this many seconds apart, count as one
    #: cushion (a ball chattering on the cushion or running along it, which a camera
    #: may report as several touches). 0: every reported contact counts, as the rules
    #: read ("cushion" contacts, repeats allowed).
    cushion_repeat_merge_s: float = 0.0

    # --- the break and the turn ---
    #: §3: the balls stand in the break layout (a stroke is judged as the break)
    #: when every ball is within this distance of its place; farther is play.
    break_recognise_mm: float = 75.0
    #: §3: a recognised break layout with a ball farther than this from its place
    #: is announced as a wrong break position (measurement error is 2-5 mm).
    break_layout_mm: float = 15.0
    #: §1, §4: the ball that moved first names the shooter. A camera cannot tell a
    #: wrong-ball foul from a turn it did not see pass, so a change of shooter the
    #: rules did not give is marked for review instead of called a foul. False: the
    #: rules' shooter plays, and the other player's ball is the wrong-ball foul.
    follow_cue_ball: bool = False
    #: §1 [001 §6]: with the whites rotating (an odd number of players, three or
    #: more), every stroke is played with the white that was not the cue ball of
    #: the previous stroke, within an inning too. False: the incoming player takes
    #: the white the previous player did not finish with and keeps it for the inning.
    rotate_cue_ball_every_stroke: bool = False

    # --- zones ---
    #: §5 balkline: the zone touching no cushion (the centre of the 47/x and 35/x
    #: tables) is free of restriction, as in UMB and American practice. False:
    #: every field is restricted, as [000 "Рамочные партии"] reads.
    centre_zone_free: bool = True
    #: §5 straight rail: the corner limit applies when all three balls lie in one
    #: corner ([000 "Открытая партия"] "все три шара") and any of them leaving
    #: lifts it. False: when the two object balls do, and one of them must leave
    #: ([000 "Свободная партия"] "игровых шаров").
    corner_zone_all_balls: bool = True

    # --- five-pins ---
    #: §6 five-pins [000 §7.1, §15.3в]: the cue ball knocks pins and never touches
    #: the opponent's ball. False: one foul, the miss (2 + the pins); True: the
    #: "pins before the opponent ball" foul is added (2 more points). The text names
    #: pins "first, and then the opponent's ball", which a miss never reaches.
    five_pins_pins_on_miss_extra_foul: bool = False
    #: §6 five-pins ball in hand [000 §13.4]: the fouler's ball counts as lying on
    #: the centre line (the ball in hand then goes to the bottom, head half) when its
    #: centre is within this distance of the line.
    five_pins_centre_line_mm: float = 1.0
    #: §6 five-pins frozen balls [000 §10.4]: the stroke from the break position the
    #: referee sets when frozen balls leave no legal stroke may not score for the
    #: shooter (a safety only; a foul still gives the opponent its points), as the
    #: seed reads. False: it scores as any stroke (rules.md §6 is silent on it).
    five_pins_frozen_break_no_score: bool = True

    # --- 7-pin carom ---
    #: §7 [000 7-pins §9]: in a carom only the white the cue ball reaches second
    #: (after rebounding off the other white) may knock pins at once. True: the
    #: first white of the carom may too (the text says "a white ball after a carom
    #: on it", which reads as the second ball only).
    pin7_carom_frees_first_white: bool = False
    #: §7 [000 7-pins §9]: a white knocking pins in none of the three allowed ways.
    #: True: a foul (5 + the stroke's points added to the count, like the cue
    #: ball's pins); False: those pins just score nothing. The text only says such
    #: knocks are "allowed" in three ways.
    pin7_illegal_white_pin_is_foul: bool = True
    #: §7 [000 7-pins §9]: the cue ball knocking pins is also a 5-point foul on
    #: top of the stroke's points added to the count. False: only the points.
    pin7_cue_pin_adds_foul_points: bool = True
    #: §7 [000 7-pins §9 "пока падают кегли"]: the series goes on only while pins
    #: fall. False: any scoring stroke (a carom, a pocketed white) goes on too.
    pin7_series_needs_pins: bool = True
    #: §7 [000 7-pins §9]: a stroke that would take the count below zero. False:
    #: it scores nothing and the turn passes (the count must reach exactly zero);
    #: True: the count stops at zero and the safety is still owed.
    pin7_overshoot_to_zero: bool = False
    #: §7 (not in the surviving text): the cue ball touching no white is a 5-point
    #: foul, as in the pyramid rules the seed copies. False: a plain miss.
    pin7_no_contact_is_foul: bool = True
    #: §7 [000 7-pins §9]: at zero the safety must knock no pins. True: pins are a
    #: failed safety (5 + their points added); False: they are an overshoot.
    pin7_pins_at_zero_is_foul: bool = True
    #: §7 [000 7-pins §20, §25]: a white knocked off the table ends the inning
    #: (rules.md §7; the seed's §25 survives only as a heading). False: it is just
    #: re-spotted and the series rules decide.
    pin7_white_off_ends_inning: bool = True

    def __post_init__(self) -> None:
        # Built in Python as from a file: a negative tolerance or a NaN changed verdicts.
        for f in fields(self):
            object.__setattr__(
                self, f.name, _checked(f"rules.{f.name}", getattr(self, f.name), str(f.type))
            )

    @classmethod
    def from_mapping(cls, data: dict[str, Any], where: str = "rules") -> RuleOptions:
        """Build from a JSON object; unknown names or wrong types raise ShotLogError."""
        known = {f.name: str(f.type) for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                choices = ", ".join(sorted(known))
                shown = name if name.isprintable() else show(name)
                raise ShotLogError(f"{where}.{shown}: unknown rule option (known: {choices})")
            values[name] = _checked(f"{where}.{name}", value, known[name])
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _checked(where: str, value: Any, type_name: str) -> Any:
    """``value`` checked against the option's declared type (bool, float, int, int | None)."""
    if type_name == "bool":
        return ask_bool(value, where)
    if type_name == "float":
        return ask_num(value, where, lo=0.0)
    if type_name == "int":
        return ask_int(value, where, lo=0)
    if type_name == "int | None":
        return None if value is None else ask_int(value, where, lo=1)
    raise ShotLogError(f"{where}: unsupported option type {type_name}")  # pragma: no cover
