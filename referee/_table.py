"""Playing-surface geometry the rules need, in table millimetres.

Frame: x from the head cushion (x = 0) to the foot cushion (x = length), y from
the left cushion (y = 0) to the right cushion (y = width). The head half
(x < length / 2) is the five-pins "bottom" half, where the breaker plays from.
Calibration builds its richer table model on top of this one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee._errors import RulesError
from referee._names import Discipline, Spot

__all__ = ["MATCH_TABLE", "PYRAMID_TABLE", "XY", "Table", "table_of"]

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Table:
    """Playing surface ``length_mm`` x ``width_mm`` and the ball diameter, in mm."""

    length_mm: float = 2840.0
    width_mm: float = 1420.0
    ball_diameter_mm: float = 61.5

    def __post_init__(self) -> None:
        for name in ("length_mm", "width_mm", "ball_diameter_mm"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise RulesError(f"table {name}: expected a number of mm, got {value!r}")
        if not 500.0 <= self.length_mm <= 5000.0:
            raise RulesError(f"table length_mm must be 500..5000, got {self.length_mm}")
        if not 250.0 <= self.width_mm <= self.length_mm:
            raise RulesError(f"table width_mm must be 250..length_mm, got {self.width_mm}")
        if not 40.0 <= self.ball_diameter_mm <= 80.0:
            raise RulesError(f"ball_diameter_mm must be 40..80, got {self.ball_diameter_mm}")

    @property
    def radius_mm(self) -> float:
        """Ball radius in mm."""
        return self.ball_diameter_mm / 2.0

    def spot(self, spot: Spot) -> XY:
        """Position of a named spot, (x_mm, y_mm)."""
        if spot not in _SPOTS:
            names = ", ".join(s.value for s in Spot)
            raise RulesError(f"spot: expected one of {names}, got {spot!r}")
        length, mid_y = self.length_mm, self.width_mm / 2.0
        return {
            Spot.HEAD: (length / 4.0, mid_y),
            Spot.FOOT: (3.0 * length / 4.0, mid_y),
            Spot.CENTER: (length / 2.0, mid_y),
            # Five-pins: 100 mm from the top (foot) cushion, scaled to the table.
            Spot.TOP: (length - 100.0 * length / 2840.0, mid_y),
            Spot.RED_FIVE_PINS: (3.0 * length / 4.0, mid_y),
            Spot.LAG_LINE: (length / 4.0, mid_y),
            # 7-pin carom [000 "Карамболь с кеглями" §8]: spot 1 in the "house" on the
            # head string, spot 3 at the foot spot (the pyramid table's marks).
            Spot.SPOT1: (length / 4.0, mid_y),
            Spot.SPOT3: (3.0 * length / 4.0, mid_y),
        }[spot]

    def is_free(self, xy_mm: XY, others_mm: list[XY]) -> bool:
        """True if a ball at ``xy_mm`` would touch none of the balls at ``others_mm``."""
        return all(math.dist(xy_mm, o) >= self.ball_diameter_mm for o in others_mm)

    def on_table(self, xy_mm: XY) -> bool:
        """True if a ball centre at ``xy_mm`` lies within the playing surface."""
        x, y = xy_mm
        return 0.0 <= x <= self.length_mm and 0.0 <= y <= self.width_mm

    def scale(self) -> float:
        """Length relative to the 2840 mm match table (for scaled marks)."""
        return self.length_mm / 2840.0


MATCH_TABLE = Table()
#: The Russian pyramid pocket table of the 7-pin game [rules.md §7]: 3550 x 1775 mm, 68 mm
#: balls.
PYRAMID_TABLE = Table(length_mm=3550.0, width_mm=1775.0, ball_diameter_mm=68.0)
_SPOTS = frozenset(Spot)


def table_of(discipline: Discipline) -> Table:
    """The table ``discipline`` is played on when nothing says otherwise.

    The pyramid for the 7-pin game, the match table for the others.
    """
    return PYRAMID_TABLE if discipline is Discipline.PIN_CAROM_7 else MATCH_TABLE
