"""How good a calibration is: residuals by table region, a verdict, an overlay image.

Theory of operation. The points a fit used (corners, points along the cushion noses,
diamonds, marked spots) are known in the table frame (``xyz_mm``) and were observed in
the picture (``uv_px``). Each point's pixel residual is the distance from the observed
pixel to the model's projection; its millimetre residual is the distance on the table
between the true point and where the model puts the observed pixel (unprojected at the
point's own height). Points are grouped by where they lie: ``corners`` (within
``CORNER_MM`` of a playing-surface corner, table length scaled to 2840 mm), ``cushions``
(within ``CUSHION_MM`` of a cushion nose, or outside the surface like the diamonds) and
``centre`` (the rest).

The verdict (:class:`calibration.Outcome`: ``good``, ``doubtful``, ``failed``) and the
confidence come from :mod:`calibration._outcome`: the millimetre residuals against the
issue's accuracy target (``good``: RMS at most 2 mm and maximum at most 5 mm) and, for an
automatic fit, how much of each cushion was seen. A fit that is not good gets
``advice``:

* ``check corners``: the residuals are too large and the worst group is ``corners``: a
  corner was marked or detected in the wrong place (a pocket, a hand, a score graphic);
* ``refit lens``: the residuals are too large, the corners fit and the error lies along
  the cushions or in the centre, the shape a wrong distortion model leaves;
* ``the <side> cushion is seen over N% of its length``: the residuals may be fine, but a
  side was hidden (a player, a cue) or outside the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError, check_shape
from calibration._file import Calibration
from calibration._geometry import CUSHIONS
from calibration._outcome import (
    GOOD_COVERAGE,
    GOOD_MAX_MM,
    GOOD_RMS_MM,
    Outcome,
    SideResiduals,
    confidence_of,
    outcome_of,
)
from referee import Discipline, RuleOptions

__all__ = [
    "CORNER_MM",
    "CUSHION_MM",
    "GOOD_MAX_MM",
    "GOOD_RMS_MM",
    "GroupResiduals",
    "QualityReport",
    "draw_overlay",
    "quality_report",
]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

CORNER_MM = 300.0
CUSHION_MM = 200.0
GROUPS = ("corners", "cushions", "centre")


@dataclass(frozen=True, slots=True)
class GroupResiduals:
    """Residual statistics of one group of points (``inf`` where a point failed)."""

    name: str
    n: int
    rms_px: float
    max_px: float
    rms_mm: float
    max_mm: float

    @classmethod
    def of(cls, name: str, err_px: F64, err_mm: F64) -> GroupResiduals:
        """Statistics of residuals ``err_px`` (n,) px and ``err_mm`` (n,) mm."""
        if len(err_px) == 0:
            return cls(name, 0, 0.0, 0.0, 0.0, 0.0)
        return cls(name, len(err_px), _rms(err_px), float(err_px.max()), _rms(err_mm),
                   float(err_mm.max()))  # fmt: skip


def _rms(err: F64) -> float:
    return float(np.sqrt(np.mean(err**2)))


@dataclass(frozen=True, slots=True)
class QualityReport:
    """Residuals overall, per group and per side, the verdict, its advice, the confidence.

    ``sides``: the four cushions' edge points (automatic fits; empty for marked
    points); ``advice``: what to look at when the verdict is not ``good`` (module
    docstring), else empty; ``confidence``: 0..1 (:func:`calibration.confidence_of`).
    """

    overall: GroupResiduals
    groups: tuple[GroupResiduals, ...]
    verdict: Outcome
    advice: str = ""
    sides: tuple[SideResiduals, ...] = ()
    confidence: float = 1.0

    def residuals(self) -> dict[str, float]:
        """Flat numbers for the calibration file: ``rms_px`` ..., ``corners_rms_mm`` ...

        Also ``confidence`` and per side ``head_rms_px``, ``head_max_px``,
        ``head_coverage``, ``head_n_points`` (automatic fits).
        """
        out: dict[str, float] = {}
        for g in (self.overall, *self.groups):
            prefix = "" if g is self.overall else f"{g.name}_"
            for key in ("rms_px", "max_px", "rms_mm", "max_mm"):
                value = float(getattr(g, key))
                if math.isfinite(value):
                    out[prefix + key] = value
            out[prefix + "n_points"] = int(g.n)  # counts are whole numbers in the file
        for s in self.sides:
            for key in ("rms_px", "max_px", "coverage"):
                out[f"{s.cushion}_{key}"] = float(getattr(s, key))
            out[f"{s.cushion}_n_points"] = int(s.n)
        out["confidence"] = float(self.confidence)
        return out

    def text(self) -> str:
        """A readable multi-line report ending with the verdict."""
        head = f"{'where':<10}{'points':>7}{'rms px':>9}{'max px':>9}{'rms mm':>9}{'max mm':>9}"
        rows = [head]
        for g in (*self.groups, self.overall):
            if g.n:
                rows.append(f"{g.name:<10}{g.n:>7}{g.rms_px:>9.2f}{g.max_px:>9.2f}"
                            f"{g.rms_mm:>9.2f}{g.max_mm:>9.2f}")  # fmt: skip
        if self.sides:
            rows.append(f"{'cushion':<10}{'points':>7}{'rms px':>9}{'max px':>9}{'seen':>9}")
            rows += [f"{s.cushion:<10}{s.n:>7}{s.rms_px:>9.2f}{s.max_px:>9.2f}"
                     f"{s.coverage:>9.0%}" for s in self.sides]  # fmt: skip
        advice = f": {self.advice}" if self.advice else ""
        seen = f", every cushion seen over >= {GOOD_COVERAGE:.0%}" if self.sides else ""
        limits = f"good: rms <= {GOOD_RMS_MM:g} mm, max <= {GOOD_MAX_MM:g} mm{seen}"
        rows.append(f"verdict: {self.verdict}{advice} (confidence {self.confidence:.2f}; {limits})")
        return "\n".join(rows)


def region_of(calib: Calibration, xy_mm: F64) -> list[str]:
    """The group name of each table point (n, 2) ``xy_mm`` (module docstring)."""
    geo = calib.geometry
    scale = geo.length_mm / 2840.0
    corner_d = np.min(np.linalg.norm(xy_mm[:, None, :] - geo.corners_mm()[None], axis=2), axis=1)
    x, y = xy_mm[:, 0], xy_mm[:, 1]
    edge_d = np.minimum(np.minimum(x, geo.length_mm - x), np.minimum(y, geo.width_mm - y))
    names = []
    for c, e in zip(corner_d.tolist(), edge_d.tolist(), strict=True):
        if c <= CORNER_MM * scale:
            names.append("corners")
        elif e <= CUSHION_MM * scale:
            names.append("cushions")
        else:
            names.append("centre")
    return names


def quality_report(
    calib: Calibration,
    observed_px: F64,
    points_xyz_mm: F64,
    *,
    sides: tuple[SideResiduals, ...] = (),
) -> QualityReport:
    """Residuals of a calibration against the points it was fitted to.

    Args:
        calib: The calibration.
        observed_px: Where each point was seen, (n, 2) ``uv_px``.
        points_xyz_mm: The same points in the table frame, (n, 3) mm (z up).
        sides: The four cushions' edge points (:func:`calibration.side_residuals`) of
            an automatic fit; empty for marked points.

    Raises:
        CalibrationError: shapes differ or no points are given.
    """
    uv = check_shape("observed_px", observed_px, 2)
    xyz = check_shape("points_xyz_mm", points_xyz_mm, 3)
    if len(uv) != len(xyz) or len(uv) == 0:
        raise CalibrationError(f"need as many observed px as points, got {len(uv)}, {len(xyz)}")
    err_px = np.hypot(*(uv - calib.camera.project(xyz)).T)
    err_mm = np.hypot(*(calib.camera.unproject(uv, xyz[:, 2])[:, :2] - xyz[:, :2]).T)
    err_px, err_mm = np.nan_to_num(err_px, nan=np.inf), np.nan_to_num(err_mm, nan=np.inf)
    names = np.array(region_of(calib, xyz[:, :2]))
    groups = tuple(GroupResiduals.of(g, err_px[names == g], err_mm[names == g]) for g in GROUPS)
    overall = GroupResiduals.of("all", err_px, err_mm)
    verdict = outcome_of(overall.rms_mm, overall.max_mm, sides)
    confidence = confidence_of(overall.rms_mm, sides)
    advice = "" if verdict is Outcome.GOOD else _advice(overall, groups, sides)
    return QualityReport(overall, groups, verdict, advice, sides, confidence)


def _advice(
    overall: GroupResiduals, groups: tuple[GroupResiduals, ...], sides: tuple[SideResiduals, ...]
) -> str:
    """What to look at in a fit that is not good (module docstring)."""
    if overall.rms_mm <= GOOD_RMS_MM and overall.max_mm <= GOOD_MAX_MM and sides:
        least = min(sides, key=lambda s: s.coverage)
        return f"the {least.cushion} cushion is seen over {least.coverage:.0%} of its length"
    worst = max((g for g in groups if g.n), key=lambda g: g.max_mm)
    return "check corners" if worst.name == "corners" else "refit lens"


# --- overlay ---------------------------------------------------------------------

#: Overlay colours, BGR.
CUSHION_BGR = (0, 255, 255)
GRID_BGR = (150, 150, 150)
CHALK_BGR = (255, 160, 0)
DIAMOND_BGR = (255, 0, 255)
SPOT_BGR = (0, 0, 255)
_SHIFT = 4  # sub-pixel bits for cv2 drawing


def draw_overlay(
    image_bgr: U8,
    calib: Calibration,
    *,
    discipline: Discipline | None = None,
    options: RuleOptions | None = None,
    grid_mm: float = 100.0,
    legend: bool = True,
) -> U8:
    """A copy of ``image_bgr`` (h, w, 3) uint8 with the calibration drawn on it.

    Drawn: a ``grid_mm`` grid on the cloth (grey), the discipline's chalk lines (blue),
    the cushion noses at their height (yellow, one pixel, through the distorted
    projection: each line sampled every few mm so it bends with the lens), the diamonds
    (magenta, each with its index for ``--diamonds``: 0..8 one long rail, 9..17 the
    other, 18..23 the short ones) and spots (red), and a legend in the picture's corner
    that hides least of the table (top-left it hid a corner to check on small pictures).
    """
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
        raise CalibrationError(f"image_bgr: expected (h, w, 3) uint8, got {image_bgr.shape}")
    out = image_bgr.copy()
    geo = calib.geometry
    _segments(out, calib, geo.grid_mm(grid_mm), GRID_BGR, 0.0)
    _segments(out, calib, geo.chalk_lines_mm(discipline, options), CHALK_BGR, 0.0)
    for cushion in CUSHIONS:
        samples = max(int(geo.length_mm / 10.0), 50)
        _polyline(out, calib.camera.project(geo.cushion_points_xyz_mm(cushion, samples)),
                  CUSHION_BGR)  # fmt: skip
    _dots(out, calib.camera.project(geo.diamonds_xyz_mm()), DIAMOND_BGR, 4)
    _diamond_numbers(out, calib)
    _dots(out, calib.mm_to_px(geo.spots_mm(discipline)), SPOT_BGR, 3)
    if legend:
        _legend(out, grid_mm, _table_mask(out.shape[:2], calib))
    return out


def _diamond_numbers(img: U8, calib: Calibration) -> None:
    """Each diamond's index, outside it on its rail (an installer marks them by index)."""
    geo = calib.geometry
    xyz = geo.diamonds_xyz_mm()
    centre = np.array([geo.length_mm / 2.0, geo.width_mm / 2.0])
    rel = (xyz[:, :2] - centre) / centre
    out_mm = np.where(np.abs(rel[:, :1]) > np.abs(rel[:, 1:]), [[1.0, 0.0]], [[0.0, 1.0]])
    out_mm *= np.sign(rel)
    at = calib.camera.project(xyz)
    away = calib.camera.project(xyz + np.c_[out_mm * 60.0, np.zeros(len(xyz))])
    for i, (a, b) in enumerate(zip(at.tolist(), away.tolist(), strict=True)):
        d = np.subtract(b, a)
        norm = float(np.hypot(*d))
        if not (np.isfinite(norm) and norm > 0 and all(abs(v) < 1e5 for v in a)):
            continue
        u, v = np.add(a, d / norm * 12.0)
        org = (round(u) - 4 * len(str(i)), round(v) + 4)
        for colour, thick in (((0, 0, 0), 3), (DIAMOND_BGR, 1)):  # outlined: read on any cloth
            cv2.putText(img, str(i), org, cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour, thick,
                        cv2.LINE_AA)  # fmt: skip


