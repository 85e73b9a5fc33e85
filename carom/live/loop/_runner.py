"""The live processing loop: frames -> analyser -> match session -> scoreboard.

Theory of operation. Three kinds of threads, one owner of the match:

* the capture thread (:class:`~carom.live.Capture`) reads frames and never waits;
* the keyboard thread reads stdin lines and only queues them;
* this loop (the caller's thread) takes each frame through the :class:`vision.Analyzer`,
  holds every closed shot until its balls have really stopped (:class:`ShotHold`: the
  shot closes while the last ball may still creep; its events are worked out
  meanwhile), then hands it to the referee desk (:class:`LiveReferee`, which feeds the
  :class:`~carom.live.LiveSession`; it writes to SQLite before the state changes),
  applies the queued calls (typed lines, or :meth:`LiveRunner.post` from another
  thread such as the web console's), runs the shot clock and the periodic drift
  check; the board (:class:`BoardView`) shows every session update and never stalls
  the loop.

Other front ends watch the loop through its public hooks, never by overriding it:
:meth:`LiveRunner.observe_frames` (the web's review replay), ``runner.view.observe``
(the clock as shown) and :meth:`LiveRunner.post` (a person's call, answered with its
refusal).

Faults. A camera silent for ``stall_s`` or failing is *lost*: a shot in progress is
closed with a doubt (it waits for a person's review: nothing is scored from frames
that never came), the match is paused ("camera lost" on the board) and the analyser
starts afresh when frames come back (balls moved while unseen are simply where they
are). A drift check that fails twice in a row pauses scoring until the camera is
re-calibrated: shots seen meanwhile are logged and not scored. A loop running behind
(a busy machine) works off the frames that came before the loss first: a shot they
show whole is judged, not lost.
"""

from __future__ import annotations

import dataclasses
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from calibration import Calibration, DriftCheck
from carom.console import remark, say
from carom.files import write_json_atomic
from carom.live import (
    LiveSession,
    PersonCall,
    ReviewDecision,
)
from carom.live.loop._board import BoardView, Closing
from carom.live.loop._camera_watch import CameraWatch
from carom.live.loop._capture import Capture, Captured, CaptureState
from carom.live.loop._keyboard import PostedCall, read_keyboard
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.live.loop._referee import LiveReferee
from carom.live.loop._settle import ShotHold
from carom.match import ShotClock
from carom.pipeline import CalibrationFile, VisionPipeline, table_size_line
from carom.timestamps import now_iso
from referee import CaromError, MatchConfig, Phase
from vision import Analyzer, AnalyzerSettings, Frame, SegmentSettings, StopSettings

__all__ = ["LiveRunner", "PostedCall", "read_keyboard"]

_LEARN_FRAMES = 30  # as carom analyze: the first frames of a clip are often smeared
_RESUME_LEARN_FRAMES = 5
_DRIFT_STRIKES = 2
_SETTLE_S = 1.0
CAMERA_LOST = "camera lost: the match waits"


