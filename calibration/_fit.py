"""Fit a camera (focal length, radial distortion, pose) to the table's edges.

Theory of operation. The cloth edge seen from above is where the cloth meets the
cushion: the bottom of the vertical cushion face (z = 0) on a side the camera is inside
of, the nose (z = ``nose_height_mm``) on a side the camera is beyond (the nose then
hides the face). Each side is a straight line in the table frame, so after removing the
lens distortion its edge points must lie on the pinhole image of that line. The
unknowns are one focal length (square pixels, principal point at the image centre),
k1 (and k2 if asked) and the pose (Rodrigues vector and translation, OpenCV frame of
:func:`calibration.to_cv_points`). They start from ``cv2.solvePnP`` on the four corners
for each of the four ways the image corners can match the table's (the table is
symmetric under a half turn: the one with the smaller yaw wins) and a few focal
lengths; then Levenberg-Marquardt (numpy, numeric Jacobian) minimises the distances in
pixels of all edge points to their side's projected line.

Height. Seen face-on, a flat rectangle cannot tell the focal length from the camera
height, and the height sets the parallax of ball centres. :func:`fit_camera` therefore
first adds the diamonds (:mod:`calibration._diamonds`): the cloth-edge camera predicts
where each of the 28 possible sights lies (nine on each long rail, five on each short
rail, ``rail_height_mm`` above the cloth), a bright compact blob is searched near each,
and the fit takes the found ones as points (reprojection error, weight 2) alongside the
edge lines, with two more unknowns: the diamonds' offset out from the nose line, and an
inset of the seen cloth edge inside the nose line (on a real table the edge of the
light cloth is not the nose). Three rounds of search (windows of 2%, 1%, 1% of the
image width), each dropping diamonds off by more than 2 px or three times the median.
With at least :data:`MIN_DIAMONDS` kept and a plausible result, that is the fit; if
the cloth-edge camera leads nowhere, the corners' solvePnP starts are tried.
Otherwise it falls back to the nose line: with the cloth-only camera it predicts
where the dark cushion face ends (the nose, ``nose_height_mm`` above the cloth edge) on
sides the camera is inside of, finds that edge (:func:`calibration._detect.nose_points`)
and refits with both lines; the face's width in pixels fixes the height. A refit that
leaves the plausible range (focal 0.15..5 image widths, ``|k1| <= 0.8``, height
0.5..10 m) is dropped for the cloth-only one.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import (
    CalibrationError,
    Camera,
    Distortion,
    Intrinsics,
    Pose,
)
from calibration._detect import TableEdges, colour_distance, detect_table, nose_points
from calibration._diamonds import diamond_points, grey_image
from calibration._geometry import TableGeometry
from calibration._lsq import least_squares

__all__ = ["Fit", "fit_camera", "fit_edges"]

F64 = NDArray[np.float64]

NOSE_HEIGHT_MM = 37.0
RAIL_HEIGHT_MM = 42.0
#: Fewest diamonds that replace the nose line in :func:`fit_camera`.
MIN_DIAMONDS = 8
_DIAMOND_WEIGHT = 2.0  # a diamond's pixel error against an edge point's distance
_HFOV_STARTS_DEG = (50.0, 75.0)


@dataclass(frozen=True, slots=True)
class Fit:
    """A fitted camera and how well it explains the edge points.

    Attributes:
        camera: The fitted camera model.
        residuals_px: RMS distance (4,) in pixels of each side's points to its line,
            sides in :class:`TableEdges` order.
        rms_px: RMS distance over all points, pixels.
        n_points: Edge (or marked) points used, diamonds included.
        n_diamonds: Diamonds used (:func:`fit_camera`; 0: the nose line set the height).
        edge_inset_mm: How far inside the cushion-nose line the seen cloth edge lies
            (fitted with the diamonds; 0 otherwise), mm.
    """

    camera: Camera
    residuals_px: tuple[float, float, float, float]
    rms_px: float
    n_points: int
    n_diamonds: int = 0
    edge_inset_mm: float = 0.0


def _table_corners(length_mm: float, width_mm: float) -> F64:
    """Playing-surface corners (4, 2) mm, clockwise in a yaw-0 picture from (0, 0)."""
    return np.array([[0.0, 0.0], [length_mm, 0.0], [length_mm, width_mm], [0.0, width_mm]])


@dataclass(frozen=True, slots=True)
class _Problem:
    """Edge points and which table side each image side is."""

    size_px: tuple[int, int]
    sides_mm: tuple[F64, ...]  # per image side: the table corners (2, 2) it runs between
    points_px: tuple[F64, ...]
    centre_mm: F64  # playing-surface centre (2,)
    nose_mm: float
    n_dist: int  # 1: k1, 2: k1 and k2
    nose_px: tuple[F64, ...] = ()  # per side: points (m, 2) on the nose line, if seen
    # Diamonds found: on the nose line's extension at rail height (k, 3) mm, their
    # outward unit normals (k, 2) (the offset out to the rail centre is the last
    # parameter) and pixels (k, 2).
    diamonds_mm: F64 = field(default_factory=lambda: np.zeros((0, 3)))
    diamonds_out: F64 = field(default_factory=lambda: np.zeros((0, 2)))
    diamonds_px: F64 = field(default_factory=lambda: np.zeros((0, 2)))


def _camera(params: F64, prob: _Problem) -> tuple[F64, F64, F64, Distortion]:
    """(K (3, 3), rvec (3,), tvec (3,), distortion) from the parameter vector."""
    w, h = prob.size_px
    f = max(float(params[0]), 0.1 * w)
    k = np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
    k2 = float(params[2]) if prob.n_dist == 2 else 0.0
    dist = Distortion(float(np.clip(params[1], -1, 1)), float(np.clip(k2, -1, 1)))
    off = 1 + prob.n_dist
    return k, params[off : off + 3], params[off + 3 : off + 6], dist


def _residuals(params: F64, prob: _Problem) -> F64:
    """Signed distances (n,) px of the edge points to their projected side lines.

    Cloth-edge points first (side by side), then the nose points.
    """
    k, rvec, tvec, dist = _camera(params, prob)
    rot = np.asarray(cv2.Rodrigues(rvec)[0], dtype=np.float64)
    centre = -rot.T @ tvec  # camera centre, cv world (x, y, -z)
    groups = list(prob.points_px) + list(prob.nose_px)
    xy_all = dist.remove((np.concatenate(groups) - k[:2, 2]) / k[0, 0])  # one call: speed
    heights = []
    for seg in prob.sides_mm:
        mid = seg.mean(axis=0)
        beyond = float((centre[:2] - mid) @ (prob.centre_mm - mid)) < 0.0
        heights.append(prob.nose_mm if beyond else 0.0)
    heights += [prob.nose_mm] * len(prob.nose_px)
    sides = list(prob.sides_mm) + list(prob.sides_mm[: len(prob.nose_px)])
    if len(prob.diamonds_px):  # the cloth edge may lie inside the nose line by params[-1]
        sides = [_inset(seg, prob.centre_mm, float(params[-1])) for seg in sides]
    bounds = np.cumsum([0] + [len(g) for g in groups])
    out = [
        _line_distances(xy_all[a:b], seg, z, k[0, 0], rot, tvec, dist)
        for a, b, seg, z in zip(bounds[:-1], bounds[1:], sides, heights, strict=True)
    ]
    if len(prob.diamonds_px):
        xyz = _diamond_xyz(prob, float(params[-2]))
        out.append(_DIAMOND_WEIGHT * _diamond_errors(xyz, prob.diamonds_px, k, rot, tvec,
                                                     dist).ravel())  # fmt: skip
    res: F64 = np.nan_to_num(np.concatenate(out), nan=1e3)
    return res


def _inset(seg: F64, centre_mm: F64, inset_mm: float) -> F64:
    """Side ``seg`` (2, 2) moved ``inset_mm`` towards the table centre."""
    d = seg[1] - seg[0]
    n = np.array([-d[1], d[0]]) / float(np.hypot(*d))
    if float((centre_mm - seg[0]) @ n) < 0.0:
        n = -n
    out: F64 = seg + inset_mm * n
    return out


def _diamond_xyz(prob: _Problem, offset_mm: float) -> F64:
    """The found diamonds' table points (k, 3) mm for a rail offset."""
    out: F64 = (
        prob.diamonds_mm + np.c_[prob.diamonds_out * offset_mm, np.zeros(len(prob.diamonds_out))]
    )
    return out


