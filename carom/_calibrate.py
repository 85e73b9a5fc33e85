"""``carom calibrate``: one frame in, a calibration file, a report and an overlay out.

The steps are plain functions (read a frame, fit automatically or from marked
corners, build the report) so the browser wizard can reuse them later.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import (
    Calibration,
    CalibrationError,
    CalibrationMethod,
    Fit,
    QualityReport,
    TableEdges,
    TableGeometry,
    detect_table,
    draw_overlay,
    fit_camera,
    fit_from_points,
    quality_report,
    save_calibration,
)
from referee import Discipline, Table

__all__ = ["Calibrated", "calibrate_frame", "parse_corners", "read_frame"]

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]


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
    discipline: Discipline | None = None,
    created: str | None = None,
) -> Calibrated:
    """Fit a calibration to one frame (automatically, or from four marked corners)."""
    geometry = TableGeometry(table)
    h, w = frame_bgr.shape[:2]
    size = (length, width) = (table.length_mm, table.width_mm)
    if corners is None:
        edges = detect_table(frame_bgr)
        fit = fit_camera(
            frame_bgr, length_mm=length, width_mm=width,
            nose_height_mm=geometry.cushion_height_mm, edges=edges,
        )  # fmt: skip
        uv, xyz = _edge_points(edges, fit, geometry)
        method = CalibrationMethod.AUTO
    else:
        fit = fit_from_points((w, h), {"corners": corners}, length_mm=size[0], width_mm=size[1])
        uv = np.asarray(corners, dtype=np.float64)
        xyz = _corners_xyz(fit, uv, geometry)
        method = CalibrationMethod.MANUAL
    when = created or datetime.now(UTC).replace(microsecond=0).isoformat()
    calib = Calibration(geometry, fit.camera, when, method, {"rms_px": fit.rms_px})
    report = quality_report(calib, uv, xyz)
    calib = Calibration(geometry, fit.camera, when, method, report.residuals())
    return Calibrated(calib, report, draw_overlay(frame_bgr, calib, discipline=discipline))


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
    if not cv2.imwrite(str(overlay), result.overlay_bgr):
        raise CalibrationError(f"{overlay}: cannot write the overlay image; check the folder")
