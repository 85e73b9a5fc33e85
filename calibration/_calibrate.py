"""Calibration of one frame: fit, quality report, overlay, and the files they go to.

Theory of operation. :func:`calibrate_frame` takes a frame handed to it (BGR array;
this package opens no video or camera) and fits the camera automatically
(:func:`calibration.fit_camera` on the edges :func:`calibration.detect_table` finds) or
to corners and diamonds a person marked (:func:`calibration.fit_from_points`),
optionally with the lens fixed from checkerboard pictures. The quality report judges
the observed points (cloth-edge pixels, or the marked ones) against the lines or points
the fit put them on; its residuals go into the :class:`~calibration.Calibration`. For an
automatic fit each edge point also counts for the cushion whose fitted line it is
nearest to: per-side residuals and the share of each side seen, which with the
residuals give the verdict (``good``, ``doubtful``, ``failed``) and the confidence
(:mod:`calibration._outcome`). :func:`save_result` writes the ``carom-calibration/1``
file and the overlay PNG.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError, Distortion, Intrinsics
from calibration._detect import TableEdges, detect_table
from calibration._file import Calibration, CalibrationMethod, save_calibration
from calibration._fit import Fit, fit_camera
from calibration._fitmodel import Lens
from calibration._geometry import PYRAMID_TABLE, TableGeometry
from calibration._manual import fit_from_points
from calibration._outcome import Outcome, SideResiduals, side_residuals
from calibration._report import QualityReport, draw_overlay, quality_report
from referee import Discipline, Table

__all__ = ["CORNERS_ONLY", "CalibrationResult", "Lens", "calibrate_frame", "save_result"]

#: The advice of a fit to four marked corners alone (no diamonds, no lens from
#: checkerboards): it passes through them whatever the lens and the camera's height,
#: so its residual says nothing of its accuracy (issue: 20 mm off, reported 0.5 mm).
CORNERS_ONLY = "corners only: 4 marked points fit any lens; look at the diamonds"
#: The highest confidence such a fit is given.
CORNERS_ONLY_CONFIDENCE = 0.5

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class CalibrationResult:
    """A fitted calibration, its quality report and the overlay image (h, w, 3) BGR."""

    calibration: Calibration
    report: QualityReport
    overlay_bgr: U8


def calibrate_frame(
    frame_bgr: U8,
    table: Table,
    *,
    corners: list[list[float]] | None = None,
    diamonds: list[list[float]] | None = None,
    lens: Lens | None = None,
    discipline: Discipline | None = None,
    created: str | None = None,
    diamond_offset_mm: float | None = None,
) -> CalibrationResult:
    """Fit a calibration to one frame (h, w, 3) BGR uint8.

    Automatically, or from four marked corners [u, v] px (and any marked diamonds:
    rows [index, u, v], see :func:`calibration.fit_from_points`); with ``lens`` (from
    :func:`calibration.fit_lens_from_checkerboards`) the lens stays fixed and only the
    pose is fitted. ``discipline`` draws its lines on the overlay; ``created`` (ISO
    8601) defaults to now. ``diamond_offset_mm``: how far out from the cushion nose the
    table's diamonds lie, when known (an earlier fit's, :func:`with_diamond_offset`);
    an automatic fit measures it from the diamonds it finds.

    Raises:
        CalibrationError: no table found, no camera fits, diamonds without corners.
    """
    # The 7-pin game is played on the pyramid pocket table: pocketed balls are found by
    # its pockets.
    pockets = discipline is Discipline.PIN_CAROM_7 or table == PYRAMID_TABLE
    geometry = with_diamond_offset(TableGeometry(table, pockets=pockets), diamond_offset_mm)
    fixed = None if lens is None else (lens[0], lens[1])
    sides: tuple[SideResiduals, ...] = ()
    if corners is None:
        if diamonds:
            raise CalibrationError("--diamonds needs --corners (or --interactive) as well")
        edges = detect_table(frame_bgr)
        fit = fit_camera(
            frame_bgr, length_mm=table.length_mm, width_mm=table.width_mm,
            nose_height_mm=geometry.cushion_height_mm, edges=edges, lens=fixed,
        )  # fmt: skip
        geometry = with_diamond_offset(geometry, fit.diamond_offset_mm)
        uv, xyz, side, t = _edge_points(edges, fit, geometry)
        sides = _sides(fit, uv, xyz, side, t, edges.image_size_px)
        method = CalibrationMethod.AUTO
    else:
        marks = (corners, diamonds or [])
        fit, geometry, uv, xyz = _manual_fit(frame_bgr, geometry, marks, fixed, diamond_offset_mm)
        method = CalibrationMethod.MANUAL
    if lens is not None:
        method = CalibrationMethod.CHECKERBOARD
    when = created or datetime.now(UTC).replace(microsecond=0).isoformat()
    calib = Calibration(geometry, fit.camera, when, method, {"rms_px": fit.rms_px})
    report = quality_report(calib, uv, xyz, sides=sides)
    if method is CalibrationMethod.MANUAL and not diamonds:
        report = _corners_only(report)
    # A lens from checkerboards carries its corners' RMS (px) third; one given as
    # (intrinsics, distortion) has none to record.
    lens_rms = {"lens_rms_px": lens[2]} if lens is not None and len(lens) == 3 else {}
    residuals = report.residuals() | lens_rms
    calib = Calibration(geometry, fit.camera, when, method, residuals)
    overlay = draw_overlay(frame_bgr, calib, discipline=discipline)
    return CalibrationResult(calib, report, overlay)


def _corners_only(report: QualityReport) -> QualityReport:
    """A corners-only fit's report: at best doubtful (:data:`CORNERS_ONLY`)."""
    if report.verdict is Outcome.FAILED:
        return report
    confidence = min(report.confidence, CORNERS_ONLY_CONFIDENCE)
    return replace(report, verdict=Outcome.DOUBTFUL, advice=CORNERS_ONLY, confidence=confidence)


