"""``carom calibrate``: one frame in, a calibration file, a report and an overlay out.

The steps are plain functions (read a frame, fit automatically or from marked
corners and diamonds, optionally with a lens fixed from checkerboard pictures, build the
report) so the browser wizard can reuse them later.
"""

from __future__ import annotations

import glob
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import (
    PYRAMID_TABLE,
    Calibration,
    CalibrationError,
    CalibrationMethod,
    Distortion,
    Fit,
    Intrinsics,
    QualityReport,
    TableEdges,
    TableGeometry,
    detect_table,
    draw_overlay,
    fit_camera,
    fit_from_points,
    fit_lens_from_checkerboards,
    quality_report,
    save_calibration,
)
from referee import Discipline, Table

__all__ = [
    "Calibrated",
    "calibrate_frame",
    "lens_from_checkerboards",
    "parse_corners",
    "parse_diamonds",
    "parse_pattern",
    "read_frame",
]

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
#: A lens from checkerboards: intrinsics, distortion and the corners' RMS error in px.
Lens = tuple[Intrinsics, Distortion, float]
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


def read_frame(source: str, frame_idx: int = 0) -> U8:
    """Frame ``frame_idx`` of a video, an image file, or a camera index, as BGR (h, w, 3)."""
    if source.isdigit():
        cap = cv2.VideoCapture(int(source))
        if not cap.isOpened():
            raise CalibrationError(f"camera {source}: cannot open it; check the index or cable")
    else:
        path = Path(source)
        if not path.exists():
            raise CalibrationError(
                f"{source}: no such file; give a video, an image or a camera index"
            )
        image = (
            cv2.imread(str(path))
            if path.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp")
            else None
        )
        if image is not None:
            return np.asarray(image, dtype=np.uint8)
        cap = cv2.VideoCapture(str(path))
    try:
        if frame_idx:
            cap.set(cv2.CAP_PROP_POS_FRAMES, frame_idx)
        ok, frame = cap.read()
    finally:
        cap.release()
    if not ok or frame is None:
        raise CalibrationError(
            f"{source}: no frame {frame_idx} could be read (not a video or image?)"
        )
    return np.asarray(frame, dtype=np.uint8)


def parse_corners(text: str) -> list[list[float]]:
    """``"u,v;u,v;u,v;u,v"`` -> four [u, v] pixel points."""
    try:
        points = [[float(c) for c in pair.split(",")] for pair in text.split(";")]
    except ValueError:
        raise CalibrationError(
            f"--corners: expected 'u,v;u,v;u,v;u,v' in pixels, got {text!r}"
        ) from None
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise CalibrationError(f"--corners: expected 4 points 'u,v' separated by ';', got {text!r}")
    return points


def parse_diamonds(text: str) -> list[list[float]]:
    """``"i:u,v;j:u,v"`` -> rows [index, u, v]: diamond ``index`` (0..23) seen at (u, v) px."""
    rows = []
    for item in text.split(";"):
        try:
            index, uv = item.split(":")
            u, v = (float(c) for c in uv.split(","))
            rows.append([float(int(index)), u, v])
        except ValueError:
            raise CalibrationError(
                f"--diamonds: expected 'i:u,v;j:u,v' (diamond index 0..23, pixels), got {item!r}"
            ) from None
    return rows


def parse_pattern(text: str) -> tuple[int, int]:
    """``"9x6"`` -> (9, 6) inner corners of a checkerboard."""
    try:
        cols, rows = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CalibrationError(
            f"--pattern: expected inner corners COLSxROWS, e.g. 9x6, got {text!r}"
        ) from None
    return cols, rows


def lens_from_checkerboards(spec: str, pattern: tuple[int, int], square_mm: float) -> Lens:
    """The lens from the checkerboard pictures in folder ``spec`` or matching glob ``spec``."""
    path = Path(spec)
    names = sorted(str(p) for p in path.iterdir()) if path.is_dir() else sorted(glob.glob(spec))
    names = [n for n in names if Path(n).suffix.lower() in _IMAGE_SUFFIXES]
    if not names:
        raise CalibrationError(
            f"--checkerboard: no pictures (.png, .jpg ...) in or matching {spec!r}; "
            "give a folder or a quoted glob"
        )
    images = []
    for name in names:
        image = cv2.imread(name)
        if image is None:
            raise CalibrationError(f"{name}: cannot read this picture; remove it or replace it")
        images.append(np.asarray(image, dtype=np.uint8))
    return fit_lens_from_checkerboards(images, pattern, square_mm)


@dataclass(frozen=True, slots=True)
class Calibrated:
    """A fitted calibration, its report and the overlay image."""

    calibration: Calibration
    report: QualityReport
    overlay_bgr: U8


