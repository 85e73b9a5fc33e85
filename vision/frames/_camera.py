"""A camera as a frame source: ``hardware``'s camera adapter behind vision's protocol.

The device side (indexes, V4L2 devices, streams; the capture's timestamps) is
``hardware.open_camera``'s; this wraps what it opens as a :class:`~vision.FrameSource`,
so a camera and a video file are read the same way. Frames flow camera -> vision:
``hardware`` never imports ``vision``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from hardware import CameraError, open_camera
from vision._types import Frame, VideoError
from vision.frames._closing import ClosedByWith

__all__ = ["CameraSource"]


class CameraSource(ClosedByWith):
    """A camera or stream (``hardware.open_camera``) as frames; ``t_s`` is the camera's."""

    def __init__(self, spec: int | str, clock: Callable[[], float] = time.monotonic) -> None:
        try:
            self._camera = open_camera(spec, clock=clock)
        except CameraError as exc:
            raise VideoError(str(exc)) from None

    @property
    def fps(self) -> float:
        """The camera's reported rate (30 when it reports none)."""
        return self._camera.fps

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) the camera reports."""
        return self._camera.size_px

    def __iter__(self) -> Iterator[Frame]:
        try:
            for shot in self._camera.frames():
                yield Frame(shot.index, shot.t_s, shot.image_bgr)
        finally:
            self.close()

    def close(self) -> None:
        """Release the camera (idempotent)."""
        self._camera.close()
