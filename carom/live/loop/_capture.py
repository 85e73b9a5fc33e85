"""Frame capture in its own thread: never blocked by processing, never blocks it.

Theory of operation. One thread reads the source and puts frames into a small queue.
When processing falls behind and the queue is full, the *oldest* frame is dropped and
counted (the newest picture of the table is the one worth analysing); while the
consumer sets ``catch_up`` (it is learning the table at start or after a reconnect) the
queue may grow 16 times longer first. A source that
fails (a camera unplugged, a stream that ends, a file that stops decoding) or stalls
(no frame for ``stall_s``) is *lost*: the status says so at once and the thread
reopens it with exponential backoff; frame times stay continuous across reconnects
so the gap is visible to whoever reads them.

* A video file is replayed at real-time pace from its presentation times, times
  ``pace`` (2: twice as fast), as a camera would deliver it: a frame decoded more than
  ``late_s`` after it was due (a machine too busy to decode in time) is dropped, as a
  camera's driver drops the frames nobody read, so the replay never runs seconds
  behind the table. ``pace=0`` is the lossless mode for tests and
  benchmarks: no pacing, and the reader waits for room in the queue instead of
  dropping. ``start_s`` starts the replay at a video time (resuming a match): the file
  is sought to the key frame before it and earlier frames are skipped undecoded to
  pixels. The file is read by vision's one frame reader (``vision.VideoFileSource``,
  on this thread, each frame kept as the decoder's planes, converted where looked
  at): frame times and pixels are the ones ``carom analyze`` sees.
* A camera (an index, ``/dev/videoN``, a stream URL: ``hardware.is_camera_spec``) is
  opened through ``vision.open_source``; a frame's time is the monotonic clock at
  capture, from the start of the capture (continuous across reconnects), plus
  ``start_s``: a resumed match's time goes on from its journal's last shot (it began at
  0 again, and the shots after a restart were "before" the ones before it).
"""

from __future__ import annotations

import collections
import math
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import av

from hardware import is_camera_spec
from referee import CaromError
from vision import Frame, VideoFileSource, open_source

__all__ = [
    "Capture",
    "CaptureSettings",
    "CaptureState",
    "CaptureStatus",
    "Captured",
    "Opener",
    "file_frames",
    "is_file_source",
]

#: How many times ``queue_max`` frames the queue holds while the consumer catches up.
_CATCH_UP = 16
#: Opens the source at a time (seconds; files honour it, cameras ignore it).
Opener = Callable[[float], Iterator[Frame]]


class CaptureState(StrEnum):
    """Where the capture is: ``lost`` while reconnecting, ``ended`` after a file's end."""

    STARTING = "starting"
    LIVE = "live"
    LOST = "lost"
    ENDED = "ended"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True, kw_only=True)
class CaptureSettings:
    """How the capture reads (seconds; see the module docstring for ``pace``)."""

    pace: float = 1.0
    start_s: float = 0.0
    queue_max: int = 32  # about 0.5 s at 60 fps: absorbs a shot's close and a disk sync
    # A replayed frame decoded this late is dropped, as a camera's would be. Not less:
    # the capture thread also waits for the GIL while the loop works a shot out (a
    # tenth of a second and more at 1080p), and at 0.1 s a fifth of the frames went.
    late_s: float = 0.5
    stall_s: float = 1.0
    backoff_min_s: float = 0.25
    backoff_max_s: float = 4.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.pace) and 0.0 <= self.pace <= 100.0):
            raise CaromError(f"pace {self.pace}: use 0 (as fast as processed) or up to 100")
        if self.queue_max < 1 or self.stall_s <= 0 or self.backoff_min_s <= 0:
            raise CaromError("capture: queue_max >= 1, stall_s > 0 and backoff > 0 are needed")
        if not self.late_s > 0:
            raise CaromError(f"capture: late_s {self.late_s} must be > 0 s")


@dataclass(frozen=True, slots=True)
class Captured:
    """A frame and the monotonic time (s) it was captured (paced files: when it was due)."""

    frame: Frame
    captured_mono_s: float


