"""The manual path: a camera from the four corners (and any diamonds) a person marked.

Theory of operation. Four corners on the cloth plane fix a homography, and from it a
focal length and pose only as well as the perspective allows: seen face-on, the
camera height and the focal length trade off. Corners alone are fitted as before:
``cv2.solvePnP`` on the corners over a grid of fields of view, the smallest corner
error winning. Marked diamonds lie ``rail_height_mm`` above the cloth and
``diamond_offset_mm`` out from the cushion nose, off the cloth plane, which breaks that
tie: with them (or with a fixed lens) the best solvePnP starts, scored with the
diamonds, are refined by least squares on the corners' distances to their sides and
the diamonds' reprojection errors (the focal length, k1 from six diamonds on, and the
pose; a lens given stays fixed), and the smallest cost wins. From six diamonds on,
their offset from the nose is fitted too unless the caller gives it (an earlier fit's):
a real table's lie nearer the nose than the model's 125 mm (85 mm on the broadcast
frames), and with the model's the diamonds marked where they are fitted no camera.
The diamonds' indices also tell which image corner is which table corner. Without k1,
a lens's slight bend (k1 = -0.06) would move the fitted height by a quarter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError, check_shape
from calibration._detect import TableEdges
from calibration._fitmodel import (
    RAIL_HEIGHT_MM,
    Fit,
    Lens,
    _image_right_deg,
    _plausible,
    _Problem,
    _problems,
    _residuals,
    _start,
    _summary,
    _to_camera,
)
from calibration._geometry import TableGeometry
from calibration._lsq import least_squares
from referee import Table

__all__ = ["diamond_normals", "fit_from_points"]

F64 = NDArray[np.float64]
_N_STARTS = 3  # best solvePnP starts per corner assignment scored with the diamonds
_N_REFINED = 2  # best scored starts that are refined
#: Fewest marked diamonds with which k1 is fitted too (without a fixed lens).
K1_MIN_DIAMONDS = 6
#: Fewest marked diamonds with which their offset from the cushion nose is fitted too
#: (when no offset is given).
OFFSET_MIN_DIAMONDS = 6


def fit_from_points(
    image_size_px: tuple[int, int],
    marked: Mapping[str, Sequence[Sequence[float]]],
    *,
    length_mm: float = 2840.0,
    width_mm: float = 1420.0,
    hfov_deg: float = 60.0,
    rail_height_mm: float = RAIL_HEIGHT_MM,
    diamond_offset_mm: float | None = None,
    lens: Lens | None = None,
) -> Fit:
    """Fit a camera to the corners (and any diamonds) a person marked.

    Corners alone give a camera without lens distortion; with at least
    :data:`K1_MIN_DIAMONDS` diamonds k1 is fitted too; ``lens`` fixes the lens.

    Args:
        image_size_px: Frame (width, height) in pixels.
        marked: ``{"corners": 4 points [u, v] px}``, the playing-surface corners where
            the cloth meets the cushions, clockwise in the image from any corner;
            optionally ``"diamonds": rows [index, u, v]``, ``index`` into
            :meth:`TableGeometry.diamonds_mm` (0..8 left rail head to foot, 9..17
            right rail, 18..20 head rail left to right, 21..23 foot rail).
        length_mm: Playing-surface length, mm.
        width_mm: Playing-surface width, mm.
        hfov_deg: Horizontal field of view tried first; a grid of 30..110 degrees
            follows and the smallest corner error wins (ties: this one, for a camera
            looking straight down, where the corners cannot tell the focal length).
        rail_height_mm: Rail top (the diamonds) above the cloth, mm.
        diamond_offset_mm: Cushion nose out to the diamonds, mm, kept; None: fitted
            from :data:`OFFSET_MIN_DIAMONDS` diamonds on, else the model's 125 mm.
        lens: Fixed intrinsics and distortion (:func:`fit_lens_from_checkerboards`).

    Returns:
        The fitted camera; residuals are the corners' distances to their sides in px
        (``n_diamonds``: the diamonds used).

    Raises:
        CalibrationError: Not four corners, a bad diamond row, or no plausible camera.
    """
    corners = _corners(marked)
    diamonds = _diamonds(marked)
    # Each side becomes a two-point edge: its two corners.
    sides = tuple(np.array([corners[i], corners[(i + 1) % 4]]) for i in range(4))
    edges = TableEdges(image_size_px, corners, sides, np.zeros(3), 0.0)  # type: ignore[arg-type]
    probs = _problems(edges, length_mm, width_mm, 0.0, 1, lens)
    if not len(diamonds) and lens is None:
        return _corners_only(probs, corners, hfov_deg)
    geometry = TableGeometry(Table(length_mm=length_mm, width_mm=width_mm))
    try:
        return _with_diamonds(probs, corners, diamonds, geometry, rail_height_mm,
                              hfov_deg, diamond_offset_mm)  # fmt: skip
    except CalibrationError as exc:
        if diamond_offset_mm is not None or not 0 < len(diamonds) < OFFSET_MIN_DIAMONDS:
            raise
        raise CalibrationError(  # the model's offset may be a real table's wrong one
            f"{exc} (with {OFFSET_MIN_DIAMONDS} diamonds or more marked, their distance from "
            "the cushion is fitted too)"
        ) from None


def _with_diamonds(
    probs: list[_Problem], corners: F64, diamonds: F64, geometry: TableGeometry,
    rail_height_mm: float, hfov_deg: float, offset_mm: float | None,
) -> Fit:  # fmt: skip
    """The fit to the corners and diamonds (:func:`fit_from_points`).

    ``offset_mm`` None: the diamonds' offset is fitted too from
    :data:`OFFSET_MIN_DIAMONDS` diamonds on.
    """
    offset = geometry.diamond_offset_mm if offset_mm is None else offset_mm
    free_offset = offset_mm is None and len(diamonds) >= OFFSET_MIN_DIAMONDS
    idx = diamonds[:, 0].astype(int)
    xy_mm = geometry.diamonds_mm()[idx] - geometry.diamond_offset_mm * diamond_normals()[idx]
    xyz_mm, out = np.c_[xy_mm, np.full(len(idx), rail_height_mm)], diamond_normals()[idx]
    with_dia = [
        replace(p, diamonds_mm=xyz_mm, diamonds_out=out, diamonds_px=diamonds[:, 1:]) for p in probs
    ]
    return _refined(with_dia, corners, hfov_deg, offset, free_offset)


def diamond_normals() -> F64:
    """Outward unit normals (24, 2) of the rails of :meth:`TableGeometry.diamonds_mm`."""
    return np.array([[0.0, -1.0]] * 9 + [[0.0, 1.0]] * 9 + [[-1.0, 0.0]] * 3 + [[1.0, 0.0]] * 3)


def _corners(marked: Mapping[str, Sequence[Sequence[float]]]) -> F64:
    if "corners" not in marked:
        raise CalibrationError("marked: expected a 'corners' list of 4 [u, v] points")
    corners = check_shape("marked.corners", marked["corners"], 2)
    if corners.shape != (4, 2):
        raise CalibrationError(f"marked.corners: expected (4, 2), got {corners.shape}")
    return corners


def _diamonds(marked: Mapping[str, Sequence[Sequence[float]]]) -> F64:
    """Marked diamonds (k, 3): index, u, v; checked."""
    rows = marked.get("diamonds", [])
    if not len(rows):
        return np.zeros((0, 3))
    dia = check_shape("marked.diamonds", rows, 3)
    bad = [i for i in dia[:, 0] if not (float(i).is_integer() and 0 <= i < 24)]
    if bad:
        raise CalibrationError(
            f"marked.diamonds: index {bad[0]:g} is not a diamond; use 0..23 "
            "(0..8 left rail, 9..17 right, 18..20 head, 21..23 foot)"
        )
    if len(set(dia[:, 0].tolist())) != len(dia):
        raise CalibrationError("marked.diamonds: a diamond is marked twice; mark each once")
    return dia


def _corners_only(probs: list[_Problem], corners: F64, hfov_deg: float) -> Fit:
    """The smallest corner error over assignments and a grid of fields of view."""
    best: tuple[float, F64, _Problem] | None = None
    for prob, start, cost in _scored_starts(probs, corners, hfov_deg):
        key = round(cost, 2) + 1e-3 * _image_right_deg(start, prob)
        if best is None or key < best[0]:
            best = (key, start, prob)
    if best is None:
        raise CalibrationError("marked.corners: no camera sees a table through these points")
    return _summary(best[1], best[2])


def _scored_starts(
    probs: list[_Problem], corners: F64, hfov_deg: float
) -> list[tuple[_Problem, F64, float]]:
    """Starts from solvePnP (problem, parameters, RMS corner error px) giving a camera."""
    out = []
    for prob in probs:
        for hfov in (hfov_deg, *np.arange(30.0, 111.0, 2.5)):
            start = _start(prob, corners, float(hfov), 0.0)
            if start is None:
                continue
            try:
                cam = _to_camera(start, prob)
            except CalibrationError:
                continue  # an implausible pose (tilted past 60 degrees)
            err = cam.project(np.c_[np.array([s[0] for s in prob.sides_mm]), np.zeros(4)])
            cost = float(np.sqrt(np.nanmean(np.sum((err - corners) ** 2, axis=1))))
            out.append((prob, start, cost))
            if prob.lens is not None:
                break  # the lens fixes the field of view: one start is enough
    return out


def _refined(
    probs: list[_Problem], corners: F64, hfov_deg: float, offset_mm: float, free_offset: bool
) -> Fit:
    """Least squares on corners and diamonds from the most promising starts.

    Each assignment's best corner starts are scored with the diamonds too (a wrong
    assignment puts them hundreds of pixels off); the best few of those are refined.
    """
    starts = _scored_starts(probs, corners, hfov_deg)
    scored = []
    for prob in probs:
        mine = sorted((c, i) for i, (p, _, c) in enumerate(starts) if p is prob)
        for _, i in mine[:_N_STARTS]:
            res = _residuals(np.append(starts[i][1], [offset_mm, 0.0]), prob)
            scored.append((float(res @ res), i))
    best: tuple[float, F64, _Problem] | None = None
    for _, i in sorted(scored)[:_N_REFINED]:
        prob = starts[i][0]
        params = _refine(starts[i][1], prob, offset_mm, free_offset)
        if not _plausible(params, prob):
            continue
        res = _residuals(params, prob)
        if best is None or float(res @ res) < best[0]:
            best = (float(res @ res), params, prob)
    if best is None:
        raise CalibrationError("marked points: no camera sees a table through these points")
    return _summary(best[1], best[2])


def _refine(start: F64, prob: _Problem, offset_mm: float, free_offset: bool = False) -> F64:
    """Parameters (start + offset, inset) with the focal length and pose refined.

    k1 is fitted with at least :data:`K1_MIN_DIAMONDS` diamonds (fewer points cannot
    tell it from the focal length) and stays 0 otherwise; a fixed lens stays fixed;
    the diamonds' offset is fitted too with ``free_offset`` (from ``offset_mm``), else
    kept; the edge inset stays 0.
    """
    full = np.append(start, [offset_mm, 0.0])
    free = np.arange(len(start) + (1 if free_offset else 0))
    if prob.lens is None and len(prob.diamonds_px) < K1_MIN_DIAMONDS:
        free = free[free != 1]  # k1

    def fun(p: F64) -> F64:
        q = full.copy()
        q[free] = p
        return _residuals(q, prob)

    full[free] = least_squares(fun, full[free], 60)
    return full
