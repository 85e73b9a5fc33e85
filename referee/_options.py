"""Rule options: where the rules are vague or differ between sources, a documented switch.

Each field cites the rules.md section it settles. The defaults follow UMB practice
as digested in rules.md; ``docs/rules-options.md`` explains each choice.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from referee._errors import ShotLogError

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
    #: §5 straight rail: caroms allowed in a row with all three balls in one corner
    #: zone (``None``: no corner zones; [000] says both 1 and 2).
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

    @classmethod
    def from_mapping(cls, data: dict[str, Any], where: str = "rules") -> RuleOptions:
        """Build from a JSON object; unknown names or wrong types raise ShotLogError."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                choices = ", ".join(sorted(known))
                raise ShotLogError(f"{where}.{name}: unknown rule option (known: {choices})")
            values[name] = _checked(f"{where}.{name}", value, getattr(cls(), name))
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _checked(where: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ShotLogError(f"{where}: expected true or false, got {value!r}")
        return value
    if default is None or isinstance(default, int | float):
        if value is None and default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ShotLogError(f"{where}: expected a number, got {value!r}")
        if value < 0:
            raise ShotLogError(f"{where}: must not be negative, got {value!r}")
        return value
    raise ShotLogError(f"{where}: unsupported option type")  # pragma: no cover
