"""Live mode's referee desk: shots and a person's calls applied to the session in one order.

Everything here runs on the loop's thread. A closed shot is judged at once unless a
review waits (then shots queue behind it, in order) or the drift check stopped
scoring; a person's call (typed, or from the web console) is applied between two
frames, exactly as it came. The shot clock starts when the balls stop and the next
player may aim; a stroke begun after time ran out is the foul ``shot_clock`` when the
clock's expiry says so, recorded as a call so ``undo`` takes it back alone.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable

from carom.live import (
    HELP,
    Caller,
    FoulCall,
    HelpRequest,
    LiveSession,
    PersonCall,
    ReviewDecision,
    TimeoutCall,
    parse_line,
    undid_timeout,
)
from carom.live.loop._board import BoardView, Closing
from carom.match import ShotClock
from carom.timestamps import now_iso
from referee import CaromError, Foul, Phase
from vision import AnalyzedShot

__all__ = ["LiveReferee"]


class LiveReferee:
    """Judges shots and applies calls for one live match (see the module's text).

    ``not_scoring``: why shots are not scored now (a failed drift check), else None.
    """

    def __init__(
        self,
        session: LiveSession,
        clock: ShotClock,
        view: BoardView,
        players: tuple[str, ...],
        say: Callable[[str], None],
    ) -> None:
        self.session, self.clock, self.view, self.say = session, clock, view, say
        self.players = players
        self.not_scoring: str | None = None
        self.backlog: collections.deque[tuple[AnalyzedShot, bool]] = collections.deque()

    @property
    def waiting(self) -> bool:
        """A review waits for a person, or shots wait behind one."""
        return self.session.pending is not None or bool(self.backlog)

    def await_decisions(
        self, take_calls: Callable[[float], None], keyboard_open: Callable[[], bool],
        *, console: bool, stopped: Callable[[], bool], ended: str = "the video ended",
    ) -> None:  # fmt: skip
        """The source ended: wait for the decisions while anyone can give them.

        ``take_calls(wait_s)`` takes the calls that came, typed or (``console``: a web
        console serves the match) posted. A review nobody can decide any more (the
        keyboard closed, no console) is said, not dropped without a word: the same
        command resumes the match and asks again. ``stopped``: Ctrl-C or SIGTERM;
        ``ended``: what ended (the video, or the camera stopped).
        """
        if not self.waiting:
            return
        where = "at the keyboard" + (" or in the web console" if console else "")
        self.say(f"{ended}; {self._waiting_shot()} waits for review: decide it {where}")
        while self.waiting and not stopped() and (console or keyboard_open()):
            take_calls(0.1)
        if self.waiting and not stopped():
            self.say(f"{self._waiting_shot()} still waits for review and nobody can decide it "
                     "here (the keyboard is closed); the same command resumes the match and "
                     "asks again")  # fmt: skip

    def typed(self, line: str) -> None:
        """A line typed at the keyboard: a call applied, ``help`` answered, a refusal said."""
        try:
            call = parse_line(line, self.players)
            if call is None:
                return
            if isinstance(call, HelpRequest):
                self.say(HELP)
            else:
                self.apply(call, who=Caller.KEYBOARD)
        except CaromError as exc:
            self.say(str(exc))

    def _waiting_shot(self) -> str:
        pending = self.session.pending
        return "a shot" if pending is None else f"shot {pending.record.index}"

    def submit(
        self, analyzed: AnalyzedShot, closing: Closing | None = None, late: bool = False
    ) -> None:
        """Score a shot (``late``: begun after the shot clock ran out, expiry ``foul``)."""
        shot = analyzed.shot
        if self.not_scoring is not None:
            self.say(f"shot at {shot.start_s:.1f} s not scored: {self.not_scoring}")
            return
        if self.waiting:
            self.backlog.append((analyzed, late))
            self.say(f"shot at {shot.start_s:.1f} s waits: a review must be decided first")
            return
        self._judge(analyzed, closing, late)

    def apply(self, call: PersonCall | ReviewDecision, who: str) -> None:
        """A person's call or review decision; raises its refusal (CaromError), nothing changed."""
        if isinstance(call, ReviewDecision):
            self.session.decide(call, who=who, now_iso=now_iso())
            self.drain_backlog()
            self.start_clock(self.view.now_t_s)
        elif isinstance(call, TimeoutCall):
            self._timeout(call, who)
        else:
            update = self.session.call(call, who=who, now_iso=now_iso())
            if undid_timeout(update.account):
                self.clock.retract()
                self.view.show()
            self.drain_backlog()

    def start_clock(self, t_s: float) -> None:
        """All balls stopped: the next player's clock runs (not while a review or pause waits)."""
        waiting = self.session.pending is not None or self.session.paused is not None
        if not waiting and self.session.state.phase is not Phase.OVER:
            self.clock.start(t_s)
            self.view.show()

    def drain_backlog(self) -> None:
        """After a decision: judge the shots that waited behind the review, in order."""
        while self.backlog and self.session.pending is None:
            analyzed, late = self.backlog.popleft()
            self._judge(analyzed, None, late)

    def _judge(self, analyzed: AnalyzedShot, closing: Closing | None, late: bool) -> None:
        shot = analyzed.shot
        end_s = shot.end_s if shot.end_s is not None else self.view.now_t_s
        self.view.closing = closing  # timed only when judged at once (not after a wait)
        # numbered in the match, not by this process's analyser (which restarts on resume)
        numbered = dataclasses.replace(shot, index=len(self.session.records))
        self.view.hold = late  # one verdict on the board (the foul), not the shot and then it
        try:
            analyzed = dataclasses.replace(analyzed, shot=numbered)
            self.session.submit(analyzed, video_t_s=end_s, now_iso=now_iso())
            if late:
                self._clock_foul()
        except CaromError as exc:
            self.say(f"shot at {shot.start_s:.1f} s not judged: {exc}")
        finally:
            self.view.closing, self.view.hold = None, False
        self.start_clock(end_s)  # all balls stopped: the next player's clock

    def _clock_foul(self) -> None:
        """The shot just judged began after time ran out: the clock calls ``shot_clock``.

        Recorded as a call (``who`` = ``shot clock``), so ``undo`` takes back the foul
        alone, as it does a person's call.
        """
        self.view.hold = False
        try:
            self.session.call(FoulCall(Foul.SHOT_CLOCK), who=Caller.SHOT_CLOCK, now_iso=now_iso())
        except CaromError as exc:
            self.say(f"shot-clock foul not called: {exc}")
            self.view.show()

    def _timeout(self, call: TimeoutCall, who: str) -> None:
        players = self.players
        player = call.player or self.session.state.shooter or players[0]
        used = self.session.timeouts_used()[players.index(player)]
        self.clock.check_extension(player, used, self.view.now_t_s)  # raises: nothing changed
        self.session.call(TimeoutCall(player), who=who, now_iso=now_iso())
        self.clock.extend(self.view.now_t_s)
        self.view.show()