def save_result(result: CalibrationResult, path: str | Path, overlay_path: str | Path) -> None:
    """Write the calibration file to ``path`` and the overlay PNG to ``overlay_path``.

    The overlay's name is checked first, so a refused one leaves no calibration file.

    Raises:
        CalibrationError: a file cannot be written (the message names it).
    """
    overlay = Path(overlay_path)
    if not cv2.haveImageWriter(str(overlay)):
        raise CalibrationError(f"{overlay}: the overlay is a picture; give a name ending "
                               ".png (or .jpg)")  # fmt: skip
    save_calibration(path, result.calibration)
    try:
        overlay.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CalibrationError(f"{overlay}: cannot make its folder ({exc.strerror})") from None
    # Fast PNG compression: 0.1 s less at 1080p for a somewhat bigger file.
    png = [cv2.IMWRITE_PNG_COMPRESSION, 1]
    if not cv2.imwrite(str(overlay), result.overlay_bgr, png):
        raise CalibrationError(f"{overlay}: cannot write the overlay image; check the folder")


def _edge_points(edges: TableEdges, fit: Fit, geometry: TableGeometry) -> tuple[F64, F64, I64, F64]:
    """Observed edge pixels (n, 2), the nearest points (n, 3) mm on the fit's lines.

    Also each point's side (n,) (index into :data:`calibration.CUSHIONS`) and where
    along it the nearest point lies (n,) 0..1.

    The cloth edge is the foot of the cushion face (z = 0) on a side the camera is
    inside of, and the nose (z = cushion height) on a side it is beyond, moved inside
    by the fitted edge inset (see :mod:`calibration._fit`).
    """
    uv = np.concatenate(edges.edges_px)
    cam_x, cam_y = fit.camera.position_mm[:2]
    inside = (cam_x > 0.0, cam_x < geometry.length_mm, cam_y > 0.0, cam_y < geometry.width_mm)
    best = np.zeros((len(uv), 3))
    dist = np.full(len(uv), np.inf)
    side, along = np.zeros(len(uv), dtype=np.int64), np.zeros(len(uv))
    centre = np.array([geometry.length_mm / 2.0, geometry.width_mm / 2.0])
    segments = geometry.cushion_segments_mm()
    for i, (seg, seen_face) in enumerate(zip(segments, inside, strict=True)):
        a, b = seg + fit.edge_inset_mm * _inward(seg, centre)
        z = 0.0 if seen_face else geometry.cushion_height_mm
        xy = fit.camera.unproject(uv, np.full(len(uv), z))[:, :2]
        ab = b - a
        t = np.clip(((xy - a) @ ab) / (ab @ ab), 0.0, 1.0)
        near = a + t[:, None] * ab
        d = np.hypot(*(xy - near).T)
        closer = d < dist
        best[closer] = np.column_stack([near[closer], np.full(int(closer.sum()), z)])
        dist[closer] = d[closer]
        side[closer], along[closer] = i, t[closer]
    return uv, best, side, along


