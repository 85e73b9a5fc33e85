"""The camera fit's model: parameter vector, residuals, starts and the :class:`Fit`.

Theory of operation. A fit problem (:class:`_Problem`) holds the observed pixels (edge
points per image side, nose points, diamonds) and which table side each image side
is. The parameter vector is, in order: the focal length (square pixels, principal
point at the image centre), k1 (and k2), the Rodrigues vector and the translation
(OpenCV frame of :func:`calibration.to_cv_points`), and with diamonds two more: their
offset out from the nose line and the inset of the seen cloth edge inside it. With a
fixed lens (``_Problem.lens``, e.g. from checkerboards) the focal length and
distortion are not parameters: the vector starts with the pose. The residuals are the
pixel distances of the undistorted edge points to their side's projected line and the
diamonds' reprojection errors; :mod:`calibration._fit` minimises them.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

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
from calibration._detect import TableEdges
from calibration._lsq import least_squares

__all__ = ["Fit", "Lens"]

F64 = NDArray[np.float64]
#: A fixed lens: intrinsics and distortion, or what :func:`fit_lens_from_checkerboards`
#: returns (:data:`calibration.Lens`: its RMS in px third); only the first two are used.
Lens = tuple[Intrinsics, Distortion] | tuple[Intrinsics, Distortion, float]

NOSE_HEIGHT_MM = 37.0
RAIL_HEIGHT_MM = 42.0
#: Fewest diamonds that replace the nose line in :func:`fit_camera`.
MIN_DIAMONDS = 8
#: A diamond's pixel error against an edge point's distance: marked points (the
#: manual fit) and the automatic fit, whose diamonds, compact blobs centred to a
#: fraction of a pixel, hold better than edge points a smeared picture shifts by ~1 px.
DIAMOND_WEIGHT = 2.0
AUTO_DIAMOND_WEIGHT = 4.0
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
        diamond_offset_mm: How far out from the cushion nose the diamonds lie (fitted
            with the diamonds; None otherwise), mm.
    """

    camera: Camera
    residuals_px: tuple[float, float, float, float]
    rms_px: float
    n_points: int
    n_diamonds: int = 0
    edge_inset_mm: float = 0.0
    diamond_offset_mm: float | None = None


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
    n_dist: int  # 1: k1, 2: k1 and k2, 4: k1, k2, p1 and p2
    nose_px: tuple[F64, ...] = ()  # per side: points (m, 2) on the nose line, if seen
    # Diamonds found: on the nose line's extension at rail height (k, 3) mm, their
    # outward unit normals (k, 2) (the offset out to the rail centre is the last
    # parameter) and pixels (k, 2).
    diamonds_mm: F64 = field(default_factory=lambda: np.zeros((0, 3)))
    diamonds_out: F64 = field(default_factory=lambda: np.zeros((0, 2)))
    diamonds_px: F64 = field(default_factory=lambda: np.zeros((0, 2)))
    lens: Lens | None = None  # fixed intrinsics and distortion: only the pose is fitted
    diamond_weight: float = DIAMOND_WEIGHT
    # The edge and nose points undistorted for the last (f_x, f_y, c_x, c_y, lens):
    # of the Jacobian's columns only the focal length's and the lens's change them.
    undistorted: dict[tuple[float, float, float, float, Distortion], F64] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )


def _camera(params: F64, prob: _Problem) -> tuple[F64, F64, F64, Distortion]:
    """(K (3, 3), rvec (3,), tvec (3,), distortion) from the parameter vector."""
    if prob.lens is not None:
        return prob.lens[0].matrix(), params[0:3], params[3:6], prob.lens[1]
    w, h = prob.size_px
    f = max(float(params[0]), 0.1 * w)
    k = np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
    k2 = float(params[2]) if prob.n_dist >= 2 else 0.0
    p1, p2 = (float(v) for v in np.clip(params[3:5], -0.1, 0.1)) if prob.n_dist == 4 else (0, 0)
    dist = Distortion(float(np.clip(params[1], -1, 1)), float(np.clip(k2, -1, 1)), p1, p2)
    off = 1 + prob.n_dist
    return k, params[off : off + 3], params[off + 3 : off + 6], dist


