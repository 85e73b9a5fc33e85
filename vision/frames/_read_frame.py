"""One frame of a video, a still image or a camera, for calibrating (CLI and web wizard).

Every moving source is read through the project's one frame source,
:func:`vision.open_source` (video files with PyAV, cameras and stream URLs through
it too); a still image file with ``cv2.imread``. A video's frame is decoded
``exact``: deblocked and converted whole to BGR by FFmpeg, the pixels OpenCV's
``VideoCapture`` gives (the analysis's fast path skips the deblocking of frames no
other frame refers to and keeps the 4:2:0 planes).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import CalibrationError
from hardware import is_camera_spec
from vision._types import VideoError
from vision.frames._sources import IMAGE_SUFFIXES, open_source

__all__ = ["read_frame"]


def read_frame(spec: str | Path, frame_idx: int = 0) -> NDArray[np.uint8]:
    """Frame ``frame_idx`` of a video or image sequence, a still image, or a camera's first.

    ``spec``: a video file, an image file, a folder or glob of images, a camera index
    (``"0"``) or a stream URL; a camera or stream gives the first frame it delivers.
    Returns (h, w, 3) BGR uint8.

    Raises:
        VideoError: no such file, an image that cannot be read, or a source that cannot
            be opened or decoded (unreadable media: exit status 5, as for a video).
        CalibrationError: the source has no frame ``frame_idx`` (a bad ``--frame``).
    """
    spec = str(spec)
    if isinstance(frame_idx, bool) or not isinstance(frame_idx, int) or frame_idx < 0:
        raise CalibrationError(f"{spec}: frame {frame_idx!r}: give a frame number, 0 or more")
    live = is_camera_spec(spec)
    path = Path(spec)
    if not live and path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
        image = cv2.imread(str(path))
        if image is None:
            raise VideoError(f"{spec}: cannot be read as an image; give a PNG or JPEG picture")
        return np.asarray(image, dtype=np.uint8)
    if not live and not path.exists() and not any(c in spec for c in "*?["):
        raise VideoError(f"{spec}: no such file; give a video, an image or a camera index")
    wanted = 0 if live else frame_idx
    source = open_source(spec, exact=True)
    seen = 0
    try:
        for frame in source:
            if frame.frame_idx == wanted:
                return np.asarray(frame.image_bgr, dtype=np.uint8)
            if frame.frame_idx > wanted:
                break
            seen += 1
    finally:
        source.close()
    if seen:
        raise CalibrationError(
            f"{spec}: no frame {frame_idx}: it has {seen} frames; pick one of 0 to {seen - 1}"
        )
    raise CalibrationError(f"{spec}: no frame {frame_idx} could be read (not a video or image?)")
