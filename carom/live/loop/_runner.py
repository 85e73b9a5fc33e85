"""The live processing loop: frames -> analyser -> match session -> scoreboard.

Theory of operation. Three kinds of threads, one owner of the match:

* the capture thread (:class:`~carom.live.Capture`) reads frames and never waits;
* the keyboard thread reads stdin lines and only queues them;
* this loop (the caller's thread) takes each frame through the :class:`vision.Analyzer`,
  hands every closed shot to the :class:`~carom.live.LiveSession` (which writes it
  to SQLite before the state changes), applies the queued keyboard lines, runs the
  shot clock and the periodic drift check, and shows every session update on the
  board: :meth:`hardware.ScoreboardLink.publish` and ``send_event`` return at once,
  so a sick board never stalls the referee.

Faults. A camera silent for ``stall_s`` or failing is *lost*: a shot in progress is
closed with a doubt (it waits for a person's review: nothing is scored from frames
that never came), the match is paused ("camera lost" on the board) and the analyser
starts afresh when frames come back (balls moved while unseen are simply where they
are). A drift check that fails twice in a row pauses scoring until the camera is
re-calibrated: shots seen meanwhile are logged and not scored.
"""

from __future__ import annotations

import collections
import dataclasses
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from calibration import Calibration, DriftCheck, load_calibration
from carom.board import event_of
from carom.files import write_json_atomic
from carom.live._calls import HELP, FoulCall, HelpRequest, ReviewDecision, TimeoutCall, parse_line
from carom.live._capture import Capture, Captured, CaptureState
from carom.live._session import LiveSession, SessionUpdate
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.match import ClockExpiry, ClockReading, ShotClock
from carom.pipeline import VisionPipeline
from carom.timestamps import now_iso
from hardware import EventKind, EventMessage, board_slot, snapshot_from_state
from referee import CaromError, Foul, MatchConfig, Phase
from vision import AnalyzedShot, Analyzer, AnalyzerSettings, SegmentSettings

__all__ = ["LiveRunner", "read_keyboard"]

_LEARN_FRAMES = 30  # as carom analyze: the first frames of a clip are often smeared
_RESUME_LEARN_FRAMES = 5
_DRIFT_STRIKES = 2
_SETTLE_S = 1.0
CAMERA_LOST = "camera lost: the match waits"
TIME_UP = "time up: the stroke is a foul"


def read_keyboard(stream: TextIO, lines: queue.Queue[str | None]) -> threading.Thread:
    """Start a thread putting every line of ``stream`` on ``lines`` (None at the end)."""

    def run() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    thread = threading.Thread(target=run, name="keyboard", daemon=True)
    thread.start()
    return thread


@dataclass(slots=True)
class _Closing:
    """The frame that closed a shot: when it was captured and its time; the stop time."""

    captured_mono_s: float
    close_t_s: float
    stop_t_s: float