def _residuals(params: F64, prob: _Problem) -> F64:
    """Signed distances (n,) px of the edge points to their projected side lines.

    Cloth-edge points first (side by side), then the nose points, then the diamonds'
    weighted reprojection errors (2k,).
    """
    k, rvec, tvec, dist = _camera(params, prob)
    f_xy = np.diag(k)[:2]
    rot = np.asarray(cv2.Rodrigues(rvec)[0], dtype=np.float64)
    centre = -rot.T @ tvec  # camera centre, cv world (x, y, -z)
    groups = list(prob.points_px) + list(prob.nose_px)
    xy_all = _undistorted(prob, groups, k, dist)
    heights = []
    for seg in prob.sides_mm:
        mid = (seg[0] + seg[1]) / 2.0  # the mean, without numpy's reduction machinery
        beyond = float((centre[:2] - mid) @ (prob.centre_mm - mid)) < 0.0
        heights.append(prob.nose_mm if beyond else 0.0)
    heights += [prob.nose_mm] * len(prob.nose_px)
    sides = list(prob.sides_mm) + list(prob.sides_mm[: len(prob.nose_px)])
    if len(prob.diamonds_px):  # the cloth edge may lie inside the nose line by params[-1]
        sides = [_inset(seg, prob.centre_mm, float(params[-1])) for seg in sides]
    bounds = np.cumsum([0] + [len(g) for g in groups])
    f_px = 0.5 * float(f_xy[0] + f_xy[1])
    out = [
        _line_distances(xy_all[a:b], seg, z, f_px, rot, tvec, dist)
        for a, b, seg, z in zip(bounds[:-1], bounds[1:], sides, heights, strict=True)
    ]
    if len(prob.diamonds_px):
        xyz = _diamond_xyz(prob, float(params[-2]))
        out.append(prob.diamond_weight * _diamond_errors(xyz, prob.diamonds_px, k, rot, tvec,
                                                     dist).ravel())  # fmt: skip
    res: F64 = np.nan_to_num(np.concatenate(out), nan=1e3)
    return res


def _undistorted(prob: _Problem, groups: list[F64], k: F64, dist: Distortion) -> F64:
    """The edge and nose points (n, 2) undistorted by ``k`` and ``dist``, kept for the next call.

    The same arithmetic for the same inputs: only the focal length and the lens move
    them, so the pose's columns of the Jacobian (and a rejected step's retry) reuse them.
    """
    key = (float(k[0, 0]), float(k[1, 1]), float(k[0, 2]), float(k[1, 2]), dist)
    found = prob.undistorted.get(key)
    if found is None:
        found = dist.remove((np.concatenate(groups) - k[:2, 2]) / np.diag(k)[:2])  # one call
        prob.undistorted.clear()
        prob.undistorted[key] = found
    return found


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
    out: F64 = xy * np.diag(k)[:2] + k[:2, 2] - uv_px
    return out


def _line_distances(
    xy: F64, seg: F64, z_mm: float, f_px: float, rot: F64, tvec: F64, dist: Distortion
) -> F64:
    """Distances (m,) px of undistorted points (m, 2) to the image of line ``seg`` at z."""
    ends = np.empty((2, 3))
    ends[:, :2], ends[:, 2] = seg, -z_mm  # np.c_[seg, -z], at a tenth of its cost
    ends = ends @ rot.T + tvec
    a, b = ends[0, :2] / ends[0, 2], ends[1, :2] / ends[1, 2]
    d = b - a
    n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-12)
    # Normalised distance to pixels: the focal length times the lens's local
    # magnification (between its radial and tangential values).
    r2 = xy[:, 0] * xy[:, 0] + xy[:, 1] * xy[:, 1]
    gain = 1.0 + 2.0 * dist.k1 * r2 + 3.0 * dist.k2 * r2 * r2
    out: F64 = ((xy - a) @ n) * f_px * gain
    return out


