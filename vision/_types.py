"""The values that flow through the vision pipeline: frames, detections, tracks.

Coordinate frames: ``uv_px`` are image pixels (u right, v down, pixel centres at
integers, distorted image as recorded); ``xy_mm`` are table millimetres at ball-centre
height (x head -> foot along the length, y left -> right, origin at the head-left
cushion nose corner). Times ``t_s`` are presentation times in seconds of the video.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntFlag
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from referee import Ball, CaromError, Event, Shot

if TYPE_CHECKING:
    from vision.frames._yuv_planes import YuvImage

__all__ = [
    "AnalyzedShot",
    "BallTrack",
    "Detections",
    "Frame",
    "ScoredEvent",
    "TrackFlag",
    "VideoError",
    "VisionError",
]

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
U8 = NDArray[np.uint8]
B1 = NDArray[np.bool_]


class VisionError(CaromError):
    """Vision failed: no balls, a bad detector model, inconsistent tracks."""


class VideoError(VisionError):
    """A video or camera cannot be opened or read (missing, truncated, not a video)."""


def _array(name: str, value: Any, dtype: Any, shape: tuple[int | None, ...]) -> Any:
    out = np.asarray(value, dtype=dtype)
    ok = out.ndim == len(shape) and all(
        w is None or w == g for w, g in zip(shape, out.shape, strict=False)
    )
    if not ok:
        want = "(" + ", ".join("n" if w is None else str(w) for w in shape) + ")"
        raise VisionError(f"{name}: expected shape {want}, got {out.shape}")
    return out


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame shown at ``t_s``.

    ``image`` is the picture (h, w, 3) BGR uint8, or a :class:`vision.frames.YuvImage`
    that converts only the parts looked at (what video files give); ``image_bgr``
    is always the whole BGR array (converted on first use).
    """

    frame_idx: int
    t_s: float
    image: U8 | YuvImage

    @property
    def image_bgr(self) -> U8:
        """The whole frame (h, w, 3) BGR uint8."""
        if isinstance(self.image, np.ndarray):
            return self.image
        return self.image.bgr()


@dataclass(frozen=True, slots=True)
class Detections:
    """Balls found in one frame, one array per field (n detections).

    Args:
        uv_px: (n, 2) sub-pixel centres in the image; for a blurred ball the centre of
            the streak, i.e. the position at mid-exposure.
        ball: (n,) names (``Ball`` values) of the colour class of each detection.
        score: (n,) confidence 0..1 that this is a ball of that class.
        radius_px: (n,) apparent radius in pixels.
        streak_px: (n, 2) half-length vector of the motion-blur streak (0 when sharp);
            its direction is the direction of motion up to sign.
    """

    uv_px: F64
    ball: tuple[Ball, ...]
    score: F64
    radius_px: F64
    streak_px: F64

    def __post_init__(self) -> None:
        n = len(self.ball)
        object.__setattr__(self, "uv_px", _array("uv_px", self.uv_px, np.float64, (n, 2)))
        object.__setattr__(self, "score", _array("score", self.score, np.float64, (n,)))
        object.__setattr__(self, "radius_px", _array("radius_px", self.radius_px, np.float64, (n,)))
        object.__setattr__(
            self, "streak_px", _array("streak_px", self.streak_px, np.float64, (n, 2))
        )

    def __len__(self) -> int:
        return len(self.ball)

    @classmethod
    def empty(cls) -> Detections:
        """No detection."""
        return cls(np.zeros((0, 2)), (), np.zeros(0), np.zeros(0), np.zeros((0, 2)))


class TrackFlag(IntFlag):
    """How one sample of a ball's track was obtained (bits; 0: measured in that frame).

    ``PREDICTED``: not measured in this frame; the position (if any) is the tracker's
    estimate (its motion model run on from the last sighting; a ball at rest stays
    where it rests). ``OCCLUDED``: no detection was taken for the ball in this frame
    and none was held as a possible sighting of it (hidden by the player, the cue or
    another ball, blurred out, off the table): always with ``PREDICTED``. A sample
    with ``PREDICTED`` alone had a detection the tracker held as doubtful (a jump not
    confirmed). ``INTERPOLATED``: the frame was not analysed (a live capture dropped
    it while processing was behind); its time and position are interpolated between
    the analysed frames on either side. The tracker never sets it.
    """

    PREDICTED = 1
    OCCLUDED = 2
    INTERPOLATED = 4