class LiveRunner:
    """Runs one live match until a file source ends (a camera runs until stopped).

    Args:
        session: the open match session (resumed or new).
        capture: the started frame capture.
        calibration_file: the calibration file and its origin (checked against the picture).
        config: the match set-up (discipline, players).
        board: where updates are shown.
        clock: the shot clock.
        metrics: live figures.
        metrics_path: a JSON file the figures are written to with every status line.
        segment: segmenter settings for live mode (None: those of ``carom analyze``).
        stop: when a closed shot's balls count as stopped (its verdict waits for it).
        drift_every_s: seconds of video between drift checks (0: never).
        out: where status lines go (stderr).
    """

    def __init__(
        self,
        session: LiveSession,
        capture: Capture,
        *,
        calibration_file: CalibrationFile,
        config: MatchConfig,
        board: BoardSink,
        clock: ShotClock,
        metrics: LiveMetrics,
        segment: SegmentSettings | None = None,
        drift_every_s: float = 0.0,
        status_every_s: float = 10.0,
        metrics_path: Path | None = None,
        out: TextIO | None = None,
        detector: str = "auto",
        stop: StopSettings | None = None,
        command: str = "live",
    ) -> None:
        self.session, self.capture, self.config = session, capture, config
        self.command = command  # the lines' prefix: carom live, or carom serve's camera
        self.calibration_file = calibration_file
        self.clock, self.metrics = clock, metrics
        self.drift_every_s, self.status_every_s = drift_every_s, status_every_s
        self.metrics_path = metrics_path
        settings = None if segment is None else AnalyzerSettings(segment=segment)
        self.vision = VisionPipeline.for_match(config, detector, settings)
        self.out = out or sys.stderr
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.posted: queue.Queue[PostedCall] = queue.Queue()
        self.keyboard_done = False
        self.console = False  # a web console takes calls too (carom live --serve)
        self.stop = threading.Event()
        self.interrupted = threading.Event()  # see interrupt()
        self._closing = False  # see close()
        self.analyzer: Analyzer | None = None
        self.calibration: Calibration | None = None
        self.stop_settings = stop
        self.hold: ShotHold | None = None
        self._taken_mono_s = 0.0
        self._catch_up_left = 0  # frames queued while the table was learnt, to work off
        self.view, self._board = BoardView(session, board, clock, metrics, config.players), board
        self.referee = LiveReferee(session, clock, self.view, config.players, self._say)
        self._frame_observers: list[Callable[[Captured], None]] = []
        self._drift: DriftCheck | None = None
        self._drift_next_s = 0.0
        self._strikes = 0
        self._lost = False
        self._camera = CameraWatch(capture.spec)
        self._warmup: list[Captured] = []
        self._started = False
        self._armed_t_s = 0.0
        self._tail = False
        self._late = False  # the stroke under way began after the shot clock ran out
        self._next_status = time.monotonic() + status_every_s

    def observe_frames(self, fn: Callable[[Captured], None]) -> None:
        """Call ``fn`` with every captured frame, on the loop's thread, before it is analysed."""
        self._frame_observers.append(fn)

    def post(self, call: PersonCall | ReviewDecision, who: str) -> PostedCall:
        """Queue a person's call for the loop (thread-safe); wait on its ``done``."""
        job = PostedCall(call, who)
        self.posted.put(job)
        return job

    def run_posted(self, job: PostedCall) -> None:
        """Carry out ``job`` (on the loop's thread, or once the loop has ended)."""
        try:
            self.referee.apply(job.call, job.who)
        except CaromError as exc:
            job.error = exc
        finally:
            job.done.set()

    # --- the loop -----------------------------------------------------------------

    def interrupt(self) -> None:
        """Stop at the next frame; the shot under way is not judged (Ctrl-C, SIGTERM)."""
        self.interrupted.set()
        self.stop.set()
        self.lines.put(None)  # ends a wait for a review decision

    def close(self) -> None:
        """As :meth:`interrupt`, then the summary line (the web console closed the match)."""
        self._closing = True
        self.interrupt()

    def run(self) -> None:
        """Process frames until the source ends (then wait for a pending review)."""
        self.view.show()
        while not self.stop.is_set():
            self._commands()
            self._watch_capture()
            self.capture.catch_up = self._catching_up()
            item = self.capture.get(0.05, newest=self._wants_newest())
            if item is None:
                if self.capture.finished:
                    break
                continue
            self._taken_mono_s = time.monotonic()
            for fn in self._frame_observers:
                fn(item)
            self._frame(item)
            self._status_line()
        if not self.interrupted.is_set():
            self._finish()
        elif self._closing:
            self._status_line(force=True)

    def _wants_newest(self) -> bool:
        """A held shot wants the newest picture, not frames queued behind its analysis.

        Its balls barely creep; lossless replays (``pace=0``) keep every frame.
        """
        held = self.hold is not None and self.hold.held is not None
        return held and self.capture.settings.pace > 0

    def _catching_up(self) -> bool:
        """Learning the table (and working off the frames queued meanwhile) drops nothing.

        Only those frames: a loop that never catches up (a busy machine) must not let
        the queue grow to ``_CATCH_UP`` times its size, seconds behind the table.
        """
        if self.analyzer is None:
            return True
        if self._catch_up_left > 0:
            self._catch_up_left -= 1
        return self._catch_up_left > 0 and self.capture.status().queued > 1

    def _frame(self, item: Captured) -> None:
        frame = item.frame
        self.view.now_t_s = frame.t_s
        if not self._started:  # frames flow: a pause left by the last run is over
            self._started = True
            self._pause(None)
            state = self.session.state  # no clock before the opening stroke (it fouled
            if state.shots_played or state.config.start is not None:  # a break 40 s on)
                self.referee.start_clock(frame.t_s)
        if self.analyzer is None:
            self._learn(item)
            return
        was_open = self.analyzer.segmenter.is_open
        shots = self.analyzer.feed(frame)
        fed_mono_s = time.monotonic()
        self.metrics.frame_done()
        if not was_open and self.analyzer.segmenter.is_open:  # a stroke started
            self._settle(item, fed_mono_s, now=True)  # a shot still held goes first
            playing = self.session.state.phase is Phase.PLAYING
            self._late = self.clock.stroke(frame.t_s) and playing
            self._tail = frame.t_s < self._armed_t_s
            self.view.show()
        for shot in shots:
            if self._tail:  # balls already rolling when the frames (re)started
                self._tail = False
                self._say(f"motion at {shot.shot.start_s:.1f} s began unseen: not scored")
                continue
            self._settle(item, fed_mono_s, now=True)
            assert self.hold is not None
            assert self.analyzer.last_step is not None
            self.hold.hold(shot, self._late, frame.t_s, self.analyzer.last_step)
        self._settle(item, fed_mono_s)
        self._drift_check(frame)
        self.view.tick(frame.t_s)

    def _settle(self, item: Captured | None, fed_mono_s: float, *, now: bool = False) -> None:
        """Judge the held shot once its balls stopped (``now``: at once, whatever they do)."""
        if self.hold is None or self.analyzer is None:
            return
        t_s, step = self.analyzer.last_t_s, self.analyzer.last_step
        out = self.hold.release(t_s, step) if now else None
        if not now and step is not None:
            out = self.hold.check(t_s, step)
        if out is None:
            return
        held, call = out
        closing = None
        if item is not None:  # timed from the frame the verdict waited for
            shot = held.analyzed.shot
            # The stop as live mode knows it: the frame every ball was seen at rest,
            # else the track's estimate (earlier than the truth: the last creep is slow).
            stop_t_s = t_s if call.strong or shot.end_s is None else shot.end_s
            closing = Closing(item.captured_mono_s, t_s, stop_t_s, taken_mono_s=self._taken_mono_s,
                              fed_mono_s=fed_mono_s, held_s=t_s - held.closed_s)  # fmt: skip
        self.referee.submit(held.analyzed, closing, held.late)

    def _learn(self, item: Captured) -> None:
        """Collect the warm-up frames, then build the analyser and feed them all."""
        self._warmup.append(item)
        first = self._warmup[0].frame
        need = _LEARN_FRAMES if first.t_s < 0.5 else _RESUME_LEARN_FRAMES
        if len(self._warmup) < need:
            return
        learn = self._warmup[-1].frame
        if self.calibration is None:  # checked against the picture before the match starts
            self.calibration = self.calibration_file.load_checked(learn.image_bgr, self._say)
            self._drift = DriftCheck(learn.image_bgr, self.calibration)
        frames = [c.frame.image_bgr for c in self._warmup[-1:0:-10]]  # as carom analyze
        if size := table_size_line(self.calibration, frames, "--table"):
            self._say(size)
        analyzer = self.vision.build(self.calibration, learn, learn, self.capture_fps(), self._say)
        if (device := self.vision.device_line()) is not None:
            remark(self.command, device, out=self.out)
        self.analyzer, warmup, self._warmup = analyzer, self._warmup, []
        self.hold = ShotHold(self.calibration.geometry, self.stop_settings)
        self._catch_up_left = self.capture.status().queued + 1
        # Motion seen within the first window (+ a second) began before the frames did.
        self._armed_t_s = warmup[0].frame.t_s + analyzer.settings.segment.window_s + _SETTLE_S
        for queued in warmup:
            self._frame(queued)

    def capture_fps(self) -> float:
        """The frame rate of the warm-up frames (30 when it cannot be told)."""
        times = [c.frame.t_s for c in self._warmup]
        span = times[-1] - times[0] if len(times) > 1 else 0.0
        return (len(times) - 1) / span if span > 0 else 30.0

    def _finish(self) -> None:
        """The source ended: close a shot still open (review), wait for decisions."""
        self._settle(None, 0.0, now=True)
        if self.analyzer is not None and not self._tail:
            for shot in self.analyzer.finish():
                self.referee.submit(shot, None, self._late)
        self.referee.await_decisions(
            self._commands,
            lambda: not self.keyboard_done,
            console=self.console,
            stopped=self.interrupted.is_set,
            ended="the video ended" if self.capture.is_file else "the camera stopped",
        )
        self._status_line(force=True)

    # --- calls: posted ones, then typed lines ------------------------------------------

    def _commands(self, wait_s: float = 0.0) -> None:
        while True:
            try:
                job = self.posted.get_nowait()
            except queue.Empty:
                break
            self.run_posted(job)
        while True:
            try:
                line = self.lines.get(timeout=wait_s) if wait_s else self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.keyboard_done = True
                return
            self.referee.typed(line)
            wait_s = 0.0

    # --- faults -----------------------------------------------------------------------

    def _watch_capture(self) -> None:
        status = self.capture.status()
        if status.state is CaptureState.LOST and status.queued:
            return  # frames that came before the loss first: a busy loop judges their shot whole
        for line in [*self._camera.update(status, time.monotonic()), *self._board.news()]:
            self._say(line)
        lost = self._camera.lost
        if lost == self._lost:
            return
        self._lost = lost
        if lost:
            self._settle(None, 0.0, now=True)  # its balls had stopped, as far as was seen
            self._lose_open_shot()
            self.analyzer, self._warmup, self._tail = None, [], False  # afresh: balls move unseen
            self.clock.stop()
            self._pause(CAMERA_LOST)
        else:
            self._pause(self.referee.not_scoring)

    def _lose_open_shot(self) -> None:
        if self.analyzer is None or not self.analyzer.segmenter.is_open or self._tail:
            return
        shots = self.analyzer.finish()
        if not shots:  # too little was seen to make a shot of it
            self._say("a stroke was under way when the camera was lost: not scored")
        for analyzed in shots:
            doubt = "the camera was lost during the shot"
            shot = dataclasses.replace(analyzed.shot, doubt=doubt)
            self.referee.submit(dataclasses.replace(analyzed, shot=shot), None, self._late)

    def _drift_check(self, frame: Frame) -> None:
        t_s = frame.t_s
        if self._drift is None or self.drift_every_s <= 0 or t_s < self._drift_next_s:
            return
        assert self.analyzer is not None
        if self.analyzer.segmenter.is_open:
            return  # balls and arms move over the table: check between shots
        self._drift_next_s = t_s + self.drift_every_s
        result = self._drift.check(frame.image_bgr)  # converted only when checked
        self._strikes = self._strikes + 1 if result.moved else 0
        if self._strikes >= _DRIFT_STRIKES and self.referee.not_scoring is None:
            self.referee.not_scoring = result.reason
            self._say(result.reason)
            self._pause(result.reason)

    def _pause(self, why: str | None) -> None:
        if self.session.paused != why:
            self.session.set_paused(why, now_iso=now_iso())

    # --- status -----------------------------------------------------------------------

    def _status_line(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now < self._next_status:
            return
        self._next_status = now + self.status_every_s
        self.metrics.dropped(self.capture.status().frames_dropped)
        summary = self.metrics.summary()
        self._say(summary.line())
        if self.metrics_path is not None:
            write_json_atomic(self.metrics_path, summary.to_json())
        while self.session.sink_errors:  # a sink that failed did not undo the input
            self._say(f"display error: {self.session.sink_errors.pop(0)}")

    def _say(self, text: str) -> None:
        say(self.command, text, out=self.out)