def _diamond_candidates(length_mm: float, width_mm: float, rail_mm: float) -> tuple[F64, F64]:
    """Where diamonds may be: (28, 3) mm on the nose lines' extensions, normals (28, 2).

    Nine on each long rail (eighths, ends included), five on each short rail (quarters,
    ends included: a real table has them, the renderer not).
    """
    xs = np.linspace(0.0, length_mm, 9)
    ys = np.linspace(0.0, width_mm, 5)
    pts = [(x, 0.0, 0.0, -1.0) for x in xs] + [(x, width_mm, 0.0, 1.0) for x in xs]
    pts += [(0.0, y, -1.0, 0.0) for y in ys] + [(length_mm, y, 1.0, 0.0) for y in ys]
    arr = np.array(pts)
    return np.c_[arr[:, :2], np.full(len(arr), rail_mm)], arr[:, 2:]


def _diamond_errors(xyz_mm: F64, uv_px: F64, k: F64, rot: F64, tvec: F64, dist: Distortion) -> F64:
    """Projected minus found diamond pixels (k, 2)."""
    cam = (xyz_mm * np.array([1.0, 1.0, -1.0])) @ rot.T + tvec
    xy = dist.apply(cam[:, :2] / cam[:, 2:3])
    out: F64 = xy * k[0, 0] + k[:2, 2] - uv_px
    return out