def _table_mask(shape: tuple[int, ...], calib: Calibration) -> U8:
    """The picture's pixels (h, w) of the table out to its diamonds (and their numbers), 255."""
    mask = np.zeros(shape[:2], np.uint8)
    geo = calib.geometry
    uv = calib.camera.project(np.r_[geo.corners_xyz_mm(), geo.diamonds_xyz_mm()])
    uv = uv[np.isfinite(uv).all(axis=1) & (np.abs(uv) < 1e5).all(axis=1)]
    if len(uv) >= 3:
        hull = cv2.convexHull(np.round(uv).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 255)
        cv2.dilate(mask, np.ones((31, 31), np.uint8), dst=mask)  # the numbers beside them
    return mask


def _segments(
    img: U8, calib: Calibration, seg_mm: F64, colour: tuple[int, int, int], z: float
) -> None:
    for x0, y0, x1, y1 in seg_mm.tolist():
        n = max(int(math.hypot(x1 - x0, y1 - y0) / 10.0), 2)
        t = np.linspace(0.0, 1.0, n)
        xyz = np.c_[x0 + t * (x1 - x0), y0 + t * (y1 - y0), np.full(n, z)]
        _polyline(img, calib.camera.project(xyz), colour)


def _polyline(img: U8, uv_px: F64, colour: tuple[int, int, int]) -> None:
    """Draw the finite runs of ``uv_px`` (n, 2) as one-pixel polylines (NaN breaks a run)."""
    ok = np.isfinite(uv_px).all(axis=1)
    limit = 4.0 * max(img.shape)  # far-off points would overflow cv2's fixed point
    ok &= (np.abs(np.nan_to_num(uv_px)) < limit).all(axis=1)
    runs = np.split(np.arange(len(uv_px)), np.flatnonzero(np.diff(ok.astype(int))) + 1)
    for run in runs:
        if len(run) > 1 and ok[run[0]]:
            pts = np.round(uv_px[run] * (1 << _SHIFT)).astype(np.int32)
            cv2.polylines(img, [pts.reshape(-1, 1, 2)], False, colour, 1, cv2.LINE_8, _SHIFT)


