"""Find the cloth: the table's playing surface among everything else the camera sees.

Theory of operation. The frame, shrunk to :data:`WORK_WIDTH_PX` wide, is clustered by
colour (k-means in CIE Lab, lightness weighted down so that uneven light and the
darker cushion tops do not split one cloth into several colours); clusters whose
centres lie close are one colour. Every colour's connected regions (chalk lines
bridged, balls and spots filled) are candidates, whatever the colour: green, blue,
teal, red and grey cloth alike. Parts joined to a region by a narrow neck are cut off
(a player's shirt of the cloth's colour, reaching in by an arm). A candidate is a
cloth if it is big enough (from :data:`MIN_CLOTH_SHARE` of the picture), solid (its
area fills its convex hull: a floor around a table or the cloth of a larger table
under a small one has a table-sized hole) and four-sided (it fills the quadrilateral
of its outline's four longest straight runs). Of the candidates the innermost wins (a
cloth inside another's outline is the table standing on it), then the largest near
the centre. A region along the picture's border is a wall or another table, or the
table cut by the frame, which is said as such. The chosen region's median colour,
taken on the full frame, is the cloth colour the edge search measures distances from.

Image frame: pixels ``uv_px``, OpenCV convention (u right, v down).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError

__all__ = ["MIN_CLOTH_SHARE", "cloth_mask", "no_table", "quadrilateral"]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: Below this share of the picture covered by cloth, there is no table to calibrate on.
MIN_CLOTH_SHARE = 0.05
#: The clustering runs on the frame shrunk to this width.
WORK_WIDTH_PX = 320
_CLUSTERS = 8
_L_WEIGHT = 0.5  # lightness against the two colour axes (Lab units)
_SAME_COLOUR = 9.0  # cluster centres closer than this (weighted Lab) are one colour
_MIN_SOLIDITY = 0.8  # region area over hull area
_MIN_QUADNESS = 0.8  # region area over its quadrilateral's (and the inverse)
_SMALL_HOLE = 0.05  # holes under this share of the region are filled (balls, spots)
_NECK = 0.025  # share of the picture's width: narrower links are cut (arms, cues)
_MAX_BORDER = 0.08  # share of the outline on the picture's border: a wall, a cut-off table
_MAX_CUT_BORDER = 0.7  # up to this share, a solid four-sided region is a cut-off table
_CHROMA_TOL = 0.03  # chromaticity (a channel's share of the sum) still the cloth's
_SHADE = (0.3, 2.0)  # brightness (sum of channels) still the cloth's, times its median


@dataclass(frozen=True, slots=True)
class _Candidate:
    """One colour's connected region at the working scale."""

    filled: U8  # (h, w) 0/255, small holes filled
    pixels: NDArray[np.bool_]  # (h, w) the region's own pixels (holes excluded)
    area: float  # share of the picture
    centroid: F64  # (2,) px at the working scale
    hull: NDArray[np.int32]  # (k, 1, 2) convex hull, working scale
    score: float
    border: float  # share of the hull's outline on the picture's border


def _check_image(image_bgr: U8) -> None:
    if not isinstance(image_bgr, np.ndarray):
        raise CalibrationError(f"image_bgr: expected an (h, w, 3) uint8 array, got "
                               f"{type(image_bgr).__name__}")  # fmt: skip
    shape = image_bgr.shape
    if len(shape) != 3 or shape[2] != 3 or image_bgr.dtype != np.uint8 or min(shape[:2]) < 8:
        raise CalibrationError(f"image_bgr: expected (h, w, 3) uint8 of at least 8 x 8 px, got "
                               f"{shape} {image_bgr.dtype}")  # fmt: skip


def no_table(share: float) -> CalibrationError:
    """The error for a frame without a table (``share``: the cloth found, 0..1)."""
    return CalibrationError(
        f"no table found: the cloth covers only {100.0 * share:.0f}% of the picture; "
        "point the camera at the table or mark the corners"
    )


