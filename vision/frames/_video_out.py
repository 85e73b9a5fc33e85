"""Writing frames to a video file: H.264 through PyAV, or MPEG-4 part 2 through OpenCV.

H.264 is what cameras and broadcasts deliver, so its artefacts (8x8/4x4 transform
blocks, smoothed noise, chroma subsampled to 4:2:0, keyframe pulsing) are part of a
realistic synthetic clip, and an annotated copy of a match stays small. The
opencv-python(-headless) wheels on PyPI ship FFmpeg without an H.264 encoder (no
libx264, licensing), so ``h264`` uses PyAV (PyPI ``av``), whose wheels bundle FFmpeg
with libx264. ``mp4v`` needs nothing beyond OpenCV. Failures raise
:class:`~vision.VideoError`.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision._types import VideoError

__all__ = ["VIDEO_CODECS", "VideoSink", "default_bitrate", "open_video"]

VIDEO_CODECS = ("h264", "mp4v")


class VideoSink(Protocol):
    """Where written frames go, one BGR uint8 image (h, w, 3) at a time."""

    def write(self, image: NDArray[np.uint8]) -> None:
        """Append one frame."""
        ...

    def close(self) -> None:
        """Flush and close the file."""
        ...


def default_bitrate(size_px: tuple[int, int], fps: float) -> int:
    """A camera-like H.264 bitrate in bit/s: 0.07 bit per pixel per frame.

    That is about 2 Mbit/s at 1280x720 and 30 fps, 4.4 Mbit/s at 1920x1080 and 30 fps:
    what IP cameras and streamed broadcasts use.
    """
    return round(0.07 * size_px[0] * size_px[1] * fps)


class _AvWriter:
    def __init__(
        self, path: Path, fps: float, size_px: tuple[int, int], bitrate: int, threads: int
    ) -> None:
        try:
            import av
        except ImportError as exc:
            raise VideoError(
                "codec 'h264' needs PyAV: pip install av (or use codec 'mp4v')"
            ) from exc
        width, height = size_px
        if width % 2 or height % 2:
            raise VideoError(f"h264 needs an even frame size, got {width}x{height}")
        # faststart: the index ahead of the frames, so a phone or a browser plays the
        # file while it downloads (an .mp4/.mov option; other containers ignore it).
        options = {"movflags": "+faststart"} if path.suffix.lower() in (".mp4", ".mov") else {}
        self._container: Any = av.open(str(path), mode="w", options=options)
        rate = Fraction(fps).limit_denominator(1001)
        stream: Any = self._container.add_stream("libx264", rate=rate)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        stream.bit_rate = bitrate
        stream.codec_context.gop_size = max(1, round(2 * fps))
        # A 2 s buffer capped at twice the mean: the average holds on a short clip and
        # a burst of motion cannot stall a phone's stream.
        stream.options = {"preset": "veryfast", "maxrate": str(2 * bitrate),
                          "bufsize": str(4 * bitrate)}  # fmt: skip
        if threads > 0:
            stream.options = {**stream.options, "threads": str(threads)}
        self._stream, self._av, self._count = stream, av, 0

    def write(self, image: NDArray[np.uint8]) -> None:
        frame = self._av.VideoFrame.from_ndarray(np.ascontiguousarray(image), format="bgr24")
        frame.pts = self._count
        self._count += 1
        for packet in self._stream.encode(frame):
            self._container.mux(packet)

    def close(self) -> None:
        for packet in self._stream.encode():
            self._container.mux(packet)
        self._container.close()


class _CvWriter:
    def __init__(self, path: Path, fps: float, size_px: tuple[int, int]) -> None:
        fourcc = cv2.VideoWriter.fourcc(*"mp4v")
        self._writer = cv2.VideoWriter(str(path), fourcc, fps, size_px)
        if not self._writer.isOpened():
            raise VideoError(f"{path}: OpenCV cannot write an mp4v video here")

    def write(self, image: NDArray[np.uint8]) -> None:
        self._writer.write(image)

    def close(self) -> None:
        self._writer.release()


def open_video(
    path: Path,
    fps: float,
    size_px: tuple[int, int],
    *,
    codec: str = "h264",
    bitrate_bps: int | None = None,
    encoder_threads: int = 0,
) -> VideoSink:
    """Open a video file for writing.

    Args:
        path: The file to write (``.mp4``).
        fps: Frames per second.
        size_px: Frame (width, height) in pixels.
        codec: ``h264`` (PyAV, libx264, rate-controlled to ``bitrate_bps`` on average,
            at most twice that over 2 s; an ``.mp4`` gets its index first, to play while
            it downloads) or ``mp4v`` (OpenCV, quality chosen by OpenCV).
        bitrate_bps: Target mean bit rate; default :func:`default_bitrate`. To stay near
            a source's size, pass the source's rate (its size * 8 / duration).
        encoder_threads: ``h264``'s libx264 threads, 0..16: 0 its own choice (the
            fastest), 1 one thread. With its own threads libx264 encodes the same frames
            to different files now and then; one thread in a fresh process gave the same
            file each time (``docs/synthetic.md``, "Bit for bit").
    """
    if codec not in VIDEO_CODECS:
        raise VideoError(f"codec: unknown {codec!r} (expected one of: {', '.join(VIDEO_CODECS)})")
    if codec == "mp4v":
        return _CvWriter(path, fps, size_px)
    bitrate = bitrate_bps if bitrate_bps is not None else default_bitrate(size_px, fps)
    if not 50_000 <= bitrate <= 200_000_000:
        raise VideoError(f"bitrate_bps must be 50000..200000000, got {bitrate}")
    if not 0 <= encoder_threads <= 16:
        raise VideoError(f"encoder_threads must be 0..16, got {encoder_threads}")
    return _AvWriter(path, fps, size_px, bitrate, encoder_threads)
