"""Find the playing surface in a frame: the cloth, its four edges and corners.

Theory of operation. The cloth is the dominant saturated hue near the image centre
(blue or green alike): a hue histogram of the central box gives its colour, the
connected region of that colour around the centre (chalk lines bridged) is the
cloth, holes (balls, spots) filled. Its convex hull, reduced to four vertices, is a
first quadrilateral. Along normals of each side, the cloth edge is the first strong
rise, going outwards, of the colour distance from the cloth, located to a fraction of
a pixel by a parabola through the gradient maximum. An arm, a cue or a ball on the
edge gives points off the edge: a RANSAC fit of a quadratic curve per side (a lens
bends the straight edge into a gentle arc) keeps the points that agree. A frame
without a large cloth region raises :class:`CalibrationError` instead of guessing.

Image frame: pixels ``uv_px``, OpenCV convention (u right, v down, (0, 0) the centre of
the top-left pixel). Sides are numbered clockwise in the image from the corner nearest
the top-left: 0 from corner 0 to 1, 1 from corner 1 to 2, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError, Camera, check_shape

__all__ = [
    "TableEdges",
    "cloth_mask",
    "colour_distance",
    "detect_table",
    "nose_points",
    "strongest_fall",
]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]

#: Below this share of the picture covered by cloth, there is no table to calibrate on.
MIN_CLOTH_SHARE = 0.08
_HUE_TOL = 12  # OpenCV hue units (0..180)
_RANSAC_TOL_PX = 1.5
_MIN_INLIER_SHARE = 0.3


@dataclass(frozen=True, slots=True)
class TableEdges:
    """The cloth edges found in one frame.

    Attributes:
        image_size_px: Frame (width, height) in pixels.
        corners_px: Corner estimates (4, 2) ``uv_px``, clockwise from the one nearest
            the image's top-left corner.
        edges_px: Per side, edge points (n_i, 2) ``uv_px`` on the cloth boundary,
            outliers removed; side i runs from corner i to corner i + 1.
        cloth_bgr: Median cloth colour (3,), BGR 0..255.
        cloth_share: Share of the picture covered by the cloth region, 0..1.
    """

    image_size_px: tuple[int, int]
    corners_px: F64
    edges_px: tuple[F64, F64, F64, F64]
    cloth_bgr: F64
    cloth_share: float

    def __post_init__(self) -> None:
        if check_shape("corners_px", self.corners_px, 2).shape != (4, 2):
            raise CalibrationError(f"corners_px: expected (4, 2), got {self.corners_px.shape}")
        for i, pts in enumerate(self.edges_px):
            check_shape(f"edges_px[{i}]", pts, 2)

    def thinned(self, per_side: int) -> TableEdges:
        """The same edges with at most ``per_side`` evenly spread points a side."""
        a, b, c, d = (p[np.linspace(0, len(p) - 1, min(per_side, len(p))).astype(int)]
                      for p in self.edges_px)  # fmt: skip
        return TableEdges(self.image_size_px, self.corners_px, (a, b, c, d),
                          self.cloth_bgr, self.cloth_share)  # fmt: skip

    @property
    def n_points(self) -> int:
        """Edge points over all four sides."""
        return sum(len(p) for p in self.edges_px)


def _check_image(image_bgr: U8) -> None:
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
        raise CalibrationError(
            f"image_bgr: expected (h, w, 3) uint8, got {image_bgr.shape} {image_bgr.dtype}"
        )


def _cloth_hue(hsv: U8) -> int | None:
    """Dominant saturated hue (OpenCV units) in the central box, or None if none."""
    h, w = hsv.shape[:2]
    box = hsv[int(0.3 * h) : int(0.7 * h), int(0.3 * w) : int(0.7 * w)].reshape(-1, 3)
    sat = box[(box[:, 1] > 60) & (box[:, 2] > 50)]
    if len(sat) < 0.2 * len(box):
        return None
    hist = np.bincount(sat[:, 0], minlength=180).astype(np.float64)
    smooth = sum(np.roll(hist, k) for k in range(-4, 5))
    return int(np.argmax(smooth))


def cloth_mask(image_bgr: U8) -> tuple[U8, F64]:
    """The cloth region (h, w) uint8 0/255, holes filled, and its median BGR (3,).

    Raises:
        CalibrationError: No cloth-coloured region around the image centre.
    """
    _check_image(image_bgr)
    hsv: U8 = np.asarray(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2HSV), dtype=np.uint8)
    hue = _cloth_hue(hsv)
    if hue is None:
        raise _no_table(0.0)
    dh = np.abs(hsv[..., 0].astype(np.int16) - hue)
    close = np.minimum(dh, 180 - dh) <= _HUE_TOL
    core = close & (hsv[..., 1] > 60) & (hsv[..., 2] > 50)
    s_med, v_med = (float(np.median(hsv[..., c][core])) for c in (1, 2))
    raw = close & (hsv[..., 1] > 0.4 * s_med) & (hsv[..., 2] > 0.55 * v_med)
    raw_u8 = cv2.morphologyEx(raw.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    h, w = raw.shape
    # Chalk lines (balkline, five pins) cut the cloth into fields: bridge lines a few
    # pixels wide so that the fields join into one region.
    bridge = 2 * max(round(0.003 * w), 1) + 1
    joined = cv2.morphologyEx(raw_u8, cv2.MORPH_CLOSE, np.ones((bridge, bridge), np.uint8))
    n, labels, _stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=4)
    centre = labels[int(0.3 * h) : int(0.7 * h), int(0.3 * w) : int(0.7 * w)].ravel()
    counts = np.bincount(centre, minlength=n)
    counts[0] = 0
    label = int(np.argmax(counts))
    region = (labels == label).astype(np.uint8) * 255 if counts[label] else raw_u8 * 0
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    pixels = image_bgr[(filled > 0) & raw]
    colour = np.median(pixels, axis=0) if len(pixels) else np.zeros(3)
    return np.asarray(filled, dtype=np.uint8), np.asarray(colour, dtype=np.float64)


def _no_table(share: float) -> CalibrationError:
    return CalibrationError(
        f"no table found: the cloth covers only {100.0 * share:.0f}% of the picture; "
        "point the camera at the table or mark the corners"
    )


def _quad(mask: U8) -> F64:
    """Four corners (4, 2) of the region's hull, clockwise from the top-left-most."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    perimeter = cv2.arcLength(hull, closed=True)
    quad = None
    for frac in np.geomspace(0.005, 0.2, 40):
        approx = cv2.approxPolyDP(hull, float(frac * perimeter), closed=True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
        if len(approx) < 4:
            break
    if quad is None:
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    centre = quad.mean(axis=0)
    angle = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angle)]  # clockwise on screen (v points down)
    start = int(np.argmin(quad.sum(axis=1)))
    out: F64 = np.roll(quad, -start, axis=0)
    return out