def _colour_groups(small_bgr: U8) -> NDArray[np.int32]:
    """Per pixel (h, w), the index of its colour (clusters with close centres joined)."""
    lab = cv2.cvtColor(small_bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    # 8-bit Lab: L scaled to 0..255, a and b offset by 128.
    feats = ((lab - [0.0, 128.0, 128.0]) * [_L_WEIGHT * 100.0 / 255.0, 1.0, 1.0]).astype(np.float32)
    cv2.setRNGSeed(0)  # deterministic clustering
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    start = np.zeros((len(feats), 1), np.int32)  # unused: k-means++ picks the start
    _, labels, centres = cv2.kmeans(feats, _CLUSTERS, start, criteria, 2, cv2.KMEANS_PP_CENTERS)
    group = np.arange(_CLUSTERS)
    gaps = np.hypot.reduce(centres[:, None] - centres[None], axis=2)
    for i, j in zip(*np.nonzero(np.triu(gaps < _SAME_COLOUR, 1)), strict=True):
        group[group == group[j]] = group[i]
    out: NDArray[np.int32] = group[labels.ravel()].reshape(small_bgr.shape[:2]).astype(np.int32)
    return out


def _fill_small_holes(region: U8) -> U8:
    """The region (h, w) 0/255 with holes under :data:`_SMALL_HOLE` of its area filled."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled: U8 = np.zeros_like(region)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    holes = ((filled > 0) & (region == 0)).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] > _SMALL_HOLE * np.count_nonzero(region))
    big = big[big > 0]
    filled[np.isin(labels, big)] = 0
    return filled


def _cut_off(hull: NDArray[np.int32], w: int, h: int) -> CalibrationError:
    """The error for a table the picture's border cuts (hull at the working scale)."""
    pts = hull.reshape(-1, 2)
    near = (pts[:, 0].min() < 1.5, pts[:, 1].min() < 1.5,
            pts[:, 0].max() > w - 2.5, pts[:, 1].max() > h - 2.5)  # fmt: skip
    edges = [name for name, hit in zip(("left", "top", "right", "bottom"), near, strict=True)
             if hit]  # fmt: skip
    return CalibrationError(
        f"the table runs out of the picture: the cloth reaches its {' and '.join(edges)} "
        "edge; turn or raise the camera so that all four cushions are seen"
    )


def _without_limbs(region: U8) -> U8:
    """The region's body: parts joined to it by necks under :data:`_NECK` wide cut off.

    A player's shirt of the cloth's colour joins the cloth through an arm over the rail;
    a cue lies across it. An opening removes such necks; of what stays, the largest
    piece is the body.
    """
    size = max(round(_NECK * region.shape[1]), 3)
    opened = cv2.morphologyEx(region, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=4)
    if n < 2:
        return np.asarray(opened, dtype=np.uint8)
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    out: U8 = np.where(labels == biggest, 255, 0).astype(np.uint8)
    return out


def _border_share(hull: NDArray[np.int32], w: int, h: int) -> float:
    """Share of the hull's outline that runs along the picture's border."""
    pts = hull.reshape(-1, 2).astype(np.float64)
    seg = np.roll(pts, -1, axis=0) - pts
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    mid = pts + 0.5 * seg
    on = (mid[:, 0] < 1.5) | (mid[:, 1] < 1.5) | (mid[:, 0] > w - 2.5) | (mid[:, 1] > h - 2.5)
    return float(lengths[on].sum() / max(lengths.sum(), 1e-9))


def _candidate(region: U8, min_px: float) -> _Candidate | None:
    """The region as a cloth candidate, or None if too small, hollow or not four-sided."""
    h, w = region.shape
    filled = _without_limbs(_fill_small_holes(region))
    area = float(np.count_nonzero(filled))
    if area < min_px:
        return None
    points = cv2.findNonZero(filled)
    hull = np.asarray(cv2.convexHull(points), dtype=np.int32)
    hull_area = max(float(cv2.contourArea(hull)), 1.0)
    quad = quadrilateral(hull)
    if area / hull_area < _MIN_SOLIDITY:
        return None
    fill = area / max(float(cv2.contourArea(quad.astype(np.float32))), 1.0)
    if not _MIN_QUADNESS <= fill <= 1.0 / _MIN_QUADNESS:
        return None
    border = _border_share(hull, w, h)
    centroid = points.reshape(-1, 2).mean(axis=0)
    off = np.hypot(*((centroid - [w / 2.0, h / 2.0]) / [w / 2.0, h / 2.0])) / np.sqrt(2.0)
    score = area / (w * h) * (1.0 - 0.5 * off) * (1.0 - border)
    own = (region > 0) & (filled > 0)
    return _Candidate(filled, own, area / (w * h), centroid, hull, score, border)


def _candidates(groups: NDArray[np.int32]) -> list[_Candidate]:
    """Every colour's connected regions that could be a cloth."""
    h, w = groups.shape
    out = []
    kernel = np.ones((3, 3), np.uint8)
    for g in np.unique(groups):
        mask = (groups == g).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)  # bridge chalk lines
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] < 0.5 * MIN_CLOTH_SHARE * w * h:
                continue
            found = _candidate((labels == i).astype(np.uint8) * 255, MIN_CLOTH_SHARE * w * h)
            if found is not None:
                out.append(found)
    return out