class LiveRunner:
    """Runs one live match until a file source ends (a camera runs until stopped).

    Args:
        session: the open match session (resumed or new).
        capture: the started frame capture.
        calibration_path: the calibration file (checked against the frame size).
        config: the match set-up (discipline, players).
        board: where updates are shown.
        clock: the shot clock.
        metrics: live figures.
        metrics_path: a JSON file the figures are written to with every status line.
        segment: segmenter settings for live mode (None: those of ``carom analyze``).
        drift_every_s: seconds of video between drift checks (0: never).
        out: where status lines go (stderr).
    """

    def __init__(
        self,
        session: LiveSession,
        capture: Capture,
        *,
        calibration_path: Path,
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
    ) -> None:
        self.session, self.capture, self.config = session, capture, config
        self.calibration_path = calibration_path
        self.board, self.clock, self.metrics = board, clock, metrics
        self.segment = segment
        self.drift_every_s, self.status_every_s = drift_every_s, status_every_s
        self.metrics_path = metrics_path
        self.detector = detector
        self.out = out or sys.stderr
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.keyboard_done = False
        self.stop = threading.Event()
        self.analyzer: Analyzer | None = None
        self.calibration: Calibration | None = None
        self._drift: DriftCheck | None = None
        self._drift_next_s = 0.0
        self._strikes = 0
        self._drift_reason: str | None = None
        self._lost = False
        self._warmup: list[Captured] = []
        self._closing: _Closing | None = None
        self._reading = ClockReading(None)
        self._started = False
        self._armed_t_s = 0.0
        self._tail = False
        self._shown_paused: str | None = session.paused
        self._backlog: collections.deque[tuple[AnalyzedShot, bool]] = collections.deque()
        self._late = False  # the stroke under way began after the shot clock ran out
        self._hold = False  # a late shot is judged: the board waits for its foul
        self._now_t_s = 0.0
        self._next_status = time.monotonic() + status_every_s
        session.subscribe(self._on_update)

    # --- the loop -----------------------------------------------------------------

    def run(self) -> None:
        """Process frames until the source ends (then wait for a pending review)."""
        self._show(None)
        while not self.stop.is_set():
            self._commands()
            self._watch_capture()
            self.capture.catch_up = self._catching_up()
            item = self.capture.get(0.05)
            if item is None:
                if self.capture.finished:
                    break
                continue
            self._frame(item)
            self._status_line()
        self._finish()

    def _catching_up(self) -> bool:
        """Learning the table (and working off the frames queued meanwhile) drops nothing."""
        if self.analyzer is None:
            return True
        return self.capture.catch_up and self.capture.status().queued > 1

    def _frame(self, item: Captured) -> None:
        frame = item.frame
        self._now_t_s = frame.t_s
        if not self._started:  # frames flow: a pause left by the last run is over
            self._started = True
            self._pause(None)
            self._start_clock(frame.t_s)
        if self.analyzer is None:
            self._learn(item)
            return
        was_open = self.analyzer.segmenter.is_open
        shots = self.analyzer.feed(frame)
        self.metrics.frame_done()
        if not was_open and self.analyzer.segmenter.is_open:  # a stroke started
            playing = self.session.state.phase is Phase.PLAYING
            self._late = self.clock.stroke(frame.t_s) and playing
            self._tail = frame.t_s < self._armed_t_s
            self._show(None)
        for shot in shots:
            if self._tail:  # balls already rolling when the frames (re)started
                self._tail = False
                self._say(f"motion at {shot.shot.start_s:.1f} s began unseen: not scored")
                continue
            stop_t_s = shot.shot.end_s if shot.shot.end_s is not None else frame.t_s
            self._submit(shot, _Closing(item.captured_mono_s, frame.t_s, stop_t_s), self._late)
        self._drift_check(frame.t_s, frame.image_bgr)
        self._tick(frame.t_s)

    def _learn(self, item: Captured) -> None:
        """Collect the warm-up frames, then build the analyser and feed them all."""
        self._warmup.append(item)
        first = self._warmup[0].frame
        need = _LEARN_FRAMES if first.t_s < 0.5 else _RESUME_LEARN_FRAMES
        if len(self._warmup) < need:
            return
        learn = self._warmup[-1].frame
        h, w = learn.image_bgr.shape[:2]
        if self.calibration is None:
            self.calibration = load_calibration(self.calibration_path, expect_size_px=(w, h))
            self._drift = DriftCheck(learn.image_bgr, self.calibration)
        # live segment settings, if any (see docs/live.md)
        settings = None if self.segment is None else AnalyzerSettings(segment=self.segment)
        pipeline = VisionPipeline.for_match(self.config, self.detector, settings)
        analyzer = pipeline.build(self.calibration, learn, learn, self.capture_fps(), self._say)
        self.analyzer, warmup, self._warmup = analyzer, self._warmup, []
        # Motion seen within the first window (+ a second) began before the frames did.
        self._armed_t_s = warmup[0].frame.t_s + analyzer.settings.segment.window_s + _SETTLE_S
        for queued in warmup:
            self._frame(queued)

    def capture_fps(self) -> float:
        """The frame rate of the warm-up frames (30 when it cannot be told)."""
        times = [c.frame.t_s for c in self._warmup]
        span = times[-1] - times[0] if len(times) > 1 else 0.0
        return (len(times) - 1) / span if span > 0 else 30.0

    def _submit(
        self, analyzed: AnalyzedShot, closing: _Closing | None = None, late: bool = False
    ) -> None:
        """Score a shot (``late``: begun after the shot clock ran out, expiry ``foul``).

        While a review waits, shots queue behind it in order.
        """
        shot = analyzed.shot
        if self._drift_reason is not None:
            self._say(f"shot at {shot.start_s:.1f} s not scored: {self._drift_reason}")
            return
        if self.session.pending is not None or self._backlog:
            self._backlog.append((analyzed, late))
            self._say(f"shot at {shot.start_s:.1f} s waits: a review must be decided first")
            return
        self._judge(analyzed, closing, late)

    def _judge(self, analyzed: AnalyzedShot, closing: _Closing | None, late: bool) -> None:
        shot = analyzed.shot
        end_s = shot.end_s if shot.end_s is not None else self._now_t_s
        self._closing = closing  # timed only when judged at once (not after a wait)
        # numbered in the match, not by this process's analyser (which restarts on resume)
        numbered = dataclasses.replace(shot, index=len(self.session.records))
        self._hold = late  # one verdict on the board (the foul), not the shot and then it
        try:
            analyzed = dataclasses.replace(analyzed, shot=numbered)
            self.session.submit(analyzed, video_t_s=end_s, now_iso=now_iso())
            if late:
                self._clock_foul()
        except CaromError as exc:
            self._say(f"shot at {shot.start_s:.1f} s not judged: {exc}")
        finally:
            self._closing, self._hold = None, False
        self._start_clock(end_s)  # all balls stopped: the next player's clock

    def _clock_foul(self) -> None:
        """The shot just judged began after time ran out: the clock calls ``shot_clock``.

        Recorded as a call (``who`` = ``shot clock``), so ``undo`` takes back the foul
        alone, as it does a person's call.
        """
        self._hold = False
        try:
            self.session.call(FoulCall(Foul.SHOT_CLOCK), who="shot clock", now_iso=now_iso())
        except CaromError as exc:
            self._say(f"shot-clock foul not called: {exc}")
            self._show(None)

    def _drain_backlog(self) -> None:
        """After a decision: judge the shots that waited behind the review, in order."""
        while self._backlog and self.session.pending is None:
            analyzed, late = self._backlog.popleft()
            self._judge(analyzed, None, late)

    def _start_clock(self, t_s: float) -> None:
        waiting = self.session.pending is not None or self.session.paused is not None
        if not waiting and self.session.state.phase is not Phase.OVER:
            self.clock.start(t_s)
            self._show(None)

    def _finish(self) -> None:
        """The source ended: close a shot still open (review), wait for decisions."""
        if self.analyzer is not None and not self._tail:
            for shot in self.analyzer.finish():
                self._submit(shot, None, self._late)
        while (self.session.pending is not None or self._backlog) and not self.keyboard_done:
            self._commands(wait_s=0.1)
        self._status_line(force=True)

    # --- keyboard -------------------------------------------------------------------

    def _commands(self, wait_s: float = 0.0) -> None:
        while True:
            try:
                line = self.lines.get(timeout=wait_s) if wait_s else self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.keyboard_done = True
                return
            self._command(line)
            wait_s = 0.0

    def _command(self, line: str) -> None:
        try:
            call = parse_line(line, self.config.players)
            if call is None:
                return
            if isinstance(call, HelpRequest):
                self._say(HELP)
            elif isinstance(call, ReviewDecision):
                self.session.decide(call, who="keyboard", now_iso=now_iso())
                self._drain_backlog()
                self._start_clock(self._now_t_s)
            elif isinstance(call, TimeoutCall):
                self._timeout(call)
            else:
                self.session.call(call, who="keyboard", now_iso=now_iso())
                self._drain_backlog()
        except CaromError as exc:
            self._say(str(exc))

    def _timeout(self, call: TimeoutCall) -> None:
        players = self.config.players
        who = call.player or self.session.state.shooter or players[0]
        used = self.session.timeouts_used()[players.index(who)]
        self.clock.check_extension(who, used, self._now_t_s)  # raises: said by _command
        self.session.call(TimeoutCall(who), who="keyboard", now_iso=now_iso())
        self.clock.extend(self._now_t_s)
        self._show(None)

    # --- faults -----------------------------------------------------------------------

    def _watch_capture(self) -> None:
        status = self.capture.status()
        lost = status.state is CaptureState.LOST
        if lost == self._lost:
            return
        self._lost = lost
        if lost:
            self._say(f"camera lost ({status.last_error}); reconnecting")
            self._lose_open_shot()
            self.analyzer, self._warmup, self._tail = None, [], False  # afresh: balls move unseen
            self.clock.stop()
            self._pause(CAMERA_LOST)
        else:
            self._say("camera back")
            self._pause(self._drift_reason)

    def _lose_open_shot(self) -> None:
        if self.analyzer is None or not self.analyzer.segmenter.is_open or self._tail:
            return
        shots = self.analyzer.finish()
        if not shots:  # too little was seen to make a shot of it
            self._say("a stroke was under way when the camera was lost: not scored")
        for analyzed in shots:
            doubt = "the camera was lost during the shot"
            shot = dataclasses.replace(analyzed.shot, doubt=doubt)
            self._submit(dataclasses.replace(analyzed, shot=shot), None, self._late)

    def _drift_check(self, t_s: float, image: Any) -> None:
        if self._drift is None or self.drift_every_s <= 0 or t_s < self._drift_next_s:
            return
        assert self.analyzer is not None
        if self.analyzer.segmenter.is_open:
            return  # balls and arms move over the table: check between shots
        self._drift_next_s = t_s + self.drift_every_s
        result = self._drift.check(image)
        self._strikes = self._strikes + 1 if result.moved else 0
        if self._strikes >= _DRIFT_STRIKES and self._drift_reason is None:
            self._drift_reason = result.reason
            self._say(result.reason)
            self._pause(result.reason)

    def _pause(self, why: str | None) -> None:
        if self.session.paused != why:
            self.session.set_paused(why, now_iso=now_iso())

    # --- sinks ------------------------------------------------------------------------

    def _tick(self, t_s: float) -> None:
        reading = self.clock.read(t_s)
        if reading == self._reading:
            return
        event = None
        running_out = reading.expired and not self._reading.expired
        playing = self.session.state.phase is Phase.PLAYING  # a lag stroke is never late
        if running_out and playing and self.clock.settings.expiry is ClockExpiry.FOUL:
            event = EventMessage(EventKind.FOUL, self._active(self.session.snapshot()), TIME_UP)
        self._show(event)

    def _on_update(self, update: SessionUpdate) -> None:
        if self._hold:
            return  # the shot-clock foul on this shot follows at once: show that one
        event: EventMessage | None = None
        players = self.config.players
        on_written = None
        if update.record is not None:
            over = update.state.phase is Phase.OVER
            # 3+ players: the shooter had the board's first slot (hardware.board_players)
            shown = players if len(players) == 2 else (update.record.player,)
            event = event_of(update.record, shown, over)
            if self._closing is not None:
                on_written, self._closing = self._latency(self._closing), None
        if update.paused != self._shown_paused:  # paused or resumed: say which
            self._shown_paused = update.paused
            text = update.paused or "scoring again"
            event = EventMessage(EventKind.REVIEW, self._active(update), text)
        elif update.pending is not None:
            event = EventMessage(EventKind.REVIEW, self._active(update), _review_text(update))
        if update.pending is not None:
            self.clock.stop()
        self._show(event, on_written, update)

    def _latency(self, closing: _Closing) -> Callable[[float], None]:
        def done(written_mono_s: float) -> None:
            processing = written_mono_s - closing.captured_mono_s
            stop_to_close = max(0.0, closing.close_t_s - closing.stop_t_s)
            self.metrics.verdict(processing, processing + stop_to_close,
                                 stop_t_s=closing.stop_t_s, at_mono_s=written_mono_s)  # fmt: skip

        return done

    def _active(self, update: SessionUpdate) -> int:
        return board_slot(update.state, update.state.shooter)

    def _show(
        self,
        event: EventMessage | None,
        on_written: Callable[[float], None] | None = None,
        update: SessionUpdate | None = None,
    ) -> None:
        state = update.state if update is not None else self.session.state
        pending = update.pending if update is not None else self.session.pending
        paused = update.paused if update is not None else self.session.paused
        self._reading = self.clock.read(self._now_t_s)
        snapshot = snapshot_from_state(
            state, review=pending is not None or paused is not None,
            shot_clock_s=self._reading.left_s, timeouts=self.session.timeouts_used(),
        )  # fmt: skip
        self.board.show(snapshot, event, on_written)

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
        print(f"carom live: {text}", file=self.out, flush=True)


def _review_text(update: SessionUpdate) -> str:
    reason = update.pending.reason if update.pending is not None else ""
    return f"review: {reason}" if reason else "review: a person decides"
