"""The clutter and light of the calibration categories: stickers, surroundings, lamps.

Each draws from the caller's random stream (a seed's frame stays the same) and returns
plain scene values (:class:`synth.Sticker`, :class:`synth.FloorPatch`, lamps).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from referee import Table
from synth._scene import CLOTH_COLOURS, FloorPatch, Lamp, Sticker, TableLook, default_lamps

__all__ = ["lit_unevenly", "small_table_surround", "stickers_near_corners"]

RGB = tuple[int, int, int]
_PAPERS: tuple[RGB, ...] = ((245, 245, 240), (240, 210, 40), (240, 120, 30), (60, 150, 230))
_INK: RGB = (20, 20, 22)
_FLOORS: tuple[RGB, ...] = ((150, 110, 70), (128, 128, 122), (180, 175, 160), (70, 60, 58))
_LINES: tuple[RGB, ...] = ((235, 235, 230), (230, 200, 40), (200, 60, 50))


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _pick(rng: np.random.Generator, options: tuple[RGB, ...]) -> RGB:
    return options[int(rng.integers(len(options)))]


def stickers_near_corners(rng: np.random.Generator, look: TableLook) -> tuple[Sticker, ...]:
    """Printed markers on the rails by most corners, sometimes a sticker on the cloth.

    Per corner (seven in ten): a square 40..80 mm on the long or the short rail,
    120..300 mm from the corner, plain paper or a printed checker; one frame in two
    also a 25..45 mm sticker on the cloth 60..200 mm in from a corner.
    """
    length, width = look.table.length_mm, look.table.width_mm
    rail_mm = look.cushion_width_mm + look.rail_width_mm * _u(rng, 0.35, 0.65)
    out = []
    for cx, cy in ((0.0, 0.0), (length, 0.0), (length, width), (0.0, width)):
        if rng.random() >= 0.7:
            continue
        sx, sy = (1.0 if cx == 0.0 else -1.0), (1.0 if cy == 0.0 else -1.0)
        along = _u(rng, 120.0, 300.0)
        on_long = bool(rng.random() < 0.5)
        x = cx + sx * along if on_long else cx - sx * rail_mm
        y = cy - sy * rail_mm if on_long else cy + sy * along
        ink = _INK if rng.random() < 0.6 else None
        out.append(
            Sticker(x, y, _u(rng, 40.0, 80.0), _pick(rng, _PAPERS), ink, _u(rng, -10.0, 10.0))
        )
    if rng.random() < 0.5:
        cx, cy = ((0.0, 0.0), (length, 0.0), (length, width), (0.0, width))[int(rng.integers(4))]
        x = cx + (1.0 if cx == 0.0 else -1.0) * _u(rng, 60.0, 200.0)
        y = cy + (1.0 if cy == 0.0 else -1.0) * _u(rng, 60.0, 200.0)
        out.append(
            Sticker(x, y, _u(rng, 25.0, 45.0), _pick(rng, _PAPERS[:2]), None, _u(rng, 0.0, 90.0))
        )
    return tuple(out)


def small_table_surround(rng: np.random.Generator, look: TableLook, under: RGB) -> TableLook:
    """A small table on a larger one (cloth ``under``), or on a floor with lines on it.

    On a larger table (one in two): the floor 90..200 mm below the small table's cloth
    is that table's cloth, 700..1200 mm longer and 500..800 mm wider, inside its wooden
    rails, a little off-centre and turned. On a floor: a floor colour, two to four
    painted lines across the view and, one in two, the edge of another table beside it.
    """
    length, width = look.table.length_mm, look.table.width_mm
    cx, cy = length / 2.0 + _u(rng, -200.0, 200.0), width / 2.0 + _u(rng, -150.0, 150.0)
    if rng.random() < 0.5:
        big_l, big_w = length + _u(rng, 700.0, 1200.0), width + _u(rng, 500.0, 800.0)
        angle = _u(rng, -5.0, 5.0)
        wood = (int(rng.integers(60, 200)), int(rng.integers(40, 140)), int(rng.integers(20, 90)))
        patches = (
            FloorPatch(cx, cy, big_l + 300.0, big_w + 300.0, wood, angle),
            FloorPatch(cx, cy, big_l, big_w, under, angle),
        )
        return replace(
            look, floor=(50, 50, 56), floor_depth_mm=_u(rng, 90.0, 200.0), floor_patches=patches
        )
    lines = []
    for _ in range(int(rng.integers(2, 5))):
        angle = float(rng.choice([0.0, 90.0])) + _u(rng, -20.0, 20.0)
        lines.append(
            FloorPatch(
                cx + _u(rng, -1.0, 1.0) * (length / 2.0 + 900.0),
                cy + _u(rng, -1.0, 1.0) * (width / 2.0 + 700.0),
                9000.0,
                _u(rng, 40.0, 80.0),
                _pick(rng, _LINES),
                angle,
            )
        )
    if rng.random() < 0.5:
        side = _sign(rng)
        other = CLOTH_COLOURS[str(rng.choice(list(CLOTH_COLOURS)))]
        x = length / 2.0 + side * (length + _u(rng, 700.0, 1100.0))
        lines.append(FloorPatch(x, cy, length + 300.0, width + 300.0, (90, 60, 40)))
        lines.append(FloorPatch(x, cy, length, width, other))
    return replace(
        look,
        floor=_pick(rng, _FLOORS),
        floor_depth_mm=_u(rng, 500.0, 800.0),
        floor_patches=tuple(lines),
    )


def _sign(rng: np.random.Generator) -> float:
    return float(rng.choice([-1.0, 1.0]))


def lit_unevenly(rng: np.random.Generator, table: Table) -> tuple[tuple[Lamp, ...], float]:
    """Lamps with one half of the table dim, a low bright lamp's spot; a low ambient.

    The lamps over one half (head, foot or either long side) burn at 5..30%; a lamp
    350..600 mm over the cloth makes a bright spot somewhere on it.
    """
    length, width = table.length_mm, table.width_mm
    half = int(rng.integers(4))
    dim = _u(rng, 0.05, 0.3)
    lamps = []
    for lamp in default_lamps(table):
        is_dim = (
            lamp.x_mm < length / 2.0,
            lamp.x_mm > length / 2.0,
            lamp.y_mm < width / 2.0,
            lamp.y_mm > width / 2.0,
        )[half]
        lamps.append(replace(lamp, power=dim if is_dim else 1.0))
    spot = Lamp(
        _u(rng, 0.15, 0.85) * length,
        _u(rng, 0.15, 0.85) * width,
        _u(rng, 350.0, 600.0),
        power=_u(rng, 0.15, 0.35),
        radius_mm=_u(rng, 60.0, 120.0),
    )
    return (*lamps, spot), _u(rng, 0.12, 0.3)
