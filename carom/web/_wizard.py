"""The calibration wizard's server side: a frame, the fit drawn as points, refits, save.

Theory of operation. The wizard works on one frame of the table's camera (frame 30 of a
video file, where the encoder has settled; the newest frame of a live camera). It
shows the current calibration (the file the server was started with, else a fit made
automatically from the frame) as the pixels of the four table corners (cushion nose
height, order TL, TR, BR, BL as seen) and of the 24 diamonds. A person drags them; a
refit (:func:`calibration.calibrate_frame` with the marked corners and diamonds)
answers the fitted points and, per diamond, how far the fit lands from the mark. Only
``save`` writes, and only to the calibration path the server was started with (its
``--calibration`` file, else the one kept for its camera beside the database, where
``carom live --camera SRC`` finds it). When the automatic fit fails (no table found),
the corners start a tenth inside the frame and ``note`` says to drag them.

Every calibration shown (and each refit) is checked against the balls in the frame
(:func:`carom.pipeline.table_size_doubt`): the cloth's outline fits a table of any
size, the balls' apparent size does not. ``table_size`` gives the figures when they
say the server's table (``--table``, or the match file's) is not the one in the
picture, the page says it in its language, and a save logs the line; else it is null.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration import (
    Calibration,
    CalibrationError,
    CalibrationResult,
    Outcome,
    QualityReport,
    TableGeometry,
    calibrate_frame,
    frame_fit,
    load_calibration,
    save_result,
)
from carom.pipeline import TableSizeDoubt, table_size_doubt
from carom.web._table import ConflictError
from referee import Table
from vision import read_frame

__all__ = ["Wizard", "size_doc"]

_FRAME_IDX = 30


class Wizard:
    """The wizard of one camera: its frame, the calibration shown, the last refit."""

    def __init__(self, camera: str | None, path: Path | None, table: Table) -> None:
        self.camera, self.path, self.table = camera, path, table
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None
        self._jpeg: bytes | None = None
        self._shown: Calibration | None = None
        self._note: str | None = None
        self._fitted: Calibration | None = None
        self._shown_doubt: TableSizeDoubt | None = None
        self._fitted_doubt: TableSizeDoubt | None = None
        self._fitted_result: CalibrationResult | None = None

    #: The camera ``carom live --serve`` referees (its wizard is ``carom serve``'s).
    live_camera: str | None = None

    def _need_camera(self) -> None:
        if self.live_camera is not None:
            raise ConflictError(f"carom live referees this table with its own calibration; to "
                                f"calibrate {self.live_camera}, stop carom live and run carom "
                                f"serve --camera {self.live_camera}")  # fmt: skip
        if self.camera is None or self.path is None:
            raise ConflictError("no camera: start carom serve with --camera SRC to calibrate")

    def frame(self) -> np.ndarray:
        """The wizard's frame (BGR, read once)."""
        self._need_camera()
        with self._lock:
            if self._frame is None:
                assert self.camera is not None
                self._frame = read_frame(self.camera, _FRAME_IDX)
            return self._frame

    def jpeg(self) -> bytes:
        """The frame as JPEG bytes."""
        image = self.frame()
        with self._lock:
            if self._jpeg is None:
                ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
                if not ok:
                    raise ConflictError("the frame cannot be encoded; try another camera")
                self._jpeg = buf.tobytes()
            return self._jpeg

    def current(self) -> dict[str, Any]:
        """The calibration shown: the file's, else one fitted automatically now.

        When the automatic fit fails (no table found, no camera fits), the corners
        start at a rectangle inside the frame and ``note`` says to drag them.
        """
        image = self.frame()
        with self._lock:
            shown, note, doubt = self._shown, self._note, self._shown_doubt
        if shown is None:
            assert self.path is not None
            h, w = image.shape[:2]
            if self.path.exists():
                shown = load_calibration(self.path, expect_size_px=(w, h))
            else:
                shown, note = _automatic(image, self.table)
            doubt = table_size_doubt(shown, [image])
            with self._lock:
                self._shown, self._note, self._shown_doubt = shown, note, doubt
        rms = shown.residuals.get("rms_px")
        doc = _doc(shown, image, [], None if rms is None else float(rms), doubt)
        return doc | (_failed_doc(note) if note else {})

    def fit(self, corners_px: Sequence[Sequence[float]],
            diamonds_px: Sequence[Sequence[float] | None] | None) -> dict[str, Any]:  # fmt: skip
        """Refit to the marked corners and diamonds; kept for :meth:`save`, not written.

        ``diamonds_px``: position = diamond index as listed by :meth:`current` (None:
        not marked).
        """
        image = self.frame()
        self.current()  # the calibration shown: its table's diamonds are where it says
        with self._lock:
            shown = self._shown
        offset = None if shown is None else shown.geometry.diamond_offset_mm
        rows = [[float(i), float(p[0]), float(p[1])]
                for i, p in enumerate(diamonds_px or []) if p is not None]  # fmt: skip
        if rows:
            # One or two marked diamonds alone would let the fit bend the lens and
            # the rail offset round them (a 4 px drag had no plausible camera): the
            # diamonds not dragged stay where the calibration shown puts them.
            rows = self._with_unmarked(rows)
        marks = [[float(c[0]), float(c[1])] for c in corners_px]
        result = calibrate_frame(image, self.table, corners=marks, diamonds=rows,
                                 diamond_offset_mm=offset)  # fmt: skip
        calib = result.calibration
        doubt = table_size_doubt(calib, [image])
        with self._lock:
            self._fitted, self._fitted_doubt = calib, doubt
            self._fitted_result = result
        marked = np.asarray([r[1:] for r in rows], dtype=np.float64).reshape(-1, 2)
        ids = [int(r[0]) for r in rows]
        projected = calib.camera.project(calib.geometry.diamonds_xyz_mm()[ids]) if ids else marked
        residuals = [float(d) for d in np.hypot(*(projected - marked).T)] if ids else []
        rms = float(np.sqrt(np.mean(np.square(residuals)))) if residuals else None
        doc = _doc(calib, image, residuals, rms if rms is not None else _rms(calib), doubt)
        report = result.report  # the verdict carom calibrate gives these marks
        return doc | {"verdict": str(report.verdict), "confidence": round(report.confidence, 3),
                      "advice": report.advice}  # fmt: skip

    def _with_unmarked(self, rows: list[list[float]]) -> list[list[float]]:
        """Rows [index, u, v] for all diamonds: the marked ones, else the shown fit's."""
        self.current()
        with self._lock:
            shown = self._shown
        assert shown is not None
        seen = shown.camera.project(shown.geometry.diamonds_xyz_mm())
        marked = {int(r[0]): r for r in rows}
        return [marked.get(i, [float(i), float(u), float(v)]) for i, (u, v) in enumerate(seen)]

    def save(self) -> tuple[Path, TableSizeDoubt | None, QualityReport]:
        """Write the last refit to the server's calibration file; the file, doubt, report.

        The size doubt, and the fit's report (its verdict: a doubtful fit is saved, and
        said so). Its overlay is written beside it (``NAME_overlay.png``, as ``carom calibrate``
        names it), so the picture a doubtful file's note points to is this fit's.
        """
        self._need_camera()
        with self._lock:
            fitted, doubt, result = self._fitted, self._fitted_doubt, self._fitted_result
        report = None if result is None else result.report
        if fitted is None:
            raise ConflictError("nothing to save: refit first (POST /api/calibration/fit)")
        _check_edges(fitted, self.frame())
        if report is not None and report.verdict is Outcome.FAILED:  # carom calibrate's rule
            raise ConflictError(
                f"this fit failed (confidence {report.confidence:.2f}): no calibration is "
                "written for it; drag the corners onto the cloth's corners (and some "
                "diamonds onto the diamonds) and refit"
            )
        assert self.path is not None
        assert result is not None  # set with the fit
        self.path.parent.mkdir(parents=True, exist_ok=True)
        save_result(result, self.path, overlay_path(self.path))
        with self._lock:
            self._shown, self._note, self._shown_doubt = fitted, None, doubt
        return self.path, doubt, result.report


