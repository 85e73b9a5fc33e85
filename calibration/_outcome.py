"""The outcome of a calibration: good, doubtful or failed, a confidence, per-side residuals.

Theory of operation. A fit is judged on two kinds of evidence:

* how far the points it was fitted to lie from the model, on the table in mm (the
  quality report's groups; the issue's accuracy target is 2 mm RMS, 5 mm max);
* for an automatic fit, how much of each cushion was actually seen: each of the four
  sides gets the RMS and maximum pixel residual of its edge points against the fitted
  cushion line and its **coverage**, the share of the side's length (in
  ``COVERAGE_BINS`` equal parts) holding at least one agreeing edge point (residual at
  most ``AGREE_PX``, not on the picture's border: an edge found where the picture ends
  is the picture's edge, not the cushion's). A player, a cue or the picture's border
  hiding a cushion leaves the fit to guess that side: the residuals of the rest can
  still look perfect.

Verdicts (:class:`Outcome`):

* ``good``: RMS at most ``GOOD_RMS_MM`` and maximum at most ``GOOD_MAX_MM`` over all
  points, and (automatic fits) every side covered at least ``GOOD_COVERAGE``;
* ``failed``: RMS over ``FAILED_RMS_MM``, maximum over ``FAILED_MAX_MM``, or a side
  covered less than ``FAILED_COVERAGE`` (the table is not in the picture whole, or a
  side was not found): the camera cannot be trusted to put a ball within a few cm;
* ``doubtful``: anything between: usable, but a person should look at the overlay.

The old report verdicts map onto these: ``good`` stays ``good``; ``check corners`` and
``refit lens`` are ``doubtful`` (or ``failed`` past the limits above) and stay as the
report's ``advice``. ``calibrate_frame`` raising :class:`CalibrationError` (no table, no
camera fits) is ``failed`` too: the caller has no fit at all.

**Confidence** (0..1) is the product of a residual term, ``1 / (1 + (rms_mm / (2 *
GOOD_RMS_MM))**2)`` (1 for a perfect fit, 0.8 at the good limit, 0.14 at the failed
one), and a coverage term, the smallest side coverage over ``GOOD_COVERAGE`` (at most 1).
It orders fits (the pipeline keeps the most confident) and is printed; the verdict
comes from the limits above, not from the product.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

from referee import Cushion

__all__ = [
    "AGREE_PX",
    "COVERAGE_BINS",
    "FAILED_COVERAGE",
    "FAILED_MAX_MM",
    "FAILED_RMS_MM",
    "GOOD_COVERAGE",
    "GOOD_MAX_MM",
    "GOOD_RMS_MM",
    "Outcome",
    "SideResiduals",
    "confidence_of",
    "outcome_of",
    "side_residuals",
]

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]

GOOD_RMS_MM = 2.0
GOOD_MAX_MM = 5.0
GOOD_COVERAGE = 0.4
FAILED_RMS_MM = 10.0
FAILED_MAX_MM = 40.0
FAILED_COVERAGE = 0.15
AGREE_PX = 2.0
COVERAGE_BINS = 40
#: Edge points this close to the picture's border (px) do not count as a cushion seen.
BORDER_PX = 3.0


class Outcome(StrEnum):
    """What a calibration is good for (module docstring)."""

    GOOD = "good"
    DOUBTFUL = "doubtful"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class SideResiduals:
    """One cushion's edge points against the fitted cushion line.

    ``n``: edge points assigned to the side; ``rms_px``, ``max_px``: their distance to
    the projected line; ``coverage``: share 0..1 of the side's length with agreeing
    points (module docstring).
    """

    cushion: Cushion
    n: int
    rms_px: float
    max_px: float
    coverage: float


def side_residuals(
    side: I64, t: F64, err_px: F64, uv_px: F64, size_px: tuple[int, int]
) -> tuple[SideResiduals, ...]:
    """Per-side statistics of edge points, in :data:`calibration.CUSHIONS` order.

    Args:
        side: Each point's side, (n,) index into ``CUSHIONS``.
        t: Where along its side the point's nearest cushion point lies, (n,) 0..1.
        err_px: Each point's pixel residual, (n,).
        uv_px: The points, (n, 2) px (their distance to the picture's border counts).
        size_px: The picture's (width, height).
    """
    from calibration._geometry import CUSHIONS

    w, h = size_px
    u, v = uv_px[:, 0], uv_px[:, 1]
    inside = (u > BORDER_PX) & (v > BORDER_PX) & (u < w - 1 - BORDER_PX) & (v < h - 1 - BORDER_PX)
    agree = (err_px <= AGREE_PX) & inside
    out = []
    for i, cushion in enumerate(CUSHIONS):
        mine = side == i
        err = err_px[mine]
        if len(err) == 0:
            out.append(SideResiduals(cushion, 0, 0.0, 0.0, 0.0))
            continue
        bins = np.clip((t[mine & agree] * COVERAGE_BINS).astype(int), 0, COVERAGE_BINS - 1)
        coverage = len(np.unique(bins)) / COVERAGE_BINS
        rms = float(np.sqrt(np.mean(err**2)))
        out.append(SideResiduals(cushion, len(err), rms, float(err.max()), coverage))
    return tuple(out)


def confidence_of(rms_mm: float, sides: tuple[SideResiduals, ...]) -> float:
    """Confidence 0..1 of a fit with ``rms_mm`` and ``sides`` (empty: not measured)."""
    if not math.isfinite(rms_mm):
        return 0.0
    fit = 1.0 / (1.0 + (rms_mm / (2.0 * GOOD_RMS_MM)) ** 2)
    cover = min(min(s.coverage for s in sides) / GOOD_COVERAGE, 1.0) if sides else 1.0
    return round(fit * cover, 3)


def outcome_of(rms_mm: float, max_mm: float, sides: tuple[SideResiduals, ...]) -> Outcome:
    """The verdict of a fit (module docstring); ``sides`` empty: marked points only."""
    least = min((s.coverage for s in sides), default=1.0)
    if not (math.isfinite(rms_mm) and math.isfinite(max_mm)):
        return Outcome.FAILED
    if rms_mm > FAILED_RMS_MM or max_mm > FAILED_MAX_MM or least < FAILED_COVERAGE:
        return Outcome.FAILED
    if rms_mm <= GOOD_RMS_MM and max_mm <= GOOD_MAX_MM and least >= GOOD_COVERAGE:
        return Outcome.GOOD
    return Outcome.DOUBTFUL
