"""What a camera is to the rest of the referee: the protocol and the frame it gives.

A camera hands out pictures in capture order, each with its time; it knows nothing of
what is done with them (vision wraps it as a frame source: ``vision.CameraSource``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # numpy is loaded with the first camera, not with ``import hardware``
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Camera", "CameraFrame"]


@dataclass(frozen=True, slots=True)
class CameraFrame:
    """One picture from a camera.

    ``index`` counts from 0 at open, ``t_s`` is seconds since open (the device's own
    stamp when it gives one), ``image_bgr`` is (h, w, 3) BGR uint8.
    """

    index: int
    t_s: float
    image_bgr: NDArray[np.uint8]


class Camera(Protocol):
    """An open camera or stream; made by its class or by :func:`~hardware.open_camera`."""

    @property
    def fps(self) -> float:
        """The rate the device reports (a stand-in when it reports none)."""
        ...

    @property
    def size_px(self) -> tuple[int, int]:
        """(width, height) of a frame in pixels."""
        ...

    def frames(self) -> Iterator[CameraFrame]:
        """The pictures as they come, until the device stops; then the camera is closed."""
        ...

    def close(self) -> None:
        """Release the device (idempotent)."""
        ...
