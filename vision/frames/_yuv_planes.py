"""A decoded 4:2:0 frame kept as its planes, turned into BGR only where it is looked at.

Converting a whole 1080p frame to BGR costs about as much CPU as the analysis of
it, yet the detector looks at a few windows round the predicted balls on nine
frames in ten. :class:`YuvImage` holds the decoder's I420 planes (one copy out of
the decoder, a third of the BGR size) and converts a window when it is sliced, the
whole frame only when something asks for all of it (cached).

Both paths use OpenCV's BT.601 limited-range I420 conversion with the chroma of each
2 x 2 block repeated, so a window is bit-identical to the same crop of the whole
frame (the window is first widened to even coordinates, where the chroma blocks
start).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision._types import U8

__all__ = ["YuvImage", "from_av"]

#: Share of the frame beyond which a window is cut from the whole converted frame.
_WHOLE = 0.5


class YuvImage:
    """A frame (h, w, 3) BGR in appearance, 4:2:0 planes inside.

    ``image[ys, xs]`` with two slices (steps allowed) gives that part as BGR
    uint8, the same pixels ``bgr()[ys, xs]`` gives; ``bgr()`` the whole frame.
    The planes may be views of the decoder's buffers (rows padded): nothing is
    copied until a part is converted.
    """

    __slots__ = ("_bgr", "_u", "_v", "_win", "_y", "shape")

    def __init__(self, y: U8, u: U8, v: U8) -> None:
        """Planes: luma ``y`` (h, w), chroma ``u`` and ``v`` (h / 2, w / 2), h and w even."""
        h, w = y.shape
        if h % 2 or w % 2 or u.shape != (h // 2, w // 2) or v.shape != u.shape:
            raise ValueError(
                f"4:2:0 planes must be (h, w) and twice (h / 2, w / 2) with h, w even, "
                f"got {y.shape}, {u.shape}, {v.shape}"
            )
        self._y, self._u, self._v = y, u, v
        self.shape = (h, w, 3)
        self._bgr: U8 | None = None
        self._win: tuple[int, int, int, int, U8] | None = None

    @classmethod
    def from_i420(cls, i420: U8) -> YuvImage:
        """From one contiguous I420 array (3 h / 2, w): Y rows, then U, then V."""
        rows, w = i420.shape
        h = rows * 2 // 3
        if h % 2 or w % 2 or rows != h * 3 // 2:
            raise ValueError(f"I420 planes must be (3 h / 2, w) with h, w even, got {i420.shape}")
        flat = i420.reshape(-1)
        q = (h // 2) * (w // 2)
        u = flat[h * w : h * w + q].reshape(h // 2, w // 2)
        return cls(i420[:h], u, flat[h * w + q : h * w + 2 * q].reshape(h // 2, w // 2))

    def bgr(self) -> U8:
        """The whole frame (h, w, 3) BGR uint8 (converted once)."""
        if self._bgr is None:
            self._bgr = _i420_to_bgr(self._y, self._u, self._v)
        return self._bgr

    def __getitem__(self, key: tuple[slice, slice]) -> U8:
        ys, xs = key
        h, w, _ = self.shape
        y0, y1, sy = ys.indices(h)
        x0, x1, sx = xs.indices(w)
        if y1 <= y0 or x1 <= x0:
            return np.zeros((0, 0, 3), np.uint8)
        if self._bgr is not None:
            return self._bgr[y0:y1:sy, x0:x1:sx]
        if sy == sx > 1 and (y1 - y0) * (x1 - x0) > _WHOLE * h * w:
            return self._sampled(y0, y1, x0, x1, sy)
        if (y1 - y0) * (x1 - x0) > _WHOLE * h * w:
            return self.bgr()[y0:y1:sy, x0:x1:sx]
        wy0, _, wx0, _, win = self._window(y0, y1, x0, x1)
        part = win[y0 - wy0 : y1 - wy0, x0 - wx0 : x1 - wx0]
        if sy == sx > 1 and part.shape[0] % sy == 0 and part.shape[1] % sx == 0:
            # The same pixels as part[::s, ::s], contiguous, and several times faster:
            # numpy copies 3-byte pixels at a stride slowly, and whatever reads them
            # next (the foreground test) would copy them anyway.
            h_s, w_s = part.shape[0] // sy, part.shape[1] // sx
            return np.asarray(cv2.resize(part, (w_s, h_s), interpolation=cv2.INTER_NEAREST))
        return part[::sy, ::sx]

    def planes_sampled(self, y0: int, y1: int, x0: int, x1: int, s: int) -> U8 | None:
        """Every ``s``-th pixel of rows y0..y1, columns x0..x1 as (h, w, 3) Y, U, V values.

        No conversion: each sampled luma value with its own chroma sample. None when
        the chroma samples do not fall on a stride (``s`` odd, or y0 or x0 odd).
        """
        if s % 2 or y0 % 2 or x0 % 2:
            return None
        y_small = self._y[y0:y1:s, x0:x1:s]
        h_s, w_s = y_small.shape
        c = (slice(y0 // 2, None, s // 2), slice(x0 // 2, None, s // 2))
        return np.asarray(cv2.merge([y_small, self._u[c][:h_s, :w_s], self._v[c][:h_s, :w_s]]))

    def _sampled(self, y0: int, y1: int, x0: int, x1: int, s: int) -> U8:
        """Every ``s``-th pixel of rows y0..y1, columns x0..x1, converting only those.

        Each sampled luma value is repeated 2 x 2 under its own chroma sample, so the
        I420 conversion of that small picture gives exactly the sampled pixels.
        """
        y_small = self._y[y0:y1:s, x0:x1:s]
        h_s, w_s = y_small.shape
        # Nearest-pixel resizes repeat and pick pixels as np.repeat and [::2] would,
        # several times faster on 3-byte pixels.
        twice = cv2.resize(y_small, (2 * w_s, 2 * h_s), interpolation=cv2.INTER_NEAREST)
        y2: U8 = np.asarray(twice, dtype=np.uint8)
        if s % 2 == 0 and y0 % 2 == 0 and x0 % 2 == 0:  # chroma rows/columns at a stride
            c = (slice(y0 // 2, None, s // 2), slice(x0 // 2, None, s // 2))
            u, v = self._u[c][:h_s, :w_s], self._v[c][:h_s, :w_s]
        else:
            ix = np.ix_(np.arange(y0, y1, s) // 2, np.arange(x0, x1, s) // 2)
            u, v = self._u[ix], self._v[ix]
        bgr2 = _i420_to_bgr(y2, u, v)
        return np.asarray(cv2.resize(bgr2, (w_s, h_s), interpolation=cv2.INTER_NEAREST))

    def _window(self, y0: int, y1: int, x0: int, x1: int) -> tuple[int, int, int, int, U8]:
        """The last converted window if it holds rows y0..y1, columns x0..x1, else a new one.

        The detector slices a search box and then blobs inside it: one conversion.
        """
        last = self._win
        if last is not None and last[0] <= y0 and y1 <= last[1] and last[2] <= x0 and x1 <= last[3]:
            return last
        h, w, _ = self.shape
        ay0, ax0 = y0 & ~1, x0 & ~1
        ay1, ax1 = min(h, y1 + (y1 & 1)), min(w, x1 + (x1 & 1))
        cy, cx = slice(ay0 // 2, ay1 // 2), slice(ax0 // 2, ax1 // 2)
        win = _i420_to_bgr(self._y[ay0:ay1, ax0:ax1], self._u[cy, cx], self._v[cy, cx])
        self._win = (ay0, ay1, ax0, ax1, win)
        return self._win


def _i420_to_bgr(y: U8, u: U8, v: U8) -> U8:
    """BGR (h, w, 3) of planes y (h, w), u and v (h / 2, w / 2): one contiguous copy, one call."""
    hh, ww = y.shape
    q = (hh // 2) * (ww // 2)
    buf = np.empty(hh * ww + 2 * q, np.uint8)
    buf[: hh * ww].reshape(hh, ww)[:] = y
    buf[hh * ww : hh * ww + q].reshape(hh // 2, ww // 2)[:] = u
    buf[hh * ww + q :].reshape(hh // 2, ww // 2)[:] = v
    out = cv2.cvtColor(buf.reshape(hh * 3 // 2, ww), cv2.COLOR_YUV2BGR_I420)
    return np.asarray(out, np.uint8)


def from_av(av_frame: Any) -> YuvImage | None:
    """The planes of a PyAV frame as a :class:`YuvImage`; None if it is not plain I420.

    Only limited-range ``yuv420p`` with even sides qualifies (what H.264/HEVC files
    and most streams give); full-range (``yuvj420p``, MJPEG cameras) and other
    layouts go through PyAV's own conversion instead.
    """
    fmt = av_frame.format.name
    if fmt != "yuv420p" or av_frame.width % 2 or av_frame.height % 2:
        return None
    if int(getattr(av_frame, "color_range", 0) or 0) == 2:  # AVCOL_RANGE_JPEG
        return None
    # Views of the decoder's planes (rows padded to line_size); each view keeps its
    # plane, and so the frame's buffer, alive.
    y, u, v = (_plane(p) for p in av_frame.planes)
    return YuvImage(y, u, v)


def _plane(plane: Any) -> U8:
    """One PyAV plane (height, width) uint8, a view of its padded rows."""
    rows = np.frombuffer(plane, np.uint8).reshape(plane.height, plane.line_size)
    return rows[:, : plane.width]
