"""Live figures, kept continuously: shot-end-to-verdict latency, processing fps, drops.

Two latencies per shot, both ending when the verdict's snapshot bytes were written
on the scoreboard link (or, with no board, when the verdict was handed to the sinks):

* ``processing_s``: from the capture of the frame the verdict waited for (the first
  on which every ball of the closed shot was at rest, :class:`~carom.live.loop._settle.
  ShotHold`) to the bytes: what the program costs.
* ``from_stop_s``: from the moment the last ball stopped to the bytes, as live mode
  can tell it: that frame when the tracker saw every ball at rest (then it equals
  ``processing_s``), else the track's own estimate (the shot's ``end_s``, earlier
  than the truth) plus the video time to that frame. ``bench/live_latency.py``
  measures it against the renderer's truth.

Each :class:`VerdictTiming` also keeps the parts (when the frame was taken and
analysed, how long the closed shot waited for its balls).

Percentiles are over the last ``window`` shots; fps over the last ``fps_window_s``.
:class:`BoardSink` shows updates on the board and notes when a verdict's bytes left.
"""

from __future__ import annotations

import collections
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from hardware import EventMessage, LinkState, ScoreboardLink

__all__ = ["BoardSink", "LiveMetrics", "MetricsSummary", "VerdictTiming"]


@dataclass(frozen=True, slots=True)
class VerdictTiming:
    """One verdict: its two latencies (s), the shot's stop (video s), the bytes (monotonic s).

    The parts (0: not timed): ``close_t_s`` the verdict's frame (video s);
    ``captured_mono_s``, ``taken_mono_s``, ``fed_mono_s`` when that frame was
    captured, taken from the queue and analysed (monotonic s); ``held_s`` how long
    the closed shot waited for its balls to stop (video s).
    """

    processing_s: float
    from_stop_s: float
    stop_t_s: float
    written_mono_s: float
    close_t_s: float = 0.0
    captured_mono_s: float = 0.0
    taken_mono_s: float = 0.0
    fed_mono_s: float = 0.0
    held_s: float = 0.0


@dataclass(frozen=True, slots=True)
class MetricsSummary:
    """The figures now; latencies in milliseconds (None before the first timed verdict).

    ``shots``: shots judged from the video; ``timed``: those whose verdict's bytes were
    written (on the board, or handed to the sinks with no board), the latencies' count.
    A board that never opened leaves shots untimed.
    """

    shots: int
    timed: int
    frames: int
    dropped_frames: int
    fps: float
    processing_p50_ms: float | None
    processing_p95_ms: float | None
    from_stop_p50_ms: float | None
    from_stop_p95_ms: float | None

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-able dict (rounded to 0.1 ms / 0.1 fps)."""
        return {k: round(v, 1) if isinstance(v, float) else v for k, v in asdict(self).items()}

    def line(self) -> str:
        """One human line for the terminal."""

        def ms(v: float | None) -> str:
            return "-" if v is None else f"{v:.0f}"

        untimed = self.shots - self.timed
        waiting = f" ({untimed} not on the board yet)" if untimed > 0 else ""
        return (
            f"{self.fps:.1f} fps, {self.dropped_frames} dropped, {self.shots} "
            f"shot{'' if self.shots == 1 else 's'}{waiting}; "
            f"verdict latency p50/p95: processing {ms(self.processing_p50_ms)}/"
            f"{ms(self.processing_p95_ms)} ms, from the last ball's stop "
            f"{ms(self.from_stop_p50_ms)}/{ms(self.from_stop_p95_ms)} ms"
        )


class LiveMetrics:
    """Thread-safe counters (the processing loop and the link watcher both write)."""

    def __init__(
        self,
        *,
        window: int = 1000,
        fps_window_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._fps_window_s = fps_window_s
        self._frames_at: collections.deque[float] = collections.deque()
        self._processing: collections.deque[float] = collections.deque(maxlen=window)
        self._from_stop: collections.deque[float] = collections.deque(maxlen=window)
        self._frames = self._dropped = self._shots = self._timed = 0
        #: The last ``window`` verdicts' timings (for benchmarks and the web page).
        self.log: collections.deque[VerdictTiming] = collections.deque(maxlen=window)

    def frame_done(self) -> None:
        """One frame went through the analyser."""
        now = self._clock()
        with self._lock:
            self._frames += 1
            self._frames_at.append(now)
            while self._frames_at and self._frames_at[0] < now - self._fps_window_s:
                self._frames_at.popleft()

    def dropped(self, total: int) -> None:
        """The capture's dropped-frame count (a running total)."""
        with self._lock:
            self._dropped = total

    def shot_judged(self) -> None:
        """A shot got its verdict (from the video, or released by a review decision)."""
        with self._lock:
            self._shots += 1

    def verdict(
        self,
        processing_s: float,
        from_stop_s: float,
        *,
        stop_t_s: float = 0.0,
        at_mono_s: float = 0.0,
        **parts: float,
    ) -> None:
        """A judged shot's latencies (s); its stop (video s), when its bytes left (monotonic s).

        ``parts``: the other fields of :class:`VerdictTiming` (``close_t_s`` ...).
        """
        timing = VerdictTiming(processing_s, from_stop_s, stop_t_s, at_mono_s, **parts)
        with self._lock:
            self._timed += 1
            self._processing.append(processing_s)
            self._from_stop.append(from_stop_s)
            self.log.append(timing)

    def summary(self) -> MetricsSummary:
        """The figures now."""
        with self._lock:
            span = self._frames_at[-1] - self._frames_at[0] if len(self._frames_at) > 1 else 0.0
            fps = (len(self._frames_at) - 1) / span if span > 0 else 0.0
            proc, stop = _pcts(self._processing), _pcts(self._from_stop)
            return MetricsSummary(self._shots, self._timed, self._frames, self._dropped, fps,
                                  proc[0], proc[1], stop[0], stop[1])  # fmt: skip


