"""Video files as a stream of frames: PyAV (FFmpeg) decoding, true times, cut files.

Theory of operation.

* Files are decoded with PyAV (FFmpeg) using frame threading; a frame's time is
  its true presentation time (``pts * time_base``, relative to the stream start), so
  variable frame rate video keeps its real times. A gap between presentation times of
  more than 1.5 nominal frame durations means frames were dropped on recording; the
  missing frames are counted in ``dropped_frames``. Frames are converted to BGR by
  FFmpeg's swscale on the calling thread straight into the array that is returned
  (measured at 1080p on 2 cores while the decoder threads run: 1.4 ms a frame, against
  4.2 ms for copying the I420 planes out and converting them with OpenCV, whose thread
  pool fights the decoder's threads).
* Beside an analysis (``beside_work=True``: the caller's own thread keeps a core busy)
  on a machine of at most ``ONE_THREAD_MAX_CORES`` cores, a light stream (at most
  ``ONE_THREAD_MAX_BPP`` bits a pixel) is decoded on one thread instead: frame threads
  cost a fifth more CPU (1080p, 1.1 Mbit/s: 6.9 s against 5.8 s a minute of video),
  which the analysis, not the decoder, was short of. Measured with ``carom analyze``
  of the 1080p60 bench clip on 2 cores, one thread against frame threads: 7.6 s
  against 8.2-8.6 s at 1.1 Mbit/s (0.009 bits a pixel), 8.85 s against 9.0 s at 2.7
  Mbit/s (0.022), 13.3-14.1 s against 12.3-12.7 s at 8.9 Mbit/s (0.072), where one
  thread cannot keep up. Decoding alone keeps frame threads (it is faster with them).
* Frames that no other frame refers to (most B-frames) are never deblocked: an error
  there cannot spread (it saved 2% of the decoding time on the 1080p bench clip; more
  on streams with more such frames). ``deblock=False`` skips the filter on every frame:
  about a fifth (1.7 ms a 1080p frame here), the sample centres unchanged (median
  0.077 px, 95th percentile 0.234 px vs 0.238 px), but a skipped filter on a reference
  frame carries into the frames predicted from it, and blocks may show on low-bitrate
  video: off by default.
* A video that stops decoding part way (truncated, corrupt) yields the frames that
  decode and then raises :class:`~vision.VideoError`, so the caller keeps what it got.
* A read may start at a video time (``start_s``, resuming a match): the file is sought
  to the key frame before it and the frames before it are decoded but never converted
  to pixels. Times are those a whole read gives (they count from the file's first
  frame, whose time is read before seeking); so are indexes, unless frames were
  dropped before the start (after a seek an index is the frame's time x fps).
* A read may be sparse after a frame index (``sparse_after_idx``, for sampling such
  as the calibration's empty table): after that frame, frames that no other frame
  refers to (most B-frames) are not decoded at all. Fewer frames come, each with its
  true time and the index its time gives; no frames count as dropped after it. With
  ``sparse_keys=True`` only key frames are decoded after it (a key frame every 0.3 s
  of 1080p60: 29 frames of 10 s in 0.37 s, against 1.7 s for the frames others refer
  to); :func:`key_frame_times_s` says from the packets alone how often they come.
  Such a read does not tell a cut file (its last key frame may be seconds before
  the end).
"""

from __future__ import annotations

import math
import os
import statistics
from collections import deque
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import numpy as np

from vision._types import U8, Frame, VideoError
from vision.frames._closing import ClosedByWith
from vision.frames._mp4_index import index_missing
from vision.frames._read_ahead import ReadAhead
from vision.frames._yuv_planes import from_av

__all__ = [
    "DECODER_NICE",
    "START_TOLERANCE_S",
    "VideoFileSource",
    "key_frame_times_s",
    "to_bgr",
]

#: A file without a frame count ending this share (and 1 s) short of its header's duration.
TRUNCATED_SHARE = 0.05
#: A pts gap above this many nominal frame durations counts as dropped frames.
DROP_GAP = 1.5
#: How much lower the decoding threads' priority is than the analysis': when both
#: want a core, the analysis (the slower side) gets it, and the decoder takes what
#: the analysis leaves (``ReadAhead``).
DECODER_NICE = 10
#: Beside an analysis on at most this many cores, a light stream is decoded on one thread.
ONE_THREAD_MAX_CORES = 2
#: Bits a pixel (bit rate / (width x height x frame rate)) at most for one thread.
ONE_THREAD_MAX_BPP = 0.025
#: A start later than this is sought to; earlier, the file is decoded from its start.
SEEK_MIN_S = 0.5
#: How far before the start the seek aims (the key frame before that is decoded from).
SEEK_BEFORE_S = 0.5
#: Frames this close before the start (seconds) count as at the start.
START_TOLERANCE_S = 1e-6


