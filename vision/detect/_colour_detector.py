"""Find the balls in a frame: coarse blobs on a small image, refined at full resolution.

Theory of operation. :meth:`ColourDetector.learn` takes a calibration and one frame: the
playing surface (the cushion-nose outline projected at ball-centre height) becomes a
mask, the cloth colour is learned inside it (:mod:`vision.detect._colour_model`), and a map of the
expected ball radius in pixels is made by projecting a ball at every place of the table.

:meth:`ColourDetector.detect` shrinks the frame (``scale`` 2..4, nearest pixel), marks the
pixels far from the cloth inside the surface (a linear colour distance) and labels the
blobs. A blob much smaller than a ball (a reflection, a chalk speck) is dropped; one much
bigger (a hand, an arm) is dropped too, but for the ball-sized pieces joined to it by a
neck narrower than a ball (a ball under the cue: :mod:`vision.detect._blob_split`),
which are looked at as blobs of their own. Each remaining blob is cut out of the
full-resolution frame with a margin; there every pixel gets the nearest ball class and
its share of that ball's colour, and per class the share image becomes balls
(:mod:`vision.detect._blob_refinement`, then :mod:`vision.detect._blob_balls`: a sharp
ball, a streak, or two touching balls).

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
import struct
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Calibration
from referee import Ball
from vision._types import U8, Detections, VisionError
from vision.detect._blob_balls import Found, mean_balls, same_balls
from vision.detect._blob_refinement import balls_in_blob
from vision.detect._blob_split import ball_pieces
from vision.detect._colour_model import ColourModel
from vision.detect._detector import DetectorCapabilities, Pixels, check_pixels
from vision.detect._still_cache import RepeatCache, StillCache
from vision.detect._table_image import ball_radius_px, surface_polygon_px
from vision.frames import YuvImage

__all__ = ["ColourDetector"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
B1 = NDArray[np.bool_]

_MIN_BLOB = 0.2  # blob area on the small image, in expected ball areas
_MAX_BLOB = 4.5
_OUTSIDE = 0.15  # a blob with more of its area than this beyond the cushion nose reaches in
#: Score factor of balls in a blob reaching the outer edge of the search band: it goes
#: on beyond the table (a hand, a cuff, the cue), so a ball there is likely one of them.
_REACHING = 0.5
#: Least score of a ball in a piece of a blob too big for balls: on the independent set's
#: tuning part, balls scored 0.64 or more there; pieces of a hand, the cue or a sleeve
#: over the rail 0.22-0.48, a white cuff on the cloth 0.76 (left to the tracker).
_PIECE = 0.6


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
    still: StillCache[list[Found]] = field(
        default_factory=lambda: StillCache(same_balls, mean_balls), repr=False
    )
    #: The last refinement of each blob box with its exact input (bytes repeated).
    repeats: RepeatCache[list[Found]] = field(default_factory=RepeatCache, repr=False)
    #: ``detect`` takes a :class:`YuvImage` (converts only what it looks at) and a guide.
    capabilities: ClassVar[DetectorCapabilities] = DetectorCapabilities(
        reads_planes=True, guided=True
    )

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
        if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
            raise VisionError(f"detector: frame is {frame_bgr.shape} {frame_bgr.dtype}, expected "
                              "(h, w, 3) uint8 BGR")  # fmt: skip
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
        check_pixels(image_bgr, (w, h))
        hs, ws = self.surface_small.shape
        if near_px is None:
            return _pack(self._search(image_bgr, (0, 0, ws, hs)))
        near = np.asarray(near_px, dtype=np.float64).reshape(-1, 2)
        reach = np.broadcast_to(np.asarray(reach_px, dtype=np.float64), (len(near),))
        found: list[Found] = []
        for box in self._windows(near, reach):
            found += self._search(image_bgr, box)
        return _pack([f for f in found if _within(f.uv_px, near, reach)])

    def radius_at(self, uv_px: F64) -> float:
        """The expected ball radius (px) at ``uv_px`` (2,); the largest off the table."""
        hs, ws = self.surface_small.shape
        u, v = (float(uv_px[0]) + 0.5) / self.scale, (float(uv_px[1]) + 0.5) / self.scale
        if not (math.isfinite(u) and math.isfinite(v)):
            return self.max_radius_px
        r = float(self.radius_small[min(max(int(v), 0), hs - 1), min(max(int(u), 0), ws - 1)])
        return r if math.isfinite(r) else self.max_radius_px

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

    def _search(self, image_bgr: Pixels, box: tuple[int, int, int, int]) -> list[Found]:
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
        found: list[Found] = []
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

    def _blob(self, image_bgr: Pixels, contour: NDArray[Any]) -> list[Found]:
        """The balls of one blob outline (shrunk-image coordinates), if it may hold any.

        A blob too big for balls, or reaching in over the cushions, is a hand, an arm
        or the cue: only the ball-sized pieces joined to it by a narrow neck are looked
        at (:meth:`_pieces`).
        """
        s = self.scale
        x, y, bw, bh = cv2.boundingRect(contour)
        r = float(self.radius_small[y + bh // 2, x + bw // 2])
        ball_area = math.pi * ((r if math.isfinite(r) else self.max_radius_px) / s) ** 2
        if not (min(bw, bh) >= math.sqrt(ball_area / math.pi) and _MIN_BLOB * ball_area <= bw * bh):
            return []  # a line (cushion shadow, cue), a speck
        big = not math.isfinite(r) or bw * bh > 4.0 * _MAX_BLOB * ball_area
        hs, ws = self.surface_small.shape
        x0, y0 = max(x - 2, 0), max(y - 2, 0)
        x1, y1 = min(x + bw + 2, ws), min(y + bh + 2, hs)
        blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.drawContours(blob, [contour], 0, 1, cv2.FILLED, offset=(-x0, -y0))
        if big or not self._fits(blob, (x0, y0), ball_area):
            return self._pieces(image_bgr, blob, (x0, y0), ball_area)
        if cv2.countNonZero(blob) < _MIN_BLOB * ball_area:
            return []  # a speck
        grown = np.asarray(cv2.dilate(blob, self._kernel5), np.uint8)
        return self._refine(image_bgr, blob, grown, (x0, y0, x1, y1), r)

    def _fits(self, blob: U8, origin: tuple[int, int], ball_area: float) -> bool:
        """False for a ``blob`` too big for balls or reaching in over the cushions."""
        x0, y0 = origin
        h, w = blob.shape
        area = int(cv2.countNonZero(blob))
        inside = int(np.count_nonzero(blob & self.surface_small[y0 : y0 + h, x0 : x0 + w]))
        return area <= _MAX_BLOB * ball_area and area - inside <= _OUTSIDE * inside

    def _pieces(
        self, image_bgr: Pixels, blob: U8, origin: tuple[int, int], ball_area: float
    ) -> list[Found]:
        """Balls of the ball-sized pieces of a big ``blob`` whose corner is ``origin``.

        Each piece is refined as a blob of its own, but its gate keeps out the rest of
        the big blob (a hand beside a ball pulled its centre 4 px towards it). Its balls
        need a score of ``_PIECE``, which is then halved as at the rim: the network is
        asked about them.
        """
        found: list[Found] = []
        hs, ws = blob.shape
        searched = self.search_small[origin[1] : origin[1] + hs, origin[0] : origin[0] + ws]
        for piece in ball_pieces(blob, searched.view(np.uint8), math.sqrt(ball_area / math.pi)):
            px, py, pw, ph = cv2.boundingRect(piece)
            bx0, by0 = max(px - 2, 0), max(py - 2, 0)
            bx1, by1 = min(px + pw + 2, ws), min(py + ph + 2, hs)
            own = np.ascontiguousarray(piece[by0:by1, bx0:bx1])
            x0, y0 = origin[0] + bx0, origin[1] + by0
            r = float(self.radius_small[y0 + (by1 - by0) // 2, x0 + (bx1 - bx0) // 2])
            if not (math.isfinite(r) and self._fits(own, (x0, y0), ball_area)):
                continue
            rest = blob[by0:by1, bx0:bx1] & (1 - own)
            grown = np.asarray(cv2.dilate(own, self._kernel5), np.uint8) & (1 - rest)
            box = (x0, y0, x0 + bx1 - bx0, y0 + by1 - by0)
            balls = self._refine(image_bgr, own, grown, box, r)
            found += [replace(f, score=f.score * _REACHING) for f in balls if f.score >= _PIECE]
        return found

    def _refine(
        self, image_bgr: Pixels, blob: U8, grown: U8, box: tuple[int, int, int, int], r: float
    ) -> list[Found]:
        """The balls of ``blob`` (its ``box`` on the shrunk image) looked for in ``grown``."""
        s = self.scale
        x0, y0, x1, y1 = box
        roi = image_bgr[y0 * s : y1 * s, x0 * s : x1 * s]
        if (kept := self.still.get(box, roi)) is not None:
            return kept
        # The refinement is a function of these bytes alone: the same bytes, its result.
        key = (roi.tobytes(), grown.tobytes(), struct.pack("d", r))
        found = self.repeats.get(box, key)
        if found is None:
            gate = cv2.resize(grown, None, fx=s, fy=s, interpolation=cv2.INTER_NEAREST)
            gate = gate[: roi.shape[0], : roi.shape[1]]
            found = balls_in_blob(self.model, roi, gate, (x0 * s, y0 * s), r)
            self.repeats.put(box, key, found)
        if (blob.view(bool) & self.rim_small[y0:y1, x0:x1]).any():
            found = [replace(f, score=f.score * _REACHING) for f in found]
        self.still.put(box, roi, found)
        return found


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


def _pack(found: list[Found]) -> Detections:
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
