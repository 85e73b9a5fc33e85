"""A blob's share image -> balls: one sharp ball, a blur streak, or two touching balls.

Theory of operation. The colour detector (:mod:`vision.detect._colour_detector`) gives,
per ball class present in a blob, an image of each pixel's share of that ball's colour.
The share-weighted pixel moments give the centre (sub-pixel: edge pixels count by their
share), the mass (in balls: blur spreads a ball but keeps its mass) and the spread. A
mass of about two balls of one class is two touching balls, split across the principal
axis at the weighted median. A ball's mass stretched along one axis is a motion streak:
the centroid is the mid-exposure position and, for a ball of variance ``r^2/4`` moving
uniformly, the half length is ``sqrt(3 (l1 - l2))`` from the eigenvalues of the spread.
Thin shapes (a cue) are dropped; a chalk line or the cue's ferrule against a ball is
opened away before the ball is measured. The wider opening for the ferrule is tried only
on a ball in full colour with more than a ball's mass, stretched, and on one side: a
ball far from the camera's foot is stretched too (seen obliquely, its image is an
ellipse along the radius from there, with more area than the disc), but both ways, and
opening it moved it up to 2.6 px outwards (its soft, shaded edge goes unevenly).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from referee import Ball

__all__ = ["Found", "ball_or_streak", "mean_balls", "same_balls"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
B1 = NDArray[np.bool_]
#: Share-weighted centroid (2,), covariance (2, 2) and total mass of a share image.
Moments = tuple[F64, F64, float]

_MIN_MASS = 0.4  # class mass in a blob, in balls
_SPLIT_MASS = 1.55
_MAX_MASS = 2.6
_THIN = 0.5  # minor-axis variance below this share of a disc's is a stick, not a ball
_FAT = 1.8
_STICK_RATIO = 2.5  # a thin blob longer than this many times its width is a stick
_SHARP_PEAK = 0.65  # a sharp ball shows its full colour somewhere (90th percentile share)
_STREAK_MASS = 1.25  # a streak's mass in balls, at most
_KEEP_OPENED = 0.75  # share of the mass an opening may leave and still be used
_LINE_WIDTH = 0.25  # openings (disc radius in ball radii): chalk lines, the cue's shaft
_FERRULE_WIDTH = 0.55  # the cue's ferrule against a ball (tried on full-colour blobs)
_ELONGATED = 0.35  # half-length beyond a disc's, in radii: a streak, or a ball and a line
_ATTACHED_MASS = 1.1  # a ball with something of its colour against it, in balls
#: ... and that something on one side: the share image's centroid this many radii off
#: the ball's disc centre. A ball stretched both ways (seen obliquely far from the
#: camera's foot, a radial ellipse) is not: opened, it moved up to 2.6 px (4 mm) outwards.
_ONE_SIDED = 0.1
_DISC_ITERATIONS = 4  # re-centrings on the disc that drop a touching cue or chalk line


@dataclass(frozen=True, slots=True)
class Found:
    """One ball found in a blob: centre ``uv_px``, class, score, radius and streak (px)."""

    uv_px: F64
    ball: Ball
    score: float
    radius_px: float
    streak_px: F64


def ball_or_streak(
    mass: F32, origin: tuple[int, int], ball: Ball, r: float, peak: float
) -> list[Found]:
    """Balls of one class from its share image; a streak only if no line made it one.

    A ball rolling over a chalk line (or with the cue along it) is as long as a short
    streak: when the image without its thin lines gives a sharp ball, that is the ball.
    """
    moments = _moments(mass)  # computed once: the mass, its split and the checks use them
    found = _balls_from_mass(mass, origin, ball, r, peak, moments)
    # A ball in full colour may also have the cue's ferrule against it (at the stroke),
    # as wide as a third of the ball: a wider opening takes that off too. It pulls the
    # centre whether the pair looks like a streak or like a long ball.
    sharp_colour = peak > _SHARP_PEAK
    if any(f.streak_px.any() for f in found):
        widths = (_LINE_WIDTH, _FERRULE_WIDTH) if sharp_colour else (_LINE_WIDTH,)
    elif sharp_colour and len(found) == 1 and _attached(mass, r, moments, found[0].uv_px - origin):
        widths = (_FERRULE_WIDTH,)
    else:
        return found
    for width in widths:
        opened = _open_lines(mass, r, width)
        if opened is mass:
            continue
        sharp = _balls_from_mass(opened, origin, ball, r, peak, _moments(opened))
        if sharp and not any(f.streak_px.any() for f in sharp):
            return sharp
    return found


def _attached(mass: F32, r: float, moments: Moments | None, disc_centre: F64) -> bool:
    """True when a share image (h, w) holds something of the ball's colour against it.

    That is more mass than a ball, longer than a disc of radius ``r`` px (a slightly
    blurred ball is as long, but keeps a ball's mass), and on one side of the ball:
    the centroid lies ``_ONE_SIDED`` radii off ``disc_centre`` (2,), the centre found
    on the ball's disc. ``moments``: the image's (:func:`_moments`).
    """
    if moments is None or float(mass.sum()) < _ATTACHED_MASS * math.pi * r * r:
        return False
    l2, l1, _ = _eig2(moments[1])
    if math.sqrt(max(3.0 * (l1 - l2), 0.0)) <= _ELONGATED * r:
        return False
    return float(np.hypot(*(moments[0] - disc_centre))) > _ONE_SIDED * r


def _open_lines(mass: F32, r: float, width: float = 0.25) -> F32:
    """The share image (h, w) without lines narrower than ``2 width`` ball radii.

    A chalk line (balkline, anchor) or the cue lying against a ball has its colour and
    would pull the centre and look like a streak; an opening by a disc of ``width``
    ball radii removes them and leaves a ball's disc, or its streak, as it was (a flat-topped
    convex shape wider than the disc survives an opening unchanged). Where the
    opening takes more than a quarter of the mass, the image is kept as it was.
    """
    k = 2 * max(1, int(width * r)) + 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    opened = np.asarray(cv2.morphologyEx(mass, cv2.MORPH_OPEN, disc), np.float32)
    # A ball cut thin (half under the cushion nose, a faint fast streak) would go too.
    return opened if float(opened.sum()) >= _KEEP_OPENED * float(mass.sum()) else mass


def _balls_from_mass(
    mass: F32,
    origin: tuple[int, int],
    ball: Ball,
    r: float,
    peak: float,
    moments: Moments | None,
) -> list[Found]:
    """One ball, a streak, or two touching balls from a share image (h, w) at ``origin``.

    ``moments``: the image's (:func:`_moments`), None when it is empty.
    """
    if moments is None:
        return []
    balls = moments[2] / (math.pi * r * r)
    if not (_MIN_MASS <= balls <= _MAX_MASS):
        return []
    if balls >= _SPLIT_MASS:
        halves = _split(mass, moments)
        return [
            f for half in halves
            for f in _balls_from_image(half, origin, ball, r, 1.0, peak, _moments(half))
        ]  # fmt: skip
    return _balls_from_image(mass, origin, ball, r, balls, peak, moments)


def _split(mass: F32, moments: Moments) -> tuple[F32, F32]:
    """The share image cut in two across its principal axis at the weighted median."""
    axis = _eig2(moments[1])[2][:, 1]
    centre = moments[0]
    vs, us = np.nonzero(mass)
    wts = mass[vs, us]
    t = (us - centre[0]) * axis[0] + (vs - centre[1]) * axis[1]
    order = np.argsort(t)
    cum = np.cumsum(wts[order].astype(np.float64))
    cut = t[order][int(np.searchsorted(cum, cum[-1] / 2.0))]
    lo = t < cut
    halves = np.zeros((2, *mass.shape), np.float32)
    halves[0, vs[lo], us[lo]] = wts[lo]
    halves[1, vs[~lo], us[~lo]] = wts[~lo]
    return halves[0], halves[1]


def _balls_from_image(
    mass: F32,
    origin: tuple[int, int],
    ball: Ball,
    r: float,
    balls: float,
    peak: float,
    moments: Moments | None,
) -> list[Found]:
    """A ball from a share image (h, w) at ``origin``: sharp, a streak, or not a ball.

    ``moments``: the image's (:func:`_moments`).
    """
    if moments is None:
        return []
    centre, cov, _ = moments
    l2, l1, vecs = _eig2(cov)
    half = math.sqrt(max(3.0 * (l1 - l2), 0.0))
    moving = False
    if half > _ELONGATED * r and not (half > r and peak > 0.9):
        # A mark on a ball (the red's logo) skews the moments; a streak is also longer.
        # A long streak is faint: a long bright shape is a ball with a line or cue on it.
        vs, us = np.nonzero(mass > 0.3)
        if len(us) > 2:
            du, dv = us - centre[0], vs - centre[1]
            across = du * vecs[0, 0] + dv * vecs[1, 0]
            along = du * vecs[0, 1] + dv * vecs[1, 1]
            extent = float(np.ptp(along)) - float(np.ptp(across))
            # Blur spreads a ball but keeps its mass: much more is a ball and a cue.
            moving = extent > 0.5 * r and balls <= _STREAK_MASS
    if not moving:
        # Keep the disc: a chalk line or the cue touching the ball is no part of it.
        kept = _on_disc(mass, centre, cov, r)
        if kept is None:
            return []
        centre, cov = kept
        l2, l1, vecs = _eig2(cov)
    # A stick is thin and long; a blurred ball whose faint rim went to the cloth can
    # be as thin across but is hardly longer than it is wide (a disc has l1 = l2).
    stick = l2 < _THIN * r * r / 4.0 and (l1 > _STICK_RATIO * l2 or l2 < _THIN * r * r / 8.0)
    if stick or l2 > _FAT * r * r / 4.0:
        return []  # a stick or a slab, not a ball
    if peak < _SHARP_PEAK and not moving:
        return []  # pale all over and round: a hand or a cuff, not a ball
    streak = vecs[:, 1] * half if moving else np.zeros(2)
    score = max(0.0, 1.0 - abs(balls - 1.0)) / (1.0 + float(np.hypot(*streak)) / (2.0 * r))
    return [Found(centre + origin, ball, score, r, streak)]


def _on_disc(mass: F32, centre: F64, cov: F64, r: float) -> tuple[F64, F64] | None:
    """Moments of the share image (h, w) re-centred on the disc of radius ``r`` + 1 px.

    Up to ``_DISC_ITERATIONS`` times: the disc round the centre, the moments of the
    mass inside it, the new centre. A disc that covers the same pixels as the last
    one gives the same moments again, so the loop ends there.
    """
    u = np.arange(mass.shape[1], dtype=np.float64)
    v = np.arange(mass.shape[0], dtype=np.float64)[:, None]
    last: B1 | None = None
    for _ in range(_DISC_ITERATIONS):
        disc = (u - centre[0]) ** 2 + (v - centre[1]) ** 2 < (r + 1.0) ** 2
        if last is not None and disc.tobytes() == last.tobytes():  # same shape: same pixels
            break
        moments = _moments(mass * disc)
        if moments is None:
            return None
        centre, cov, _ = moments
        last = disc
    return centre, cov


def same_balls(a: list[Found], b: list[Found], tol_px: float = 0.1) -> bool:
    """True when two refinements of a blob found the same balls within ``tol_px``."""
    return len(a) == len(b) and all(
        x.ball == y.ball and float(np.hypot(*(x.uv_px - y.uv_px))) <= tol_px
        and not x.streak_px.any() and not y.streak_px.any()
        for x, y in zip(a, b, strict=True)
    )  # fmt: skip


def mean_balls(mean: list[Found], new: list[Found], n: int) -> list[Found]:
    """``new`` folded into the mean of ``n`` refinements (same balls, same order)."""
    return [
        replace(m, uv_px=(m.uv_px * n + x.uv_px) / (n + 1), score=(m.score * n + x.score) / (n + 1))
        for m, x in zip(mean, new, strict=True)
    ]


def _moments(mass: F32) -> Moments | None:
    """Share-weighted centroid (2,), covariance (2, 2) and total of an image; None if empty."""
    m = cv2.moments(mass)
    total = float(m["m00"])
    if total <= 0.0:
        return None
    centre = np.array([m["m10"] / total, m["m01"] / total])
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / total
    return centre, cov, total


def _eig2(cov: F64) -> tuple[float, float, F64]:
    """Eigenvalues (small, large) and eigenvectors (2, 2) (columns) of a 2x2 covariance.

    Closed form: ``np.linalg.eigh`` costs more in call overhead than in arithmetic.
    """
    a, b, c = float(cov[0, 0]), float(cov[0, 1]), float(cov[1, 1])
    mid, rad = (a + c) / 2.0, math.hypot((a - c) / 2.0, b)
    angle = 0.5 * math.atan2(2.0 * b, a - c)
    cos, sin = math.cos(angle), math.sin(angle)
    return mid - rad, mid + rad, np.array([[-sin, cos], [cos, sin]])