def _dots(img: U8, uv_px: F64, colour: tuple[int, int, int], radius_px: int) -> None:
    for u, v in uv_px[np.isfinite(uv_px).all(axis=1)].tolist():
        if abs(u) < 1e5 and abs(v) < 1e5:
            centre = (round(u * (1 << _SHIFT)), round(v * (1 << _SHIFT)))
            cv2.circle(img, centre, radius_px << _SHIFT, colour, 1, cv2.LINE_AA, _SHIFT)


def _legend(img: U8, grid_mm: float, table: U8) -> None:
    """The colours' key in the picture's corner where it hides least of ``table``."""
    items = [
        ("cushion nose", CUSHION_BGR),
        ("diamonds", DIAMOND_BGR),
        ("spots", SPOT_BGR),
        ("chalk lines", CHALK_BGR),
        (f"grid {grid_mm / 10.0:g} cm", GRID_BGR),
    ]
    box_w, box_h = 146, 6 + 16 * len(items)
    h, w = img.shape[:2]
    spots = [(4, 4), (w - 4 - box_w, 4), (4, h - 4 - box_h), (w - 4 - box_w, h - 4 - box_h)]
    x0, y0 = min(spots, key=lambda xy: int(np.count_nonzero(
        table[max(xy[1], 0) : xy[1] + box_h, max(xy[0], 0) : xy[0] + box_w])))  # fmt: skip
    cv2.rectangle(img, (x0, y0), (x0 + box_w, y0 + box_h), (0, 0, 0), cv2.FILLED)
    for i, (label, colour) in enumerate(items):
        y = y0 + 14 + 16 * i
        cv2.line(img, (x0 + 6, y - 4), (x0 + 24, y - 4), colour, 2)
        cv2.putText(img, label, (x0 + 30, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1,
                    cv2.LINE_AA)  # fmt: skip
