"""Colour models: the cloth learned from the frame, the balls as prototypes around it.

Theory of operation. Colours are compared in a weighted CIE Lab space (OpenCV's 8-bit
Lab, ``a`` and ``b`` centred on 0): ``(0.3 L, a, b)``. Lightness counts less than chroma
because the lamps make the cloth brighter under them and balls cast dark shadows; both
change L far more than the cloth's hue. The cloth is the median of the playing surface's
pixels with a robust spread (MAD), so a blue, green or sand cloth, lit well or badly, is
learned from one frame. A pixel is foreground when it is far from the cloth (beyond
``threshold``), or lighter than the cloth's lightest by a margin (``bright``: a white's
fast streak on a grey cloth differs from it in lightness alone, and too little for the
distance); its class is the ball whose cloth-to-ball colour line passes nearest.
The ball's share of an anti-aliased or blurred pixel is the projection of its colour on
the line from the cloth to the ball's prototype (colours mix about linearly), so
centroids weighted by that share are sub-pixel accurate and blur keeps the ball's mass.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from referee import Ball
from vision._types import U8, VisionError

__all__ = [
    "DEFAULT_PROTOTYPES",
    "L_WEIGHT",
    "ColourModel",
    "ball_share",
    "colour_classes",
    "weighted_lab",
]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
B1 = NDArray[np.bool_]

#: Weight of lightness against chroma in every colour distance.
L_WEIGHT = 0.3
#: Ball colours (L 0..255, a, b centred on 0) measured on rendered and broadcast balls.
DEFAULT_PROTOTYPES: Mapping[Ball, tuple[float, float, float]] = {
    Ball.WHITE: (245.0, -2.0, 10.0),
    Ball.DOTTED: (245.0, -2.0, 10.0),
    Ball.YELLOW: (190.0, 17.0, 55.0),
    Ball.RED: (115.0, 52.0, 20.0),
}
#: Balls that look alike, by the colour class a detector reports for them: the 7-pin
#: game's two whites are plain white balls; the tracker names them by continuity.
_LOOKS_LIKE: Mapping[Ball, Ball] = {Ball.WHITE1: Ball.WHITE, Ball.WHITE2: Ball.WHITE}


def colour_classes(balls: tuple[Ball, ...]) -> tuple[Ball, ...]:
    """The colour classes a detector needs for ``balls`` (look-alikes once), in order.

    ``(red, white1, white2)`` -> ``(red, white)``: two identical whites are one class.
    """
    return tuple(dict.fromkeys(_LOOKS_LIKE.get(b, b) for b in balls))


_MIN_THRESHOLD = 18.0  # weighted-Lab units: lamp gradients and shadows stay below
#: A pixel this much lighter than the cloth's lightest (its 99th percentile, balls and
#: everything beyond ``threshold`` left out) is foreground too, whatever its distance:
#: a white ball's fast streak on a grey cloth is only lighter (40-70 grey levels, under
#: the 60 the distance needs); lamps make the cloth lighter by less (99th percentile
#: at most 6.4 weighted units on the first frames of the independent set's tuning part).
_BRIGHT_MARGIN = 5.0
_MIN_BRIGHT = 9.0
_MAD_K = 6.0
_MATCH = 0.3  # foreground beyond this many robust sigmas of the cloth
#: BGR -> a linear stand-in for weighted Lab (0.3 luma, scaled B - luma, R - luma) for
#: the coarse search: one matrix product per pixel instead of a Lab conversion.
_OPPONENT = np.array(
    [[0.3 * 0.114, 0.3 * 0.587, 0.3 * 0.299],
     [0.5 * (1 - 0.114), -0.5 * 0.587, -0.5 * 0.299],
     [-0.5 * 0.114, -0.5 * 0.587, 0.5 * (1 - 0.299)]],
    dtype=np.float32,
)  # fmt: skip


_LAB_SCALE = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
_LAB_SHIFT = np.array([0.0, 128.0, 128.0], np.float32)


def weighted_lab(image_bgr: U8) -> F32:
    """(h, w, 3) float32 ``(0.3 L, a, b)`` of a BGR uint8 image."""
    lab = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2Lab)
    out = lab.astype(np.float32)
    out[..., 0] *= L_WEIGHT
    out[..., 1:] -= 128.0
    return out


def _centre_spread(pixels: NDArray[np.float32]) -> tuple[F64, float]:
    """Median (3,) of pixels (n, 3) and the foreground threshold beyond it."""
    centre = np.median(pixels, axis=0).astype(np.float64)
    dist = np.sqrt(((pixels - centre.astype(np.float32)) ** 2).sum(axis=1))
    # Balls, spots and chalk are few: the median distance is the cloth's own spread.
    return centre, max(_MIN_THRESHOLD, _MAD_K * 1.4826 * float(np.median(dist)))


def _bright_limit(lightness: NDArray[np.float32], near_cloth: B1) -> float:
    """How much lighter than the cloth's median a pixel is foreground at any distance.

    ``lightness`` (n,) is the pixels' lightness over the cloth's (the weighted L or the
    opponent luma, cloth-centred); ``near_cloth`` (n,) those within the threshold.
    """
    cloth = lightness[near_cloth]
    if len(cloth) == 0:
        return math.inf
    return max(_MIN_BRIGHT, float(np.percentile(cloth, 99.0)) + _BRIGHT_MARGIN)


def _to_weighted(lab: tuple[float, float, float]) -> F64:
    return np.array([L_WEIGHT * lab[0], lab[1], lab[2]])


@dataclass(frozen=True, slots=True)
class ColourModel:
    """Cloth and ball colours in weighted Lab.

    Attributes:
        cloth: (3,) cloth median, weighted Lab.
        threshold: Distance from the cloth beyond which a pixel is foreground.
        balls: The ball classes, in prototype order.
        prototypes: (k, 3) ball colours, weighted Lab.
        coarse: (3, 4) float32 BGR -> opponent colour minus the cloth's (affine).
        coarse_threshold: Foreground distance in the opponent space.
        bright: Weighted lightness over the cloth's beyond which a pixel is foreground
            at any distance (a white's faint streak on a grey cloth).
        coarse_bright: The same in the opponent space (its first, luma component).
    """

    cloth: F64
    threshold: float
    balls: tuple[Ball, ...]
    prototypes: F64
    coarse: F32
    coarse_threshold: float
    bright: float = math.inf
    coarse_bright: float = math.inf
    # float32 copies for the per-pixel work (made once, not per blob).
    _cloth32: F32 = field(init=False, repr=False, compare=False)
    _dirs32: F32 = field(init=False, repr=False, compare=False)
    _reach32: F32 = field(init=False, repr=False, compare=False)

    _coarse_yuv: F32 = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        dirs = (self.prototypes - self.cloth).astype(np.float32)
        object.__setattr__(self, "_cloth32", self.cloth.astype(np.float32))
        object.__setattr__(self, "_dirs32", dirs)
        object.__setattr__(self, "_reach32", (dirs * dirs).sum(axis=1))
        # The same affine map from the video's Y, U, V: BGR is affine in them.
        linear = self.coarse[:, :3].astype(np.float64) @ _BGR_FROM_YUV
        offset = self.coarse[:, 3] - linear @ _YUV_ZERO
        object.__setattr__(self, "_coarse_yuv", np.c_[linear, offset].astype(np.float32))

    @classmethod
    def learn(
        cls,
        image_bgr: U8,
        surface: B1,
        balls: tuple[Ball, ...] = (Ball.WHITE, Ball.YELLOW, Ball.RED),
        prototypes: Mapping[Ball, tuple[float, float, float]] = DEFAULT_PROTOTYPES,
    ) -> ColourModel:
        """Learn the cloth from the pixels of ``surface`` (h, w) in ``image_bgr`` (h, w, 3).

        Raises:
            VisionError: The surface mask holds too few pixels, or a ball has no colour.
        """
        if int(surface.sum()) < 100:
            raise VisionError("colour model: the playing surface covers < 100 pixels; recalibrate")
        balls = colour_classes(balls)
        missing = [b for b in balls if b not in prototypes]
        if missing:
            raise VisionError(f"colour model: no colour known for ball {missing[0]}")
        lab = weighted_lab(image_bgr)[surface]
        cloth, threshold = _centre_spread(lab)
        opp = image_bgr[surface].astype(np.float32) @ _OPPONENT.T
        opp_cloth, opp_threshold = _centre_spread(opp)
        coarse = np.c_[_OPPONENT, -opp_cloth].astype(np.float32)
        protos = np.array([_to_weighted(prototypes[b]) for b in balls])
        lab -= cloth.astype(np.float32)
        opp -= opp_cloth.astype(np.float32)
        bright = _bright_limit(lab[:, 0], (lab * lab).sum(axis=1) <= threshold**2)
        coarse_bright = _bright_limit(opp[:, 0], (opp * opp).sum(axis=1) <= opp_threshold**2)
        return cls(
            cloth, threshold, tuple(balls), protos, coarse, opp_threshold, bright, coarse_bright
        )

    def foreground(self, image_bgr: U8) -> B1:
        """Pixels (h, w) of a BGR image far from the cloth, by the coarse colour distance."""
        diff = cv2.transform(image_bgr.astype(np.float32), self.coarse)
        return self._far(diff)

    def _far(self, diff: NDArray[Any]) -> B1:
        """Pixels (h, w) whose opponent colour minus the cloth's, ``diff`` (h, w, 3), is far."""
        d2 = cv2.transform(cv2.multiply(diff, diff), np.ones((1, 3), np.float32))
        out: B1 = (d2 > self.coarse_threshold**2) | (diff[..., 0] > self.coarse_bright)
        return out

    def foreground_yuv(self, image_yuv: U8) -> B1:
        """:meth:`foreground` of pixels (h, w, 3) given as video Y, U, V (BT.601, 4:2:0).

        No BGR conversion: the coarse distance is affine in Y, U, V too. Equal to the
        BGR test but where a conversion would clip a channel (a highlight brighter
        than 255) or round it (a pixel within a grey level of the threshold).
        """
        diff = cv2.transform(image_yuv.astype(np.float32), self._coarse_yuv)
        return self._far(diff)

    def with_prototype(self, ball: Ball, colour: F64) -> ColourModel:
        """A copy with the prototype of ``ball`` replaced by ``colour`` (3,) weighted Lab."""
        protos = self.prototypes.copy()
        protos[self.balls.index(ball)] = colour
        return replace(self, prototypes=protos)

    def peak_share(self, pixels: F32, alpha: F32, k: int) -> float:
        """How fully pixels (n, 3) weighted Lab show ball ``k``: 0..1, or -1 if off-colour.

        ``alpha`` (n,) is their raw share of ball ``k`` (:meth:`classify`). The mean
        pixel must lie near the cloth-to-ball colour line (a blurred ball is a mix of
        the two); the result is the 90th percentile of the share: about 1 for a sharp
        ball, less for a streak, and less for a hand or the cue, a pale yellow.
        """
        if len(pixels) == 0:
            return -1.0
        direction = self.prototypes[k] - self.cloth
        reach = float(direction @ direction)
        # OpenCV's mean of the (n, 1, 3) view: numpy's along the short axis is slow.
        mean = np.array(cv2.mean(pixels.reshape(-1, 1, 3))[:3]) - self.cloth
        resid = mean - float(mean @ direction) / reach * direction
        if math.sqrt(float(resid.dot(resid))) > _MATCH * math.sqrt(reach):  # np.linalg.norm's
            return -1.0
        i = int(0.9 * (len(alpha) - 1))
        return float(np.partition(alpha, i)[i])

    @staticmethod
    def weighted(lab: NDArray[Any]) -> F32:
        """OpenCV 8-bit Lab pixels (..., 3) as weighted Lab float32 (see :func:`weighted_lab`)."""
        out: F32 = lab.astype(np.float32)
        out *= _LAB_SCALE  # in place: the same arithmetic, no temporaries
        out -= _LAB_SHIFT
        return out

    def cloth_distance(self, wlab: F32) -> F32:
        """Distance (h, w) of each pixel from the cloth colour."""
        diff = wlab - self.cloth.astype(np.float32)
        out: F32 = np.sqrt(np.einsum("...c,...c->...", diff, diff))
        return out

    def classify(self, pixels: F32) -> tuple[NDArray[np.int8], F32]:
        """Ball class index (n,) of pixels (n, 3) weighted Lab (-1: cloth) and shares (n, k).

        A pixel belongs to the class whose cloth-to-ball colour line passes nearest to
        it: a rim pixel half red, half cloth lies on the red line even when its colour
        is nearer the white ball's. The share is the position along that line (0 at
        the cloth, 1 at the ball's prototype), not clipped.
        """
        diff = pixels - self._cloth32
        dirs, dd = self._dirs32, self._reach32  # (k, 3), (k,)
        dots = diff @ dirs.T  # (n, k)
        alpha = (dots / dd).astype(np.float32, copy=False)
        a = np.minimum(np.maximum(alpha, 0.0), 1.5)  # np.clip's values, without its wrappers
        # The squared distance to line k is |diff|^2 + a (a dd - 2 dots); the first
        # term is the same for every line, so only the second decides the nearest.
        label = _first_min(a * (a * dd - 2.0 * dots))
        sq = diff * diff
        near = sq[:, 0] + sq[:, 1] + sq[:, 2] <= self.threshold**2
        label[near & (diff[:, 0] <= self.bright)] = -1
        return label, alpha


#: OpenCV's limited-range BT.601 YUV -> BGR (its fixed-point constants, 20 bits):
#: rows B, G, R; columns Y, U, V, applied to (Y - 16, U - 128, V - 128).
_BGR_FROM_YUV = (
    np.array(
        [[1220542, 2116026, 0], [1220542, -409993, -852492], [1220542, 0, 1673527]],
        np.float64,
    )
    / 2**20
)
_YUV_ZERO = np.array([16.0, 128.0, 128.0])


def _first_min(q: NDArray[np.floating[Any]]) -> NDArray[np.int8]:
    """Column of the smallest value in each row of ``q`` (n, k), the first one on ties.

    ``np.argmin`` along the short axis of a few columns is several times slower than
    these k - 1 column comparisons.
    """
    cols = q.T
    best = cols[0].copy()
    label = np.zeros(len(best), np.int8)
    for j in range(1, len(cols)):
        better = cols[j] < best
        label[better] = j
        np.minimum(best, cols[j], out=best)
    return label


def ball_share(alpha: F32) -> F32:
    """Raw share -> weight 0..1; shading darkens a ball's rim, so 3/4 of it counts as all."""
    out: F32 = np.minimum(np.maximum((alpha - 0.1) / 0.65, 0.0), 1.0)
    return out
