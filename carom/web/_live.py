"""The camera pipeline behind the web server: live mode's runner in a thread.

Theory of operation. :class:`CameraRig` runs one :class:`carom.live.loop.LiveRunner`
per match in a daemon thread. The runner owns the shot clock and the order of shots
and decisions (shots that arrive while a review waits queue behind it), so a person's
call from the console is not applied on the HTTP thread: :meth:`CameraRig.call` posts
it to the runner's loop (:meth:`LiveRunner.post`), which carries it out between two
frames exactly as a typed keyboard line, and hands back the result or the refusal.
The rig watches the runner through its public hooks: the frames, for the review
replay (:class:`ReplayBuffer`), the shot clock as the board shows it, to tell the
pages when it starts, warns or runs out, and the scoreboard link (:class:`BoardWatch`),
to tell them when the board falls behind or catches up.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration import load_calibration
from carom.board import board_warning
from carom.console import say
from carom.live import Account, Caller, LiveError, LiveSession, PersonCall, ReviewDecision
from carom.live.loop import (
    BoardSink,
    Capture,
    CaptureSettings,
    CaptureState,
    LiveMetrics,
    LiveRunner,
)
from carom.match import ClockReading
from carom.pipeline import CalibrationFile, CalibrationOrigin, check_calibration_table
from carom.web._replay import REPLAY_FPS, ReplayBuffer
from carom.web._state import ClockView, scoreboard_doc
from hardware import LinkState, ScoreboardLink
from referee import CaromError, Table

__all__ = ["BoardWatch", "CameraRig", "ClockWatch"]

_CALL_WAIT_S = 10.0

OnChange = Callable[[Account | None], None]


class ClockWatch:
    """Tells the pages (``on_change``) when the shot clock shown starts, warns or runs out."""

    def __init__(self, on_change: OnChange) -> None:
        self.on_change = on_change
        self._shown: tuple[bool, bool, bool] = (False, False, False)

    def __call__(self, reading: ClockReading) -> None:
        shown = (reading.left_s is not None, reading.warning, reading.expired)
        if shown != self._shown:
            self._shown = shown
            self.on_change(None)


class BoardWatch:
    """Tells the pages (``on_change``) when the board falls behind or catches up.

    Polls the link every ``every_s`` from its own thread until the link stops.
    """

    def __init__(self, link: ScoreboardLink, on_change: OnChange, every_s: float = 0.5) -> None:
        self.link, self.on_change, self.every_s = link, on_change, every_s
        self._thread = threading.Thread(target=self._run, name="board watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        warned = False
        while self.link.status().state is not LinkState.STOPPED:
            time.sleep(self.every_s)
            now = board_warning(self.link.status()) is not None
            if now != warned:
                warned = now
                self.on_change(None)


class CameraRig:
    """The camera (or video file) of the table and the runner of the match on it."""

    can_start = True  # a match created on the console starts the pipeline

    def __init__(self, source: str, calibration: Path | None, *, pace: float = 1.0,
                 status_every_s: float = 60.0, drift_every_s: float = 0.0) -> None:  # fmt: skip
        self.source, self.calibration, self.pace = source, calibration, pace
        self.status_every_s, self.drift_every_s = status_every_s, drift_every_s
        self.runner: LiveRunner | None = None
        self.replay = ReplayBuffer()
        self.capture: Capture | None = None
        self._thread: threading.Thread | None = None
        self.error: str | None = None
        self._jpegs: tuple[list[np.ndarray], list[bytes]] | None = None

    @property
    def running(self) -> bool:
        """True while the pipeline's thread runs (a file source stops at its end)."""
        return self._thread is not None and self._thread.is_alive()

    def check(self, table: Table) -> Path:
        """The camera's calibration file, if there is one and it is of ``table``'s size.

        Raises:
            LiveError: no calibration (yet), or one unreadable or made for a table of
                another size: positions would be mapped onto one table and judged on
                the other.
        """
        if self.calibration is None:
            raise LiveError("the camera has no calibration; restart with --calibration FILE")
        if not self.calibration.exists():
            raise LiveError(f"the camera has no calibration yet: mark the table's corners in "
                            f"the wizard (/wizard) and save ({self.calibration})")  # fmt: skip
        try:
            check_calibration_table(
                load_calibration(self.calibration), table, self.calibration,
                "the camera's calibration", set_by="the match's table",
                fix='give the match "table": "{size}", or calibrate again in the wizard',
            )  # fmt: skip
        except CaromError as exc:
            raise LiveError(str(exc)) from None
        return self.calibration

    def start(self, session: LiveSession, setup: Any, *, on_change: OnChange) -> None:
        """Start the pipeline on ``session`` (a video file resumes after the last shot)."""
        self.stop()
        calibration = self.check(setup.config.table)
        start_s = session.resume_video_t_s or 0.0
        capture = Capture(self.source, CaptureSettings(pace=self.pace, start_s=start_s))
        self.replay = ReplayBuffer()
        session.subscribe(self.replay.on_update)  # before the board: the replay is ready
        runner = LiveRunner(
            session, capture.start(),
            calibration_file=CalibrationFile(calibration, CalibrationOrigin.SERVER),
            config=setup.config,
            board=BoardSink(None), clock=setup.clock(), metrics=LiveMetrics(),
            status_every_s=self.status_every_s, drift_every_s=self.drift_every_s,
            command="serve",
        )  # fmt: skip
        self.watch(runner, on_change)
        self.capture, self.runner, self.error = capture, runner, None
        self._thread = threading.Thread(target=self._run, args=(runner, capture, on_change),
                                        name="camera pipeline", daemon=True)  # fmt: skip
        self._thread.start()

    def watch(self, runner: LiveRunner, on_change: OnChange) -> None:
        """Keep ``runner``'s frames for the replay; tell ``on_change`` of clock changes."""
        runner.observe_frames(self.replay.keep_frame)
        runner.view.observe(ClockWatch(on_change))
        if runner.view.board.link is not None:
            BoardWatch(runner.view.board.link, on_change)

    def _run(self, runner: LiveRunner, capture: Capture, on_change: OnChange) -> None:
        try:
            runner.run()
            what = Account("video_ended" if capture.is_file else "camera_stopped")
        except CaromError as exc:
            self.error = str(exc)
            what = Account("pipeline_stopped", {"error": str(exc)})
            say("serve", f"camera pipeline stopped: {exc}; the match is kept: once it is "
                "mended (the wizard saves a new fit), close the match and start it again in "
                "the console, which resumes it", level=logging.ERROR)  # fmt: skip
        finally:
            capture.stop()
        if not runner.stop.is_set():
            on_change(what)

    def stop(self) -> None:
        """Stop the pipeline (the match stays as committed).

        As Ctrl-C stops ``carom live``: the shot under way is not judged from half its
        frames, and a review waiting is kept to be asked again on resume. (A match
        closed mid-shot had the shot held with "the video ended before every ball
        stopped" and the server said to decide it at a keyboard it does not have.)
        """
        runner, thread = self.runner, self._thread
        if runner is not None:
            runner.close()  # also ends a wait for a review decision
        if thread is not None:
            thread.join(10.0)
        self._thread = None

    def call(self, call: PersonCall | ReviewDecision) -> None:
        """Apply a person's call on the runner's thread; raises its refusal."""
        runner = self.runner
        if runner is None:
            raise LiveError("the camera pipeline has not started; create a match first")
        job = runner.post(call, who=Caller.WEB)
        for _ in range(int(_CALL_WAIT_S / 0.05)):
            if job.done.wait(0.05):
                break
            if not self.running:  # the loop ended: nobody else takes it now
                try:
                    runner.run_posted(runner.posted.get_nowait())
                except queue.Empty:
                    job.done.wait(1.0)
        if not job.done.is_set():
            raise LiveError("the camera pipeline did not take the call in time; try again")
        if job.error is not None:
            raise job.error

    def status(self) -> str:
        """``"ok"``, ``"lost"``, ``"ended"`` or ``"error"`` (stopped on :attr:`error`)."""
        if not self.running or self.capture is None:
            if self.runner is None:
                return "ok"
            return "error" if self.error is not None else "ended"
        state = self.capture.status().state
        if state is CaptureState.ENDED:  # a video file ended, a review still waiting: not "ok"
            return "ended"
        return "lost" if state is CaptureState.LOST else "ok"

    def scoreboard_doc(self) -> dict[str, Any] | None:
        """The STATE ``scoreboard`` object of the runner's board (None: no board)."""
        link = self.runner.view.board.link if self.runner is not None else None
        return scoreboard_doc(None if link is None else link.status())

    def clock_view(self) -> ClockView | None:
        """The runner's shot clock (None when it is off)."""
        runner = self.runner
        if runner is None or not runner.clock.settings.enabled:
            return None
        r, settings = runner.view.reading, runner.clock.settings
        left = float(r.left_s) if r.left_s is not None else settings.length_s
        return ClockView(left, r.left_s is not None, r.warning, r.expired, str(settings.expiry))

    def replay_jpegs(self) -> tuple[float, list[bytes]]:
        """The pending shot's frames as JPEG bytes (empty: no review, or no frames)."""
        if self.runner is None:
            return REPLAY_FPS, []
        fps, images = self.replay.replay
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