def overlay_path(path: Path) -> Path:
    """Where the overlay of the calibration file ``path`` goes: ``NAME_overlay.png``."""
    return path.with_name(f"{path.stem}_overlay.png")


def _check_edges(calib: Calibration, image: np.ndarray) -> None:
    """Refuse a fit whose table edges miss the picture's: a match start would refuse it.

    The check a match makes when it starts (``carom.pipeline.check_calibration_fits``);
    a picture where no table is found cannot be checked, and the fit is saved.
    """
    try:
        fit = frame_fit(calib, image)
    except CalibrationError:
        return
    if not fit.fits:
        raise ConflictError(
            f"this fit lies {fit.worst_px:.1f} px from the table's edges in the picture (at "
            f"most {fit.tolerance_px:.1f} px): a match would refuse it; drag the corners onto "
            "the cloth's corners and refit"
        )


def _automatic(image: np.ndarray, table: Table) -> tuple[Calibration, str | None]:
    """The automatic fit of ``image``; if it fails, corners a tenth inside the frame."""
    try:
        return calibrate_frame(image, table).calibration, None
    except CalibrationError as exc:
        h, w = image.shape[:2]
        inset = [[0.1 * w, 0.1 * h], [0.9 * w, 0.1 * h], [0.9 * w, 0.9 * h], [0.1 * w, 0.9 * h]]
        guess = calibrate_frame(image, table, corners=inset).calibration
        return guess, str(exc)