def _open(path: Path) -> tuple[Any, Any]:
    """The container of the video file ``path`` and its video stream."""
    try:
        container = av.open(str(path))
    except (av.FFmpegError, UnicodeDecodeError, ValueError) as exc:
        if index_missing(path):
            raise VideoError(f"video {path}: cut off before its end (the index of its "
                             "frames, the MP4's moov box, is missing: the recording stopped at "
                             "a power cut or a full card); record it again, or repair it with "
                             "a tool such as untrunc") from None  # fmt: skip
        raise VideoError(f"video {path}: not a readable video ({_why(exc)}); give a video "
                         "file (MP4, MKV, AVI ...)") from None  # fmt: skip
    if not container.streams.video:
        container.close()
        raise VideoError(f"video {path}: has no video stream")
    if container.format.name == "image2" or container.format.name.endswith("_pipe"):
        container.close()
        raise VideoError(f"video {path}: a still picture, not a video; give a video file "
                         "(carom analyze and carom calibrate read a folder or glob of pictures as "
                         "a sequence)")  # fmt: skip
    return container, container.streams.video[0]


def _set_up(stream: Any, threads: int, skip_loop_filter: str) -> None:
    """One decoding thread (``threads`` 1) or FFmpeg's frame threads; the deblocking skipped."""
    if threads == 1:
        stream.thread_count = 1
    else:
        stream.thread_type = "AUTO"
    stream.codec_context.options = {"skip_loop_filter": skip_loop_filter}


def _threads(stream: Any, container: Any) -> int:
    """Decoding threads beside an analysis: 1 for a light stream on a small machine, else 0."""
    if _cores() > ONE_THREAD_MAX_CORES:
        return 0
    ctx = stream.codec_context
    rate = float(stream.average_rate or stream.guessed_rate or 0.0)
    bits = stream.bit_rate or container.bit_rate or 0
    pixels_s = float(ctx.width or 0) * float(ctx.height or 0) * rate
    if not (bits > 0 and pixels_s > 0.0):
        return 0  # not known: FFmpeg's threads, as decoding alone
    return 1 if bits / pixels_s <= ONE_THREAD_MAX_BPP else 0


def _cores() -> int:
    """The cores this process may run on (all of the machine's where that is not known)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def _av_error(path: Path, exc: Exception) -> VideoError:
    return VideoError(f"video {path}: cannot decode ({_why(exc)}); check the file is a "
                      "whole video")  # fmt: skip


def _why(exc: Exception) -> object:
    """FFmpeg's words for ``exc`` without its error number and function name."""
    return exc.strerror if isinstance(exc, av.FFmpegError) and exc.strerror else exc