def _sides(
    fit: Fit, uv: F64, xyz: F64, side: I64, t: F64, size_px: tuple[int, int]
) -> tuple[SideResiduals, ...]:
    """The four cushions' residuals and coverage (:func:`calibration.side_residuals`)."""
    err_px = np.nan_to_num(np.hypot(*(uv - fit.camera.project(xyz)).T), nan=np.inf)
    return side_residuals(side, t, err_px, uv, size_px)


def _inward(seg: F64, centre_mm: F64) -> F64:
    """Unit normal (2,) of side ``seg`` (2, 2) mm pointing to the table centre."""
    d = seg[1] - seg[0]
    n = np.array([-d[1], d[0]]) / float(np.hypot(*d))
    return n if float((centre_mm - seg[0]) @ n) >= 0.0 else -n


#: A measured diamond offset this far (mm) from the geometry's replaces it: rendered
#: tables (125 mm) measure within 0.5 mm of theirs, the real broadcast table 84.9 mm.
DIAMOND_OFFSET_TOLERANCE_MM = 10.0


def with_diamond_offset(geometry: TableGeometry, offset_mm: float | None) -> TableGeometry:
    """``geometry`` with its diamonds ``offset_mm`` out from the cushion nose (None: as is).

    The diamonds sit on the rail's centre line, so the rail's width carries the offset
    (``cushion_width_mm + rail_width_mm / 2``; the rail kept 40..400 mm wide). An offset
    within :data:`DIAMOND_OFFSET_TOLERANCE_MM` of the geometry's keeps it: the overlay
    and the wizard draw the diamonds where the table has them (on the real broadcast
    table they were drawn 17 px out, off the rail, and marking them could not fit).
    """
    if offset_mm is None or abs(offset_mm - geometry.diamond_offset_mm) <= (
        DIAMOND_OFFSET_TOLERANCE_MM
    ):
        return geometry
    rail = min(max(2.0 * (offset_mm - geometry.cushion_width_mm), 40.0), 400.0)
    return replace(geometry, rail_width_mm=rail)


def _manual_fit(
    frame_bgr: U8,
    geometry: TableGeometry,
    marks: tuple[list[list[float]], list[list[float]]],
    lens: tuple[Intrinsics, Distortion] | None,
    offset_mm: float | None,
) -> tuple[Fit, TableGeometry, F64, F64]:
    """The fit to marked ``(corners, diamonds)``, its geometry, the marked pixels, their points.

    ``offset_mm``: the diamonds' offset from the cushion nose (an earlier fit's, the
    wizard's); None: fitted from the diamonds when enough are marked
    (:func:`fit_from_points`), and kept as the rail's width as an automatic fit's is.
    """
    h, w = frame_bgr.shape[:2]
    corners, diamonds = marks
    marked = {"corners": corners, "diamonds": diamonds}
    fit = fit_from_points(
        (w, h), marked, length_mm=geometry.length_mm, width_mm=geometry.width_mm,
        rail_height_mm=geometry.rail_height_mm,
        diamond_offset_mm=geometry.diamond_offset_mm if offset_mm is not None else None,
        lens=lens,
    )  # fmt: skip
    if offset_mm is None:
        geometry = with_diamond_offset(geometry, fit.diamond_offset_mm)
    uv = np.asarray(corners, dtype=np.float64)
    xyz = _corners_xyz(fit, uv, geometry)
    if diamonds:
        rows = np.asarray(diamonds, dtype=np.float64)
        uv = np.concatenate([uv, rows[:, 1:]])
        xyz = np.concatenate([xyz, geometry.diamonds_xyz_mm()[rows[:, 0].astype(int)]])
    return fit, geometry, uv, xyz


def _corners_xyz(fit: Fit, uv: F64, geometry: TableGeometry) -> F64:
    """The table corner (n, 3) mm nearest to each marked corner, where the fit puts it.

    The fit takes a marked corner as the meeting of two cloth edges (see
    :func:`_edge_points`): on the cloth (z = 0) where the camera is inside both sides,
    else at the cushion nose's height.
    """
    corners = geometry.corners_xyz_mm(0.0)
    seen = fit.camera.unproject(uv, np.zeros(len(uv)))[:, :2]
    nearest = [int(np.argmin(np.hypot(*(corners[:, :2] - p).T))) for p in seen]
    cam_x, cam_y = fit.camera.position_mm[:2]
    x_in = 0.0 < cam_x < geometry.length_mm
    y_in = 0.0 < cam_y < geometry.width_mm
    out = corners[nearest].copy()
    if not (x_in and y_in):
        out[:, 2] = geometry.cushion_height_mm
    return out
