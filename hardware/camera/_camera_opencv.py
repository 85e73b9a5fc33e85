"""Cameras and streams through OpenCV's ``VideoCapture``: V4L2 devices, IP cameras.

A device index (``0``), a device path (``/dev/video0``, ``/dev/v4l/by-id/...``) or a
stream URL (``rtsp://``, ``http://`` MJPEG, anything FFmpeg opens). A frame's time is
the capture's own position when it gives one (streams), else the injected monotonic
clock since the first read (USB cameras). A stream gets FFmpeg timeouts: one that does
not open within ``OPEN_TIMEOUT_S`` fails, one silent for ``READ_TIMEOUT_S`` mid-read ends
(the live capture then reopens it) instead of hanging for FFmpeg's default 30 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import cv2
import numpy as np

from hardware._errors import CameraError
from hardware.camera._camera import CameraFrame
from hardware.camera._diagnose import explain_camera, safe_spec

__all__ = ["DEFAULT_FPS", "MAX_INDEX", "OPEN_TIMEOUT_S", "READ_TIMEOUT_S", "OpenCvCamera"]

#: The rate assumed when the device reports none, or nonsense.
DEFAULT_FPS = 30.0
#: A stream that does not open within this long has failed (FFmpeg's own default: 30 s).
OPEN_TIMEOUT_S = 10.0
#: A stream silent this long mid-read has ended: it is reopened (FFmpeg's default: 30 s).
READ_TIMEOUT_S = 5.0
#: The largest device index OpenCV takes (a C int).
MAX_INDEX = 2**31 - 1


class OpenCvCamera:
    """A camera or stream read with OpenCV (see the module docstring).

    Args:
        spec: ``0`` or ``"0"`` (an index), ``/dev/video0``, or a URL.
        clock: monotonic clock (seconds) for devices that give no timestamps.

    Raises:
        CameraError: OpenCV cannot open it.
    """

    def __init__(self, spec: int | str, clock: Callable[[], float] = time.monotonic) -> None:
        source = int(spec) if isinstance(spec, str) and spec.isascii() and spec.isdigit() else spec
        if isinstance(source, int) and not 0 <= source <= MAX_INDEX:
            # OpenCV takes a C int: a larger number raised its overload error.
            raise CameraError(f"camera {safe_spec(spec)}: not a camera index (0 to "
                              f"{MAX_INDEX}); give the camera's index, such as 0")  # fmt: skip
        try:
            if isinstance(source, str) and "://" in source:  # a stream: FFmpeg, with timeouts
                timeouts = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(OPEN_TIMEOUT_S * 1000),
                            cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(READ_TIMEOUT_S * 1000)]  # fmt: skip
                self._cap = cv2.VideoCapture(source, cv2.CAP_FFMPEG, timeouts)
            else:
                self._cap = cv2.VideoCapture(source)
        except cv2.error as exc:
            raise CameraError(f"camera {safe_spec(spec)}: OpenCV cannot open it "
                              f"({str(exc).strip().splitlines()[-1]})") from None  # fmt: skip
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(f"camera {safe_spec(spec)}: cannot open it; {explain_camera(spec)}")
        self.spec = spec
        self._clock = clock
        fps = float(self._cap.get(cv2.CAP_PROP_FPS))
        self._fps = fps if 0.0 < fps < 1000.0 else DEFAULT_FPS
        w, h = (
            int(self._cap.get(p)) for p in (cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT)
        )
        self._size = (w, h)

    @property
    def fps(self) -> float:
        """The capture's reported rate (``DEFAULT_FPS`` when it reports none)."""
        return self._fps

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) the capture reports."""
        return self._size

    def frames(self) -> Iterator[CameraFrame]:
        """Read until the capture fails or ends; the capture is released then."""
        t0 = self._clock()
        i = 0
        try:
            while True:
                ok, image = self._cap.read()
                if not ok or image is None:
                    return
                msec = float(self._cap.get(cv2.CAP_PROP_POS_MSEC))
                t = msec / 1000.0 if msec > 0.0 else self._clock() - t0
                yield CameraFrame(i, t, np.asarray(image, dtype=np.uint8))
                i += 1
        finally:
            self.close()

    def close(self) -> None:
        """Release the capture (idempotent)."""
        self._cap.release()
