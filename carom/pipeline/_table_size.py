"""The table's size checked against the balls (docs/calibration.md, "The table's size").

The cloth's outline alone fits any table size, the camera moved to suit; the balls are
61.5 mm on every carom table, so their apparent size says whether ``--table`` (or the
calibration file's table) is the one in the picture (:func:`vision.ball_scale`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from calibration import Calibration
from carom.match import TABLE_PRESETS
from vision import VisionError, ball_scale

__all__ = ["SCALE_RANGE", "table_size_line"]

#: Ball scales taken as the right table: the right size measures 0.95 to 1.00 on our
#: renders and 1.00 on real broadcast frames; 2540 for 2840 gives 0.89, 2100 for 2840
#: 0.74 (docs/calibration.md).
SCALE_RANGE = (0.9, 1.11)
#: A named size is suggested when its length is within this share of the one implied
#: with its balls.
_NEAR = 0.06


def table_size_line(calib: Calibration, images_bgr: Sequence[Any], flag: str) -> str | None:
    """One line when the balls in ``images_bgr`` say the table is not ``calib``'s size.

    None when the size fits, or when too few balls at rest could be measured (nothing
    is claimed then). ``flag``: where the size came from (``--table``, the calibration
    file), named in the line.
    """
    try:
        scale = ball_scale(calib, images_bgr)
    except VisionError:
        return None  # no table seen in these frames: the calibration's own check says so
    if scale is None or SCALE_RANGE[0] <= scale.ratio <= SCALE_RANGE[1]:
        return None
    g = calib.geometry
    length, width = g.length_mm / scale.ratio, g.width_mm / scale.ratio
    # A named size with other balls (the pyramid's 68 mm) implies its own length.
    ball_mm = g.table.ball_diameter_mm
    named = [
        f"{name}: {p[0]:.0f}x{p[1]:.0f}"
        for name, p in TABLE_PRESETS.items()
        if abs(p[0] - length * p[2] / ball_mm) <= _NEAR * p[0]
    ]
    nearest = f" ({', '.join(named)})" if named else ""
    return (
        f"table size doubtful: the balls look {scale.ratio:.2f} times the size a "
        f"{g.length_mm:.0f}x{g.width_mm:.0f} mm table gives them ({scale.balls} ball images): "
        f"with {ball_mm:g} mm balls the table is about {length:.0f}x{width:.0f} mm{nearest}; "
        f"check its size ({flag}): with the wrong one every position and distance in mm is "
        "off by that factor"
    )