def _choose(cands: list[_Candidate]) -> _Candidate:
    """The innermost candidate (none inside it), then the best scored."""
    inner = []
    for a in cands:
        inside = any(
            b is not a
            and b.area < a.area
            and cv2.pointPolygonTest(a.hull, (float(b.centroid[0]), float(b.centroid[1])), False)
            > 0
            for b in cands
        )
        if not inside:
            inner.append(a)
    return max(inner or cands, key=lambda c: c.score)


def _grown(best: _Candidate, small_bgr: U8) -> _Candidate:
    """The chosen cloth grown over its colour in shade and in light, if still a cloth.

    Uneven light splits one cloth into clusters (a dim half, dark corners). Colour
    without brightness (each channel's share of their sum) does not change with the
    light: the pixels of the cloth's chromaticity at :data:`_SHADE` times its
    brightness, connected to the chosen region, join it. The rail, of another
    colour, stops the growth.
    """
    h, w = small_bgr.shape[:2]
    bgr = small_bgr.reshape(-1, 3).astype(np.float64) + 1.0
    total = bgr.sum(axis=1)
    chroma = bgr / total[:, None]
    own = best.pixels.ravel()
    c0, t0 = np.median(chroma[own], axis=0), float(np.median(total[own]))
    close = (np.abs(chroma - c0).max(axis=1) < _CHROMA_TOL) & (total > _SHADE[0] * t0)
    close &= total < _SHADE[1] * t0
    mask = close.reshape(h, w).astype(np.uint8)
    kernel = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel), cv2.MORPH_OPEN, kernel)
    _, labels = cv2.connectedComponents(mask, connectivity=4)
    keep = np.unique(labels[best.pixels & (mask > 0)])
    keep = keep[keep > 0]
    if len(keep) == 0:
        return best
    grown = _candidate(np.isin(labels, keep).astype(np.uint8) * 255, MIN_CLOTH_SHARE * w * h)
    if grown is None or grown.border > _MAX_BORDER or grown.area < best.area:
        return best
    return grown


