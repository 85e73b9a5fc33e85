"""The camera pipeline behind the web server: ``carom.live``'s runner in a thread.

Theory of operation. :class:`CameraRig` runs one :class:`WebRunner` (a
:class:`carom.live.loop._runner.LiveRunner`) per match in a daemon thread. The runner owns
the shot clock and the order of shots and decisions (shots that arrive while a review
waits queue behind it), so a person's call from the console is not applied on the
HTTP thread: :meth:`CameraRig.call` queues it for the runner's loop, which carries it
out between two frames exactly as a typed keyboard line, and hands back the result or
the refusal. The runner keeps the last seconds of frames small (``REPLAY_WIDTH_PX``
wide, ``REPLAY_FPS``) so that the shot held for review can be replayed on the console.
"""

from __future__ import annotations

import collections
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from carom.live import (
    LiveError,
    LiveSession,
    PersonCall,
    ReviewDecision,
    SessionUpdate,
    TimeoutCall,
)
from carom.live.loop import (
    BoardSink,
    Capture,
    Captured,
    CaptureSettings,
    CaptureState,
    LiveMetrics,
    LiveRunner,
)
from carom.match import ClockReading
from carom.timestamps import now_iso
from carom.web._state import ClockView
from referee import CaromError

__all__ = ["REPLAY_FPS", "REPLAY_WIDTH_PX", "CameraRig", "WebRunner"]

REPLAY_FPS = 10.0
REPLAY_WIDTH_PX = 320
_REPLAY_KEEP_S = 12.0
_REPLAY_MARGIN_S = 0.5
_CALL_WAIT_S = 10.0

OnChange = Callable[[str | None], None]


@dataclass(slots=True)
class _Job:
    """A person's call waiting for the runner's loop; ``error`` is its refusal."""

    call: PersonCall | ReviewDecision
    done: threading.Event = field(default_factory=threading.Event)
    error: CaromError | None = None


