"""The table geometry everyone uses: surface, cushions, rails, diamonds, spots, marks.

Theory of operation. One frozen :class:`TableGeometry` wraps the referee's
:class:`referee.Table` (playing-surface size and ball diameter) and adds what a camera
sees: the cushion nose (the line a ball touches) along the edge of the playing surface at
``cushion_height_mm``, the cloth-covered cushion top ``cushion_width_mm`` wide, then the
wooden rail ``rail_width_mm`` wide at ``rail_height_mm`` with the diamonds on its centre
line. Chalk marks come from the referee itself (spots from :meth:`referee.Table.spot`,
balklines, anchor squares and corner zones from :func:`referee.regions_for`), so
calibration, renderer and rules cannot disagree.

Frame (as :mod:`calibration._camera`): x from the head cushion (x = 0) to the foot
cushion, y from the left cushion (y = 0) to the right one, z up from the cloth, all mm.
Three heights matter: the cloth at z = 0, ball centres at z = R (``radius_mm``), the
cushion nose at z = ``cushion_height_mm``; the diamonds lie on the rail top at
z = ``rail_height_mm``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError
from referee import (
    MATCH_TABLE,
    Ball,
    CaromError,
    Corner,
    Cushion,
    Discipline,
    Pin,
    Pocket,
    Rect,
    Region,
    RuleOptions,
    Spot,
    regions_for,
)
from referee import Table as RefereeTable

__all__ = ["CUSHIONS", "PIN_SPACING_MM", "PYRAMID_TABLE", "TABLE_FORMAT", "TableGeometry"]

F64 = NDArray[np.float64]
XY = tuple[float, float]
TABLE_FORMAT = "carom-table/1"

#: Russian pyramid 12 ft table: 3550 x 1775 mm playing surface, 68 mm balls.
PYRAMID_TABLE = RefereeTable(length_mm=3550.0, width_mm=1775.0, ball_diameter_mm=68.0)

#: Distance from the centre pin to each side pin (an assumption: a ball width).
PIN_SPACING_MM = 63.5

#: Cushion order used by every per-cushion array: head, foot, left, right.
CUSHIONS = (Cushion.HEAD, Cushion.FOOT, Cushion.LEFT, Cushion.RIGHT)


def _check(name: str, value: float, lo: float, hi: float) -> None:
    if not (math.isfinite(value) and lo <= value <= hi):
        raise CalibrationError(f"{name} must be {lo:g}..{hi:g}, got {value!r}")


@dataclass(frozen=True, slots=True)
class TableGeometry:
    """A carom (or pocket) table as the camera sees it; every length in mm.

    Args:
        table: The referee's table: playing surface and ball diameter.
        cushion_height_mm: Height of the cushion nose above the cloth.
        cushion_width_mm: Cushion top from the nose out to the wooden rail.
        rail_width_mm: Wooden rail width; the diamonds sit on its centre line.
        rail_height_mm: Rail top above the cloth (at least the cushion height).
        pockets: True for a pocket (Russian pyramid) table with six pockets.
        pin_spacing_mm: Centre pin to each side pin (five-pins, the 7-pin king's cross).
    """

    table: RefereeTable = MATCH_TABLE
    cushion_height_mm: float = 37.0
    cushion_width_mm: float = 50.0
    rail_width_mm: float = 150.0
    rail_height_mm: float = 42.0
    pockets: bool = False
    pin_spacing_mm: float = PIN_SPACING_MM

    def __post_init__(self) -> None:
        _check("cushion_height_mm", self.cushion_height_mm, 20.0, 60.0)
        _check("cushion_width_mm", self.cushion_width_mm, 20.0, 120.0)
        _check("rail_width_mm", self.rail_width_mm, 40.0, 400.0)
        _check("rail_height_mm", self.rail_height_mm, self.cushion_height_mm, 100.0)
        _check("pin_spacing_mm", self.pin_spacing_mm, self.table.ball_diameter_mm / 2.0, 300.0)

    @classmethod
    def pyramid(cls, **kwargs: Any) -> TableGeometry:
        """The 12 ft Russian pyramid pocket table of the 7-pin game."""
        return cls(table=PYRAMID_TABLE, pockets=True, **kwargs)

    # --- sizes ---

    @property
    def length_mm(self) -> float:
        """Playing-surface length (head to foot cushion nose), mm."""
        return self.table.length_mm

    @property
    def width_mm(self) -> float:
        """Playing-surface width (left to right cushion nose), mm."""
        return self.table.width_mm

    @property
    def ball_diameter_mm(self) -> float:
        """Ball diameter, mm."""
        return self.table.ball_diameter_mm

    @property
    def radius_mm(self) -> float:
        """Ball radius, mm: the height of a ball centre above the cloth."""
        return self.table.radius_mm

    @property
    def diamond_offset_mm(self) -> float:
        """Distance from the cushion nose out to the diamonds (rail centre line), mm."""
        return self.cushion_width_mm + self.rail_width_mm / 2.0

    # --- cushions and corners ---

    def corners_mm(self) -> F64:
        """Playing-surface corners (4, 2) ``xy_mm`` in polygon order.

        Head-left (0, 0), foot-left (L, 0), foot-right (L, W), head-right (0, W).
        """
        length, width = self.length_mm, self.width_mm
        return np.array([[0.0, 0.0], [length, 0.0], [length, width], [0.0, width]])

    def corners_xyz_mm(self, z_mm: float | None = None) -> F64:
        """The corners (4, 3) ``xyz_mm`` at ``z_mm`` (default: the cushion nose height)."""
        z = self.cushion_height_mm if z_mm is None else z_mm
        return _with_z(self.corners_mm(), z)

    def cushion_segments_mm(self) -> F64:
        """Cushion-nose segments (4, 2, 2): ``[cushion, end, xy]`` in :data:`CUSHIONS` order.

        Head and foot run left -> right (y grows), left and right run head -> foot.
        """
        c = self.corners_mm()
        head_left, foot_left, foot_right, head_right = c
        return np.array(
            [[head_left, head_right], [foot_left, foot_right], [head_left, foot_left],
             [head_right, foot_right]]
        )  # fmt: skip

    def cushion_points_xyz_mm(
        self, cushion: Cushion, n: int = 50, z_mm: float | None = None
    ) -> F64:
        """``n`` points (n, 3) ``xyz_mm`` along one cushion nose, corners included.

        ``z_mm`` defaults to the nose height; sample densely to draw the line through a
        distorting lens, where it bends.
        """
        if n < 2:
            raise CalibrationError(f"n must be >= 2, got {n}")
        a, b = self.cushion_segments_mm()[CUSHIONS.index(cushion)]
        t = np.linspace(0.0, 1.0, n)[:, None]
        z = self.cushion_height_mm if z_mm is None else z_mm
        return _with_z(a + t * (b - a), z)

    # --- rails ---

    def diamonds_mm(self) -> F64:
        """Diamond centres (24, 2) ``xy_mm`` on the rail centre lines, corners included.

        Nine on each long rail (x = 0 .. L in eighths, the corner ones included) on the
        left rail first, then the right; three on each short rail (y in quarters), head
        rail first. The order and positions are those of the renderer's table.
        """
        length, width, off = self.length_mm, self.width_mm, self.diamond_offset_mm
        xs = np.linspace(0.0, length, 9)
        ys = np.linspace(0.0, width, 5)[1:-1]
        pts = [(x, -off) for x in xs] + [(x, width + off) for x in xs]
        pts += [(-off, y) for y in ys] + [(length + off, y) for y in ys]
        return np.array(pts)

    def diamonds_xyz_mm(self) -> F64:
        """Diamond centres (24, 3) ``xyz_mm``, z = the rail top height."""
        return _with_z(self.diamonds_mm(), self.rail_height_mm)

    # --- spots, pins, pockets ---

    def spot_mm(self, spot: Spot) -> XY:
        """Position of a named spot, ``(x_mm, y_mm)`` on the cloth (the referee's)."""
        return self.table.spot(spot)

    def spots_mm(self, discipline: Discipline | None = None) -> F64:
        """Chalk spots (n, 2) ``xy_mm``: head, centre and foot spots.

        Five-pins adds its named spots (top, red, lag line) and the five pin spots;
        spots that coincide are given once (the renderer's set).
        """
        names = [Spot.HEAD, Spot.CENTER, Spot.FOOT]
        if discipline is Discipline.FIVE_PINS:
            names += [Spot.TOP, Spot.RED_FIVE_PINS, Spot.LAG_LINE]
        spots = [self.spot_mm(name) for name in names]
        if discipline is Discipline.FIVE_PINS:
            spots += self.five_pins_mm().values()
        unique = dict.fromkeys((round(x, 6), round(y, 6)) for x, y in spots)
        return np.array(list(unique), dtype=np.float64)

    def five_pins_mm(self) -> dict[Pin, XY]:
        """Five-pins pin spots: a cross at the table centre, side pins ``pin_spacing_mm`` off."""
        cx, cy = self.length_mm / 2.0, self.width_mm / 2.0
        s = self.pin_spacing_mm
        return {
            Pin.CENTER: (cx, cy),
            Pin.HEAD: (cx - s, cy),
            Pin.FOOT: (cx + s, cy),
            Pin.LEFT: (cx, cy - s),
            Pin.RIGHT: (cx, cy + s),
        }

    def seven_pins_mm(self) -> dict[Pin, XY]:
        """7-pin game: the king's cross at the centre, spot pins on spots 1 and 3."""
        cross = self.five_pins_mm()
        king = cross.pop(Pin.CENTER)
        spots = {Pin.SPOT1: self.spot_mm(Spot.SPOT1), Pin.SPOT3: self.spot_mm(Spot.SPOT3)}
        return {Pin.KING: king, **cross, **spots}

    def seven_pins_whites_mm(self) -> dict[Ball, XY]:
        """7-pin game: the whites' starting places [rules.md §7], table mm.

        white1 beside the spot 1 pin, white2 beside the spot 3 pin, on the long axis a
        ball's diameter toward the near short cushion (the referee re-spots them there).
        """
        (x1, y1), (x3, y3) = self.spot_mm(Spot.SPOT1), self.spot_mm(Spot.SPOT3)
        d = self.ball_diameter_mm
        return {Ball.WHITE1: (x1 - d, y1), Ball.WHITE2: (x3 + d, y3)}

    def pins_mm(self, discipline: Discipline) -> dict[Pin, XY]:
        """The pin spots of ``discipline``: five-pins, the 7-pin game, else none."""
        if discipline is Discipline.FIVE_PINS:
            return self.five_pins_mm()
        if discipline is Discipline.PIN_CAROM_7:
            return self.seven_pins_mm()
        return {}

    def pockets_mm(self) -> dict[Pocket, XY]:
        """Pocket circle centres on a pocket table (corners, long-cushion middles); else {}."""
        if not self.pockets:
            return {}
        length, width = self.length_mm, self.width_mm
        return {
            Pocket.HEAD_LEFT: (0.0, 0.0),
            Pocket.HEAD_RIGHT: (0.0, width),
            Pocket.MIDDLE_LEFT: (length / 2.0, 0.0),
            Pocket.MIDDLE_RIGHT: (length / 2.0, width),
            Pocket.FOOT_LEFT: (length, 0.0),
            Pocket.FOOT_RIGHT: (length, width),
        }

    # --- chalk lines and grid ---

    def regions(
        self, discipline: Discipline, options: RuleOptions | None = None
    ) -> tuple[Region, ...]:
        """Balkline zones and anchor squares, or straight-rail corners (the referee's)."""
        if not (discipline.is_balkline or discipline is Discipline.STRAIGHT_RAIL):
            return ()
        return regions_for(discipline, self.table, options or RuleOptions())

    def chalk_lines_mm(
        self, discipline: Discipline | None, options: RuleOptions | None = None
    ) -> F64:
        """Chalk line segments (n, 4) ``(x0, y0, x1, y1)`` mm on the cloth; (0, 4) if none.

        Balkline: each balkline from cushion to cushion, then the three inner sides of
        every anchor square. Straight rail: the diagonal line of each corner zone.
        """
        if discipline is None:
            return np.zeros((0, 4))
        regions = self.regions(discipline, options)
        rects = [r for r in regions if isinstance(r, Rect)]
        zones = [r for r in rects if not r.name.startswith("anchor-")]
        segments = _balklines(zones, self.length_mm, self.width_mm)
        segments += [s for r in rects if r.name.startswith("anchor-") for s in _anchor(r)]
        segments += [_diagonal(r) for r in regions if isinstance(r, Corner)]
        return np.array(segments, dtype=np.float64).reshape(-1, 4)

    def grid_mm(self, step_mm: float = 100.0) -> F64:
        """Grid line segments (n, 4) ``(x0, y0, x1, y1)`` mm every ``step_mm`` on the cloth.

        Lines start at the head and left cushions; the cushions themselves are left out.
        """
        _check("step_mm", step_mm, 10.0, 1000.0)
        length, width = self.length_mm, self.width_mm
        xs = np.arange(step_mm, length - 1e-6, step_mm)
        ys = np.arange(step_mm, width - 1e-6, step_mm)
        rows = [(x, 0.0, x, width) for x in xs] + [(0.0, y, length, y) for y in ys]
        return np.array(rows, dtype=np.float64).reshape(-1, 4)

    # --- file section ---

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description (``"format": "carom-table/1"``)."""
        return {
            "format": TABLE_FORMAT,
            "length_mm": self.length_mm,
            "width_mm": self.width_mm,
            "ball_diameter_mm": self.ball_diameter_mm,
            "cushion_height_mm": self.cushion_height_mm,
            "cushion_width_mm": self.cushion_width_mm,
            "rail_width_mm": self.rail_width_mm,
            "rail_height_mm": self.rail_height_mm,
            "pockets": self.pockets,
            "pin_spacing_mm": self.pin_spacing_mm,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "table") -> TableGeometry:
        """Build from :meth:`to_dict` output; errors name the field ("table.length_mm")."""
        if not isinstance(data, Mapping):
            raise CalibrationError(f"{where}: expected an object, got {type(data).__name__}")
        if data.get("format") != TABLE_FORMAT:
            got = data.get("format", "missing")
            raise CalibrationError(f"{where}.format: expected {TABLE_FORMAT!r}, got {got!r}")
        fields = {k: v for k, v in data.items() if k != "format"}
        extra = sorted(set(fields) - _TABLE_FIELDS)
        if extra:
            raise CalibrationError(f"{where}.{extra[0]}: unknown field")
        for key in sorted(_TABLE_REQUIRED - set(fields)):
            raise CalibrationError(f"{where}.{key}: missing")
        for key, value in fields.items():
            want_bool = key == "pockets"
            if want_bool != isinstance(value, bool) or not isinstance(value, int | float):
                kind = "true or false" if want_bool else "a number"
                raise CalibrationError(f"{where}.{key}: expected {kind}, got {value!r}")
        return _build_geometry(fields, where)


_TABLE_REQUIRED = {"length_mm", "width_mm", "ball_diameter_mm"}
_TABLE_FIELDS = _TABLE_REQUIRED | {
    "cushion_height_mm",
    "cushion_width_mm",
    "rail_width_mm",
    "rail_height_mm",
    "pockets",
    "pin_spacing_mm",
}


def _build_geometry(fields: dict[str, Any], where: str) -> TableGeometry:
    sizes = {k: float(fields.pop(k)) for k in sorted(_TABLE_REQUIRED)}
    try:
        table = RefereeTable(**sizes)
        rest: dict[str, Any] = {k: v if k == "pockets" else float(v) for k, v in fields.items()}
        return TableGeometry(table, **rest)
    except CaromError as exc:
        raise CalibrationError(f"{where}: {exc}") from None


def _with_z(xy: F64, z_mm: float) -> F64:
    out: F64 = np.c_[xy, np.full(len(xy), float(z_mm))]
    return out


Segment = tuple[float, float, float, float]


def _balklines(zones: list[Rect], length: float, width: float) -> list[Segment]:
    """The lines between the zones: every zone border that is not a cushion."""
    xs = sorted({x for z in zones for x in z.x_mm if 0.0 < x < length})
    ys = sorted({y for z in zones for y in z.y_mm if 0.0 < y < width})
    return [(x, 0.0, x, width) for x in xs] + [(0.0, y, length, y) for y in ys]


def _anchor(square: Rect) -> list[Segment]:
    """The sides of an anchor square that do not lie on its cushion."""
    (x0, x1), (y0, y1) = square.x_mm, square.y_mm
    sides = {
        "head": (x0, y0, x0, y1),
        "foot": (x1, y0, x1, y1),
        "left": (x0, y0, x1, y0),
        "right": (x0, y1, x1, y1),
    }
    cushion = square.name.split("-")[1]  # anchor-<cushion>-<line>
    return [side for name, side in sides.items() if name != cushion]


def _diagonal(corner: Corner) -> Segment:
    """The chalk line of a straight-rail corner zone: from leg end to leg end."""
    (ax, ay), leg = corner.apex_mm, corner.leg_mm
    sx = 1.0 if ax == 0.0 else -1.0
    sy = 1.0 if ay == 0.0 else -1.0
    return (ax + sx * leg, ay, ax, ay + sy * leg)
