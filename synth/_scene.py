"""What the renderer draws: table dimensions, colours, lamps, balls, pins and the inputs.

All lengths are table millimetres in the table frame (x head->foot, y left->right, z up
from the cloth). Colours are given as sRGB triples (r, g, b) in 0..255, as a person
would pick them; the shading works on linear light (:func:`linear_bgr`).

The chalk marks on the cloth follow the discipline: balklines and their anchor-square
marks, the straight-rail corner lines (when the rule options ask for corner zones) come
from the shared table geometry (:class:`calibration.TableGeometry`, which takes the
zones from the referee), so the
picture and the rules cannot disagree; five-pins adds the pin spots and its named spots.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import MATCH_TABLE, Ball, CaromError, Discipline, Pin, RuleOptions, Table

__all__ = [
    "BALL_LOOKS",
    "CLOTH_COLOURS",
    "BallLook",
    "FloorPatch",
    "Lamp",
    "MotionSource",
    "PinSource",
    "PlayerStroke",
    "RenderError",
    "Scene",
    "Sticker",
    "TableLook",
    "default_lamps",
    "linear_bgr",
]

F64 = NDArray[np.float64]
RGB = tuple[int, int, int]

#: Named cloth colours (sRGB). ``blue`` is the median cloth of a broadcast three-cushion
#: table; ``green`` a classic club cloth; ``teal``, ``grey`` and ``red`` other club cloths.
CLOTH_COLOURS: dict[str, RGB] = {
    "blue": (79, 165, 214),
    "green": (30, 120, 70),
    "teal": (20, 128, 128),
    "grey": (118, 122, 126),
    "red": (150, 28, 36),
}


class RenderError(CaromError):
    """A render or video setting is invalid, or a video cannot be written."""


def _check(name: str, value: float, lo: float, hi: float) -> None:
    if not (np.isfinite(value) and lo <= value <= hi):
        raise RenderError(f"{name} must be {lo:g}..{hi:g}, got {value!r}")


def linear_bgr(rgb: RGB) -> F64:
    """Convert sRGB (r, g, b) 0..255 to linear-light reflectance (b, g, r) in 0..1, shape (3,)."""
    out: F64 = (np.array(rgb[::-1], dtype=np.float64) / 255.0) ** 2.2
    return out


class MotionSource(Protocol):
    """Where the balls are: table mm at any time; NaN once a ball has left the table."""

    def positions_mm(self, t_s: F64) -> Mapping[Ball, F64]:
        """Ball centres (n, 2) ``xy_mm`` at the times ``t_s`` (n,) seconds."""
        ...


@runtime_checkable
class PinSource(Protocol):
    """Optional: the pins of five-pins or 7-pin carom at a time."""

    def pins_mm(self, t_s: float) -> Mapping[Pin, tuple[float, float, bool]]:
        """Each pin's base ``(x_mm, y_mm, standing)`` at ``t_s`` seconds."""
        ...


@dataclass(frozen=True, slots=True)
class PlayerStroke:
    """A player strikes ``ball`` at ``t_s``: the arm and cue appear around that time."""

    t_s: float
    ball: Ball


@dataclass(frozen=True, slots=True)
class Lamp:
    """A lamp at ``(x_mm, y_mm, z_mm)`` (z above the cloth), radius for soft shadows."""

    x_mm: float
    y_mm: float
    z_mm: float
    power: float = 1.0
    radius_mm: float = 250.0


def default_lamps(table: Table = MATCH_TABLE, height_mm: float = 1300.0) -> tuple[Lamp, ...]:
    """Six lamps in two rows over the playing surface, ``height_mm`` above the cloth."""
    xs = [table.length_mm * f for f in (1 / 6, 1 / 2, 5 / 6)]
    ys = [table.width_mm * f for f in (0.3, 0.7)]
    return tuple(Lamp(x, y, height_mm) for x in xs for y in ys)


