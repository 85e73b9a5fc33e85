"""The one table the server referees: its live session, shot clock, camera and versions.

Theory of operation. A :class:`Table` holds at most one :class:`carom.live.LiveSession`
(the match on the table) and the :class:`carom.live.MatchStore` it is journalled in.
Inputs (a person's calls from the console, analysed shots from the camera pipeline or
from :meth:`Table.submit_shot`) go to the session, which checks them and writes them
before anything changes; a refused input raises and leaves the database untouched.
Every committed change reaches :meth:`Table._on_update` (a session sink, on the
committing thread), which only queues a note for the *publisher* thread: that thread
alone numbers the STATE versions, builds the STATE document and hands it to the SSE
:class:`~carom.web._sse.Broadcaster`. So versions are strictly increasing, the last
published state is always the newest, and no HTTP client can slow the commit path.
A writer waits for its own change to be published (:meth:`Table._published`) so that
the STATE it answers carries the version that the overlays get too.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from carom.live import (
    Account,
    Caller,
    FoulCall,
    LiveError,
    LiveSession,
    LiveSetup,
    MatchStore,
    PersonCall,
    ReviewDecision,
    SessionUpdate,
    TimeoutCall,
    undid_timeout,
)
from carom.match import ClockSettings, MatchFile, ShotClock
from carom.timestamps import now_iso
from carom.web._paused import account_doc
from carom.web._sse import Broadcaster, Message, sse_bytes
from carom.web._state import ClockView, state_doc
from referee import Foul, MatchConfig, Phase

if TYPE_CHECKING:
    from carom.web._live import CameraRig
    from vision import AnalyzedShot

__all__ = ["ConflictError", "MatchSetup", "Table"]

MANUAL_SOURCE = "console"
_PUBLISH_WAIT_S = 5.0


class ConflictError(LiveError):
    """The request does not fit the table's state now (HTTP 409)."""


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """A new match: the referee set-up plus the shot clock and time-outs.

    ``clock_settings`` is the match file's ``[clock]``; its ``extensions`` are the
    time-outs per player per game.
    """

    config: MatchConfig
    clock_settings: ClockSettings = field(default_factory=ClockSettings)

    @property
    def timeouts_per_game(self) -> int:
        """Time-outs per player per game."""
        return self.clock_settings.extensions

    def clock(self) -> ShotClock:
        """A fresh shot clock for this match."""
        return ShotClock(self.clock_settings)


@dataclass(slots=True)
class _Note:
    """A change for the publisher: ``what`` happened (None: keep the last line)."""

    what: Account | None
    barrier: bool = False  # only wait for what was queued before: publish nothing new
    done: threading.Event | None = None
    doc: dict[str, Any] = field(default_factory=dict)


