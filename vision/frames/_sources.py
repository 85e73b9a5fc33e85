"""Frame sources: a video file, an image folder or glob, a camera, as a stream of frames.

Theory of operation. Every source is an iterable of :class:`~vision.Frame` that decodes
one frame at a time (a generator), so memory does not grow with the video's length.

* Video files: :mod:`vision.frames._video_file` (PyAV, true times, cut files, a
  start time, sparse reads).
* Image folders and globs are read in sorted name order at ``t_s = i / fps``.
* A camera (an index, a device or a stream URL: ``hardware.is_camera_spec``) is opened
  by ``hardware.open_camera``; ``t_s`` is the camera's (its own timestamp when it gives
  one, else the injected monotonic ``clock``).
"""

from __future__ import annotations

import glob
import math
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

import cv2
import numpy as np

from hardware import is_camera_spec
from vision._types import U8, Frame, VideoError
from vision.frames._camera import CameraSource
from vision.frames._closing import ClosedByWith
from vision.frames._video_file import (
    DECODER_NICE,
    START_TOLERANCE_S,
    VideoFileSource,
    key_frame_times_s,
    to_bgr,
)

__all__ = [
    "DECODER_NICE",
    "IMAGE_SUFFIXES",
    "CameraSource",
    "FrameSource",
    "ImageSource",
    "VideoFileSource",
    "decode_only",
    "image_sequence",
    "key_frame_times_s",
    "open_source",
    "to_bgr",
]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


@runtime_checkable
class FrameSource(Protocol):
    """Frames in presentation order; ``fps`` nominal rate, ``size_px`` (width, height)."""

    @property
    def fps(self) -> float: ...

    @property
    def size_px(self) -> tuple[int, int]: ...

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None: ...


class ImageSource(ClosedByWith):
    """Image files in sorted name order, ``t_s = i / fps``, from ``start_s`` on."""

    def __init__(
        self, paths: list[Path], fps: float = 30.0, where: str = "", start_s: float = 0.0
    ) -> None:
        if not paths:
            raise VideoError(f"images {where}: no image files found; give a folder or a glob")
        if fps <= 0:
            raise VideoError(f"images {where}: fps must be positive, got {fps}")
        if not (math.isfinite(start_s) and start_s >= 0.0):
            raise VideoError(f"images {where}: start_s {start_s} must be a time >= 0 s")
        self.paths = paths
        self.start_s = start_s
        self._fps = float(fps)
        first = _read_image(paths[0])
        self._size = (int(first.shape[1]), int(first.shape[0]))

    @property
    def fps(self) -> float:
        """The frame rate the caller gave."""
        return self._fps

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) of the first image."""
        return self._size

    def __iter__(self) -> Iterator[Frame]:
        for i, path in enumerate(self.paths):
            if i / self._fps >= self.start_s - START_TOLERANCE_S:
                yield Frame(i, i / self._fps, _read_image(path))

    def close(self) -> None:
        """Nothing to release."""


def _read_image(path: Path) -> U8:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise VideoError(f"image {path}: cannot be read as an image")
    return np.asarray(image, dtype=np.uint8)


def image_sequence(spec: str) -> list[Path] | None:
    """Sorted image files of a folder or glob; None if ``spec`` is neither."""
    path = Path(spec)
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if any(c in spec for c in "*?["):
        return sorted(Path(p) for p in glob.glob(spec) if Path(p).suffix.lower() in IMAGE_SUFFIXES)
    return None


def open_source(
    spec: str | int | Path,
    *,
    fps: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    deblock: bool = True,
    exact: bool = False,
    start_s: float = 0.0,
    sparse_after_idx: int | None = None,
    sparse_keys: bool = False,
    beside_work: bool = False,
) -> FrameSource:
    """Open a video file, an image folder or glob, a camera or a stream URL.

    Args:
        spec: Path of a video, a folder of images, a glob (``"shots/*.png"``), a camera
            index (``0`` or ``"0"``), a camera device (``"/dev/video0"``) or a URL
            (``rtsp://...``); a ``Path`` is always a file or folder.
        fps: Frame rate of an image sequence (default 30); ignored for videos.
        clock: Monotonic clock (seconds) for cameras that give no timestamps.
        deblock: False skips H.264's deblocking filter on every frame of a video file
            (about 20% less decoding time; by default only on frames no other frame
            refers to, see ``VideoFileSource``).
        exact: True decodes a video file's frames as OpenCV's ``VideoCapture`` does
            (all deblocked, whole BGR from FFmpeg; see ``VideoFileSource``).
        start_s: Video time (seconds) to start a video file or an image sequence at; a
            camera starts now whatever it is.
        sparse_after_idx: After the frame of this index, a video file's frames that no
            other frame refers to are not decoded (see ``VideoFileSource``); other
            sources ignore it.
        sparse_keys: True: after ``sparse_after_idx``, a video file's key frames only.
        beside_work: True when the caller keeps a core busy with its own work (an
            analysis): on a small machine a light video file is then decoded on one
            thread (see ``VideoFileSource``); other sources ignore it.

    Raises:
        VideoError: The source is missing or cannot be opened; the message says which.
    """
    if isinstance(spec, int) or (isinstance(spec, str) and is_camera_spec(spec)):
        return CameraSource(int(spec) if isinstance(spec, str) and spec.isdigit() else spec, clock)
    text = str(spec)
    paths = image_sequence(text)
    if paths is not None:
        return ImageSource(paths, 30.0 if fps is None else fps, text, start_s)
    return VideoFileSource(
        text,
        deblock=deblock,
        exact=exact,
        start_s=start_s,
        sparse_after_idx=sparse_after_idx,
        sparse_keys=sparse_keys,
        beside_work=beside_work,
    )


def decode_only(
    path: str | Path, max_frames: int | None = None, *, deblock: bool = True
) -> tuple[int, float]:
    """Decode (and convert to BGR) a video with nothing else: (frames, seconds taken).

    For benchmarks: the pipeline's speed minus this is the cost of vision proper. It
    runs the very path the pipeline's :class:`VideoFileSource` runs.
    """
    source = VideoFileSource(path, deblock=deblock)
    start = time.perf_counter()
    n = 0
    for _frame in source:
        n += 1
        if max_frames is not None and n >= max_frames:
            source.close()
            break
    return n, time.perf_counter() - start