def cloth_mask(image_bgr: U8) -> tuple[U8, F64]:
    """The cloth region (h, w) uint8 0/255, holes filled, and its median BGR (3,).

    Raises:
        CalibrationError: No cloth-like region in the picture.
    """
    _check_image(image_bgr)
    h, w = image_bgr.shape[:2]
    scale = WORK_WIDTH_PX / w
    size = (WORK_WIDTH_PX, max(round(h * scale), 8))
    small = np.asarray(cv2.resize(image_bgr, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)
    found = _candidates(_colour_groups(np.asarray(cv2.medianBlur(small, 3), dtype=np.uint8)))
    cands = [c for c in found if c.border <= _MAX_BORDER]
    if not cands:
        cut = [c for c in found if c.border <= _MAX_CUT_BORDER]
        if cut:
            raise _cut_off(max(cut, key=lambda c: c.area).hull, small.shape[1], small.shape[0])
        raise no_table(0.0)
    chosen = _choose(cands)
    grown = _grown(chosen, small)
    full = cv2.resize(grown.filled, (w, h), interpolation=cv2.INTER_LINEAR)
    mask = np.asarray(np.where(full >= 128, 255, 0), dtype=np.uint8)
    # The colour of the chosen region's own pixels: the cloth under the lamps.
    own = cv2.resize(chosen.pixels.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    inner = cv2.erode(own, np.ones((5, 5), np.uint8)) > 0
    pixels = image_bgr[::2, ::2][inner[::2, ::2]]
    colour = np.median(pixels, axis=0) if len(pixels) else np.zeros(3)
    return mask, np.asarray(colour, dtype=np.float64)


def quadrilateral(hull: NDArray[np.int32]) -> F64:
    """Four corners (4, 2) of a convex hull, clockwise on screen from the top-left-most.

    The hull simplified (Douglas-Peucker) with the smallest tolerance that leaves four
    vertices gives the sides to start from; each side's longest straight run of the
    outline, met with its neighbours', gives the corners (:func:`_extended`): a corner
    rounded off by shadow, cut by a pocket or hidden by an arm is not the table's.
    """
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
    quad = _extended(quad, _outline(hull))
    start = int(np.argmin(quad.sum(axis=1)))
    out: F64 = np.roll(quad, -start, axis=0)
    return out


def _outline(hull: NDArray[np.int32]) -> F64:
    """Points (n, 2) every pixel or so along a closed polygon (k, 1, 2)."""
    pts = hull.reshape(-1, 2).astype(np.float64)
    seg = np.roll(pts, -1, axis=0) - pts
    parts = [
        p + np.linspace(0.0, 1.0, max(int(np.hypot(*d)), 1), endpoint=False)[:, None] * d
        for p, d in zip(pts, seg, strict=True)
    ]
    return np.concatenate(parts)


def _extended(quad: F64, outline: F64) -> F64:
    """The quadrilateral (4, 2) whose sides are the outline's longest straight runs.

    Each outline point (n, 2) goes to the nearest side; per side a RANSAC line keeps
    the longest straight run (a rounded or cut corner falls out); the lines' meeting
    points are the new corners. Three rounds.
    """
    rng = np.random.default_rng(0)
    tol = max(0.004 * float(cv2.arcLength(quad.astype(np.float32), closed=True)), 1.5)
    for _ in range(3):
        near = np.argmin([_segment_distance(outline, quad[i], quad[(i + 1) % 4])
                          for i in range(4)], axis=0)  # fmt: skip
        lines = [_ransac_line(outline[near == i], tol, rng) for i in range(4)]
        if any(line is None for line in lines):
            return quad
        corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]  # type: ignore[arg-type]
        if any(c is None for c in corners):
            return quad
        quad = np.array(corners)
    return quad


def _segment_distance(pts: F64, a: F64, b: F64) -> F64:
    """Distance (n,) of points (n, 2) to the segment a->b."""
    ab = b - a
    t = np.clip(((pts - a) @ ab) / max(float(ab @ ab), 1e-9), 0.0, 1.0)
    out: F64 = np.hypot(*(pts - a - t[:, None] * ab).T)
    return out


def _ransac_line(pts: F64, tol: float, rng: np.random.Generator) -> tuple[F64, F64] | None:
    """(point, unit direction) of the line most points (n, 2) lie within ``tol`` of."""
    if len(pts) < 2:
        return None
    pairs = np.array([rng.choice(len(pts), 2, replace=False) for _ in range(60)])
    d = pts[pairs[:, 1]] - pts[pairs[:, 0]]
    norm = np.hypot(d[:, 0], d[:, 1])
    keep = norm > 1e-9
    normal = np.stack([-d[keep, 1], d[keep, 0]], axis=1) / norm[keep, None]
    offset = np.einsum("kj,kj->k", normal, pts[pairs[keep, 0]])
    inliers = np.abs(normal @ pts.T - offset[:, None]) < tol
    best = inliers[int(np.argmax(inliers.sum(axis=1)))] if len(inliers) else np.zeros(0, bool)
    if best.sum() < 2:
        return None
    centre = pts[best].mean(axis=0)
    _, _, vt = np.linalg.svd(pts[best] - centre, full_matrices=False)
    return centre, vt[0]


def _meet(p: tuple[F64, F64], q: tuple[F64, F64]) -> F64 | None:
    """Where lines (point, direction) p and q cross; None if nearly parallel."""
    (a, u), (b, v) = p, q
    det = u[0] * -v[1] + v[0] * u[1]
    if abs(det) < 1e-6:
        return None
    s = ((b - a)[0] * -v[1] + v[0] * (b - a)[1]) / det
    out: F64 = a + s * u
    return out