class VideoFileSource(ClosedByWith):
    """A video file decoded with PyAV; iterate once (see the module docstring)."""

    def __init__(
        self,
        path: str | Path,
        *,
        deblock: bool = True,
        ahead: int = 16,
        exact: bool = False,
        start_s: float = 0.0,
        check_length: bool = True,
        sparse_after_idx: int | None = None,
        sparse_keys: bool = False,
        beside_work: bool = False,
    ) -> None:
        """Open ``path``; ``deblock=False`` skips H.264/HEVC's in-loop deblocking filter.

        ``start_s`` (video seconds, >= 0) starts the read there (see the module doc);
        ``check_length=False``: a file that ends before its index says just ends.
        ``sparse_after_idx``: after the frame of this index, frames no other frame
        refers to are not decoded (the module doc); None: every frame is.
        ``sparse_keys=True``: after it, only key frames are decoded.
        ``beside_work=True``: the caller keeps a core busy with its own work (an
        analysis), so a light stream on a small machine is decoded on one thread
        (the module doc); ``decoder_threads`` says which was chosen (0: FFmpeg's).

        ``ahead`` frames are decoded ahead on a thread (:class:`ReadAhead`; 0: decode
        on the caller's thread), whose priority is ``DECODER_NICE`` below the caller's.
        ``exact=True`` decodes as OpenCV's ``VideoCapture`` does, for a single frame
        (calibration): every frame deblocked and converted whole to BGR by FFmpeg's
        swscale, not kept as its 4:2:0 planes (whose OpenCV conversion differs by a few
        grey levels); ``deblock`` is then ignored (the deblocking filter: the module doc).
        """
        self.path = Path(path)
        if self.path.is_dir():
            raise VideoError(f"video {self.path}: a folder, not a video file; give the path "
                             "of a video")  # fmt: skip
        if not self.path.is_file():
            raise VideoError(f"video {self.path}: no such file; give the path of a video")
        if not (math.isfinite(start_s) and start_s >= 0.0):
            raise VideoError(f"video {self.path}: start_s {start_s} must be a time >= 0 s")
        self.start_s = start_s
        self.check_length = check_length
        self.sparse_after_idx = sparse_after_idx
        self.sparse_keys = sparse_keys
        self._sparse = False
        self._container, self._stream = _open(self.path)
        self.decoder_threads = _threads(self._stream, self._container) if beside_work else 0
        skip = "default" if exact else "noref" if deblock else "all"
        _set_up(self._stream, self.decoder_threads, skip)
        rate = self._stream.average_rate or self._stream.guessed_rate or Fraction(30)
        self._fps = float(rate)
        ctx = self._stream.codec_context
        self._size = (int(ctx.width), int(ctx.height))
        self.n_frames_expected = int(self._stream.frames or 0)
        self.header_duration_s, self._header_start_s = _header_span(self._container, self._stream)
        # Frames dropped, stamps repaired (a time that did not increase moved one frame on), read.
        self.dropped_frames = self.repaired_stamps = self.frames_read = 0
        self.ahead = ahead
        self._planes = not exact
        self._reader: ReadAhead[Frame] | None = None
        self._read = False  # read once: the decoder is closed at the end

    @property
    def fps(self) -> float:
        """Nominal frame rate (the stream's average rate)."""
        return self._fps

    @property
    def size_px(self) -> tuple[int, int]:
        """Frame (width, height) in pixels."""
        return self._size

    def __iter__(self) -> Iterator[Frame]:
        if self._read:  # the decoder is closed at the end of the first reading
            raise VideoError(f"video {self.path}: read once already; open it again to re-read")
        self._read = True
        if self.ahead <= 0:
            return self._frames()
        self._reader = ReadAhead(self._frames(), self.ahead, nice=DECODER_NICE)
        return iter(self._reader)

    def _frames(self) -> Iterator[Frame]:
        try:
            origin = self._seek_to_start()
            index: int | None = 0 if origin is None else None  # after a seek: from its time
            last: float | None = None
            steps: deque[float] = deque(maxlen=15)
            for av_frame in self._container.decode(self._stream):
                t = self._stamp(av_frame, index or 0, last, steps)
                last = t
                origin = t if origin is None else origin
                index = round((t - origin) * self._fps) if index is None or self._sparse else index
                if t - origin >= self.start_s - START_TOLERANCE_S:
                    image = from_av(av_frame) if self._planes else None
                    yield Frame(index, t - origin, image or to_bgr(av_frame))
                    self.frames_read += 1
                    self._go_sparse(index)
                index += 1
        except av.FFmpegError as exc:
            raise _av_error(self.path, exc) from None
        finally:
            self.close()
        self._check_complete(index or 0, last)

    def _go_sparse(self, index: int) -> None:
        """After ``sparse_after_idx``, skip decoding the frames no other frame refers to."""
        last = self.sparse_after_idx
        if not self._sparse and last is not None and index >= last:
            self._stream.codec_context.skip_frame = "NONKEY" if self.sparse_keys else "NONREF"
            self._sparse = True

    def _seek_to_start(self) -> float | None:
        """Seek near ``start_s``; the first frame's time (read first) if it did, else None.

        A file is read from its start when ``start_s`` is near it or its first frame
        has no time to count from.
        """
        if self.start_s <= SEEK_MIN_S:
            return None
        first = next(iter(self._container.decode(self._stream)), None)
        origin = None if first is None else first.time
        if origin is None:
            self._container.seek(0, stream=self._stream, backward=True)
            return None
        target = (origin + self.start_s - SEEK_BEFORE_S) / float(self._stream.time_base)
        self._container.seek(int(target), stream=self._stream, backward=True)
        return float(origin)

    def _stamp(self, av_frame: Any, index: int, last: float | None, steps: deque[float]) -> float:
        """The frame's time, a broken stamp (repeated, backwards) moved one frame on."""
        t = _frame_time(av_frame, index, self._fps)
        if last is None:
            return t
        if t <= last:
            self.repaired_stamps += 1
            return last + 1.0 / self._fps
        if not self._sparse:
            self._count_drops(steps, t - last)
        return t

    def _count_drops(self, steps: deque[float], step_s: float) -> None:
        """Count frames missing in a gap of ``step_s`` after the frame before.

        The nominal frame duration is the median of the recent steps (the average rate
        is lowered by the drops themselves, the base rate raised by jitter).
        """
        # statistics' median: a tenth of numpy's call cost on 15 numbers, every frame.
        nominal = statistics.median(steps) if len(steps) >= 3 else 1.0 / self._fps
        if step_s > DROP_GAP * nominal:
            self.dropped_frames += round(step_s / nominal) - 1
        else:
            steps.append(step_s)

    def _check_complete(self, decoded: int, last_t_s: float | None) -> None:
        """A file that ends before its index (or its header's duration) says is truncated.

        ``decoded``: frames from the file's start (before a seek too); ``last_t_s``: the
        last frame's time (frames dropped on recording are no cut).
        """
        want = self.n_frames_expected
        # After a key-frame read went sparse its last frame may be seconds before the end.
        if not self.check_length or (self._sparse and self.sparse_keys):
            return
        if self.frames_read == 0 and self.start_s > 0.0 and decoded > 0:
            raise VideoError(
                f"video {self.path}: no frame at or after {self.start_s:g} s; "
                f"it ends at {decoded / self._fps:.2f} s"
            )
        if self.frames_read == 0 or (want and decoded < want - 1):
            raise VideoError(
                f"video {self.path}: truncated, {decoded} of {want or '?'} frames "
                "decode; re-copy or re-record the file"
            )
        # No frame count in the header (MKV, WebM): its duration tells a cut file.
        header = self.header_duration_s
        read = (last_t_s or 0.0) - self._header_start_s + 1.0 / self._fps
        if not want and header is not None and read < header - max(1.0, TRUNCATED_SHARE * header):
            raise VideoError(
                f"video {self.path}: seems truncated: it ends at {read:.1f} s of the "
                f"{header:.1f} s its header gives ({100 * read / header:.0f}% read); "
                "re-copy or re-record the file"
            )

    def close(self) -> None:
        """Release the decoder (idempotent); a reading thread is stopped first."""
        if self._reader is not None:
            self._reader.close()  # the reader may be inside the decoder right now
        self._container.close()