def _line_distances(
    xy: F64, seg: F64, z_mm: float, f_px: float, rot: F64, tvec: F64, dist: Distortion
) -> F64:
    """Distances (m,) px of undistorted points (m, 2) to the image of line ``seg`` at z."""
    ends = np.c_[seg, np.full(2, -z_mm)] @ rot.T + tvec
    a, b = ends[0, :2] / ends[0, 2], ends[1, :2] / ends[1, 2]
    d = b - a
    n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-12)
    # Normalised distance to pixels: the focal length times the lens's local
    # magnification (between its radial and tangential values).
    r2 = np.sum(xy * xy, axis=1)
    gain = 1.0 + 2.0 * dist.k1 * r2 + 3.0 * dist.k2 * r2 * r2
    out: F64 = ((xy - a) @ n) * f_px * gain
    return out


def _levenberg_marquardt(params: F64, prob: _Problem, iterations: int = 60) -> F64:
    """Minimise the problem's squared residuals (:func:`least_squares`)."""
    return least_squares(lambda p: _residuals(p, prob), params, iterations)


def _start(prob: _Problem, corners_px: F64, hfov_deg: float, k1: float) -> F64 | None:
    """Initial parameters from solvePnP on the corners for one focal length, or None."""
    w, h = prob.size_px
    f = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    k = np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
    obj = np.c_[np.array([s[0] for s in prob.sides_mm]), np.zeros(4)]
    ok, rvec, tvec = cv2.solvePnP(
        obj, corners_px.reshape(-1, 1, 2), k, np.array([k1, 0, 0, 0, 0.0]),
        flags=cv2.SOLVEPNP_IPPE,
    )  # fmt: skip
    if not ok or float(tvec[2, 0]) <= 0.0:
        return None
    dist = [k1, 0.0][: prob.n_dist]
    return np.concatenate([[f], dist, rvec.ravel(), tvec.ravel()])


