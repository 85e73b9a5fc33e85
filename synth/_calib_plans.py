"""What each calibration category puts in front of the camera, drawn from a seed.

Every category starts from a broadcast-like match frame and changes what it is about
(issue 17): the camera mount (height, tilt, yaw, roll, lens, off-centre aim), how much
of the picture the table fills, the table and its surroundings, the balls, the players
and the lamps. The seed draws all of it; the category's name is part of the random
stream, so seed 3 of ``far`` is not seed 3 of ``match`` zoomed out.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from calibration import PYRAMID_TABLE, Camera, TableGeometry
from referee import MATCH_TABLE, Ball, Discipline, Pin, Table
from synth._calib_camera import Mount, framed_camera
from synth._calib_props import lit_unevenly, small_table_surround, stickers_near_corners
from synth._props import ScoreGraphic
from synth._scene import CLOTH_COLOURS, Lamp, RenderError, TableLook, default_lamps
from synth._settings import RenderSettings

__all__ = ["CALIBRATION_CATEGORIES", "Plan", "plan_for"]

F64 = NDArray[np.float64]
XY = tuple[float, float]

#: The categories of :func:`synth.calibration_scene`, in the benchmark's order.
CALIBRATION_CATEGORIES: tuple[str, ...] = (
    "match",
    "pocket",
    "small",
    "oblique",
    "wide",
    "far",
    "people",
    "cloth",
    "light",
)

_CLOTHS = ("green", "blue", "teal", "grey", "red")
_WOODS = ((170, 122, 88), (120, 80, 50), (92, 58, 38), (196, 156, 108), (60, 40, 32))


@dataclass(frozen=True, slots=True, eq=False)
class Plan:
    """Everything one frame shows: camera, look, lamps, sensor, balls, pins, players.

    ``struck`` maps each ball a player is about to strike to the stroke's unit
    direction (x, y); the player leans in behind it. ``jpeg_quality``: the frame is
    JPEG-compressed at this quality (a streamed camera's blocks and ringing).
    """

    camera: Camera
    look: TableLook
    lamps: tuple[Lamp, ...]
    ambient: float
    settings: RenderSettings
    balls_mm: dict[Ball, XY]
    struck: dict[Ball, XY]
    pins_mm: dict[Pin, XY]
    jpeg_quality: int


@dataclass(slots=True)
class _Draft:
    """A category's choices before the camera is framed and the balls are placed."""

    look: TableLook
    mount: Mount
    fill: float | None = 0.88
    area: float | None = None
    margin_mm: float = 200.0
    players: int = 0
    score: bool = False
    lamps: tuple[Lamp, ...] = ()
    ambient: float = 0.35
    vignetting: float = 0.2


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _sign(rng: np.random.Generator) -> float:
    return float(rng.choice([-1.0, 1.0]))


def _look(rng: np.random.Generator, table: Table, cloth: str, **kwargs: object) -> TableLook:
    """A table look: the cloth, a wood drawn for the rails, the discipline's chalk."""
    wood = _WOODS[int(rng.integers(len(_WOODS)))]
    apron = tuple(int(c * 0.45) for c in wood)
    kwargs.setdefault("discipline", Discipline.THREE_CUSHION)
    return TableLook.with_cloth(cloth, table=table, rail=wood, apron=apron, **kwargs)


def _draft(rng: np.random.Generator, table: Table = MATCH_TABLE, cloth: str = "") -> _Draft:
    """The broadcast-like baseline: a camera 2.3..3.5 m up, nearly face-on."""
    mount = Mount(
        height_mm=_u(rng, 2300.0, 3500.0),
        tilt_deg=_sign(rng) * _u(rng, 0.0, 10.0),
        yaw_deg=_u(rng, -6.0, 6.0),
        roll_deg=_u(rng, -3.0, 3.0),
        k1=_u(rng, -0.2, 0.0),
        offset_mm=(_u(rng, -150.0, 150.0), _u(rng, -80.0, 80.0)),
    )
    cloth = cloth or str(rng.choice(["blue", "green"]))
    lamps = tuple(replace(lamp, power=_u(rng, 0.85, 1.15)) for lamp in default_lamps(table))
    return _Draft(
        look=_look(rng, table, cloth),
        mount=mount,
        fill=_u(rng, 0.8, 0.95),
        players=int(rng.random() < 0.3),
        lamps=lamps,
        ambient=_u(rng, 0.3, 0.4),
    )


def _match(rng: np.random.Generator) -> _Draft:
    draft = _draft(rng)
    draft.score = bool(rng.random() < 0.3)
    return draft


def _pocket(rng: np.random.Generator) -> _Draft:
    cloth = "green" if rng.random() < 0.7 else "blue"
    draft = _draft(rng, PYRAMID_TABLE, cloth)
    look = _look(
        rng,
        PYRAMID_TABLE,
        cloth,
        pockets=True,
        discipline=Discipline.PIN_CAROM_7,
        pocket_jaw_mm=_u(rng, 20.0, 45.0),
    )
    draft.look = replace(look, stickers=stickers_near_corners(rng, look))
    return draft


def _small(rng: np.random.Generator) -> _Draft:
    length = float(rng.choice([2540.0, 2300.0, 2100.0, 1800.0]))
    table = Table(length_mm=length, width_mm=length / 2.0)
    cloth, under = (str(c) for c in rng.choice(_CLOTHS, size=2, replace=False))
    draft = _draft(rng, table, cloth)
    chalk = (Discipline.THREE_CUSHION, Discipline.BALKLINE_47_2)[int(rng.integers(2))]
    look = _look(rng, table, cloth, rail_width_mm=_u(rng, 90.0, 150.0), discipline=chalk)
    draft.look = small_table_surround(rng, look, CLOTH_COLOURS[under])
    draft.mount = replace(
        draft.mount, height_mm=_u(rng, 1700.0, 2800.0), tilt_deg=_sign(rng) * _u(rng, 0.0, 28.0)
    )
    draft.fill = _u(rng, 0.6, 0.8)
    draft.players = int(rng.random() < 0.4)
    return draft


def _oblique(rng: np.random.Generator) -> _Draft:
    draft = _draft(rng)
    draft.mount = replace(
        draft.mount,
        height_mm=_u(rng, 2000.0, 3200.0),
        tilt_deg=_sign(rng) * _u(rng, 20.0, 35.0),
        yaw_deg=_u(rng, -15.0, 15.0),
        offset_mm=(_u(rng, -300.0, 300.0), _u(rng, -200.0, 200.0)),
    )
    draft.fill = _u(rng, 0.8, 0.93)
    return draft


def _wide(rng: np.random.Generator) -> _Draft:
    draft = _draft(rng)
    k1 = _u(rng, -0.45, -0.25)
    # A real wide lens's k2 keeps the radial map growing (no fold): k2 > 0.45 k1^2.
    draft.mount = replace(draft.mount, height_mm=_u(rng, 1800.0, 2500.0), k1=k1, k2=0.5 * k1 * k1)
    draft.fill, draft.margin_mm = _u(rng, 0.93, 1.0), 100.0
    return draft


def _far(rng: np.random.Generator) -> _Draft:
    draft = _draft(rng)
    draft.mount = replace(
        draft.mount,
        height_mm=_u(rng, 3200.0, 5500.0),
        offset_mm=(_u(rng, -600.0, 600.0), _u(rng, -300.0, 300.0)),
    )
    draft.fill, draft.area = None, _u(rng, 0.2, 0.33)
    return draft


def _people(rng: np.random.Generator) -> _Draft:
    draft = _draft(rng)
    draft.players = int(rng.integers(1, 3))
    return draft


def _cloth(rng: np.random.Generator, seed: int) -> _Draft:
    return _draft(rng, cloth=_CLOTHS[seed % len(_CLOTHS)])


def _light(rng: np.random.Generator) -> _Draft:
    draft = _draft(rng)
    draft.lamps, draft.ambient = lit_unevenly(rng, draft.look.table)
    draft.vignetting = _u(rng, 0.45, 0.7)
    return draft


_DRAFTS: dict[str, Callable[[np.random.Generator, int], _Draft]] = {
    "match": lambda rng, _: _match(rng),
    "pocket": lambda rng, _: _pocket(rng),
    "small": lambda rng, _: _small(rng),
    "oblique": lambda rng, _: _oblique(rng),
    "wide": lambda rng, _: _wide(rng),
    "far": lambda rng, _: _far(rng),
    "people": lambda rng, _: _people(rng),
    "cloth": _cloth,
    "light": lambda rng, _: _light(rng),
}


def plan_for(category: str, seed: int, size_px: tuple[int, int]) -> Plan:
    """The plan of frame ``seed`` of ``category`` for a ``size_px`` (w, h) frame.

    Raises:
        RenderError: an unknown category, or a negative seed.
    """
    if category not in _DRAFTS:
        names = ", ".join(CALIBRATION_CATEGORIES)
        raise RenderError(f"category: unknown {category!r} (expected one of: {names})")
    if seed < 0:
        raise RenderError(f"seed must be >= 0, got {seed}")
    rng = np.random.default_rng([zlib.crc32(category.encode()), seed])
    draft = _DRAFTS[category](rng, seed)
    table = draft.look.table
    camera = framed_camera(
        table, size_px, draft.mount, fill=draft.fill, area=draft.area, margin_mm=draft.margin_mm
    )
    pins = _pins(draft.look)
    balls, struck = _balls(rng, table, draft.players, pins)
    score = ScoreGraphic(scores=((0.0, int(rng.integers(40)), int(rng.integers(40))),))
    settings = RenderSettings(
        seed=seed, vignetting=draft.vignetting, score=score if draft.score else None
    )
    quality = int(rng.integers(60, 91))
    return Plan(
        camera, draft.look, draft.lamps, draft.ambient, settings, balls, struck, pins, quality
    )


def _pins(look: TableLook) -> dict[Pin, XY]:
    if look.discipline is Discipline.PIN_CAROM_7:
        return TableGeometry(look.table).seven_pins_mm()
    if look.discipline is Discipline.FIVE_PINS:
        return TableGeometry(look.table).five_pins_mm()
    return {}


def _balls(
    rng: np.random.Generator, table: Table, players: int, pins: dict[Pin, XY]
) -> tuple[dict[Ball, XY], dict[Ball, XY]]:
    """Three balls apart (and off the pins), and the strokes about to be played.

    The first ``players`` balls are each about to be struck from behind a cushion
    (different cushions), the stroke into the table.
    """
    r = table.radius_mm
    taken: list[XY] = list(pins.values())
    balls: dict[Ball, XY] = {}
    struck: dict[Ball, XY] = {}
    sides = [int(s) for s in rng.permutation(4)]
    for k, ball in enumerate((Ball.WHITE, Ball.YELLOW, Ball.RED)):
        for _ in range(200):
            if k < players:
                xy, direction = _by_cushion(rng, table, sides[k])
            else:
                xy, direction = _anywhere(rng, table), None
            if all(math.dist(xy, o) > 2.0 * r + 10.0 for o in taken):
                break
        taken.append(xy)
        balls[ball] = xy
        if direction is not None:
            struck[ball] = direction
    return balls, struck


def _anywhere(rng: np.random.Generator, table: Table) -> XY:
    """Anywhere on the cloth; one ball in three frozen 2..20 mm off a cushion."""
    r = table.radius_mm
    x, y = _u(rng, r, table.length_mm - r), _u(rng, r, table.width_mm - r)
    if rng.random() < 1.0 / 3.0:
        gap = r + _u(rng, 2.0, 20.0)
        side = int(rng.integers(4))
        x = (gap, table.length_mm - gap, x, x)[side]
        y = (y, y, gap, table.width_mm - gap)[side]
    return x, y


def _by_cushion(rng: np.random.Generator, table: Table, side: int) -> tuple[XY, XY]:
    """A ball 30..300 mm off cushion ``side`` and a stroke away from that cushion.

    Sides: 0 head, 1 foot, 2 y = 0, 3 y = width; the player leans over that cushion.
    """
    r, length, width = table.radius_mm, table.length_mm, table.width_mm
    off = r + _u(rng, 30.0, 300.0)
    along = _u(rng, 0.12, 0.88)
    xy = (
        (off, along * width),
        (length - off, along * width),
        (along * length, off),
        (along * length, width - off),
    )[side]
    inward = (0.0, math.pi, math.pi / 2.0, -math.pi / 2.0)[side]
    angle = inward + math.radians(_u(rng, -50.0, 50.0))
    return xy, (math.cos(angle), math.sin(angle))