def _profiles(dist: F32, a: F64, b: F64, reach_px: float) -> tuple[F64, F64, F64]:
    """Sample positions along side a->b and the distance image along outward normals.

    Returns side points (m, 2), outward unit normal (2,) and profiles (m, k) with
    samples 1 px apart from ``-reach_px`` to ``+reach_px``.
    """
    side = b - a
    length = float(np.hypot(*side))
    tangent = side / length
    normal = np.array([tangent[1], -tangent[0]])  # outward for a clockwise quad, v down
    t = np.linspace(0.06, 0.94, max(int(length / 3.0), 8))
    base = a + t[:, None] * side
    steps = np.arange(-reach_px, reach_px + 1.0)
    pts = base[:, None, :] + steps[None, :, None] * normal
    map_u, map_v = pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32)
    prof = cv2.remap(dist, map_u, map_v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return base, normal, np.asarray(prof, dtype=np.float64)


def _first_rise(prof: F64, reach_px: float, floor: float) -> F64:
    """Offset (m,) of the first strong outward rise per profile, sub-pixel; NaN if none.

    A rise counts from ``floor`` (colour distance per pixel) or a tenth of the
    profile's strongest: the step from cloth to the cushion top is faint next to the
    one from cushion to rail.
    """
    grad = np.gradient(prof, axis=1)
    strong = np.maximum(0.1 * grad.max(axis=1, keepdims=True), floor)
    peak = (grad[:, 1:-1] >= grad[:, :-2]) & (grad[:, 1:-1] > grad[:, 2:])
    peak &= grad[:, 1:-1] >= strong
    out = np.full(len(prof), np.nan)
    rows = np.flatnonzero(peak.any(axis=1))
    cols = np.argmax(peak[rows], axis=1) + 1
    g0, g1, g2 = grad[rows, cols - 1], grad[rows, cols], grad[rows, cols + 1]
    denom = g0 - 2.0 * g1 + g2
    frac = np.where(denom < 0.0, 0.5 * (g0 - g2) / np.where(denom < 0.0, denom, -1.0), 0.0)
    out[rows] = cols + np.clip(frac, -0.5, 0.5) - reach_px
    return out


def _ransac_curve(t: F64, s: F64, rng: np.random.Generator) -> NDArray[np.bool_]:
    """Inliers of a quadratic ``s(t)`` fitted by RANSAC, refined by least squares."""
    best = np.zeros(len(t), dtype=bool)
    if len(t) < 6:
        return best
    for _ in range(150):
        idx = rng.choice(len(t), 3, replace=False)
        if np.ptp(t[idx]) < 0.2 * np.ptp(t):
            continue
        coef = np.polyfit(t[idx], s[idx], 2)
        inl = np.abs(np.polyval(coef, t) - s) < _RANSAC_TOL_PX
        if inl.sum() > best.sum():
            best = inl
    for _ in range(2):
        if best.sum() < 6:
            break
        coef = np.polyfit(t[best], s[best], 2)
        best = np.abs(np.polyval(coef, t) - s) < _RANSAC_TOL_PX
    return best


def _side_points(dist: F32, a: F64, b: F64, reach_px: float, floor: float, seed: int) -> F64:
    base, normal, prof = _profiles(dist, a, b, reach_px)
    off = _first_rise(prof, reach_px, floor)
    ok = np.isfinite(off)
    t = np.linspace(0.0, 1.0, len(base))[ok]
    inl = _ransac_curve(t, off[ok], np.random.default_rng(seed))
    if inl.sum() < _MIN_INLIER_SHARE * len(base):
        raise CalibrationError(
            f"table edge not found: only {int(inl.sum())} of {len(base)} points along a "
            "cushion agree; mark the corners"
        )
    pts: F64 = base[ok][inl] + off[ok][inl][:, None] * normal
    return pts


def _curve(pts: F64) -> tuple[F64, F64, F64, F64]:
    """A side as a quadratic: origin (2,), unit tangent (2,), unit normal (2,), coef (3,).

    The offset along the normal is a quadratic in the distance along the tangent,
    fitted to the side's points (n, 2): a lens bends a straight side into such an arc.
    """
    centre = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - centre)
    tangent, normal = vt[0], vt[1]
    coef = np.polyfit((pts - centre) @ tangent, (pts - centre) @ normal, 2)
    return centre, tangent, normal, coef