def _levenberg_marquardt(params: F64, prob: _Problem, iterations: int = 60) -> F64:
    """Minimise the problem's squared residuals (:func:`least_squares`)."""
    return least_squares(lambda p: _residuals(p, prob), params, iterations)


def _start_hfovs(prob: _Problem) -> tuple[float, ...]:
    """Start fields of view to try: one suffices when the lens is fixed."""
    return _HFOV_STARTS_DEG if prob.lens is None else _HFOV_STARTS_DEG[:1]


def _start(prob: _Problem, corners_px: F64, hfov_deg: float, k1: float) -> F64 | None:
    """Initial parameters from solvePnP on the corners for one focal length, or None.

    With a fixed lens, ``hfov_deg`` and ``k1`` are ignored: the lens's are used.
    """
    w, h = prob.size_px
    f = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    k = np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
    coeffs = np.array([k1, 0, 0, 0, 0.0])
    if prob.lens is not None:
        k, coeffs = prob.lens[0].matrix(), prob.lens[1].coeffs()
    obj = np.c_[np.array([s[0] for s in prob.sides_mm]), np.zeros(4)]
    ok, rvec, tvec = cv2.solvePnP(
        obj, corners_px.reshape(-1, 1, 2), k, coeffs, flags=cv2.SOLVEPNP_IPPE
    )
    if not ok or float(tvec[2, 0]) <= 0.0:
        return None
    if prob.lens is not None:
        return np.concatenate([rvec.ravel(), tvec.ravel()])
    dist = [k1, 0.0][: prob.n_dist]
    return np.concatenate([[f], dist, rvec.ravel(), tvec.ravel()])


def _problems(
    edges: TableEdges,
    length_mm: float,
    width_mm: float,
    nose_mm: float,
    n_dist: int,
    lens: Lens | None = None,
) -> list[_Problem]:
    """The four ways image corners can match table corners, keeping cyclic order."""
    if lens is not None and (lens[0].width_px, lens[0].height_px) != edges.image_size_px:
        size = f"{lens[0].width_px}x{lens[0].height_px}"
        raise CalibrationError(
            f"the lens was calibrated at {size} px but the frame is "
            f"{edges.image_size_px[0]}x{edges.image_size_px[1]}; use the same camera mode"
        )
    table = _table_corners(length_mm, width_mm)
    out = []
    for shift in range(4):
        order = np.roll(table, -shift, axis=0)
        sides = tuple(np.array([order[i], order[(i + 1) % 4]]) for i in range(4))
        centre = np.array([length_mm / 2.0, width_mm / 2.0])
        out.append(
            _Problem(edges.image_size_px, sides, edges.edges_px, centre, nose_mm, n_dist, lens=lens)
        )
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
    intr = prob.lens[0] if prob.lens else Intrinsics(w, h, k[0, 0], k[0, 0], k[0, 2], k[1, 2])
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
    if prob.lens is None and not (0.15 * w <= params[0] <= 5.0 * w and abs(params[1]) <= 0.8):
        return False
    try:
        cam = _to_camera(params, prob)
    except CalibrationError:
        return False
    return 500.0 <= cam.pose.height_mm <= 10000.0


def _summary(params: F64, prob: _Problem) -> Fit:
    res = _residuals(params, prob)
    sizes = np.cumsum([0] + [len(p) for p in prob.points_px])
    per = [float(np.sqrt(np.mean(res[a:b] ** 2))) for a, b in itertools.pairwise(sizes)]
    lines = res[: len(res) - 2 * len(prob.diamonds_px)]  # edge and nose points
    rms = float(np.sqrt(np.mean(lines * lines)))
    n = len(lines) + len(prob.diamonds_px)
    n_dia = len(prob.diamonds_px)
    inset = float(params[-1]) if n_dia else 0.0
    offset = float(params[-2]) if n_dia else None
    per4 = (per[0], per[1], per[2], per[3])
    return Fit(_to_camera(params, prob), per4, rms, n, n_dia, inset, offset)