class WebRunner(LiveRunner):
    """The live runner with web calls, a clock watcher and the replay buffer."""

    def __init__(self, *args: Any, on_change: OnChange, **kw: Any) -> None:
        self.jobs: queue.Queue[_Job] = queue.Queue()
        self.on_change = on_change
        self._shown_clock: tuple[bool, bool, bool] = (False, False, False)
        self._ring: collections.deque[tuple[float, np.ndarray]] = collections.deque()
        self._next_keep_t_s = 0.0
        self.replay: tuple[float, list[np.ndarray]] = (REPLAY_FPS, [])
        self._replay_of: int | None = None
        super().__init__(*args, **kw)

    # --- a person's calls, on this loop's thread ---

    def _commands(self, wait_s: float = 0.0) -> None:
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                break
            self.run_job(job)
        super()._commands(wait_s)

    def run_job(self, job: _Job) -> None:
        """Carry out ``job`` as the keyboard would, keeping its refusal."""
        try:
            self._web_call(job.call)
        except CaromError as exc:
            job.error = exc
        finally:
            job.done.set()

    def _web_call(self, call: PersonCall | ReviewDecision) -> None:
        if isinstance(call, ReviewDecision):
            self.session.decide(call, who="web", now_iso=now_iso())
            self._drain_backlog()
            self._start_clock(self._now_t_s)
        elif isinstance(call, TimeoutCall):
            players = self.config.players
            who = call.player or self.session.state.shooter or players[0]
            used = self.session.timeouts_used()[players.index(who)]
            self.clock.check_extension(who, used, self._now_t_s)
            self.session.call(TimeoutCall(who), who="web", now_iso=now_iso())
            self.clock.extend(self._now_t_s)
            self._show(None)
        else:
            self.session.call(call, who="web", now_iso=now_iso())
            self._drain_backlog()

    # --- the clock, as the board is shown ---

    def _show(
        self, event: Any, on_written: Any = None, update: SessionUpdate | None = None
    ) -> None:
        super()._show(event, on_written, update)
        r = self._reading
        shown = (r.left_s is not None, r.warning, r.expired)
        if shown != self._shown_clock:
            self._shown_clock = shown
            self.on_change(None)

    def reading(self) -> ClockReading:
        """The shot clock as last shown."""
        return self._reading

    # --- the replay buffer ---

    def _frame(self, item: Captured) -> None:
        frame = item.frame
        if frame.t_s >= self._next_keep_t_s:
            self._next_keep_t_s = frame.t_s + 1.0 / REPLAY_FPS
            # Every k-th pixel first: a frame kept as decoder planes converts only those.
            h, w = frame.image.shape[:2]
            k = max(1, w // (2 * REPLAY_WIDTH_PX))
            self._keep(frame.t_s, frame.image[0:h:k, 0:w:k])
        super()._frame(item)

    def _keep(self, t_s: float, image: np.ndarray) -> None:
        h, w = image.shape[:2]
        small = cv2.resize(image, (REPLAY_WIDTH_PX, max(1, h * REPLAY_WIDTH_PX // w)),
                           interpolation=cv2.INTER_AREA)  # fmt: skip
        self._ring.append((t_s, small))
        while self._ring and self._ring[0][0] < t_s - _REPLAY_KEEP_S:
            self._ring.popleft()

    def _on_update(self, update: SessionUpdate) -> None:
        pending = update.pending
        if pending is not None and self._replay_of != pending.shot.index:
            start = (pending.shot.start_s or 0.0) - _REPLAY_MARGIN_S
            end = (pending.shot.end_s or self._now_t_s) + _REPLAY_MARGIN_S
            self.replay = (REPLAY_FPS, [im for t, im in self._ring if start <= t <= end])
            self._replay_of = pending.shot.index
        elif pending is None:
            self.replay, self._replay_of = (REPLAY_FPS, []), None
        super()._on_update(update)


class CameraRig:
    """The camera (or video file) of the table and the runner of the match on it."""

    can_start = True  # a match created on the console starts the pipeline

    def __init__(self, source: str, calibration: Path | None, *, pace: float = 1.0,
                 status_every_s: float = 60.0) -> None:  # fmt: skip
        self.source, self.calibration, self.pace = source, calibration, pace
        self.status_every_s = status_every_s
        self.runner: WebRunner | None = None
        self.capture: Capture | None = None
        self._thread: threading.Thread | None = None
        self.error: str | None = None
        self._jpegs: tuple[list[np.ndarray], list[bytes]] | None = None

    @property
    def running(self) -> bool:
        """True while the pipeline's thread runs (a file source stops at its end)."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, session: LiveSession, setup: Any, *, on_change: OnChange) -> None:
        """Start the pipeline on ``session`` (a video file resumes after the last shot)."""
        self.stop()
        if self.calibration is None:
            raise LiveError("the camera has no calibration; restart with --calibration FILE")
        start_s = session.resume_video_t_s or 0.0
        capture = Capture(self.source, CaptureSettings(pace=self.pace, start_s=start_s))
        runner = WebRunner(
            session, capture.start(), calibration_path=self.calibration, config=setup.config,
            board=BoardSink(None), clock=setup.clock(), metrics=LiveMetrics(),
            status_every_s=self.status_every_s, on_change=on_change,
        )  # fmt: skip
        self.capture, self.runner, self.error = capture, runner, None
        self._thread = threading.Thread(target=self._run, args=(runner, capture, on_change),
                                        name="camera pipeline", daemon=True)  # fmt: skip
        self._thread.start()

    def _run(self, runner: WebRunner, capture: Capture, on_change: OnChange) -> None:
        try:
            runner.run()
            what = "the video ended" if capture.is_file else "the camera stopped"
        except CaromError as exc:
            self.error = str(exc)
            what = f"camera pipeline stopped: {exc}"
        finally:
            capture.stop()
        if not runner.stop.is_set():
            on_change(what)

    def stop(self) -> None:
        """Stop the pipeline (the match stays as committed)."""
        runner, thread = self.runner, self._thread
        if runner is not None:
            runner.stop.set()
            runner.lines.put(None)  # ends a wait for a review decision
        if thread is not None:
            thread.join(10.0)
        self._thread = None

    def call(self, call: PersonCall | ReviewDecision) -> None:
        """Apply a person's call on the runner's thread; raises its refusal."""
        runner = self.runner
        if runner is None:
            raise LiveError("the camera pipeline has not started; create a match first")
        job = _Job(call)
        runner.jobs.put(job)
        for _ in range(int(_CALL_WAIT_S / 0.05)):
            if job.done.wait(0.05):
                break
            if not self.running:  # the loop ended: nobody else takes it now
                try:
                    runner.run_job(runner.jobs.get_nowait())
                except queue.Empty:
                    job.done.wait(1.0)
        if not job.done.is_set():
            raise LiveError("the camera pipeline did not take the call in time; try again")
        if job.error is not None:
            raise job.error

    def status(self) -> str:
        """``"ok"``, ``"lost"`` or ``"ended"``."""
        if not self.running or self.capture is None:
            return "ended" if self.runner is not None else "ok"
        return "lost" if self.capture.status().state is CaptureState.LOST else "ok"

    def clock_view(self) -> ClockView | None:
        """The runner's shot clock (None when it is off)."""
        runner = self.runner
        if runner is None or not runner.clock.settings.enabled:
            return None
        r, settings = runner.reading(), runner.clock.settings
        left = float(r.left_s) if r.left_s is not None else settings.length_s
        return ClockView(left, r.left_s is not None, r.warning, r.expired, str(settings.expiry))

    def replay_jpegs(self) -> tuple[float, list[bytes]]:
        """The pending shot's frames as JPEG bytes (empty: no review, or no frames)."""
        runner = self.runner
        if runner is None:
            return REPLAY_FPS, []
        fps, images = runner.replay
        cached = self._jpegs
        if cached is not None and cached[0] is images:
            return fps, cached[1]
        out = []
        for im in images:
            ok, buf = cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, 75])
            if ok:
                out.append(buf.tobytes())
        self._jpegs = (images, out)
        return fps, out