def _problems(
    edges: TableEdges, length_mm: float, width_mm: float, nose_mm: float, n_dist: int
) -> list[_Problem]:
    """The four ways image corners can match table corners, keeping cyclic order."""
    table = _table_corners(length_mm, width_mm)
    out = []
    for shift in range(4):
        order = np.roll(table, -shift, axis=0)
        sides = tuple(np.array([order[i], order[(i + 1) % 4]]) for i in range(4))
        centre = np.array([length_mm / 2.0, width_mm / 2.0])
        out.append(_Problem(edges.image_size_px, sides, edges.edges_px, centre, nose_mm, n_dist))
    return out


def _to_camera(params: F64, prob: _Problem) -> Camera:
    """The :class:`Camera` for a parameter vector."""
    k, rvec, tvec, dist = _camera(params, prob)
    rot, _ = cv2.Rodrigues(rvec)
    centre = -rot.T @ tvec
    # R = Rz(roll) Rx(tilt) Rz(yaw): recover the three angles.
    tilt = math.atan2(math.hypot(rot[2, 0], rot[2, 1]), rot[2, 2])
    if abs(math.sin(tilt)) > 1e-9:
        yaw = math.atan2(rot[2, 0], rot[2, 1])
        roll = math.atan2(rot[0, 2], -rot[1, 2])
    else:
        yaw, roll = math.atan2(rot[1, 0], rot[0, 0]), 0.0
    if abs(yaw) > math.pi / 2.0:  # the same rotation with the tilt the other way
        tilt, yaw, roll = -tilt, _wrap(yaw + math.pi), _wrap(roll + math.pi)
    w, h = prob.size_px
    intr = Intrinsics(w, h, k[0, 0], k[0, 0], k[0, 2], k[1, 2])
    angles = (math.degrees(a) for a in (yaw, tilt, roll))
    pose = Pose(float(centre[0]), float(centre[1]), float(-centre[2]), *angles)
    return Camera(intr, dist, pose)


def _wrap(angle: float) -> float:
    return math.atan2(math.sin(angle), math.cos(angle))


def _image_right_deg(params: F64, prob: _Problem) -> float:
    """Angle in the table frame of the image's u axis: 0 when head->foot goes right."""
    rot, _ = cv2.Rodrigues(_camera(params, prob)[1])
    return abs(math.degrees(math.atan2(rot[0, 1], rot[0, 0])))


def _plausible(params: F64, prob: _Problem) -> bool:
    """A lens and pose a club installation could have."""
    w = prob.size_px[0]
    if not (0.15 * w <= params[0] <= 5.0 * w and abs(params[1]) <= 0.8):
        return False
    try:
        cam = _to_camera(params, prob)
    except CalibrationError:
        return False
    return 500.0 <= cam.pose.height_mm <= 10000.0


def _starts(probs: list[_Problem], corners_px: F64) -> list[tuple[F64, int]]:
    """Promising starts (parameters, assignment index) from the corners alone.

    Assignments whose corners reproject badly (length and width swapped) are dropped;
    of two assignments a half turn apart, the one with head->foot nearer image-right
    stays.
    """
    scored = []
    for shift, prob in enumerate(probs):
        obj = np.c_[np.array([s[0] for s in prob.sides_mm]), np.zeros(4)]
        for hfov in _HFOV_STARTS_DEG:
            start = _start(prob, corners_px, hfov, 0.0)
            if start is None:
                continue
            k, rvec, tvec, _ = _camera(start, prob)
            uv, _ = cv2.projectPoints(obj, rvec, tvec, k, None)
            err = float(np.abs(uv.reshape(4, 2) - corners_px).max())
            scored.append((err, _image_right_deg(start, prob), shift % 2, start, shift))
    if not scored:
        return []
    lowest = min(item[0] for item in scored)
    kept: dict[tuple[int, float], tuple[float, F64, int]] = {}
    for err, right, pair, start, shift in scored:
        if err > 2.0 * lowest + 3.0:
            continue
        slot = (pair, float(start[0]))
        if slot not in kept or right < kept[slot][0]:
            kept[slot] = (right, start, shift)
    return [(start, shift) for _, start, shift in kept.values()]


