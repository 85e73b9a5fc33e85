"""The empty table from many frames: a per-pixel median of what stands still.

Theory of operation. One frame of a table in play has balls on it, a player leaning
over a rail, a cue across a cushion; the H.264 encoder smears some frames more than
others. Over several seconds each of these moves, while the table, the rails and the
diamonds stay put. :class:`EmptyTableBuilder` takes frames handed to it (this package
opens no video or camera) every ``every_s`` seconds of their time, up to ``span_s``
seconds of frames, and builds the empty table:

1. **Motion.** Each taken frame is compared (grey levels, lightly blurred) with the
   taken frames before and after it: pixels that changed by more than ``MOVE_LEVEL``
   grey levels from both (one, for the first and the last frame) move in it: a thing
   that moves is where it is in neither neighbour. The changes are widened by
   ``MOVE_GROW`` of the image width first (a moving arm's uniform inside changes less
   than its outline).
2. **Frames.** A frame where more than ``BUSY_SHARE`` of the picture moves (someone
   walking past the camera, the camera being touched) is left out whole. Frames where
   at most ``CLEAR_SHARE`` moves count as *clear*: :attr:`EmptyTableBuilder.clear_s`
   is how many seconds of clear frames were taken (a camera waits for enough of them).
3. **Median.** Per pixel and colour channel, the median of the frames where that pixel
   does not move (masked values are set alternately to 0 and 255, which leaves the
   median of the others in place); where it moves in all but ``MIN_STILL`` frames, the
   median of all frames. Whatever covers a pixel in fewer than half the frames is gone.

Frames are (h, w, 3) BGR uint8 of one size; times in seconds of the source's clock.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._errors import CalibrationError

__all__ = [
    "BUSY_SHARE",
    "CLEAR_SHARE",
    "EVERY_S",
    "MAX_FRAMES",
    "SPAN_S",
    "EmptyTable",
    "EmptyTableBuilder",
    "empty_table",
]

U8 = NDArray[np.uint8]
B8 = NDArray[np.bool_]

#: Seconds of source time between two frames taken.
EVERY_S = 0.25
#: Seconds of clear frames that make the empty table.
SPAN_S = 8.0
#: Grey levels a pixel must change by between two taken frames to count as moving.
MOVE_LEVEL = 24
#: The moving mask is widened by this share of the image width.
MOVE_GROW = 0.008
#: A frame with more of its pixels moving is not used at all.
BUSY_SHARE = 0.25
#: A frame with at most this share of its pixels moving is clear.
CLEAR_SHARE = 0.01
#: Fewer still frames than this at a pixel: the median of all frames there.
MIN_STILL = 3
#: Threads that share out the median's rows.
_THREADS = 2
#: At most this many frames are taken (memory: 48 frames of 1080p are 300 MB).
MAX_FRAMES = 48


@dataclass(frozen=True, slots=True)
class EmptyTable:
    """The empty table built from many frames.

    Attributes:
        image_bgr: The per-pixel median (h, w, 3) BGR uint8.
        n_frames: Frames taken; ``n_used`` of them were not left out as busy.
        n_used: Frames the median was made from.
        span_s: Source seconds from the first frame taken to the last.
        clear_s: Seconds of clear frames (``n_clear * every_s``).
        moving_share: Mean share of each used frame's pixels masked as moving, 0..1.
    """

    image_bgr: U8
    n_frames: int
    n_used: int
    span_s: float
    clear_s: float
    moving_share: float


class EmptyTableBuilder:
    """Takes frames as they come, one every ``every_s``; builds the empty table.

    Args:
        every_s: Source seconds between two frames taken (> 0).
        span_s: Seconds of clear frames wanted (:attr:`done` after that many).
        max_frames: Frames taken at most (:attr:`done` after that many), 3..255.
    """

    def __init__(
        self, every_s: float = EVERY_S, span_s: float = SPAN_S, max_frames: int = MAX_FRAMES
    ) -> None:
        if not 0.0 < every_s <= span_s:
            raise CalibrationError(f"every_s must be 0 < every_s <= span_s, got {every_s!r}")
        if not MIN_STILL <= max_frames <= 255:
            raise CalibrationError(f"max_frames must be {MIN_STILL}..255, got {max_frames!r}")
        self.every_s, self.span_s, self.max_frames = every_s, span_s, max_frames
        self._frames: list[U8] = []
        self._times: list[float] = []
        self._changed: list[B8] = []  # [k]: what changed from frame k to frame k + 1
        self._shares: list[float] = []  # each frame's moving share, as far as known
        self._grey: U8 | None = None
        self._next_t_s = -np.inf
        self._built: EmptyTable | None = None  # build() fills the frames' moving parts in

    @property
    def n_frames(self) -> int:
        """Frames taken so far."""
        return len(self._frames)

    @property
    def clear_s(self) -> float:
        """Seconds of clear frames taken so far (module docstring, step 2)."""
        clear = sum(1 for share in self._shares if share <= CLEAR_SHARE)
        return clear * self.every_s

    @property
    def done(self) -> bool:
        """True once ``span_s`` seconds of clear frames or ``max_frames`` were taken."""
        return len(self._frames) >= self.max_frames or self.clear_s >= self.span_s - 1e-9

    @property
    def last_moving_share(self) -> float:
        """Share of the last frame's pixels that moved since the frame before (0..1)."""
        return self._shares[-1] if self._shares else 0.0

    def due(self, t_s: float) -> bool:
        """Whether a frame at source time ``t_s`` would be taken (convert only those)."""
        return t_s >= self._next_t_s and len(self._frames) < self.max_frames

    def offer(self, image_bgr: U8, t_s: float, *, handed_over: bool = False) -> bool:
        """Take ``image_bgr`` (h, w, 3) uint8 at source time ``t_s`` if one is due.

        The builder keeps a copy of a frame it takes, unless ``handed_over``: the caller
        gives the array itself and will neither read nor change it again (building
        overwrites its moving parts). A copy of a 1080p frame is 6 MB of fresh memory,
        which this virtual machine sometimes maps 20 times slower than usual.

        Returns whether it was taken. Raises :class:`CalibrationError` on a frame of
        another shape than the first.
        """
        if self._built is not None:
            raise CalibrationError("the empty table was built from this builder's frames: "
                                   "start a new builder for more")  # fmt: skip
        if not self.due(t_s):
            return False
        if image_bgr.ndim != 3 or image_bgr.shape[2] != 3 or image_bgr.dtype != np.uint8:
            raise CalibrationError(f"image_bgr: expected (h, w, 3) uint8, got {image_bgr.shape}")
        if self._frames and image_bgr.shape != self._frames[0].shape:
            raise CalibrationError(
                f"image_bgr: expected {self._frames[0].shape} as the first frame, "
                f"got {image_bgr.shape}"
            )
        self._next_t_s = t_s + self.every_s * 0.999
        frame = image_bgr if handed_over else np.array(image_bgr, dtype=np.uint8, copy=True)
        grey = _grey(frame)
        if self._grey is not None:
            self._changed.append(_moved(self._grey, grey))
            if len(self._frames) >= 2:  # the frame before now has both neighbours
                self._shares[-1] = float(self._moving(len(self._frames) - 1).mean())
        self._grey = grey
        self._frames.append(frame)
        self._times.append(float(t_s))
        self._shares.append(float(self._changed[-1].mean()) if self._changed else 0.0)
        return True

    def _moving(self, i: int) -> B8:
        """What moves in frame ``i``: changed from the frame before and to the one after.

        A thing that moves is where it is in no neighbour; where it was (or will be),
        the frame shows the table. The first and the last frame have one neighbour.
        """
        before = self._changed[i - 1] if i > 0 else None
        after = self._changed[i] if i < len(self._changed) else None
        if before is None:
            return after if after is not None else np.zeros(self._frames[i].shape[:2], bool)
        return before if after is None else before & after

    def build(self) -> EmptyTable:
        """The empty table of the frames taken (module docstring).

        Building overwrites the moving parts of the builder's own copies of the frames
        (no second copy of every frame: 6 MB each at 1080p): it is done once, and a
        later call gives the same empty table.

        Raises:
            CalibrationError: no frame was taken.
        """
        if self._built is not None:
            return self._built
        if not self._frames:
            raise CalibrationError("no frames to build the empty table from")
        share = self._shares
        used = [i for i, s in enumerate(share) if s <= BUSY_SHARE]
        if len(used) < MIN_STILL:  # all busy: the quietest few, rather than nothing
            used = sorted(np.argsort(share)[:MIN_STILL].tolist())
        image = _masked_median([self._frames[i] for i in used], [self._moving(i) for i in used])
        span = self._times[-1] - self._times[0]
        mean_moving = float(np.mean([share[i] for i in used]))
        self._built = EmptyTable(
            image, len(self._frames), len(used), span, self.clear_s, mean_moving
        )
        return self._built