def _edge_points(edges: TableEdges, fit: Fit, geometry: TableGeometry) -> tuple[F64, F64]:
    """Observed edge pixels and the nearest points (n, 3) mm on the lines the fit used.

    The cloth edge is the foot of the cushion face (z = 0) on a side the camera is
    inside of, and the nose (z = cushion height) on a side it is beyond, moved inside
    by the fitted edge inset (see :mod:`calibration._fit`).
    """
    uv = np.concatenate(edges.edges_px)
    cam_x, cam_y = fit.camera.position_mm[:2]
    inside = (cam_x > 0.0, cam_x < geometry.length_mm, cam_y > 0.0, cam_y < geometry.width_mm)
    best = np.zeros((len(uv), 3))
    dist = np.full(len(uv), np.inf)
    centre = np.array([geometry.length_mm / 2.0, geometry.width_mm / 2.0])
    for seg, seen_face in zip(geometry.cushion_segments_mm(), inside, strict=True):
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
    return uv, best


def _inward(seg: F64, centre_mm: F64) -> F64:
    """Unit normal (2,) of side ``seg`` (2, 2) pointing to the table centre."""
    d = seg[1] - seg[0]
    n = np.array([-d[1], d[0]]) / float(np.hypot(*d))
    return n if float((centre_mm - seg[0]) @ n) >= 0.0 else -n


def calibrate_frame(
    frame_bgr: U8,
    table: Table,
    *,
    corners: list[list[float]] | None = None,
    diamonds: list[list[float]] | None = None,
    lens: Lens | None = None,
    discipline: Discipline | None = None,
    created: str | None = None,
) -> Calibrated:
    """Fit a calibration to one frame.

    Automatically, or from four marked corners (and any marked diamonds: rows
    [index, u, v], see :func:`calibration.fit_from_points`); with ``lens`` (from
    :func:`lens_from_checkerboards`) the lens stays fixed and only the pose is fitted.
    """
    # The 7-pin game is played on the pyramid pocket table: pocketed balls are found by
    # its pockets.
    pockets = discipline is Discipline.PIN_CAROM_7 or table == PYRAMID_TABLE
    geometry = TableGeometry(table, pockets=pockets)
    fixed = None if lens is None else (lens[0], lens[1])
    if corners is None:
        if diamonds:
            raise CalibrationError("--diamonds needs --corners (or --interactive) as well")
        edges = detect_table(frame_bgr)
        fit = fit_camera(
            frame_bgr, length_mm=table.length_mm, width_mm=table.width_mm,
            nose_height_mm=geometry.cushion_height_mm, edges=edges, lens=fixed,
        )  # fmt: skip
        uv, xyz = _edge_points(edges, fit, geometry)
        method = CalibrationMethod.AUTO
    else:
        fit, uv, xyz = _manual_fit(frame_bgr, geometry, corners, diamonds or [], fixed)
        method = CalibrationMethod.MANUAL
    if lens is not None:
        method = CalibrationMethod.CHECKERBOARD
    when = created or datetime.now(UTC).replace(microsecond=0).isoformat()
    calib = Calibration(geometry, fit.camera, when, method, {"rms_px": fit.rms_px})
    report = quality_report(calib, uv, xyz)
    residuals = report.residuals() | ({} if lens is None else {"lens_rms_px": lens[2]})
    calib = Calibration(geometry, fit.camera, when, method, residuals)
    return Calibrated(calib, report, draw_overlay(frame_bgr, calib, discipline=discipline))


def _manual_fit(
    frame_bgr: U8,
    geometry: TableGeometry,
    corners: list[list[float]],
    diamonds: list[list[float]],
    lens: tuple[Intrinsics, Distortion] | None,
) -> tuple[Fit, F64, F64]:
    """The fit to marked corners and diamonds, the marked pixels and their table points."""
    h, w = frame_bgr.shape[:2]
    marked = {"corners": corners, "diamonds": diamonds}
    fit = fit_from_points(
        (w, h), marked, length_mm=geometry.length_mm, width_mm=geometry.width_mm,
        rail_height_mm=geometry.rail_height_mm,
        diamond_offset_mm=geometry.diamond_offset_mm, lens=lens,
    )  # fmt: skip
    uv = np.asarray(corners, dtype=np.float64)
    xyz = _corners_xyz(fit, uv, geometry)
    if diamonds:
        rows = np.asarray(diamonds, dtype=np.float64)
        uv = np.concatenate([uv, rows[:, 1:]])
        xyz = np.concatenate([xyz, geometry.diamonds_xyz_mm()[rows[:, 0].astype(int)]])
    return fit, uv, xyz


def _corners_xyz(fit: Fit, uv: F64, geometry: TableGeometry) -> F64:
    """The table corner (at nose height) nearest to each marked corner."""
    corners = geometry.corners_xyz_mm()
    seen = fit.camera.unproject(uv, np.full(len(uv), geometry.cushion_height_mm))[:, :2]
    nearest = [int(np.argmin(np.hypot(*(corners[:, :2] - p).T))) for p in seen]
    return corners[nearest]


def write_outputs(result: Calibrated, out: Path, overlay: Path) -> None:
    """Write the calibration file and the overlay PNG."""
    save_calibration(out, result.calibration)
    overlay.parent.mkdir(parents=True, exist_ok=True)
    # Fast PNG compression: 0.1 s less at 1080p for a somewhat bigger file.
    if not cv2.imwrite(str(overlay), result.overlay_bgr, [cv2.IMWRITE_PNG_COMPRESSION, 1]):
        raise CalibrationError(f"{overlay}: cannot write the overlay image; check the folder")
