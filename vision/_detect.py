"""Find the balls in a frame: coarse blobs on a small image, refined at full resolution.

Theory of operation. :meth:`ColourDetector.learn` takes a calibration and one frame: the
playing surface (the cushion-nose outline projected at ball-centre height) becomes a
mask, the cloth colour is learned inside it (:mod:`vision._colour`), and a map of the
expected ball radius in pixels is made by projecting a ball at every place of the table.

:meth:`ColourDetector.detect` shrinks the frame (``scale`` 2..4, nearest pixel), marks the
pixels far from the cloth inside the surface (a linear colour distance) and labels the
blobs. A blob much smaller than a ball (a reflection, a chalk speck) or much bigger (a
hand, an arm) is dropped. Each remaining blob is cut out of the full-resolution frame
with a margin; there every pixel gets the nearest ball class and its share of that
ball's colour. Per class, the share-weighted pixel moments give the centre (sub-pixel:
edge pixels count by their share), the mass (in balls: blur spreads a ball but keeps its
mass) and the spread. A mass of about two balls of one class is two touching balls,
split across the principal axis at the weighted median. A ball's mass stretched along
one axis is a motion streak: the centroid is the mid-exposure position and, for a ball
of variance ``r^2/4`` moving uniformly, the half length is ``sqrt(3 (l1 - l2))`` from
the eigenvalues of the spread. Thin shapes (a cue) are dropped.

From a decoded video frame (:class:`YuvImage`) the shrunk image is never converted:
its Y, U, V samples (each with its own chroma sample) go through the same affine
distance, which is affine in Y, U, V too; only the blobs are converted to BGR.

Guided search: given predicted centres and how far each ball may have gone, only
windows around them (grown by three ball radii, merged where they overlap) are shrunk
and searched, with everything else the same; a ball wholly inside a window gives the
very centre the full search gives, and only balls within reach are returned. At 1080p
it saves the coarse pass (about a quarter of the full search); the refinement of each
blob, done on share images with OpenCV's moments, is the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Calibration
from referee import Ball
from vision._colour import ColourModel, ball_share
from vision._still import StillCache
from vision._types import U8, Detections, VisionError
from vision._yuv import YuvImage

__all__ = ["ColourDetector", "Detector", "ball_radius_px", "surface_polygon_px"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
B1 = NDArray[np.bool_]
#: A frame as the detector reads it: BGR (h, w, 3), or planes converted where sliced.
Pixels = U8 | YuvImage

_MIN_BLOB = 0.2  # blob area on the small image, in expected ball areas
_MAX_BLOB = 4.5
_OUTSIDE = 0.15  # a blob with more of its area than this beyond the cushion nose reaches in
_MIN_MASS = 0.4  # class mass in a blob, in balls
_SPLIT_MASS = 1.55
_MAX_MASS = 2.6
_THIN = 0.5  # minor-axis variance below this share of a disc's is a stick, not a ball
_FAT = 1.8
_STICK_RATIO = 2.5  # a thin blob longer than this many times its width is a stick
_SHARP_PEAK = 0.65  # a sharp ball shows its full colour somewhere (90th percentile share)
_STREAK_PEAK = 0.25  # a streak at least this much
_STREAK_MASS = 1.25  # a streak's mass in balls, at most
_KEEP_OPENED = 0.75  # share of the mass an opening may leave and still be used
_LINE_WIDTH = 0.25  # openings (disc radius in ball radii): chalk lines, the cue's shaft
_FERRULE_WIDTH = 0.55  # the cue's ferrule against a ball (tried on full-colour blobs)
_ELONGATED = 0.35  # half-length beyond a disc's, in radii: a streak, or a ball and a line
_ATTACHED_MASS = 1.1  # a ball with something of its colour against it, in balls
_DISC_ITERATIONS = 4  # re-centrings on the disc that drop a touching cue or chalk line
#: Score factor of balls in a blob reaching the outer edge of the search band: it goes
#: on beyond the table (a hand, a cuff, the cue), so a ball there is likely one of them.
_REACHING = 0.5


class Detector(Protocol):
    """Anything that finds balls in a BGR frame."""

    def detect(self, image_bgr: U8) -> Detections: ...


def surface_polygon_px(calibration: Calibration, outset_mm: float = 0.0, n: int = 60) -> F64:
    """The playing surface outline (4 n, 2) ``uv_px`` at ball-centre height.

    The outline is the cushion-nose rectangle grown by ``outset_mm``, sampled densely so
    that lens distortion bends it as it bends the cushions.
    """
    g = calibration.geometry
    lo, hi_x, hi_y = -outset_mm, g.length_mm + outset_mm, g.width_mm + outset_mm
    t = np.linspace(0.0, 1.0, n, endpoint=False)
    xs = np.concatenate(
        [lo + t * (hi_x - lo), np.full(n, hi_x), hi_x - t * (hi_x - lo), np.full(n, lo)]
    )
    ys = np.concatenate(
        [np.full(n, lo), lo + t * (hi_y - lo), np.full(n, hi_y), hi_y - t * (hi_y - lo)]
    )
    return calibration.mm_to_px(np.c_[xs, ys], g.radius_mm)


def ball_radius_px(calibration: Calibration, uv_px: F64) -> F64:
    """Apparent radius (n,) in pixels of a ball centred at image points ``uv_px`` (n, 2).

    The mean distance from the centre's image to the images of the four points one
    radius away on the ball's equator; NaN where the point is off the table plane.
    """
    r = calibration.geometry.radius_mm
    xy = calibration.px_to_mm(uv_px, r)
    centre = calibration.mm_to_px(xy, r)
    total = np.zeros(len(xy))
    for dx, dy in ((r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r)):
        edge = calibration.mm_to_px(xy + np.array([dx, dy]), r)
        total += np.hypot(*(edge - centre).T)
    out: F64 = total / 4.0
    return out


@dataclass(frozen=True, slots=True)
class _Found:
    uv_px: F64
    ball: Ball
    score: float
    radius_px: float
    streak_px: F64


@dataclass(frozen=True, slots=True)
class ColourDetector:
    """Colour-blob ball detector for one calibrated camera (see the module docstring).

    Attributes:
        model: Cloth and ball colours.
        scale: Shrink factor of the coarse search (1..4).
        surface_small: (hs, ws) where balls may be, on the shrunk image.
        search_small: (hs, ws) the surface grown by a ball radius: a blob reaching out
            into it comes from outside the table (a hand, the cue) and is dropped.
        rim_small: (hs, ws) the outermost pixels of ``search_small``: a blob touching
            them goes on beyond the table, and its balls' scores are halved.
        radius_small: (hs, ws) float32 expected ball radius in full-resolution pixels.
        size_px: Full frame (width, height).
        open_lines: Balls span 4.4+ shrunk pixels: lines under 3 are opened away.
    """

    model: ColourModel
    scale: int
    surface_small: B1
    search_small: B1
    rim_small: B1
    radius_small: F32
    size_px: tuple[int, int]
    open_lines: bool
    _kernel: U8 = field(default_factory=lambda: np.ones((3, 3), np.uint8), repr=False)
    # Two dilations by the 3 x 3 square in one call.
    _kernel5: U8 = field(default_factory=lambda: np.ones((5, 5), np.uint8), repr=False)
    #: Refinements of blobs at rest, reused while their pixels stay the same.
    still: StillCache[list[_Found]] = field(
        default_factory=lambda: StillCache(_same_balls, _mean_balls), repr=False
    )
    #: ``detect`` takes a :class:`YuvImage` and converts only what it looks at.
    reads_planes: ClassVar[bool] = True

    #: The largest expected ball radius on the table, in full-resolution pixels.
    max_radius_px: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_radius_px", float(np.nanmax(self.radius_small)))

    @classmethod
    def learn(
        cls,
        calibration: Calibration,
        frame_bgr: U8,
        balls: tuple[Ball, ...] = (Ball.WHITE, Ball.YELLOW, Ball.RED),
        scale: int | None = None,
    ) -> ColourDetector:
        """Build the detector for ``calibration`` from one frame (h, w, 3) BGR of its camera.

        Raises:
            VisionError: The frame's size is not the calibration's, or no table is seen.
        """
        w, h = calibration.image_size_px
        if frame_bgr.shape != (h, w, 3):
            raise VisionError(
                f"detector: frame is {frame_bgr.shape[1]}x{frame_bgr.shape[0]}, the "
                f"calibration is for {w}x{h}; calibrate this camera"
            )
        centre = calibration.mm_to_px(np.array([[calibration.geometry.length_mm / 2.0,
                                                 calibration.geometry.width_mm / 2.0]]),
                                      calibration.geometry.radius_mm)  # fmt: skip
        r_centre = float(ball_radius_px(calibration, centre)[0])
        s = scale or int(np.clip(math.floor(r_centre / 2.5), 1, 4))
        ws, hs = -(-w // s), -(-h // s)
        tight = _polygon_mask(surface_polygon_px(calibration), s, (hs, ws))
        surface: B1 = np.asarray(cv2.dilate(tight, np.ones((3, 3), np.uint8)), dtype=bool)
        grown = _polygon_mask(
            surface_polygon_px(calibration, calibration.geometry.radius_mm), s, (hs, ws)
        )
        inner = _polygon_mask(
            surface_polygon_px(calibration, -calibration.geometry.radius_mm), s, (hs, ws)
        )
        small = _shrink(frame_bgr, s, (0, 0, ws, hs))
        model = ColourModel.learn(small, inner.astype(bool), balls)
        grid_v, grid_u = np.mgrid[0:hs, 0:ws].astype(np.float64)
        uv = np.c_[(grid_u.ravel() + 0.5) * s - 0.5, (grid_v.ravel() + 0.5) * s - 0.5]
        radius = ball_radius_px(calibration, uv).reshape(hs, ws).astype(np.float32)
        r_min = float(np.nanmin(np.where(surface, radius, np.nan)))
        search: B1 = grown.astype(bool) | surface
        inside = cv2.erode(search.view(np.uint8), np.ones((3, 3), np.uint8), borderValue=1)
        rim: B1 = search & ~inside.view(bool)
        return cls(model, s, surface, search, rim, radius, (w, h), r_min >= 2.2 * s)

    def detect(
        self, image_bgr: Pixels, near_px: F64 | None = None, reach_px: F64 | None = None
    ) -> Detections:
        """Balls in one frame (h, w, 3) BGR of this camera, best score first per class.

        Args:
            image_bgr: The frame, an array or a :class:`YuvImage` (only the windows
                searched are converted).
            near_px: (k, 2) predicted ball centres ``uv_px``, or None to search the
                whole table. When given, only windows around them are searched (the
                same colour model, refinement and splitting as the full search) and
                only balls whose centre lies within ``reach_px`` of a prediction are
                returned.
            reach_px: (k,) how far each ball may be from its prediction, in pixels.
                Windows are grown by three ball radii beyond it, so that a ball (or a
                streak up to two radii long) within reach lies wholly inside.
        """
        w, h = self.size_px
        if image_bgr.shape != (h, w, 3):
            raise VisionError(f"detector: frame is {image_bgr.shape}, expected ({h}, {w}, 3)")
        hs, ws = self.surface_small.shape
        if near_px is None:
            return _pack(self._search(image_bgr, (0, 0, ws, hs)))
        near = np.asarray(near_px, dtype=np.float64).reshape(-1, 2)
        reach = np.broadcast_to(np.asarray(reach_px, dtype=np.float64), (len(near),))
        found: list[_Found] = []
        for box in self._windows(near, reach):
            found += self._search(image_bgr, box)
        return _pack([f for f in found if _within(f.uv_px, near, reach)])

    def _windows(self, near: F64, reach: F64) -> list[tuple[int, int, int, int]]:
        """Disjoint boxes (x0, y0, x1, y1) on the shrunk image covering every window."""
        # Plain floats: for three balls numpy's call overhead is most of the cost.
        s = self.scale
        hs, ws = self.surface_small.shape
        floor_r = self.max_radius_px * 0.5
        boxes = []
        for (u, v), far in zip(near.tolist(), reach.tolist(), strict=True):
            if not (math.isfinite(u) and math.isfinite(v) and math.isfinite(far)):
                continue
            cu, cv = (u + 0.5) / s, (v + 0.5) / s
            r = float(self.radius_small[min(max(int(cv), 0), hs - 1), min(max(int(cu), 0), ws - 1)])
            half = (far + 3.0 * max(r if math.isfinite(r) else 0.0, floor_r)) / s
            bx0, by0 = max(math.floor(cu - half) - 1, 0), max(math.floor(cv - half) - 1, 0)
            bx1, by1 = min(math.ceil(cu + half) + 1, ws), min(math.ceil(cv + half) + 1, hs)
            if bx0 < bx1 and by0 < by1:
                boxes.append((bx0, by0, bx1, by1))
        return _merge_boxes(boxes)

    def _search(self, image_bgr: Pixels, box: tuple[int, int, int, int]) -> list[_Found]:
        """Balls whose blobs lie in ``box`` (x0, y0, x1, y1) of the shrunk image."""
        bx0, by0, bx1, by1 = box
        fg = self._foreground(image_bgr, box) & self.search_small[by0:by1, bx0:bx1]
        if self.open_lines:
            # Opening drops lines under 3 px (the cue) that would tie a ball to the arm.
            fg = cv2.morphologyEx(fg.view(np.uint8), cv2.MORPH_OPEN, self._kernel).view(bool)
        # Contours, not connected components: OpenCV's labelling costs ~1 ms a frame
        # here whatever the image holds, tracing a few blobs' outlines almost nothing.
        # CCOMP: a blob inside a ring (the cushion shadow closing round the table) is
        # still an outer boundary; hole boundaries have a parent and are skipped.
        contours, tree = cv2.findContours(
            fg.view(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE, offset=(bx0, by0)
        )
        found: list[_Found] = []
        for i, contour in enumerate(contours):
            if tree[0, i, 3] < 0:
                found += self._blob(image_bgr, contour)
        return found

    def _foreground(self, image: Pixels, box: tuple[int, int, int, int]) -> B1:
        """Foreground (h, w) of ``box`` (x0, y0, x1, y1) on the shrunk image.

        From the decoder's planes where they can be sampled as they are (no BGR
        conversion of the window: that was a fifth of the detector's time); blobs
        are then refined on BGR pixels converted from the planes as before.
        """
        s = self.scale
        x0, y0, x1, y1 = box
        if isinstance(image, YuvImage):
            planes = image.planes_sampled(y0 * s, y1 * s, x0 * s, x1 * s, s)
            if planes is not None:
                return self.model.foreground_yuv(planes)
        return self.model.foreground(_shrink(image, s, box))

    def _blob(self, image_bgr: Pixels, contour: NDArray[Any]) -> list[_Found]:
        """The balls of one blob outline (shrunk-image coordinates), if it may hold any."""
        s = self.scale
        x, y, bw, bh = cv2.boundingRect(contour)
        r = float(self.radius_small[y + bh // 2, x + bw // 2])
        ball_area = math.pi * (r / s) ** 2
        if not (
            math.isfinite(r)
            and min(bw, bh) >= r / s
            and _MIN_BLOB * ball_area <= bw * bh <= 4.0 * _MAX_BLOB * ball_area
        ):
            return []  # a line (cushion shadow, cue), a speck, an arm, or off the table
        hs, ws = self.surface_small.shape
        x0, y0 = max(x - 2, 0), max(y - 2, 0)
        x1, y1 = min(x + bw + 2, ws), min(y + bh + 2, hs)
        blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(blob, [contour], 0, 1, cv2.FILLED, offset=(-x0, -y0))
        area = int(cv2.countNonZero(blob))
        inside = int(np.count_nonzero(blob & self.surface_small[y0:y1, x0:x1]))
        if not (_MIN_BLOB <= area / ball_area <= _MAX_BLOB) or area - inside > _OUTSIDE * inside:
            return []  # a speck, a hand, or something reaching in over the cushions
        roi = image_bgr[y0 * s : y1 * s, x0 * s : x1 * s]
        if (kept := self.still.get((x0, y0, x1, y1), roi)) is not None:
            return kept
        found = self._refine(roi, blob, (x0, y0), r)
        if np.any(blob.view(bool) & self.rim_small[y0:y1, x0:x1]):
            found = [replace(f, score=f.score * _REACHING) for f in found]
        self.still.put((x0, y0, x1, y1), roi, found)
        return found

    def _refine(self, roi: U8, blob: U8, origin: tuple[int, int], r: float) -> list[_Found]:
        """Balls in a blob (mask on the shrunk image at ``origin``), at full resolution.

        ``roi`` is the frame's BGR under the blob's box (``s`` times its size).
        """
        s = self.scale
        x0, y0 = origin
        gate_small = cv2.dilate(blob, self._kernel5)
        gate = cv2.resize(gate_small, None, fx=s, fy=s, interpolation=cv2.INTER_NEAREST)
        gate = gate[: roi.shape[0], : roi.shape[1]]
        # Flat indices of the gate's pixels: one-axis gathers and scatters are a third
        # of the cost of (row, column) pairs. Lab of the gate's pixels only is used.
        idx = np.flatnonzero(gate)
        lab = cv2.cvtColor(roi, cv2.COLOR_BGR2Lab).reshape(-1, 3)[idx]
        pixels = self.model.weighted(lab)
        label, alpha = self.model.classify(pixels)
        out: list[_Found] = []
        counts = np.bincount(label + 1, minlength=len(self.model.balls) + 1)[1:]
        present = counts >= 0.25 * math.pi * r * r
        in_present = present[np.maximum(label, 0)] & (label >= 0)
        for c in np.flatnonzero(present):
            core = label == c
            peak = self.model.peak_share(pixels[core], alpha[core, c], int(c))
            if peak < _STREAK_PEAK:
                continue
            # Pixels next to the core count by their share of this ball: the rim (too
            # faint to be foreground), a highlight or a shaded side nearer another
            # colour; not those of another ball present in the blob.
            core2d = np.zeros(gate.shape, np.uint8)
            core2d.reshape(-1)[idx[core]] = 1
            near = cv2.dilate(core2d, self._kernel5).reshape(-1)[idx] > 0
            # The shares as an image: OpenCV's moments then cost one call, not ten.
            mass = np.zeros(gate.shape, np.float32)
            mass.reshape(-1)[idx] = ball_share(alpha[:, c]) * (near & (core | ~in_present))
            ball = self.model.balls[c]
            out += _ball_or_streak(mass, (x0 * s, y0 * s), ball, r, peak)
        return out


def _ball_or_streak(
    mass: F32, origin: tuple[int, int], ball: Ball, r: float, peak: float
) -> list[_Found]:
    """Balls of one class from its share image; a streak only if no line made it one.

    A ball rolling over a chalk line (or with the cue along it) is as long as a short
    streak: when the image without its thin lines gives a sharp ball, that is the ball.
    """
    found = _balls_from_mass(mass, origin, ball, r, peak)
    # A ball in full colour may also have the cue's ferrule against it (at the stroke),
    # as wide as a third of the ball: a wider opening takes that off too. It pulls the
    # centre whether the pair looks like a streak or like a long ball.
    sharp_colour = peak > _SHARP_PEAK
    if any(f.streak_px.any() for f in found):
        widths = (_LINE_WIDTH, _FERRULE_WIDTH) if sharp_colour else (_LINE_WIDTH,)
    elif sharp_colour and len(found) == 1 and _attached(mass, r):
        widths = (_FERRULE_WIDTH,)
    else:
        return found
    for width in widths:
        opened = _open_lines(mass, r, width)
        if opened is mass:
            continue
        sharp = _balls_from_mass(opened, origin, ball, r, peak)
        if sharp and not any(f.streak_px.any() for f in sharp):
            return sharp
    return found


def _attached(mass: F32, r: float) -> bool:
    """True when a share image (h, w) holds something of the ball's colour against it.

    That is more mass than a ball, and longer than a disc of radius ``r`` px (a
    slightly blurred ball is as long, but keeps a ball's mass).
    """
    moments = _moments(mass)
    if moments is None or float(mass.sum()) < _ATTACHED_MASS * math.pi * r * r:
        return False
    l2, l1, _ = _eig2(moments[1])
    return math.sqrt(max(3.0 * (l1 - l2), 0.0)) > _ELONGATED * r


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
    mass: F32, origin: tuple[int, int], ball: Ball, r: float, peak: float
) -> list[_Found]:
    """One ball, a streak, or two touching balls from a share image (h, w) at ``origin``."""
    balls = float(cv2.moments(mass)["m00"]) / (math.pi * r * r)
    if not (_MIN_MASS <= balls <= _MAX_MASS):
        return []
    if balls >= _SPLIT_MASS:
        halves = _split(mass)
        return [f for half in halves for f in _balls_from_image(half, origin, ball, r, 1.0, peak)]
    return _balls_from_image(mass, origin, ball, r, balls, peak)


def _split(mass: F32) -> tuple[F32, F32]:
    """The share image cut in two across its principal axis at the weighted median."""
    moments = _moments(mass)
    assert moments is not None  # the caller checked the mass
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
    mass: F32, origin: tuple[int, int], ball: Ball, r: float, balls: float, peak: float
) -> list[_Found]:
    """A ball from a share image (h, w) at ``origin``: sharp, a streak, or not a ball."""
    moments = _moments(mass)
    if moments is None:
        return []
    centre, cov = moments
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
    return [_Found(centre + origin, ball, score, r, streak)]


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
        if last is not None and np.array_equal(disc, last):
            break
        moments = _moments(mass * disc)
        if moments is None:
            return None
        centre, cov = moments
        last = disc
    return centre, cov


def _same_balls(a: list[_Found], b: list[_Found], tol_px: float = 0.1) -> bool:
    """True when two refinements of a blob found the same balls within ``tol_px``."""
    return len(a) == len(b) and all(
        x.ball == y.ball and float(np.hypot(*(x.uv_px - y.uv_px))) <= tol_px
        and not x.streak_px.any() and not y.streak_px.any()
        for x, y in zip(a, b, strict=True)
    )  # fmt: skip


def _mean_balls(mean: list[_Found], new: list[_Found], n: int) -> list[_Found]:
    """``new`` folded into the mean of ``n`` refinements (same balls, same order)."""
    return [
        replace(m, uv_px=(m.uv_px * n + x.uv_px) / (n + 1), score=(m.score * n + x.score) / (n + 1))
        for m, x in zip(mean, new, strict=True)
    ]


def _moments(mass: F32) -> tuple[F64, F64] | None:
    """Share-weighted centroid (2,) and covariance (2, 2) of an image; None if empty."""
    m = cv2.moments(mass)
    total = float(m["m00"])
    if total <= 0.0:
        return None
    centre = np.array([m["m10"] / total, m["m01"] / total])
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / total
    return centre, cov


def _eig2(cov: F64) -> tuple[float, float, F64]:
    """Eigenvalues (small, large) and eigenvectors (2, 2) (columns) of a 2x2 covariance.

    Closed form: ``np.linalg.eigh`` costs more in call overhead than in arithmetic.
    """
    a, b, c = float(cov[0, 0]), float(cov[0, 1]), float(cov[1, 1])
    mid, rad = (a + c) / 2.0, math.hypot((a - c) / 2.0, b)
    angle = 0.5 * math.atan2(2.0 * b, a - c)
    cos, sin = math.cos(angle), math.sin(angle)
    return mid - rad, mid + rad, np.array([[-sin, cos], [cos, sin]])


def _within(uv_px: F64, near: F64, reach: F64) -> bool:
    """True when ``uv_px`` (2,) is within ``reach`` (k,) of one of ``near`` (k, 2)."""
    u, v = float(uv_px[0]), float(uv_px[1])
    return any(
        math.hypot(u - a, v - b) <= far
        for (a, b), far in zip(near.tolist(), reach.tolist(), strict=True)
    )


def _merge_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) merged until none overlap (their bounding boxes)."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _pack(found: list[_Found]) -> Detections:
    if not found:
        return Detections.empty()
    found.sort(key=lambda f: (str(f.ball), -f.score))
    return Detections(
        np.array([f.uv_px for f in found]),
        tuple(f.ball for f in found),
        np.array([f.score for f in found]),
        np.array([f.radius_px for f in found]),
        np.array([f.streak_px for f in found]),
    )


def _shrink(image: Pixels, s: int, box: tuple[int, int, int, int]) -> U8:
    """Box (x0, y0, x1, y1) of the ``s`` times shrunk image: pixel (x, y) is (s x, s y).

    One pixel per s x s block: a fifth of the cost of INTER_AREA here; a ball still
    spans several pixels, and the threshold was learned on frames shrunk the same way.
    """
    x0, y0, x1, y1 = box
    if isinstance(image, YuvImage):
        # Strided: a whole-table box converts only the sampled pixels (no whole-frame
        # BGR); a window is converted once at full size, and its blobs reuse it.
        return image[y0 * s : y1 * s : s, x0 * s : x1 * s : s]
    crop = image[y0 * s : y1 * s, x0 * s : x1 * s]
    if crop.shape[:2] != ((y1 - y0) * s, (x1 - x0) * s):
        # The frame's last blocks are short: a strided copy, half as fast as resize.
        return image[y0 * s : y1 * s : s, x0 * s : x1 * s : s]
    small = cv2.resize(crop, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST)
    return np.asarray(small, dtype=np.uint8)


def _polygon_mask(poly_px: F64, s: int, shape: tuple[int, int]) -> U8:
    """Filled polygon (hs, ws) uint8 0/1 on the image shrunk ``s`` times."""
    mask = np.zeros(shape, np.uint8)
    pts = (poly_px + 0.5) / s - 0.5
    ok = np.all(np.isfinite(pts), axis=1)
    fixed = np.round(pts[ok] * 16.0).astype(np.int32)
    cv2.fillPoly(mask, [fixed], 1, lineType=cv2.LINE_8, shift=4)
    return mask