def empty_table(
    frames: Iterable[tuple[float, U8]], *, every_s: float = EVERY_S, span_s: float = SPAN_S
) -> EmptyTable:
    """The empty table of ``frames`` (``(t_s, image_bgr)`` pairs, in time order).

    Takes one frame every ``every_s`` until ``span_s`` seconds of clear frames were
    taken or the frames end (:class:`EmptyTableBuilder`).

    Raises:
        CalibrationError: no frames, or frames of different sizes.
    """
    builder = EmptyTableBuilder(every_s, span_s)
    for t_s, image in frames:
        builder.offer(image, t_s)
        if builder.done:
            break
    return builder.build()


def _grey(image_bgr: U8) -> U8:
    """Grey levels (h, w), lightly blurred (sensor and encoder noise do not move)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    return np.asarray(grey, dtype=np.uint8)


def _moved(before: U8, after: U8) -> B8:
    """Pixels (h, w) whose grey level changed by more than ``MOVE_LEVEL``, widened."""
    mask = (cv2.absdiff(before, after) > MOVE_LEVEL).astype(np.uint8)
    grow = max(round(MOVE_GROW * before.shape[1]), 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
    # Only around what changed (often a few balls and an arm): the same pixels as the
    # whole picture's dilation, in a fraction of its time (33 of them per calibration).
    wide = np.zeros(mask.shape, dtype=np.bool_)
    points = cv2.findNonZero(mask)
    if points is None:
        return wide
    x, y, w, h = cv2.boundingRect(points)
    x0, y0 = max(x - grow, 0), max(y - grow, 0)
    x1, y1 = min(x + w + grow, mask.shape[1]), min(y + h + grow, mask.shape[0])
    wide[y0:y1, x0:x1] = cv2.dilate(mask[y0:y1, x0:x1], kernel).astype(np.bool_)
    return wide


def _masked_median(frames: list[U8], moving: list[B8]) -> U8:
    """Per-pixel median (h, w, 3) of ``frames`` (each (h, w, 3)) where ``moving`` is off.

    A masked value is replaced by 255 or 0 in turn: with as many at each end, the
    median of all is the median of the others (one odd one out shifts it by half a
    rank). Where fewer than ``MIN_STILL`` values are still, the median of all. For an
    even count, the upper of the two middle values. The ``frames`` are overwritten
    where masked (the builder's own copies).
    """
    n = len(frames)
    masked = np.zeros(moving[0].shape, dtype=np.uint8)
    for mask in moving:
        masked += mask
    few = (n - masked.astype(np.int64)) < MIN_STILL
    # The pixels with too few still values keep the median of all: read them first.
    values = np.stack([f[few] for f in frames], axis=-1) if few.any() else None  # (m, 3, n)
    masked[:] = 0
    for frame, mask in zip(frames, moving, strict=True):
        where = np.nonzero(mask)
        masked[where] += 1
        frame[where] = ((masked[where] % 2) * 255).astype(np.uint8)[:, None]
    median = _rank_value(frames, n // 2)
    if values is not None:
        median[few] = np.partition(values, n // 2, axis=-1)[..., n // 2]
    return median


def _rank_value(frames: list[U8], rank: int) -> U8:
    """Per pixel, the value of rank ``rank`` (0: the least) over ``frames``.

    The rows are shared out to ``_THREADS`` threads (:func:`_rank_rows`; numpy's
    compares and counts run without the GIL): the same values, in half the time on
    two cores (32 frames of 1080p: 0.42 -> 0.21 s).
    """
    h = frames[0].shape[0]
    cuts = [h * i // _THREADS for i in range(_THREADS + 1)]
    parts = [[f[a:b] for f in frames] for a, b in itertools.pairwise(cuts)]
    with ThreadPoolExecutor(_THREADS - 1) as pool:
        later = [pool.submit(_rank_rows, part, rank) for part in parts[1:]]
        first = _rank_rows(parts[0], rank)
        return np.concatenate([first, *(f.result() for f in later)])


def _rank_rows(frames: list[U8], rank: int) -> U8:
    """:func:`_rank_value` of some rows, bit by bit from the top.

    A candidate value stays if at most ``rank`` frames lie below it. Eight passes of
    compare-and-count over the frames, no sort.
    """
    value = np.zeros(frames[0].shape, dtype=np.uint8)
    below = np.zeros(frames[0].shape, dtype=np.uint8)
    for bit in range(7, -1, -1):
        candidate = value | np.uint8(1 << bit)
        below[:] = 0
        for frame in frames:
            below += frame < candidate
        value = np.where(below <= rank, candidate, value)
    return value