def _corner(p: F64, q: F64) -> F64:
    """Where the arcs through point sets p and q (n, 2) meet, (2,) px."""
    curves = (_curve(p), _curve(q))
    x = curves[0][0].copy()
    for i in range(40):
        centre, tangent, normal, coef = curves[i % 2]
        t = float((x - centre) @ tangent)
        x = centre + t * tangent + float(np.polyval(coef, t)) * normal
    return x


def detect_table(image_bgr: U8, *, seed: int = 0) -> TableEdges:
    """Find the cloth's four edges and corners in a BGR frame.

    Args:
        image_bgr: Frame (h, w, 3) uint8, BGR.
        seed: Seed of the RANSAC sampling (results are deterministic given it).

    Returns:
        The edges, corners and cloth colour, in pixels of this frame.

    Raises:
        CalibrationError: No table in the picture (too little cloth), or an edge that
            too few points agree on; the message says what to do.
    """
    mask, colour = cloth_mask(image_bgr)
    h, w = mask.shape
    share = float(np.count_nonzero(mask)) / (h * w)
    if share < MIN_CLOTH_SHARE:
        raise _no_table(share)
    quad = _quad(mask)
    dist = colour_distance(image_bgr, colour)
    reach = 0.04 * float(np.hypot(w, h))
    floor = max(0.018 * float(np.linalg.norm(colour)), 3.0)
    edges = tuple(
        _side_points(dist, quad[i], quad[(i + 1) % 4], reach, floor, seed + i) for i in range(4)
    )
    corners = np.array([_corner(edges[i - 1], edges[i]) for i in range(4)])
    return TableEdges((w, h), corners, (edges[0], edges[1], edges[2], edges[3]), colour, share)


def colour_distance(image_bgr: U8, cloth_bgr: F64, sigma_px: float = 1.0) -> NDArray[np.float32]:
    """Distance (h, w) of each pixel's BGR from the cloth colour, Gaussian-smoothed."""
    diff = image_bgr.astype(np.float32) - cloth_bgr.astype(np.float32)
    out = cv2.GaussianBlur(np.sqrt((diff * diff).sum(axis=2)), (0, 0), sigma_px)
    return np.asarray(out, dtype=np.float32)


