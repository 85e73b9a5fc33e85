"""Cushion lines: where the cloth ends along each side of the table, and the corners.

Theory of operation. A side is searched along a guide: first the straight side of the
cloth region's quadrilateral, then the arc fitted to what that found (a lens bends a
straight cushion into an arc, by more than a straight guide's search reaches at strong
distortion). Along normals of the guide (one every 3 px, their samples shifted by
every fraction of a pixel: on a guide lying on the edge, one phase would bias the
sub-pixel peak), the cloth edge is the first outward rise of the colour distance from
the cloth that reaches a tenth of the profile's strongest (or a floor: on a dim cloth
the step to the darker cushion is faint), placed to a fraction of a pixel by a
parabola through the gradient peak.

Not every normal crosses the cushion: pocket openings and jaws, stickers and markers
on the cloth, a ball, an arm or a cue over the edge give points off it, and the
cushion is only seen in runs between them. A RANSAC fit of a quadratic offset along
the side keeps the points that agree (within :data:`RANSAC_TOL_PX`), a quartic if
that keeps clearly more (a wide lens's side near the corners), and a last cut at three
times the side's own scatter drops what lies 1..2 px off (a chalk line meeting the
cushion). The side is accepted when the points cover enough of it (:data:`MIN_COVER`
of the profiles, spread over :data:`MIN_SPAN` of its length), however many others
disagree. Corners are where neighbouring arcs meet, extrapolated over the pockets.

Image frame: pixels ``uv_px``, OpenCV convention (u right, v down).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError

__all__ = ["Arc", "arc_through", "corner", "side_points"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
#: An arc: origin (2,), unit tangent (2,), unit normal (2,), polynomial coefficients
#: of the offset along the normal in the distance along the tangent (3,) or (5,).
Arc = tuple[F64, F64, F64, F64]

RANSAC_TOL_PX = 1.5
#: Share of a side's profiles that must agree on its arc.
MIN_COVER = 0.3
#: Share of the side's length the agreeing points must span (ends to ends).
MIN_SPAN = 0.5
_STEP_PX = 3.0
_QUARTIC_GAIN = 1.05
_MIN_CUT_PX = 0.75


def _guide(a: F64, b: F64, arc: Arc | None, lo: float, hi: float) -> tuple[F64, F64, F64]:
    """Sample points (m, 2), outward unit normals (m, 2) and positions t (m,) 0..1.

    Along the straight side a->b, or along ``arc`` between the feet of a and b on it;
    outward is to the left of a->b on screen (a clockwise quadrilateral, v down).
    """
    side = b - a
    length = float(np.hypot(*side))
    out_dir = np.array([side[1], -side[0]]) / length
    t = np.linspace(lo, hi, max(int(length / _STEP_PX), 8))
    if arc is None:
        return a + t[:, None] * side, np.tile(out_dir, (len(t), 1)), t
    origin, tangent, normal, coef = arc
    s0, s1 = float((a - origin) @ tangent), float((b - origin) @ tangent)
    s = s0 + t * (s1 - s0)
    base = origin + s[:, None] * tangent + np.polyval(coef, s)[:, None] * normal
    slope = np.polyval(np.polyder(coef), s)
    nrm = normal[None, :] - slope[:, None] * tangent[None, :]
    nrm /= np.hypot(nrm[:, 0], nrm[:, 1])[:, None]
    nrm *= np.sign(nrm @ out_dir)[:, None]
    return base, nrm, t


def _profiles(dist: F32, base: F64, normal: F64, reach_in: float, reach_out: float) -> F64:
    """The distance image (m, k) along each normal, 1 px apart, -reach_in..+reach_out."""
    steps = np.arange(-reach_in, reach_out + 1.0)
    pts = base[:, None, :] + steps[None, :, None] * normal[:, None, :]
    map_u, map_v = pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32)
    prof = cv2.remap(dist, map_u, map_v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(prof, dtype=np.float64)


def _first_rise(prof: F64, reach_in: float, floor: float) -> F64:
    """Offset (m,) of the first strong outward rise per profile, sub-pixel; NaN if none.

    A rise counts from ``floor`` (colour distance per pixel) or a tenth of the
    profile's strongest: the step from cloth to the cushion is faint next to the one
    from cushion to rail.
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
    out[rows] = cols + np.clip(frac, -0.5, 0.5) - reach_in
    return out