@dataclass(frozen=True, slots=True)
class FloorPatch:
    """A rectangle painted on the floor (another table, a mat, a floor line).

    Centred at ``(x_mm, y_mm)`` in the table frame, ``length_mm`` along the direction
    ``angle_deg`` from the table's x axis and ``width_mm`` across it, filled with
    ``colour`` (sRGB). Patches are painted in order, later over earlier.
    """

    x_mm: float
    y_mm: float
    length_mm: float
    width_mm: float
    colour: RGB
    angle_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class Sticker:
    """A square printed marker or sticker on the rail, cushion top or cloth.

    Centred at ``(x_mm, y_mm)``, ``size_mm`` wide, turned by ``angle_deg``; ``paper``
    (sRGB) with, if ``ink`` is given, a 2 x 2 checker of ``ink`` inside a paper border
    (a printed marker's look).
    """

    x_mm: float
    y_mm: float
    size_mm: float
    paper: RGB
    ink: RGB | None = None
    angle_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class BallLook:
    """Colour of a ball (sRGB) and its dots: ``dots`` spots of ``dot_radius_mm``."""

    colour: RGB
    dots: int = 0
    dot_colour: RGB = (200, 20, 30)
    dot_radius_mm: float = 4.0


_IVORY = (252, 248, 222)

#: The look of each ball. Dotted white: two antipodal red dots, turning with the ball.
BALL_LOOKS: dict[Ball, BallLook] = {
    Ball.WHITE: BallLook(_IVORY),
    Ball.YELLOW: BallLook((240, 158, 70)),
    Ball.DOTTED: BallLook(_IVORY, dots=2),
    Ball.RED: BallLook((186, 8, 48)),
    Ball.WHITE1: BallLook(_IVORY),
    Ball.WHITE2: BallLook(_IVORY),
}


