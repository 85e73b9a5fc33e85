"""Reuse the refinement of a blob whose pixels have not changed (balls at rest).

Most frames of a match show the balls at rest, and refining a ball (colour classes,
shares, moments) is most of the detector's cost. A blob's result is kept with its
full-resolution pixels (as 4 x 4 block means: noise averages out). It is reused only
once it is *settled*: ``_SETTLE`` refinements in a row of the same box gave the same
balls within 0.1 px (a ball rolling out at 0.1-0.2 px a frame never settles), and
only while no block of the box changed by more than ``_BLOCK_TOL`` grey levels from
the frame the result was computed on (not the previous frame: a creep cannot add up
unseen). A struck ball moves at least a pixel in its first frame, changing its edge
blocks by far more than the tolerance. The kept result is the running mean of the
refinements that settled it, and every ``_REFRESH``-th frame is refined again and
folded in: the tracker averages a ball at rest over many frames, and reusing one
frame's noise would undo that. Once the mean holds ``_AVERAGED`` refinements, a further
one moves it by at most a ninth of their difference, so from then on only every
``_REFRESH_AVERAGED``-th frame is refined again (on the 2.7 Mbit/s bench clip: 6889 ->
6208 refinements, the same events and verdicts, positions moved by 0.05 mm at most,
event times by 0.2 ms). Measured on the 1080p bench clip at rest: block changes are 8
levels at the median and 13 at the 90th percentile (render and encoder noise), so by
noise alone a settled ball at rest fails the block test about one frame in ten.

A low-bitrate stream re-quantises still blocks now and then: a block or two of a ball
at rest change by 12-20 levels, and the ball was refined again for nothing (on the
1.1 Mbit/s bench clip a quarter of all refinements, 98 % of them giving the same
balls). So a box whose blocks changed by more, but by at most ``_NOISE_TOL``, still
counts as the same when the change is no movement: the shift that best explains it
(one Lucas-Kanade step on the block means: their gradients against their change, in
pixels) is at most ``_SHIFT_TOL_PX``. A ball moved by 0.1 px reads as a shift of
0.1-0.14 px, a block of noise barely moves it (``tests/vision/detect``).

:class:`RepeatCache` is exact where :class:`StillCache` is tolerant: the refinement is a
pure function of its input, and a low-bitrate stream repeats still blocks bit for bit
(skipped macroblocks), so a blob whose input equals, byte for byte, the last one of
its box gets that refinement's very result without the work (measured on the 1080p60
bench clips: a quarter of the refinements at 1.1 Mbit/s, none at 8.7 Mbit/s).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from vision._types import U8

__all__ = ["RepeatCache", "StillCache"]

T = TypeVar("T")
Box = tuple[int, int, int, int]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

#: Largest change of a 4 x 4 block mean (grey levels, any channel) still called "same".
_BLOCK_TOL = 12.0
_BLOCK = 4
_SETTLE = 3
_REFRESH = 4
#: Once the kept mean holds this many refinements, one frame in ``_REFRESH_AVERAGED``.
_AVERAGED = 8
_REFRESH_AVERAGED = 16
#: Beyond ``_BLOCK_TOL``, a change up to this (grey levels) is tested for a movement.
_NOISE_TOL = 24.0
#: Largest shift (px) of the blocks, estimated from their change, still called "same".
_SHIFT_TOL_PX = 0.08


@dataclass(slots=True)
class _Entry(Generic[T]):
    blocks: F32
    result: T  # the mean of the refinements so far
    settled: int  # refinements in a row that agreed
    reused: int = 0  # frames given ``result`` since the last refinement
    #: The blocks' gradients (2, n) per pixel and the inverse of their normal matrix
    #: (2, 2), made when first needed (None: not yet; an empty array: no texture).
    motion: tuple[F64, F64] | None = None


class StillCache(Generic[T]):
    """Results by blob box, reused while the box's pixels stay the same.

    ``same(a, b)`` tells whether two results found the same balls within 0.1 px;
    ``merge(mean, new, n)`` folds a new result into the mean of ``n``.
    """

    def __init__(
        self,
        same: Callable[[T, T], bool],
        merge: Callable[[T, T, int], T],
        max_entries: int = 24,
    ) -> None:
        self.same = same
        self.merge = merge
        self.max_entries = max_entries
        self._entries: OrderedDict[Box, _Entry[T]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, box: Box, roi_bgr: U8) -> T | None:
        """The settled result for ``box`` if ``roi_bgr`` (h, w, 3) matches its pixels."""
        entry = self._entries.get(box)
        if (
            entry is None
            or entry.settled < _SETTLE
            or entry.reused >= (_REFRESH if entry.settled < _AVERAGED else _REFRESH_AVERAGED) - 1
            or not _unchanged(entry, roi_bgr)
        ):
            self.misses += 1
            return None
        self._entries.move_to_end(box)
        entry.reused += 1
        self.hits += 1
        return entry.result

    def put(self, box: Box, roi_bgr: U8, result: T) -> None:
        """A fresh refinement of ``box``: settles the kept result or replaces it."""
        entry = self._entries.get(box)
        if entry is not None and self.same(entry.result, result):
            # the first frame's pixels stay the reference; the result is averaged
            entry.result = self.merge(entry.result, result, entry.settled)
            entry.settled += 1
            entry.reused = 0
            return
        self._entries[box] = _Entry(_blocks(roi_bgr), result, 1)
        self._entries.move_to_end(box)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)


def _unchanged(entry: _Entry[T], roi_bgr: U8) -> bool:
    """True when ``roi_bgr`` shows the entry's pixels: the same, or moved by noise alone."""
    now = _blocks(roi_bgr)
    if now.shape != entry.blocks.shape:
        return False
    worst = float(cv2.absdiff(now, entry.blocks).max())
    if worst <= _BLOCK_TOL:
        return True
    if worst > _NOISE_TOL:
        return False
    change = cv2.subtract(now, entry.blocks)
    if entry.motion is None:
        entry.motion = _motion(entry.blocks)
    grads, inverse = entry.motion
    if not inverse.size:
        return False
    du, dv = inverse @ (grads @ change.reshape(-1).astype(np.float64))
    return math.hypot(du, dv) <= _SHIFT_TOL_PX


