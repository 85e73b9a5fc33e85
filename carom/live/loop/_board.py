"""What live mode shows on the scoreboard: the session with the shot clock, one event per change.

The view is fed from the loop's thread only: every committed session change
(:meth:`BoardView.on_update`, subscribed to the session), every clock tick and every
call that changes what the board should say. :meth:`hardware.ScoreboardLink.publish`
and ``send_event`` (behind :class:`BoardSink`) return at once, so a sick board never
stalls the referee. Observers (the web's clock watcher) hear the clock as shown.
At the end, :meth:`BoardView.confirm_final` waits (bounded) for the board to
acknowledge the final state (:func:`carom.board.confirm_final`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from carom.board import FinalBoard, confirm_final, event_of
from carom.live import LiveSession, SessionUpdate
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.match import ClockExpiry, ClockReading, ShotClock
from hardware import EventKind, EventMessage, board_slot, snapshot_from_state
from referee import Phase

__all__ = ["TIME_UP", "BoardView", "Closing"]

TIME_UP = "time up: the stroke is a foul"

ClockObserver = Callable[[ClockReading], None]


@dataclass(slots=True)
class Closing:
    """The frame a verdict waited for (its balls stopped) and the shot's stop time.

    ``captured_mono_s``: when the frame was captured (monotonic s; a replayed file's
    frame: when it was due); ``close_t_s``: its time (video s); ``stop_t_s``: the
    track's estimate of the last ball's stop (the shot's ``end_s``); ``taken_mono_s``
    and ``fed_mono_s``: when the loop took the frame and when the analyser was done
    with it (0: not timed); ``held_s``: how long the closed shot waited for its balls
    to stop (video s).
    """

    captured_mono_s: float
    close_t_s: float
    stop_t_s: float
    taken_mono_s: float = 0.0
    fed_mono_s: float = 0.0
    held_s: float = 0.0


class BoardView:
    """The board's side of one live match.

    ``now_t_s`` is the video time of the newest frame (the clock is read at it);
    ``closing``: the shot being judged now, timed from its frame to the board's bytes;
    ``hold``: a late shot is being judged, so the board waits for its clock foul.
    """

    def __init__(
        self,
        session: LiveSession,
        board: BoardSink,
        clock: ShotClock,
        metrics: LiveMetrics,
        players: tuple[str, ...],
    ) -> None:
        self.session, self.board, self.clock, self.metrics = session, board, clock, metrics
        self.players = players
        self.now_t_s = 0.0
        self.reading = ClockReading(None)
        self.closing: Closing | None = None
        self.hold = False
        self._shown_paused: str | None = session.paused
        self._observers: list[ClockObserver] = []
        session.subscribe(self.on_update)

    def observe(self, fn: ClockObserver) -> None:
        """Call ``fn`` with the clock reading after everything shown."""
        self._observers.append(fn)

    def show(
        self,
        event: EventMessage | None = None,
        on_written: Callable[[float], None] | None = None,
        update: SessionUpdate | None = None,
    ) -> None:
        """The snapshot now (after ``update``, if given) and ``event`` on the board."""
        state = update.state if update is not None else self.session.state
        pending = update.pending if update is not None else self.session.pending
        paused = update.paused if update is not None else self.session.paused
        self.reading = self.clock.read(self.now_t_s)
        snapshot = snapshot_from_state(
            state, review=pending is not None or paused is not None,
            shot_clock_s=self.reading.left_s, timeouts=self._timeouts_left(),
        )  # fmt: skip
        self.board.show(snapshot, event, on_written)
        for fn in self._observers:
            fn(self.reading)

    def _timeouts_left(self) -> tuple[int, ...]:
        """The time-outs (extensions) each player has left this game, in the order of play.

        The protocol's fields 12 and 13 are what is left (docs/scoreboard-protocol.md);
        the board showed those used (0, then 1 and 2, counting the wrong way). 0 each
        without a shot clock.
        """
        settings = self.clock.settings
        allowed = settings.extensions if settings.enabled else 0
        return tuple(max(allowed - used, 0) for used in self.session.timeouts_used())

    def confirm_final(
        self, timeout_s: float, waiting: Callable[[str], None] | None = None
    ) -> FinalBoard:
        """The board acknowledged the final state within ``timeout_s`` (or there is none).

        The link keeps resending it meanwhile, and a board that comes back gets it at
        once; ``waiting`` hears when it is waited for (:func:`carom.board.confirm_final`).
        """
        return confirm_final(self.board.link, timeout_s, waiting)

    def tick(self, t_s: float) -> None:
        """Show the clock when its reading changed (time up is a foul message, if so set)."""
        reading = self.clock.read(t_s)
        if reading == self.reading:
            return
        event = None
        running_out = reading.expired and not self.reading.expired
        playing = self.session.state.phase is Phase.PLAYING  # a lag stroke is never late
        if running_out and playing and self.clock.settings.expiry is ClockExpiry.FOUL:
            event = EventMessage(EventKind.FOUL, self._active(self.session.snapshot()), TIME_UP)
        self.show(event)

    def on_update(self, update: SessionUpdate) -> None:
        """A committed change: the new state and what happened (verdict, review, pause)."""
        if self.hold:
            return  # the shot-clock foul on this shot follows at once: show that one
        event: EventMessage | None = None
        on_written = None
        if update.record is not None:
            over = update.state.phase is Phase.OVER
            # 3+ players: the shooter had the board's first slot (hardware.board_players)
            shown = self.players if len(self.players) == 2 else (update.record.player,)
            decided = update.account is not None and update.account.key == "review"
            event = event_of(update.record, shown, over, decided=decided)
            if update.account is None or update.account.key in ("shot", "review"):
                self.metrics.shot_judged()  # one a decision released too (went uncounted)
            if self.closing is not None:
                on_written, self.closing = self._latency(self.closing), None
        if update.paused != self._shown_paused:  # paused or resumed: say which
            self._shown_paused = update.paused
            text = update.paused or "scoring again"
            event = EventMessage(EventKind.REVIEW, self._active(update), text)
        elif update.pending is not None:
            event = EventMessage(EventKind.REVIEW, self._active(update), _review_text(update))
        if update.pending is not None:
            self.clock.stop()
        self.show(event, on_written, update)

    def _latency(self, closing: Closing) -> Callable[[float], None]:
        def done(written_mono_s: float) -> None:
            processing = written_mono_s - closing.captured_mono_s
            stop_to_close = max(0.0, closing.close_t_s - closing.stop_t_s)
            self.metrics.verdict(
                processing, processing + stop_to_close, stop_t_s=closing.stop_t_s,
                at_mono_s=written_mono_s, close_t_s=closing.close_t_s,
                captured_mono_s=closing.captured_mono_s, taken_mono_s=closing.taken_mono_s,
                fed_mono_s=closing.fed_mono_s, held_s=closing.held_s,
            )  # fmt: skip

        return done

    @staticmethod
    def _active(update: SessionUpdate) -> int:
        return board_slot(update.state, update.state.shooter)


def _review_text(update: SessionUpdate) -> str:
    reason = update.pending.reason if update.pending is not None else ""
    return reason or "a person decides"
