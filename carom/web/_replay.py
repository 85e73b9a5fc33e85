"""The review replay: the last seconds of frames kept small, the pending shot's handed over.

:class:`ReplayBuffer` watches the live loop's frames (:meth:`carom.live.loop.LiveRunner.
observe_frames`) and the session's updates: it keeps every frame of the last
``_REPLAY_KEEP_S`` seconds at ``REPLAY_FPS``, ``REPLAY_WIDTH_PX`` wide, and when a shot
is held for review it takes that shot's frames (half a second either side) so the
console can play them back.
"""

from __future__ import annotations

import collections

import cv2
import numpy as np

from carom.live import SessionUpdate
from carom.live.loop import Captured

__all__ = ["REPLAY_FPS", "REPLAY_WIDTH_PX", "ReplayBuffer"]

REPLAY_FPS = 10.0
REPLAY_WIDTH_PX = 320
_REPLAY_KEEP_S = 12.0
_REPLAY_MARGIN_S = 0.5


class ReplayBuffer:
    """Small frames of the last seconds; ``replay``: (frames a second, the pending shot's)."""

    def __init__(self) -> None:
        self._ring: collections.deque[tuple[float, np.ndarray]] = collections.deque()
        self._next_keep_t_s = 0.0
        self._now_t_s = 0.0
        self._replay_of: int | None = None
        self.replay: tuple[float, list[np.ndarray]] = (REPLAY_FPS, [])

    def keep_frame(self, item: Captured) -> None:
        """A captured frame (kept if ``1 / REPLAY_FPS`` passed since the last kept)."""
        frame = item.frame
        self._now_t_s = frame.t_s
        if frame.t_s >= self._next_keep_t_s:
            self._next_keep_t_s = frame.t_s + 1.0 / REPLAY_FPS
            # Every k-th pixel first: a frame kept as decoder planes converts only those.
            h, w = frame.image.shape[:2]
            k = max(1, w // (2 * REPLAY_WIDTH_PX))
            self.keep(frame.t_s, frame.image[0:h:k, 0:w:k])

    def keep(self, t_s: float, image: np.ndarray) -> None:
        """Keep ``image`` (BGR) of video time ``t_s``, scaled to ``REPLAY_WIDTH_PX``."""
        h, w = image.shape[:2]
        small = cv2.resize(image, (REPLAY_WIDTH_PX, max(1, h * REPLAY_WIDTH_PX // w)),
                           interpolation=cv2.INTER_AREA)  # fmt: skip
        self._ring.append((t_s, small))
        while self._ring and self._ring[0][0] < t_s - _REPLAY_KEEP_S:
            self._ring.popleft()

    def on_update(self, update: SessionUpdate) -> None:
        """A session change: a new review takes its shot's frames; none left clears them."""
        pending = update.pending
        if pending is not None and self._replay_of != pending.shot.index:
            start = (pending.shot.start_s or 0.0) - _REPLAY_MARGIN_S
            end = (pending.shot.end_s or self._now_t_s) + _REPLAY_MARGIN_S
            self.replay = (REPLAY_FPS, [im for t, im in self._ring if start <= t <= end])
            self._replay_of = pending.shot.index
        elif pending is None:
            self.replay, self._replay_of = (REPLAY_FPS, []), None