class Table:
    """One billiard table: the match on it, its clock and camera, and its STATE versions."""

    def __init__(self, store: MatchStore, broadcaster: Broadcaster,
                 rig: CameraRig | None = None) -> None:  # fmt: skip
        self.store, self.broadcaster, self.rig = store, broadcaster, rig
        self.now: Callable[[], float] = time.monotonic  # the console clock's time (s)
        self.session: LiveSession | None = None
        self.setup: MatchSetup | None = None
        self.default_match: MatchFile | None = None  # ``carom serve --match``: the form's
        self.clock: ShotClock | None = None  # the console's clock (no camera)
        self._lock = threading.RLock()  # one writer at a time (calls, new match, close)
        self._inbox: queue.Queue[_Note | None] = queue.Queue()
        self._version = 0
        self._what = Account("no_match")
        self._doc: dict[str, Any] = {}
        self._publisher: threading.Thread | None = None
        self._build()

    # --- lifetime ---

    def start(self) -> None:
        """Start publishing (the app's start-up)."""
        if self._publisher is None:
            self._publisher = threading.Thread(target=self._publish_loop, name="web publisher",
                                               daemon=True)  # fmt: skip
            self._publisher.start()
            self._published(_Note(Account("server_started")))

    def close(self) -> None:
        """Stop the camera pipeline and the publisher; end the SSE streams."""
        if self.rig is not None:
            self.rig.stop()
        if self._publisher is not None:
            self._inbox.put(None)
            self._publisher.join(5.0)
            self._publisher = None
        self.broadcaster.close()

    # --- reading ---

    @property
    def version(self) -> int:
        """The STATE version last published."""
        return self._version

    def state(self) -> dict[str, Any]:
        """The current STATE (its shot clock read now)."""
        doc = dict(self._doc)
        if doc.get("match") is not None:
            doc["match"] = dict(doc["match"]) | {"shot_clock": self._clock_doc()}
        return doc

    def replay(self) -> tuple[float, list[bytes]]:
        """The pending shot's replay: frames a second and JPEG frames (none: no camera)."""
        if self.rig is None or self.session is None or self.session.pending is None:
            return 10.0, []
        return self.rig.replay_jpegs()

    def camera(self) -> str:
        """``"none"`` (no camera), ``"ok"``, ``"lost"`` or ``"ended"`` (a video file ended)."""
        return "none" if self.rig is None else self.rig.status()

    # --- writing ---

    def create_match(self, setup: MatchSetup) -> dict[str, Any]:
        """Put a new match on the table (an unfinished one of the same set-up resumes).

        Raises:
            ConflictError: a match is being played on the table.
            LiveError: the camera has no calibration, or one of another table's size.
        """
        with self._lock:
            if self.rig is not None and not self.rig.can_start:
                raise ConflictError("carom live referees this table; start a new match with a "
                                    "new carom live command")  # fmt: skip
            old = self.session
            if old is not None and old.state.phase is not Phase.OVER:
                raise ConflictError(
                    f"match {old.match_id} is being played; finish it or close it first "
                    "(POST /api/matches/close)"
                )
            if self.rig is not None:
                self.rig.check(setup.config.table)  # before a match is opened that cannot run
                self.rig.stop()
            if self.rig is None:
                live_setup = LiveSetup(setup.config, MANUAL_SOURCE, setup.timeouts_per_game)
            else:
                live_setup = LiveSetup.seen_by(setup.config, self.rig.source,
                                               setup.timeouts_per_game)  # fmt: skip
            session = LiveSession.open(self.store, live_setup, now_iso=now_iso())
            self._attach(session, setup)
            how = "resumed" if session.resumed else "new"
            said = Account("match_started", {"how": how, "id": session.match_id})
            return self._published(_Note(said))

    def adopt(self, session: LiveSession, setup: MatchSetup) -> None:
        """Show a session run by someone else (``carom live --serve``)."""
        with self._lock:
            session.subscribe(lambda u: self._on_update(session, u))
            self.session, self.setup, self.clock = session, setup, None
        self.poke(Account("match_from_live", {"id": session.match_id}))

    def _attach(self, session: LiveSession, setup: MatchSetup) -> None:
        session.subscribe(lambda u: self._on_update(session, u))
        self.session, self.setup = session, setup
        self.clock = setup.clock() if self.rig is None else None
        if self.rig is not None:
            self.rig.start(session, setup, on_change=self.poke)
        else:
            self._restart_clock(session)

    def close_match(self) -> dict[str, Any]:
        """Take the match off the table (it stays in the database, resumable)."""
        with self._lock:
            if self.session is None:
                raise ConflictError("no match on the table; create one with POST /api/matches")
            if self.rig is not None and not self.rig.can_start:
                raise ConflictError("carom live referees this match; stop carom live instead")
            if self.rig is not None:
                self.rig.stop()
            said = Account("match_closed", {"id": self.session.match_id})
            self.session.release()  # another process may referee it now
            self.session, self.setup, self.clock = None, None, None
            return self._published(_Note(said))

    def call(self, call: PersonCall | ReviewDecision) -> dict[str, Any]:
        """Apply a person's call or review decision; the new STATE.

        Raises:
            ConflictError: no match on the table.
            CaromError: the match does not take this call now (nothing changed).
        """
        with self._lock:
            session = self.need_session()
            if self.rig is not None and self.rig.running:
                self.rig.call(call)  # on the pipeline's thread (it owns the clock)
            else:
                self._manual_call(session, call)
            return self._published(_Note(None, barrier=True))

    def _manual_call(self, session: LiveSession, call: PersonCall | ReviewDecision) -> None:
        who, now = Caller.WEB, now_iso()
        if isinstance(call, ReviewDecision):
            session.decide(call, who=who, now_iso=now)
            self._restart_clock(session)
            return
        if isinstance(call, TimeoutCall) and self.clock is not None:
            player = call.player or session.state.shooter or ""
            players = session.state.config.players
            used = session.timeouts_used()[players.index(player)] if player in players else 0
            if self.clock.settings.enabled:
                self.clock.check_extension(player, used, self.now())
            session.call(call, who=who, now_iso=now)
            self.clock.extend(self.now())
            return
        update = session.call(call, who=who, now_iso=now)
        if undid_timeout(update.account) and self.clock is not None:
            self.clock.retract()  # the time-out's seconds go back with it
            return
        if not isinstance(call, TimeoutCall):
            # By hand the points, turns and fouls entered are the strokes' outcomes: the
            # next stroke's time starts (as a camera's clock does when the balls stop).
            self._restart_clock(session)

    def submit_shot(
        self, analyzed: AnalyzedShot, *, video_t_s: float | None = None
    ) -> dict[str, Any]:
        """Judge an analysed shot on the console's match (no camera); the new STATE.

        Raises:
            ConflictError: no match, or the camera pipeline feeds this table.
            CaromError: the session refuses the shot (a review waits, the match is over).
        """
        with self._lock:
            session = self.need_session()
            if self.rig is not None:
                raise ConflictError("the camera pipeline scores this table's shots")
            late = self.clock is not None and self.clock.stroke(self.now())
            late = late and session.state.phase is Phase.PLAYING
            try:
                session.submit(analyzed, video_t_s=video_t_s, now_iso=now_iso())
                if late:  # begun after time ran out, expiry "foul": as live mode's clock
                    session.call(
                        FoulCall(Foul.SHOT_CLOCK), who=Caller.SHOT_CLOCK, now_iso=now_iso()
                    )
            finally:
                self._restart_clock(session)
            return self._published(_Note(None, barrier=True))

    def _restart_clock(self, session: LiveSession) -> None:
        if self.clock is None:
            return
        waiting = session.pending is not None or session.paused is not None
        if waiting or session.state.phase is not Phase.PLAYING:
            self.clock.stop()
        else:
            self.clock.start(self.now())

    def need_session(self) -> LiveSession:
        if self.session is None:
            raise ConflictError("no match on the table; create one with POST /api/matches")
        return self.session

    def poke(self, what: Account | None = None) -> None:
        """Something outside the session changed (clock, camera): publish a new STATE."""
        self._inbox.put(_Note(what))

    # --- publishing ---

    def _on_update(self, session: LiveSession, update: SessionUpdate) -> None:
        """A session sink: runs on the committing thread, so it only queues a note."""
        if session is self.session:
            self._inbox.put(_Note(update.account or Account("text", {"text": update.what})))

    def _published(self, note: _Note) -> dict[str, Any]:
        """Queue ``note`` and wait until the publisher has sent it; the STATE it sent."""
        note.done = threading.Event()
        self._inbox.put(note)
        if self._publisher is None or not note.done.wait(_PUBLISH_WAIT_S):
            return self.state()
        return note.doc

    def _publish_loop(self) -> None:
        while (note := self._inbox.get()) is not None:
            try:
                if note.what is not None:
                    self._what = note.what
                note.doc = self._doc if note.barrier else self._build()
            finally:
                if note.done is not None:
                    note.done.set()

    def _build(self) -> dict[str, Any]:
        session = self.session
        what = self._what.english
        update = session.snapshot(what) if session is not None else None
        records = session.records if session is not None else ()
        self._version += 1
        doc = state_doc(
            version=self._version, what=what, what_parts=account_doc(self._what),
            camera=self.camera(),
            match_id=None if session is None else session.match_id, update=update,
            records=records, clock=self._clock_view(),
            scoreboard=None if self.rig is None else self.rig.scoreboard_doc(),
        )  # fmt: skip
        self._doc = doc
        text = json.dumps(doc, separators=(",", ":"))
        self.broadcaster.publish(Message(self._version, sse_bytes(self._version, text)))
        return doc

    def _clock_view(self) -> ClockView | None:
        if self.rig is not None and self.rig.running:
            return self.rig.clock_view()
        clock = self.clock
        if clock is None or not clock.settings.enabled:
            return None
        reading = clock.read(self.now())
        left = float(reading.left_s) if reading.left_s is not None else clock.settings.length_s
        return ClockView(left, reading.left_s is not None, reading.warning, reading.expired,
                         str(clock.settings.expiry))  # fmt: skip

    def _clock_doc(self) -> dict[str, Any] | None:
        view = self._clock_view()
        return None if view is None else view.doc()