@dataclass(frozen=True, slots=True)
class CaptureStatus:
    """A copy of the capture's state and counters."""

    state: CaptureState
    frames_read: int
    frames_dropped: int
    reconnects: int
    last_error: str
    queued: int


def is_file_source(spec: str) -> bool:
    """True when ``spec`` names a file (replayed), not a camera index, device or URL."""
    return not is_camera_spec(spec)


class Capture:
    """Reads ``spec`` (a video file, a camera index or a URL) in a thread; see module doc.

    Args:
        spec: what to open (the ``--camera`` argument).
        settings: pacing, queue and reconnect settings.
        opener: how to open the source at a time; the default opens ``spec`` as above
            (tests pass sources that stall or fail on purpose).
        clock: the monotonic clock (seconds).
    """

    def __init__(
        self,
        spec: str,
        settings: CaptureSettings | None = None,
        *,
        opener: Opener | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.spec = spec
        self.settings = settings or CaptureSettings()
        self.is_file = is_file_source(spec)
        self._opener = opener or _default_opener(spec, self.is_file)
        self._clock = clock
        self._cond = threading.Condition()
        self._queue: collections.deque[Captured] = collections.deque()
        self._stop = threading.Event()
        self._state = CaptureState.STARTING
        self._read = self._dropped = self._reconnects = 0
        self._error = ""
        self._last_frame_mono = clock()
        self._last_take_mono = clock()  # the consumer's last get (lossless back-pressure)
        self._last_t_s: float | None = None
        self._t0 = clock()
        self._thread = threading.Thread(target=self._run, name=f"capture {spec}", daemon=True)
        #: While True the queue may hold ``_CATCH_UP`` times more before dropping: the
        #: consumer is learning the table and will catch up (set by the consumer).
        self.catch_up = False

    # --- the consumer's side ------------------------------------------------------

    def start(self) -> Capture:
        """Start the capture thread; returns self."""
        self._thread.start()
        return self

    def stop(self, timeout_s: float = 2.0) -> None:
        """Stop the thread (a camera stuck in a read is left to die with the process)."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout_s)
        self._set_state(CaptureState.STOPPED)

    def get(self, timeout_s: float, *, newest: bool = False) -> Captured | None:
        """The oldest queued frame, waiting at most ``timeout_s``; None if none came.

        ``newest``: the newest instead, the older ones dropped (and counted): the
        consumer only wants to know how things are now (live mode, while a closed
        shot waits for its balls to stop).
        """
        with self._cond:
            if not self._queue and not self.finished:
                self._cond.wait(timeout_s)
            if not self._queue:
                return None
            if newest:
                self._dropped += len(self._queue) - 1
                while len(self._queue) > 1:
                    self._queue.popleft()
            item = self._queue.popleft()
            self._last_take_mono = self._clock()
            self._cond.notify_all()  # room for a lossless reader
            return item

    @property
    def finished(self) -> bool:
        """True when a file has ended (or the capture stopped) and the queue is empty."""
        done = self._state in (CaptureState.ENDED, CaptureState.STOPPED)
        return done and not self._queue

    def status(self) -> CaptureStatus:
        """State and counters now; a live source silent for ``stall_s`` reads as lost."""
        with self._cond:
            state = self._state
            lossless = self.settings.pace == 0
            waiting = lossless and len(self._queue) >= self.settings.queue_max
            # Lossless, the reader waits for room: a consumer busy for a second (learning
            # the table, closing a shot) is not a silent camera. Silence counts from the
            # later of the last frame and the last frame taken.
            since = max(self._last_frame_mono, self._last_take_mono if lossless else 0.0)
            silent = self._clock() - since > self.settings.stall_s
            if state is CaptureState.LIVE and silent and not waiting:
                state = CaptureState.LOST
            error = self._error or ("no frame for a while" if state is CaptureState.LOST else "")
            return CaptureStatus(
                state, self._read, self._dropped, self._reconnects, error, len(self._queue)
            )

    # --- the capture thread -----------------------------------------------------------

    def _run(self) -> None:
        backoff = self.settings.backoff_min_s
        while not self._stop.is_set():
            start_s = self._resume_at()
            read_before = self._read
            try:
                frames = self._opener(start_s)
                if self._pump(frames):
                    self._set_state(CaptureState.ENDED)
                    return
                error = "the source ended"
            except (CaromError, OSError, av.FFmpegError) as exc:
                error = str(exc).splitlines()[0][:400] if str(exc) else type(exc).__name__
            if self._stop.is_set():
                return
            with self._cond:
                self._state, self._error = CaptureState.LOST, error
                self._reconnects += 1
            if self._read > read_before:  # it delivered since the last failure: afresh
                backoff = self.settings.backoff_min_s
            self._stop.wait(backoff)
            backoff = min(backoff * 2, self.settings.backoff_max_s)

    def _resume_at(self) -> float:
        """Where a (re)opened file continues: after the last frame delivered."""
        if self._last_t_s is None:
            return self.settings.start_s
        return self._last_t_s + 1e-3

    def _pump(self, frames: Iterator[Frame]) -> bool:
        """Deliver ``frames``; True when a file ended cleanly (False: a live source ended)."""
        pace = self.settings.pace
        anchor: tuple[float, float] | None = None  # (video t, monotonic) of the first frame
        for frame in frames:
            if self._stop.is_set():
                return False
            if self.is_file:
                if anchor is None:
                    anchor = (frame.t_s, self._clock())
                due = anchor[1] + (frame.t_s - anchor[0]) / pace if pace > 0 else self._clock()
                if (wait := due - self._clock()) > 0:
                    self._stop.wait(wait)
                elif pace > 0 and -wait > self.settings.late_s:
                    self._lost_late(frame)
                    continue
                stamped = Captured(frame, max(due, anchor[1]))
            else:  # a camera's time goes on from where a resumed match stopped (its
                now = self._clock()  # shots restarted at 0 s, before the journal's last)
                t_s = self.settings.start_s + now - self._t0
                stamped = Captured(Frame(self._read, t_s, frame.image_bgr), now)
            self._push(stamped)
        return self.is_file

    def _lost_late(self, frame: Frame) -> None:
        """A replayed frame decoded too late to be shown: read, dropped, never queued."""
        with self._cond:
            self._read += 1
            self._dropped += 1
            self._last_frame_mono = self._clock()
            self._last_t_s = frame.t_s

    def _push(self, item: Captured) -> None:
        with self._cond:
            if self.settings.pace == 0:
                while len(self._queue) >= self.settings.queue_max and not self._stop.is_set():
                    self._cond.wait(0.1)
            else:  # the oldest go: the newest picture matters most
                limit = self.settings.queue_max * (_CATCH_UP if self.catch_up else 1)
                while len(self._queue) >= limit:  # (a catch-up's backlog too, once over)
                    self._queue.popleft()
                    self._dropped += 1
            self._queue.append(item)
            self._read += 1
            self._state, self._error = CaptureState.LIVE, ""
            self._last_frame_mono = self._clock()
            self._last_t_s = item.frame.t_s
            self._cond.notify_all()

    def _set_state(self, state: CaptureState) -> None:
        with self._cond:
            if self._state is not CaptureState.STOPPED:
                self._state = state
            self._cond.notify_all()


def _default_opener(spec: str, is_file: bool) -> Opener:
    if is_file:
        return lambda start_s: file_frames(Path(spec), start_s)
    return lambda _start_s: iter(open_source(spec))


def file_frames(path: Path, start_s: float = 0.0) -> Generator[Frame, None, None]:
    """The frames of a video file from video time ``start_s`` on (seconds, file's own).

    Read by :class:`vision.VideoFileSource` on the caller's thread as ``carom analyze``
    reads it (each frame the decoder's planes, converted only where something looks:
    a 1080p frame's whole conversion would cost the capture thread several ms); times
    and pixels are the ones ``carom analyze`` sees, and a resumed replay sees the
    same ones. A file that ends before
    its index says just ends (the replay's end), it is not an error.

    Raises:
        VideoError: the file is missing or not a video (at the first ``next``).
    """
    yield from VideoFileSource(path, ahead=0, start_s=start_s, check_length=False)