def _fit_cloth(
    edges: TableEdges, length_mm: float, width_mm: float, nose_mm: float, n_dist: int
) -> tuple[F64, _Problem]:
    """Best parameters over corner assignments and start focals, cloth edges only."""
    thin = _problems(edges.thinned(40), length_mm, width_mm, nose_mm, n_dist)
    best: tuple[float, float, F64, int] | None = None
    for params, shift in _starts(thin, edges.corners_px):
        prob = thin[shift]
        params = _levenberg_marquardt(params, prob, iterations=15)
        if not _plausible(params, prob):
            continue
        res = _residuals(params, prob)
        key = (round(float(np.sqrt(np.mean(res * res))), 1), _image_right_deg(params, prob))
        if best is None or key < (best[0], best[1]):
            best = (key[0], key[1], params, shift)
    if best is None:
        raise CalibrationError("no camera fits the table's edges; mark the corners by hand")
    full = _problems(edges.thinned(120), length_mm, width_mm, nose_mm, n_dist)[best[3]]
    return _levenberg_marquardt(best[2], full), full


def fit_edges(
    edges: TableEdges,
    *,
    length_mm: float = 2840.0,
    width_mm: float = 1420.0,
    nose_height_mm: float = NOSE_HEIGHT_MM,
    fit_k2: bool = False,
) -> Fit:
    """Fit a camera to detected cloth edges alone (no nose line: see :func:`fit_camera`).

    Args:
        edges: Edge points and corner estimates in pixels (:func:`detect_table`).
        length_mm: Playing-surface length (head to foot cushion nose), mm.
        width_mm: Playing-surface width, mm.
        nose_height_mm: Cushion nose height above the cloth, mm.
        fit_k2: Fit k2 as well as k1.

    Returns:
        The best camera over the four corner assignments and several start focals.

    Raises:
        CalibrationError: No start converged to a plausible camera.
    """
    n_dist = 2 if fit_k2 else 1
    return _summary(*_fit_cloth(edges, length_mm, width_mm, nose_height_mm, n_dist))


def _summary(params: F64, prob: _Problem) -> Fit:
    res = _residuals(params, prob)
    sizes = np.cumsum([0] + [len(p) for p in prob.points_px])
    per = [float(np.sqrt(np.mean(res[a:b] ** 2))) for a, b in itertools.pairwise(sizes)]
    lines = res[: len(res) - 2 * len(prob.diamonds_px)]  # edge and nose points
    rms = float(np.sqrt(np.mean(lines * lines)))
    n = len(lines) + len(prob.diamonds_px)
    n_dia = len(prob.diamonds_px)
    inset = float(params[-1]) if n_dia else 0.0
    per4 = (per[0], per[1], per[2], per[3])
    return Fit(_to_camera(params, prob), per4, rms, n, n_dia, inset)


