"""Which camera class opens which spec: the first kind that takes a spec opens it.

A new kind of camera (a vendor SDK, a GigE camera, ...) is a module beside
``_camera_opencv.py`` with a class that follows :class:`~hardware.Camera`, and one
entry in ``_KINDS`` below (before OpenCV's, which takes every index, device and URL),
or :func:`register_camera` at run time. The classes are imported when a camera opens,
so ``import hardware`` loads no camera library.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from hardware._errors import CameraError
from hardware.camera._camera import Camera

__all__ = ["CameraKind", "is_camera_spec", "open_camera", "register_camera"]

Clock = Callable[[], float]
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_DEVICE_PREFIXES = ("/dev/video", "/dev/v4l/")


@dataclass(frozen=True, slots=True)
class CameraKind:
    """A kind of camera, by the specs it takes.

    ``takes(spec)`` says whether a spec names one of its devices; ``open(spec, clock)``
    opens it, raising :class:`~hardware.CameraError` when it cannot.
    """

    name: str
    takes: Callable[[int | str], bool]
    open: Callable[[int | str, Clock], Camera]


def _index_device_or_url(spec: int | str) -> bool:
    """A device index (``0``, ``"0"``), a V4L2 device path or a URL (``scheme://...``)."""
    if isinstance(spec, int):
        return spec >= 0
    return (
        (spec.isascii() and spec.isdigit())
        or spec.startswith(_DEVICE_PREFIXES)
        or _URL.match(spec) is not None
    )


def _opencv_open(spec: int | str, clock: Clock) -> Camera:
    from hardware.camera._camera_opencv import OpenCvCamera

    return OpenCvCamera(spec, clock)


_KINDS: list[CameraKind] = [
    CameraKind("opencv", _index_device_or_url, _opencv_open),  # indexes, /dev/video*, URLs
]


def register_camera(kind: CameraKind) -> None:
    """Put ``kind`` first: the specs it takes are no longer OpenCV's."""
    _KINDS.insert(0, kind)


def is_camera_spec(spec: int | str) -> bool:
    """True when some camera kind takes ``spec`` (else it names a file or a folder)."""
    return any(kind.takes(spec) for kind in _KINDS)


def open_camera(spec: int | str, *, clock: Clock = time.monotonic) -> Camera:
    """Open the camera ``spec`` names with the first kind that takes it.

    Raises:
        CameraError: no kind takes ``spec``, or its device cannot be opened.
    """
    for kind in _KINDS:
        if kind.takes(spec):
            return kind.open(spec, clock)
    raise CameraError(f"camera {spec}: not a camera index, device or URL")