#: The flags of a sample the tracker did not measure and saw nothing of.
UNSEEN = TrackFlag.PREDICTED | TrackFlag.OCCLUDED


@dataclass(frozen=True, slots=True)
class BallTrack:
    """The path of one ball over n samples (frames), at ball-centre height.

    Args:
        t_s: (n,) increasing times in seconds.
        xy_mm: (n, 2) centre in table mm (NaN where never seen yet).
        seen: (n,) True where the ball was detected in that frame, False where the
            position is predicted (occluded, blurred out, not found).
        frame_idx: (n,) the frame of each sample (-1 when the samples do not come
            from frames, e.g. real tracked data).
        flags: (n,) uint8 :class:`TrackFlag` bits of each sample; ``PREDICTED`` must be
            set exactly where ``seen`` is False. Default: every unseen sample
            ``PREDICTED | OCCLUDED``.
    """

    t_s: F64
    xy_mm: F64
    seen: B1
    frame_idx: I64
    flags: U8 = None  # type: ignore[assignment]  # None: derived from seen (post-init)

    def __post_init__(self) -> None:
        n = len(np.asarray(self.t_s))
        object.__setattr__(self, "t_s", _array("t_s", self.t_s, np.float64, (n,)))
        object.__setattr__(self, "xy_mm", _array("xy_mm", self.xy_mm, np.float64, (n, 2)))
        object.__setattr__(self, "seen", _array("seen", self.seen, np.bool_, (n,)))
        object.__setattr__(self, "frame_idx", _array("frame_idx", self.frame_idx, np.int64, (n,)))
        if self.flags is None:
            flags = np.where(self.seen, 0, int(UNSEEN)).astype(np.uint8)
        else:
            flags = _array("flags", self.flags, np.uint8, (n,))
        if not np.array_equal((flags & TrackFlag.PREDICTED) == 0, self.seen):
            raise VisionError("flags: expected PREDICTED exactly where seen is False")
        object.__setattr__(self, "flags", flags)
        if n > 1 and not bool(np.all(np.diff(self.t_s) > 0)):
            raise VisionError("t_s: expected strictly increasing times")

    def __len__(self) -> int:
        return len(self.t_s)

    @classmethod
    def from_samples(cls, t_s: Any, xy_mm: Any) -> BallTrack:
        """A fully seen track from times (n,) and positions (n, 2), no frame numbers."""
        t = np.asarray(t_s, dtype=np.float64)
        return cls(t, xy_mm, np.ones(len(t), bool), np.full(len(t), -1, np.int64))


@dataclass(frozen=True, slots=True)
class ScoredEvent:
    """A referee event found by vision, with how sure vision is of it.

    ``confidence`` is 0..1; below the pipeline's threshold the ``event`` carries a
    ``doubt`` (the referee then asks for review when the event decides the call).
    ``evidence`` says in a few words what the call rests on ("deflection 38 deg, gap
    0.4 mm", "hidden by the arm"). ``struck``: for a ball contact read off a ball set
    off from rest, that ball (the other one struck it); None otherwise.
    """

    event: Event
    confidence: float
    evidence: str = ""
    struck: Ball | None = None


@dataclass(frozen=True, slots=True)
class AnalyzedShot:
    """One stroke as vision saw it.

    ``shot`` is what the referee judges (events carry ``doubt`` where vision is
    unsure); ``scored`` the same events with confidence and evidence; ``tracks`` the
    ball paths of the shot (table mm) for diagrams; ``lag`` True when the motion was a
    lag (both cue balls struck together), not a stroke.
    """

    shot: Shot
    scored: tuple[ScoredEvent, ...]
    tracks: Mapping[Ball, BallTrack]
    lag: bool = False