def _pcts(values: collections.deque[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    p50, p95 = np.percentile(np.asarray(values, dtype=np.float64) * 1000.0, [50, 95])
    return float(p50), float(p95)


class BoardSink:
    """Shows session updates on a scoreboard link and times the verdicts' bytes.

    ``show`` publishes a snapshot (and an event); for a verdict it also notes when the
    link had written it, by watching the link's snapshot counter from a helper thread
    (``on_written(monotonic s)``); with no link the verdict counts as out at once.
    """

    def __init__(self, link: ScoreboardLink | None) -> None:
        self.link = link
        self._said_down = False
        self._watch: queue.Queue[tuple[int, Callable[[float], None]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._watcher, name="verdict timer", daemon=True)
        if link is not None:
            self._thread.start()

    def show(
        self,
        snapshot: Any,
        event: EventMessage | None,
        on_written: Callable[[float], None] | None = None,
    ) -> None:
        """Publish ``snapshot`` (then ``event``); ``on_written`` gets the bytes' time."""
        if self.link is None:
            if on_written is not None:
                on_written(time.monotonic())
            return
        before = self.link.status().snapshots_sent
        self.link.publish(snapshot)
        if event is not None:
            self.link.send_event(event)
        if on_written is not None:
            self._watch.put((before, on_written))

    def news(self) -> list[str]:
        """What the table must hear of the link: a port that does not open, and its opening.

        The first is said once, at once (not first at the match's end).
        """
        if self.link is None:
            return []
        status = self.link.status()
        if status.state is LinkState.DOWN and status.last_error and not self._said_down:
            self._said_down = True
            return [f"scoreboard: cannot reach {status.url} ({status.last_error}); the match "
                    "goes on and the port is tried again until it opens"]  # fmt: skip
        if status.state is LinkState.UP and self._said_down:
            self._said_down = False
            return [f"scoreboard: {status.url} is open again; the board gets the current state"]
        return []

    def close(self, flush_s: float = 2.0) -> None:
        """Wait (at most ``flush_s``) for the board to have everything, then stop.

        Every verdict the board had by then is timed before this returns (the timer
        thread is waited for), so the last shot's latency is never left out.
        """
        if self.link is not None:
            self.link.flush(flush_s)
            self._watch.put(None)
            self._thread.join(flush_s + 5.0)
            self.link.stop()

    def _watcher(self) -> None:
        assert self.link is not None
        while (item := self._watch.get()) is not None:
            before, done = item
            end = time.monotonic() + 5.0
            while self.link.status().snapshots_sent <= before and time.monotonic() < end:
                time.sleep(0.0005)
            if self.link.status().snapshots_sent > before:
                done(time.monotonic())