def _ransac(t: F64, s: F64, rng: np.random.Generator) -> NDArray[np.bool_]:
    """Inliers of a quadratic ``s(t)`` fitted by RANSAC, refined by least squares.

    Scored by the number of agreeing profiles: a straight run between two pockets
    counts whatever the points beyond it do.
    """
    if len(t) < 6:
        return np.zeros(len(t), dtype=bool)
    idx = np.sort(np.array([rng.choice(len(t), 3, replace=False) for _ in range(200)]), axis=1)
    idx = idx[np.ptp(t[idx], axis=1) >= 0.2 * np.ptp(t)]
    if len(idx) == 0:
        return np.zeros(len(t), dtype=bool)
    ts = t[idx]
    vander = np.stack([ts * ts, ts, np.ones_like(ts)], axis=2)
    ok = np.abs(np.linalg.det(vander)) > 1e-12
    coef = np.linalg.solve(vander[ok], s[idx][ok][:, :, None])[:, :, 0]  # (k, 3)
    fitted = coef[:, :1] * t * t + coef[:, 1:2] * t + coef[:, 2:]
    inliers = np.abs(fitted - s) < RANSAC_TOL_PX
    best = inliers[int(np.argmax(inliers.sum(axis=1)))] if len(inliers) else np.zeros(len(t), bool)
    best = _refined(t, s, best, 2)
    # A wide lens bends a side into no quadratic near the corners: a quartic keeps the
    # ends, taken only when it gains clearly more points (else it bends to a jaw).
    quartic = _refined(t, s, best, 4)
    degree = 4 if quartic.sum() > _QUARTIC_GAIN * best.sum() else 2
    best = quartic if degree == 4 else best
    if best.sum() < 6 * degree:
        return best
    # The last cut by the side's own scatter: a chalk line meeting the cushion or the
    # other of a real cushion's two edges lies 1..2 px off, inside RANSAC's tolerance.
    res = np.abs(np.polyval(np.polyfit(t[best], s[best], degree), t) - s)
    scatter = 1.4826 * float(np.median(res[best]))
    return best & (res < max(3.0 * scatter, _MIN_CUT_PX))


def _refined(t: F64, s: F64, inliers: NDArray[np.bool_], degree: int) -> NDArray[np.bool_]:
    """Inliers (m,) of a polynomial ``s(t)`` of ``degree`` refitted three times."""
    for _ in range(3):
        if inliers.sum() < 6 * degree:
            break
        coef = np.polyfit(t[inliers], s[inliers], degree)
        inliers = np.abs(np.polyval(coef, t) - s) < RANSAC_TOL_PX
    return inliers


def side_points(
    dist: F32,
    a: F64,
    b: F64,
    reach_px: tuple[float, float],
    floor: float,
    seed: int,
    arc: Arc | None = None,
    name: str = "a",
) -> F64:
    """Cloth-edge points (n, 2) ``uv_px`` along side a->b, outliers removed.

    Args:
        dist: Colour distance from the cloth (h, w).
        a: Side start (2,) px (a corner estimate).
        b: Side end (2,) px.
        reach_px: How far inside and outside the guide to search, px.
        floor: Smallest rise that counts, colour distance per px.
        seed: RANSAC seed.
        arc: The guide (:func:`arc_through`); the straight side if None.
        name: The side as the message names it ("the top", ...).

    Raises:
        CalibrationError: Too few points agree, or they cover too little of the side.
    """
    lo, hi = (0.06, 0.94)
    base, normal, t = _guide(a, b, arc, lo, hi)
    # Samples at every phase across the pixel grid, as a straight guide crossing a
    # bent edge has: on one phase (the guide on the edge), the sub-pixel peak's bias
    # would not average out (0.1..0.2 mm inwards).
    base = base + (np.modf(np.arange(len(base)) * 0.618034)[0] - 0.5)[:, None] * normal
    off = _first_rise(_profiles(dist, base, normal, *reach_px), reach_px[0], floor)
    ok = np.isfinite(off)
    inl = _ransac(t[ok], off[ok], np.random.default_rng(seed))
    span = float(np.ptp(t[ok][inl])) / (hi - lo) if inl.any() else 0.0
    if inl.sum() < MIN_COVER * len(base) or span < MIN_SPAN:
        # It named no side, and "over 96% of its length" read as a cushion well seen.
        raise CalibrationError(
            f"table edge not found: along {name} cushion only {int(inl.sum())} of "
            f"{len(base)} points agree ({MIN_COVER:.0%} needed: the rest hidden, by a "
            f"player say, or blurred), spread over {100.0 * span:.0f}% of its length; "
            "calibrate on another frame, or mark the corners"
        )
    pts: F64 = base[ok][inl] + off[ok][inl][:, None] * normal[ok][inl]
    return pts


def arc_through(pts: F64) -> Arc:
    """A side as an arc fitted to its points (n, 2).

    The offset along the normal is a polynomial in the distance along the tangent, a
    quartic from 30 points on (a quadratic below): a lens bends a straight side into
    such an arc.
    """
    centre = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - centre, full_matrices=False)
    tangent, normal = vt[0], vt[1]
    along = (pts - centre) @ tangent
    coef = np.polyfit(along, (pts - centre) @ normal, 4 if len(pts) >= 30 else 2)
    return centre, tangent, normal, coef


def corner(p: Arc, q: Arc) -> F64:
    """Where two arcs meet, (2,) px (by alternating projection from p's origin)."""
    x = p[0].copy()
    for i in range(40):
        centre, tangent, normal, coef = (p, q)[i % 2]
        s = float((x - centre) @ tangent)
        x = centre + s * tangent + float(np.polyval(coef, s)) * normal
    return x