def key_frame_times_s(path: str | Path, until_s: float) -> tuple[float, ...]:
    """Times (s, from the first frame's) of ``path``'s key frames up to ``until_s``.

    Read from the packets alone (nothing is decoded: a few milliseconds for 16 s of
    1080p). A file with no times on its packets gives ().

    Raises:
        VideoError: ``path`` is missing or not a video (the message says which).
    """
    if not Path(path).is_file():
        raise VideoError(f"video {path}: no such file; give the path of a video")
    container, stream = _open(Path(path))
    base = float(stream.time_base or 0.0)
    times: list[float] = []
    try:
        for packet in container.demux(stream):
            if packet.pts is None or packet.dts is None:
                continue
            if packet.dts * base - (times[0] if times else packet.pts * base) > until_s:
                break  # decoding order: frames after this one are later still
            if packet.is_keyframe:
                times.append(packet.pts * base)
    except av.FFmpegError as exc:
        raise _av_error(Path(path), exc) from None
    finally:
        container.close()
    first = times[0] if times else 0.0
    return tuple(t - first for t in times if t - first <= until_s)


def _header_span(container: Any, stream: Any) -> tuple[float | None, float]:
    """(duration or None, start time) in seconds as the header gives them (stream, else file)."""
    base = stream.time_base
    if stream.duration is not None and base is not None:
        return float(stream.duration * base), float((stream.start_time or 0) * base)
    if container.duration is not None:  # in AV_TIME_BASE units, microseconds
        return container.duration / 1e6, (container.start_time or 0) / 1e6
    return None, 0.0


def _frame_time(av_frame: Any, index: int, fps: float) -> float:
    """Presentation time in seconds; the frame index at ``fps`` if the frame has none."""
    t = av_frame.time
    return float(t) if t is not None else index / fps


def to_bgr(av_frame: Any) -> U8:
    """A PyAV video frame as BGR (h, w, 3) uint8 (a view of the converted frame)."""
    # One swscale pass into a fresh frame, no copy after it; one thread because the
    # decoder's threads already use the other cores.
    return np.asarray(av_frame.to_ndarray(format="bgr24", threads=1), dtype=np.uint8)