@dataclass(frozen=True, slots=True)
class TableLook:
    """Dimensions and colours of the table and its surroundings.

    The cushion nose (the line the balls touch) runs along the edge of the playing
    surface at ``cushion_height_mm``; the cloth-covered cushion top reaches
    ``cushion_width_mm`` outwards, then the wooden rail ``rail_width_mm`` with the
    diamonds on its centre line. The floor lies ``floor_depth_mm`` below the cloth.

    ``pockets``: a pocket (Russian pyramid) table: six dark holes of
    ``pocket_radius_mm`` around the pocket centres of :meth:`TableGeometry.pockets_mm`
    (the nose corners and the middles of the long cushions), cut through the cloth,
    the cushions and the rail.

    ``pocket_jaw_mm``: on a pocket table, a leather jaw ring that wide around each
    pocket hole on the rail and cushion tops (0: none), coloured ``pocket_jaw``.

    ``floor_patches`` are painted on the floor (:class:`FloorPatch`: a larger table the
    table stands on, floor lines); ``stickers`` on the rail, cushion or cloth
    (:class:`Sticker`). Both empty by default.

    ``discipline`` chooses the chalk marks (``None``: the head, centre and foot spots
    only); ``options`` are the rule options that shape them (anchor-square size,
    straight-rail corner zones). Chalk lines are ``chalk_width_mm`` wide and laid over
    the cloth with ``chalk_opacity``.
    """

    table: Table = MATCH_TABLE
    cloth: RGB = CLOTH_COLOURS["blue"]
    rail: RGB = (170, 122, 88)
    apron: RGB = (70, 45, 30)
    floor: RGB = (62, 64, 78)
    diamond: RGB = (235, 235, 225)
    spot: RGB = (225, 230, 230)
    chalk: RGB = (240, 242, 238)
    cushion_height_mm: float = 37.0
    cushion_width_mm: float = 50.0
    rail_width_mm: float = 150.0
    rail_height_mm: float = 42.0
    floor_depth_mm: float = 750.0
    diamond_radius_mm: float = 11.0
    spot_radius_mm: float = 5.0
    pin_radius_mm: float = 3.5
    pin_height_mm: float = 25.0
    discipline: Discipline | None = None
    options: RuleOptions = field(default_factory=RuleOptions)
    chalk_width_mm: float = 4.5
    chalk_opacity: float = 0.75
    pockets: bool = False
    pocket_radius_mm: float = 62.0
    pocket: RGB = (10, 10, 12)
    pocket_jaw_mm: float = 0.0
    pocket_jaw: RGB = (58, 36, 24)
    floor_patches: tuple[FloorPatch, ...] = ()
    stickers: tuple[Sticker, ...] = ()

    def __post_init__(self) -> None:
        _check("chalk_width_mm", self.chalk_width_mm, 1.0, 20.0)
        _check("chalk_opacity", self.chalk_opacity, 0.0, 1.0)
        _check("cushion_height_mm", self.cushion_height_mm, 20.0, 60.0)
        _check("cushion_width_mm", self.cushion_width_mm, 20.0, 120.0)
        _check("rail_width_mm", self.rail_width_mm, 40.0, 400.0)
        _check("rail_height_mm", self.rail_height_mm, self.cushion_height_mm, 100.0)
        _check("floor_depth_mm", self.floor_depth_mm, 50.0, 1500.0)
        _check("pocket_radius_mm", self.pocket_radius_mm, 20.0, 150.0)
        _check("pocket_jaw_mm", self.pocket_jaw_mm, 0.0, 100.0)

    @classmethod
    def with_cloth(cls, cloth: str | RGB, **kwargs: object) -> TableLook:
        """A look with a named (:data:`CLOTH_COLOURS`) or sRGB cloth colour."""
        if isinstance(cloth, str):
            if cloth not in CLOTH_COLOURS:
                names = ", ".join(CLOTH_COLOURS)
                raise RenderError(f"cloth: unknown colour {cloth!r} (expected one of: {names})")
            cloth = CLOTH_COLOURS[cloth]
        return cls(cloth=cloth, **kwargs)  # type: ignore[arg-type]

    @property
    def radius_mm(self) -> float:
        """Ball radius, mm."""
        return self.table.radius_mm

    def geometry(self) -> TableGeometry:
        """The table geometry this look shows (shared with calibration)."""
        return TableGeometry(
            table=self.table,
            cushion_height_mm=self.cushion_height_mm,
            cushion_width_mm=self.cushion_width_mm,
            rail_width_mm=self.rail_width_mm,
            rail_height_mm=self.rail_height_mm,
            pockets=self.pockets,
        )

    def diamonds_mm(self) -> F64:
        """Diamond centres (n, 2) ``xy_mm`` on the rail centre lines, corners included."""
        return self.geometry().diamonds_mm()

    def spots_mm(self) -> F64:
        """Chalk spots (n, 2) ``xy_mm`` of the discipline (head, centre, foot; five-pins more)."""
        return self.geometry().spots_mm(self.discipline)

    def chalk_lines_mm(self) -> F64:
        """Chalk line segments (n, 4) ``(x0, y0, x1, y1)`` in table mm; (0, 4) if none."""
        return self.geometry().chalk_lines_mm(self.discipline, self.options)


@dataclass(frozen=True, slots=True)
class Scene:
    """The table look, the lamps and the balls' looks."""

    look: TableLook = field(default_factory=TableLook)
    lamps: tuple[Lamp, ...] = field(default_factory=default_lamps)
    ambient: float = 0.35
    balls: Mapping[Ball, BallLook] = field(default_factory=lambda: dict(BALL_LOOKS))

    def __post_init__(self) -> None:
        if not self.lamps:
            raise RenderError("lamps: at least one lamp is needed")
        _check("ambient", self.ambient, 0.0, 1.0)
        for lamp in self.lamps:
            _check("lamp z_mm", lamp.z_mm, 200.0, 5000.0)
