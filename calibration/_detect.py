"""Find the playing surface in a frame: the cloth, its four edges and corners.

Theory of operation. Three steps, each in its own module. The cloth
(:mod:`calibration._cloth`): the frame's colours clustered, and of the connected
regions of one colour the innermost solid, four-sided one near the centre, whatever
its colour (green, blue, teal, red, grey), its median colour measured. Its outline's
four longest straight runs give a first quadrilateral. The cushion lines
(:mod:`calibration._cushion_lines`): along normals of each side, the first strong
outward rise of the colour distance from the cloth, kept where a RANSAC arc through
them agrees (pockets, jaws, markers, balls and arms are gaps, not edges); a second
search along the arcs found follows a strongly bent side to its corners. Corners are
where neighbouring arcs meet. A frame without a large cloth region raises
:class:`CalibrationError` instead of guessing.

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
from calibration._cloth import MIN_CLOTH_SHARE, cloth_mask, no_table, quadrilateral
from calibration._cushion_lines import arc_through, corner, side_points

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


#: The sides in the picture, clockwise from the top-left corner (as the messages name them).
_SIDES = ("the top", "the right", "the bottom", "the left")


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
        raise no_table(share)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    quad = quadrilateral(np.asarray(cv2.convexHull(max(contours, key=cv2.contourArea)), np.int32))
    dist = colour_distance(image_bgr, colour)
    diag = float(np.hypot(w, h))
    floor = max(0.018 * float(np.linalg.norm(colour)), 3.0)
    reach = (0.04 * diag, 0.04 * diag)
    edges = [
        side_points(dist, quad[i], quad[(i + 1) % 4], reach, floor, seed + i, name=_SIDES[i])
        for i in range(4)
    ]
    # Second pass along the arcs found: a strongly bent side leaves its straight guide.
    arcs = [arc_through(p) for p in edges]
    corners = np.array([corner(arcs[i - 1], arcs[i]) for i in range(4)])
    near = (max(0.01 * diag, 6.0), 0.04 * diag)
    edges = [
        side_points(
            dist, corners[i], corners[(i + 1) % 4], near, floor, seed + i, arcs[i], name=_SIDES[i]
        )
        for i in range(4)
    ]
    arcs = [arc_through(p) for p in edges]
    corners = np.array([corner(arcs[i - 1], arcs[i]) for i in range(4)])
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