def _diamond_fit(
    params: F64, prob: _Problem, grey: NDArray[np.float32], rail_mm: float, offset_mm: float
) -> tuple[F64, _Problem] | None:
    """Refit with the diamonds found near their predicted pixels; None if too few.

    Three rounds of predict, search (a window of 2% of the image width, then 1%),
    fit, drop the diamonds off by more than 2 px or three times the median, refit.
    The parameters gain two: the diamonds' offset out from the nose line (from
    ``offset_mm``) and the inset of the seen cloth edge inside the nose line (from 0).
    """
    w = prob.size_px[0]
    corners = np.array([s[0] for s in prob.sides_mm])
    base, out = _diamond_candidates(float(np.ptp(corners[:, 0])), float(np.ptp(corners[:, 1])),
                                    rail_mm)  # fmt: skip
    params = np.append(params, [offset_mm, 0.0])
    for window in (0.02 * w, 0.01 * w, 0.01 * w):
        try:
            pred = _to_camera(params, prob).project(
                base + np.c_[out * params[-2], np.zeros(len(out))]
            )
        except CalibrationError:
            return None
        idx, uv = diamond_points(grey, pred, window, 0.01 * w)
        if len(idx) < MIN_DIAMONDS:
            return None
        trial = replace(prob, diamonds_mm=base[idx], diamonds_out=out[idx], diamonds_px=uv)
        fitted = _levenberg_marquardt(params, trial, iterations=30)
        k, rvec, tvec, dist = _camera(fitted, trial)
        rot = np.asarray(cv2.Rodrigues(rvec)[0], dtype=np.float64)
        xyz = _diamond_xyz(trial, float(fitted[-2]))
        err = np.hypot(*_diamond_errors(xyz, uv, k, rot, tvec, dist).T)
        keep = np.nan_to_num(err, nan=1e3) < max(2.0, 3.0 * float(np.nanmedian(err)))
        if keep.sum() < MIN_DIAMONDS:
            return None
        kept = idx[keep]
        trial = replace(trial, diamonds_mm=base[kept], diamonds_out=out[kept], diamonds_px=uv[keep])
        params, prob = _levenberg_marquardt(fitted, trial), trial
    return params, prob


def fit_camera(
    image_bgr: NDArray[np.uint8],
    *,
    length_mm: float = 2840.0,
    width_mm: float = 1420.0,
    nose_height_mm: float = NOSE_HEIGHT_MM,
    rail_height_mm: float = RAIL_HEIGHT_MM,
    fit_k2: bool = False,
    edges: TableEdges | None = None,
) -> Fit:
    """Detect the table in a BGR frame (h, w, 3) and fit the camera to it.

    ``edges`` skips the detection when the caller already ran :func:`detect_table`.

    First the cloth edges (:func:`detect_table`, :func:`fit_edges`); then the diamonds
    on the rails (``rail_height_mm`` above the cloth), found where that camera predicts
    them, join the fit and fix the camera height that the flat cloth edges alone cannot
    tell. With fewer than :data:`MIN_DIAMONDS` found, the nose lines do instead: the
    nose is ``nose_height_mm`` above the cloth edge (true of rendered tables, not of
    real ones, whose dark cushion band is mostly shadow).

    Raises:
        CalibrationError: No table in the picture, or no plausible camera.
    """
    edges = edges or detect_table(image_bgr)
    n_dist = 2 if fit_k2 else 1
    params, prob = _fit_cloth(edges, length_mm, width_mm, nose_height_mm, n_dist)
    offset = TableGeometry().diamond_offset_mm  # a start: the fit finds the table's
    grey = grey_image(image_bgr)
    # From the cloth fit; if that leads nowhere plausible (a lens the edges alone
    # bent too far), from the corners' solvePnP starts without distortion.
    starts = [params] + [_start(prob, edges.corners_px, hfov, 0.0) for hfov in _HFOV_STARTS_DEG]
    for start in starts:
        if start is None:
            continue
        with_diamonds = _diamond_fit(start, prob, grey, rail_height_mm, offset)
        if with_diamonds is not None and _plausible(*with_diamonds):
            return _summary(*with_diamonds)
    dist = colour_distance(image_bgr, edges.cloth_bgr, sigma_px=0.7)
    cloth_only = (params, prob)
    for _ in range(3):
        cam = _to_camera(params, prob)
        nose = nose_points(dist, cam, prob.sides_mm, prob.points_px, prob.centre_mm, prob.nose_mm)
        if sum(len(n) for n in nose) < 20:
            break
        prob = replace(prob, nose_px=nose)
        params = _levenberg_marquardt(params, prob)
    if not _plausible(params, prob):  # the nose points misled the fit: drop them
        params, prob = cloth_only
    return _summary(params, prob)