def _motion(blocks: F32) -> tuple[F64, F64]:
    """Gradients (2, n) of ``blocks`` (h, w, 3) per pixel and their inverse normal matrix.

    A shift (du, dv) px of the picture changes the blocks by about -(gu du + gv dv);
    the least-squares shift of a change c is then -(G G^T)^-1 G c (the sign is of no
    matter here). Without texture (a flat box) the matrix is singular: empty arrays.
    """
    empty = np.empty(0)
    if min(blocks.shape[:2]) < 3:
        return empty, empty
    gv, gu = np.gradient(blocks.astype(np.float64), axis=(0, 1))
    grads = np.stack([gu.reshape(-1), gv.reshape(-1)]) / _BLOCK
    normal = grads @ grads.T
    if np.linalg.cond(normal) > 1e6:
        return empty, empty
    inverse: F64 = np.asarray(np.linalg.inv(normal), np.float64)
    return grads, inverse


def _blocks(roi_bgr: U8) -> F32:
    """Means of 4 x 4 blocks (h // 4, w // 4, 3) as float32 (noise averaged out)."""
    h, w = roi_bgr.shape[0] // _BLOCK, roi_bgr.shape[1] // _BLOCK
    crop = roi_bgr[: h * _BLOCK, : w * _BLOCK].astype(np.float32)
    return np.asarray(cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA), np.float32)


class RepeatCache(Generic[T]):
    """The last result per box with its exact input; given back only for the same bytes."""

    def __init__(self, max_entries: int = 24) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[Box, tuple[tuple[bytes, ...], T]] = OrderedDict()
        self.hits = 0

    def get(self, box: Box, key: tuple[bytes, ...]) -> T | None:
        """The result last put for ``box`` if it was computed from ``key``'s bytes."""
        entry = self._entries.get(box)
        if entry is None or entry[0] != key:
            return None
        self._entries.move_to_end(box)
        self.hits += 1
        return entry[1]

    def put(self, box: Box, key: tuple[bytes, ...], result: T) -> None:
        """``result`` computed for ``box`` from ``key``'s bytes (the box's last)."""
        self._entries[box] = (key, result)
        self._entries.move_to_end(box)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