def _failed_doc(why: str) -> dict[str, Any]:
    """Why the automatic fit failed and what to do: ``note`` in English.

    ``note_parts`` is the same keyed for the page's language (``wiz.auto_failed``; the
    reason ``why`` as the fit gave it).
    """
    note = (f"the automatic fit failed ({why}): drag the four corners onto the table's "
            "corners (where the cloth meets the cushions)")  # fmt: skip
    return {"note": note, "note_parts": {"key": "auto_failed", "fields": {"why": why}}}


def _rms(calib: Calibration) -> float | None:
    value = calib.residuals.get("rms_px")
    return None if value is None else float(value)


def _doc(calib: Calibration, image: np.ndarray, residuals: list[float],
         rms_px: float | None, doubt: TableSizeDoubt | None) -> dict[str, Any]:  # fmt: skip
    geometry: TableGeometry = calib.geometry
    corners = calib.camera.project(geometry.corners_xyz_mm(0.0))  # where cloth meets cushion
    diamonds = calib.camera.project(geometry.diamonds_xyz_mm())
    h, w = image.shape[:2]
    return {
        "image_url": "/api/calibration/frame.jpg", "width": int(w), "height": int(h),
        "corners_px": _round(_as_seen(corners)), "diamonds_px": _round(diamonds),
        "residuals_px": [round(r, 2) for r in residuals],
        "rms_px": None if rms_px is None else round(rms_px, 3),
        "method": str(calib.method), "table_size": size_doc(doubt),
    }  # fmt: skip


def size_doc(doubt: TableSizeDoubt | None) -> dict[str, Any] | None:
    """The table-size doubt as the API answers it (mm rounded to whole), or None."""
    if doubt is None:
        return None
    return {
        "ratio": round(doubt.ratio, 3), "balls": doubt.balls, "ball_mm": doubt.ball_mm,
        "given_mm": [round(v) for v in doubt.given_mm],
        "implied_mm": [round(v) for v in doubt.implied_mm],
        "named": [{"name": n, "length_mm": round(length), "width_mm": round(width)}
                  for n, length, width in doubt.named],
    }  # fmt: skip


def _as_seen(uv: np.ndarray) -> np.ndarray:
    """The four corners in image order: top-left, top-right, bottom-right, bottom-left."""
    centre = uv.mean(axis=0)
    angle = np.arctan2(uv[:, 1] - centre[1], uv[:, 0] - centre[0])
    ring = uv[np.argsort(angle)]  # clockwise on screen (v grows down), from the left
    start = int(np.argmin(ring[:, 0] + ring[:, 1]))  # the top-left has the least u + v
    return np.roll(ring, -start, axis=0)


def _round(uv: np.ndarray) -> list[list[float]]:
    return [[round(float(u), 1), round(float(v), 1)] for u, v in uv]
