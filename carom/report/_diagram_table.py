"""The table of a shot diagram: rail, cushions, cloth, and the discipline's marks.

Beyond the diamonds and the spots, a diagram shows what its verdict speaks of: the
balklines and anchor squares of a balkline game and the corner zones of straight rail
(``zone limit ... zone head-left`` is then checked against the picture), the five-pins
and 7-pin pin spots, and the pockets of the pyramid table (a ball ``pocket
middle_left`` goes where it is drawn). All of it comes from the table's geometry
(:class:`calibration.TableGeometry`), as the calibration overlay draws it.
"""

from __future__ import annotations

from calibration import TableGeometry
from carom.report._drawing import Primitive, Shape, Style
from referee import Discipline, RuleOptions

__all__ = ["PAD", "table_origin", "table_primitives"]

XY = tuple[float, float]

RAIL, CUSHION, CLOTH = "#5b3a21", "#1d5c35", "#2c7a4b"
CHALK, PIN, POCKET = "#cfe3f5", "#f4efe1", "#0b0d0c"
PAD = 40.0  # the canvas margin round the rail


def table_origin(geometry: TableGeometry) -> XY:
    """Canvas position of the table origin (head-left cushion nose corner)."""
    off = PAD + geometry.cushion_width_mm + geometry.rail_width_mm
    return (off, off)


def table_primitives(
    g: TableGeometry,
    o: XY,
    discipline: Discipline | None = None,
    options: RuleOptions | None = None,
) -> list[Primitive]:
    """The table at origin ``o``, with ``discipline``'s marks (None: a plain carom table)."""
    rail, cush = g.cushion_width_mm + g.rail_width_mm, g.cushion_width_mm
    out: list[Primitive] = [
        Shape("rect", (o[0] - rail, o[1] - rail, g.length_mm + 2 * rail, g.width_mm + 2 * rail),
              Style(fill=RAIL), "rail"),
        Shape("rect", (o[0] - cush, o[1] - cush, g.length_mm + 2 * cush, g.width_mm + 2 * cush),
              Style(fill=CUSHION), "cushion"),
        Shape("rect", (o[0], o[1], g.length_mm, g.width_mm), Style(fill=CLOTH), "cloth"),
    ]  # fmt: skip
    out += [Shape("circle", (o[0] + x, o[1] + y, 14.0), Style(fill="#e8e2d0"), "diamond")
            for x, y in g.diamonds_mm()]  # fmt: skip
    out += [Shape("circle", (o[0] + x, o[1] + y, 9.0), Style(fill="#d9e6dc", opacity=0.7), "spot")
            for x, y in g.spots_mm(discipline)]  # fmt: skip
    return out + _marks(g, o, discipline, options)


def _marks(
    g: TableGeometry, o: XY, discipline: Discipline | None, options: RuleOptions | None
) -> list[Primitive]:
    """Chalk lines, pin spots and pockets (pockets on a pocket table whatever the game)."""
    out: list[Primitive] = [
        Shape("line", (o[0] + x0, o[1] + y0, o[0] + x1, o[1] + y1),
              Style(stroke=CHALK, width=5.0, opacity=0.8), "chalk")
        for x0, y0, x1, y1 in g.chalk_lines_mm(discipline, options).tolist()
    ]  # fmt: skip
    if discipline is not None:
        out += [Shape("circle", (o[0] + x, o[1] + y, g.radius_mm * 0.6),
                      Style(fill=PIN, stroke="#8a8474", width=3.0), "pin")
                for x, y in g.pins_mm(discipline).values()]  # fmt: skip
    out += [Shape("circle", (o[0] + x, o[1] + y, g.ball_diameter_mm * 0.9),
                  Style(fill=POCKET), "pocket")
            for x, y in g.pockets_mm().values()]  # fmt: skip
    return out