def strongest_fall(dist: NDArray[np.float32], start_px: F64, dir_px: F64, hi_px: F64) -> F64:
    """Offset (n,) px of the strongest fall of ``dist`` along each ray, sub-pixel.

    The outer edge of the dark cushion face: from the cloth edge ``start_px`` (n, 2)
    along unit directions ``dir_px`` (n, 2) out to ``hi_px`` (n,) pixels, the colour
    distance drops where the face meets the lighter cushion top. NaN where it does not
    drop by at least 2 per pixel.
    """
    steps = np.arange(0.0, float(np.max(hi_px, initial=1.0)) + 2.0, 0.25)
    pts = start_px[:, None, :] + steps[None, :, None] * dir_px[:, None, :]
    prof = cv2.remap(
        dist, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE,
    )  # fmt: skip
    grad = np.gradient(np.asarray(prof, dtype=np.float64), 0.25, axis=1)
    grad[steps[None, :] > hi_px[:, None]] = 0.0
    grad[:, :2] = 0.0
    col = np.clip(np.argmin(grad, axis=1), 1, len(steps) - 2)
    rows = np.arange(len(grad))
    g0, g1, g2 = grad[rows, col - 1], grad[rows, col], grad[rows, col + 1]
    denom = g0 - 2.0 * g1 + g2
    frac = np.where(denom > 0.0, 0.5 * (g0 - g2) / np.where(denom > 0.0, denom, 1.0), 0.0)
    out: F64 = (col + np.clip(frac, -0.5, 0.5)) * 0.25
    out[g1 > -2.0] = np.nan
    return out


def nose_points(
    dist: F32,
    camera: Camera,
    sides_mm: tuple[F64, ...],
    edges_px: tuple[F64, ...],
    centre_mm: F64,
    nose_mm: float,
) -> tuple[F64, ...]:
    """Per side, points (m, 2) ``uv_px`` where the cushion face meets the cushion top.

    Args:
        dist: Colour distance from the cloth (h, w) (:func:`colour_distance`).
        camera: A camera fitted to the cloth edges (its height may be off).
        sides_mm: Per image side, the table corners (2, 2) mm it runs between.
        edges_px: Per side, the cloth-edge points (n, 2) px.
        centre_mm: Playing-surface centre (2,) mm.
        nose_mm: Cushion nose height above the cloth, mm.

    Only on sides the camera is inside of (elsewhere the nose hides the face) and where
    the face is predicted at least 1.5 px wide; the search runs from each cloth-edge
    point towards its predicted nose point, to twice the predicted width, and keeps
    the points whose width ratio agrees with the side's median within 25%. A side with
    fewer than 10 such points gives an empty (0, 2) array.
    """
    out = []
    for seg, pts in zip(sides_mm, edges_px, strict=True):
        mid = seg.mean(axis=0)
        found = np.zeros((0, 2))
        if float((camera.position_mm[:2] - mid) @ (centre_mm - mid)) > 0.0:
            found = _nose_side(dist, camera, seg, pts, nose_mm)
        out.append(found)
    return tuple(out)


def _nose_side(dist: F32, camera: Camera, seg: F64, pts: F64, nose_mm: float) -> F64:
    tangent = (seg[1] - seg[0]) / float(np.linalg.norm(seg[1] - seg[0]))
    along = (camera.unproject(pts, 0.0)[:, :2] - seg[0]) @ tangent
    on = seg[0] + along[:, None] * tangent
    step = camera.project(np.c_[on, np.full(len(on), nose_mm)]) - pts
    width = np.nan_to_num(np.hypot(step[:, 0], step[:, 1]))
    ok = width >= 1.5
    off = strongest_fall(dist, pts[ok], step[ok] / width[ok, None], 2.0 * width[ok])
    ratio = off / width[ok]
    good = np.isfinite(ratio) & (ratio > 0.4) & (ratio < 2.0)
    if good.sum() >= 10:
        med = float(np.median(ratio[good]))
        good &= np.abs(ratio - med) < 0.25 * med
    if good.sum() < 10:
        return np.zeros((0, 2))
    keep = np.linspace(0, good.sum() - 1, min(int(good.sum()), 120)).astype(int)
    found: F64 = pts[ok][good] + ratio[good][:, None] * step[ok][good]
    out: F64 = found[keep]
    return out
