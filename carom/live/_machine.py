"""The journal machine: turns journal entries into referee inputs, live and on replay.

Theory of operation. Each journal entry (``kind`` + JSON ``payload``) is first
*planned*: the machine works out the referee inputs it means (a lag, a shot, undo,
a correction), checks them with the referee's pure transitions (``apply_shot`` and
friends) on the current state, and returns a :class:`Plan` without changing
anything. Illegal input raises here. Only then is the entry written to the database
(by the session) and the plan *executed* on the referee's :class:`Match`. Replay
after a crash runs the very same plan-and-execute on each stored entry, so the
resumed state is the live state by construction.

A person's undo takes back the last *action* (one entry's effect): a foul called on
the last shot took the shot back and played it again with the call, so undoing the
call plays the original shot again; undoing a review decision holds the shot for
review again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from carom.live._account import Account, correction_account, lag_account, shot_account
from carom.live._calls import DecisionKind
from carom.live._codec import correction_from_json, shot_from_doc
from carom.live._steps import (
    Action,
    CorrectStep,
    Decided,
    Info,
    JoinStep,
    LagStep,
    Op,
    PendingReview,
    Plan,
    PlayStep,
    ReviewPending,
    Step,
    UndoStep,
)
from carom.live._store import LiveError
from referee import (
    Call,
    Correction,
    CorrectionKind,
    Foul,
    Lag,
    LagResult,
    Match,
    MatchConfig,
    MatchState,
    Phase,
    Shot,
    ShotRecord,
    StartState,
    apply_correction,
    apply_join,
    apply_lag,
    apply_shot,
    call_fouls,
    reason_json,
)

__all__ = ["Machine"]


class Machine:
    """The referee's match plus what live mode adds: pending review, time-outs, pause."""

    def __init__(self, config: MatchConfig, timeouts_per_game: int | None = None) -> None:
        self.match = Match(config)
        self.timeouts_per_game = timeouts_per_game
        self.before: list[MatchState] = []
        self.ops: list[Op] = []
        self.actions: list[Action] = []
        self.pending: PendingReview | None = None
        self.timeouts: Mapping[tuple[int, str], int] = {}
        self.paused: str | None = None
        self.lag: LagResult | None = None
        self.resume_video_t_s: float | None = None

    # --- planning (no change) ---

    def plan(
        self, kind: str, payload: Mapping[str, Any], paths: bytes | None, seq: int | None = None,
        *, who: str | None = None, at: str | None = None,
    ) -> Plan:  # fmt: skip
        """Check an entry (journal ``seq``) against the current state; CaromError if illegal.

        ``who`` and ``at``: the entry's author and time, kept with a review decision.
        """
        if kind == "shot":
            return self._plan_shot(payload, paths, seq)
        if kind == "decide":
            kind_ = DecisionKind(payload["decision"])
            stroke = payload.get("stroke") is True
            return self._plan_decide(kind_, payload.get("points"), stroke=stroke, by=(who, at))
        if kind == "pause":
            why = payload.get("why")
            said = Account("paused", {"why": why}) if why else Account("resumed")
            return self._plan(said, (), paused=why)
        if kind == "call":
            return self._plan_call(payload, by=(who, at))
        raise LiveError(f"journal: unknown entry kind {kind!r}; upgrade carom-referee")

    def _plan(self, said: Account, steps: Sequence[Step], **kw: Any) -> Plan:
        state, records = self._simulate(steps)
        values: dict[str, Any] = {"pending": self.pending, "timeouts": self.timeouts,
                                  "paused": self.paused} | kw  # fmt: skip
        return Plan(account=said, steps=tuple(steps), phase=state.phase, records=records,
                    **values)  # fmt: skip

    def _action(self, said: Account, steps: Sequence[Step], restore: tuple[Op, ...] = ()) -> Action:
        pushed = sum(1 for s in steps if not isinstance(s, UndoStep))
        return Action(account=said, pushed=pushed, restore=restore, pending=self.pending,
                      timeouts=self.timeouts)  # fmt: skip

    def _simulate(self, steps: Sequence[Step]) -> tuple[MatchState, tuple[ShotRecord, ...]]:
        stack, state, records = list(self.before), self.match.state, []
        for step in steps:
            if isinstance(step, UndoStep):
                if not stack:
                    raise LiveError("nothing to undo")
                state = stack.pop()
                continue
            stack.append(state)
            if isinstance(step, LagStep):
                _, state = apply_lag(state, step.lag)
            elif isinstance(step, JoinStep):
                state = apply_join(state, step.start)
            elif isinstance(step, PlayStep):
                record, state = apply_shot(state, step.shot)
                records.append(record)
            else:
                state = apply_correction(state, step.correction)
        return state, tuple(records)

    def _plan_shot(self, payload: Mapping[str, Any], paths: bytes | None, seq: int | None) -> Plan:
        if self.pending is not None:
            raise ReviewPending(
                f"shot {self.pending.shot.index} waits for review ({self.pending.reason}); "
                "decide first: accept, reject or points N"
            )
        doc = payload["shot"]
        shot = shot_from_doc(doc, paths)
        info = _info(doc)
        t_s = payload.get("video_t_s")
        video_t_s = None if t_s is None else float(t_s)
        steps: list[Step] = []
        if self.match.state.phase is Phase.LAG:
            if payload.get("lag"):
                lag = Lag(events=shot.events, start_positions_mm=shot.start_positions_mm,
                          end_positions_mm=shot.end_positions_mm)  # fmt: skip
                result, _ = apply_lag(self.match.state, lag)
                steps = [LagStep(lag)]
                return self._plan(lag_account(result), steps, video_t_s=video_t_s,
                                  action=self._action(Account("the_lag"), steps))  # fmt: skip
            steps.append(JoinStep(StartState()))
        elif (
            payload.get("lag")
            and not self.match.records
            and _lag_reported(payload.get("lag_rule"), self.match.state.shooter)
        ):
            # The breaker (or a start) was set: a lag is reported, not judged.
            return self._plan(_lag_not_judged(self.match.state.shooter), (), video_t_s=video_t_s)
        shot = replace(shot, index=len(self.match.records))
        return self._plan_judged(steps, shot, info, video_t_s, None, hold=self.paused, entry=seq)

    def _plan_judged(
        self, steps: list[Step], shot: Shot, info: Info, video_t_s: float | None,
        foul: Foul | None, *, hold: str | None = None, entry: int | None = None,
        decided: Decided | None = None,
    ) -> Plan:  # fmt: skip
        """Judge ``shot`` after ``steps``: record it, or hold it when it asks for review.

        ``foul``: a person called it on this shot (the account says so first).

        ``hold``: scoring is paused for this reason, so the shot is held in any case.
        ``entry``: the journal entry the shot came in with. ``decided``: how a person
        settled the held shot this is (kept when the shot is recorded).
        """
        _, records = self._simulate([*steps, PlayStep(shot, info)])
        record = records[-1]
        if record.verdict.review is None and hold is None:
            steps = [*steps, PlayStep(shot, info, entry, decided)]
            said = _joined(steps, _called(foul, shot_account(record)))
            return self._plan(said, steps, pending=None, video_t_s=video_t_s,
                              action=self._action(said, steps))  # fmt: skip
        accepted, rejected = _accepted(shot, info), _rejected(shot, info)
        held = Account("played_paused", {"why": hold})
        reason = record.verdict.review or held.english
        pending = PendingReview(
            shot=shot, info=info, reason=reason, record=record, video_t_s=video_t_s, entry=entry,
            if_accepted=self._simulate([*steps, PlayStep(accepted[0])])[1][-1],
            if_rejected=self._simulate([*steps, PlayStep(rejected[0])])[1][-1],
        )  # fmt: skip
        why: Any = held if record.verdict.review is None else pending.reason
        said = _joined(steps, _called(foul, Account("held", {
            "n": shot.index, "player": record.player, "reason": why,
            "reason_parts": reason_json(record.verdict.review_parts),
        })))  # fmt: skip
        return self._plan(said, steps, pending=pending, video_t_s=video_t_s,
                          action=self._action(said, steps))  # fmt: skip

    def _plan_decide(
        self, kind: DecisionKind, points: int | None, *, stroke: bool,
        by: tuple[str | None, str | None] = (None, None),
    ) -> Plan:  # fmt: skip
        """A review decision: accept, reject, or the stroke's points.

        ``points N`` is the stroke's own verdict
        (``Shot.decided_points``: the run, the high run, the game's end follow from it)
        when ``stroke``, as every decision is written now; a decision stored without it
        (by an earlier version) replays as it was made: the accepted shot, then corrections
        of the points and the turn, so a stored match keeps the result it had.
        ``by``: who decided, and when (kept for the export, :class:`Decided`).
        """
        p = self.pending
        if p is None:
            raise LiveError(f"{kind}: no shot waits for review; nothing to decide")
        shot, info = (
            _rejected(p.shot, p.info) if kind is DecisionKind.REJECT else _accepted(p.shot, p.info)
        )
        if kind is DecisionKind.POINTS and stroke:
            shot = replace(shot, decided_points=int(points or 0))
        given = kind is DecisionKind.POINTS
        decided = Decided.on(p, str(kind), by, points=int(points or 0) if given else None,
                             by_corrections=given and not stroke)  # fmt: skip
        steps: list[Step] = [PlayStep(shot, info, p.entry, decided)]
        if kind is DecisionKind.POINTS and not stroke:
            record = self._simulate(steps)[1][-1]
            steps += [CorrectStep(c) for c in _override(record, int(points or 0), self.match)]
        _, records = self._simulate(steps)
        label = f"points {points}" if kind is DecisionKind.POINTS else str(kind)
        said = Account("review", {"decision": label, "shot": shot_account(records[0])})
        return self._plan(said, steps, pending=None, action=self._action(said, steps))

    def _plan_call(self, payload: Mapping[str, Any], by: tuple[str | None, str | None]) -> Plan:
        call = payload["call"]
        if call == "undo":
            return self._plan_undo()
        if call == "foul":
            return self._plan_foul(Foul(payload["foul"]), by)
        if call == "timeout":
            return self._plan_timeout(payload.get("player"))
        if call == "correct":
            c = correction_from_json(payload["correction"])
            steps = [CorrectStep(c)]
            state, _ = self._simulate(steps)
            said = correction_account(state.audit[-1].action, state.audit[-1].detail)
            return self._plan(said, steps, action=self._action(said, steps))
        raise LiveError(f"journal: unknown call {call!r}; upgrade carom-referee")

    def _plan_undo(self) -> Plan:
        if not self.actions:
            raise LiveError("nothing to undo")
        a = self.actions[-1]
        steps: list[Step] = [*(UndoStep() for _ in range(a.pushed)), *a.restore]
        # A held shot undone is discarded: said so (it read as still held).
        held = isinstance(a.account, Account) and a.account.key == "held"
        said = (
            Account("undo_held", dict(a.account.fields))
            if held
            else Account("undo", {"what": a.account})
        )
        return self._plan(said, steps, pending=a.pending, timeouts=a.timeouts, pop=True)

    def _plan_foul(self, foul: Foul, by: tuple[str | None, str | None]) -> Plan:
        callable_here = call_fouls(self.match.state.config.discipline)
        if foul not in callable_here:
            here = ", ".join(sorted(f.value for f in callable_here))
            raise LiveError(f"foul '{foul}' cannot be called (callable: {here})")
        if self.pending is not None:
            p = self.pending
            shot, info = _with_call(p.shot, foul), p.info
            return self._plan_judged([], shot, info, p.video_t_s, foul, entry=p.entry,
                                     decided=Decided.on(p, "foul", by))  # fmt: skip
        last = self.ops[-1] if self.ops else None
        if not isinstance(last, PlayStep):
            raise LiveError("foul: the last input is not a shot; call a foul right after it")
        steps: list[Step] = [
            UndoStep(),
            PlayStep(_with_call(last.shot, foul), last.info, last.entry, last.decided),
        ]
        _, records = self._simulate(steps)
        said = _called(foul, shot_account(records[-1]))
        return self._plan(said, steps, action=self._action(said, steps, restore=(last,)))

    def _plan_timeout(self, player: str | None) -> Plan:
        state = self.match.state
        if state.phase is not Phase.PLAYING or state.shooter is None:
            raise LiveError(f"timeout: the match is not being played (phase {state.phase})")
        who = player or state.shooter
        if who not in state.config.players:
            raise LiveError(f"timeout: {who!r} is not a player of this match")
        key = (state.set_index, who)
        used = self.timeouts.get(key, 0)
        limit = self.timeouts_per_game
        if limit is not None and used >= limit:
            raise LiveError(f"timeout: {who} has used all {limit} time-out(s) of this game")
        timeouts = {**self.timeouts, key: used + 1}
        said = Account("timeout", {"player": who, "n": used + 1})
        return self._plan(said, (), timeouts=timeouts, action=self._action(said, ()))

    # --- execution ---

    def execute(self, plan: Plan) -> tuple[ShotRecord, ...]:
        """Carry out a checked plan on the match; returns the shots it recorded."""
        records: list[ShotRecord] = []
        for step in plan.steps:
            if isinstance(step, UndoStep):
                self.match.undo()
                self.before.pop()
                self.ops.pop()
                continue
            self.before.append(self.match.state)
            if isinstance(step, LagStep):
                self.lag = self.match.lag(step.lag)
            elif isinstance(step, JoinStep):
                self.match.join(step.start)
            elif isinstance(step, PlayStep):
                records.append(self.match.play(step.shot))
            else:
                self.match.correct(step.correction)
            self.ops.append(step)
        if plan.pop:
            self.actions.pop()
        if plan.action is not None:
            self.actions.append(plan.action)
        self.pending, self.timeouts, self.paused = plan.pending, plan.timeouts, plan.paused
        if plan.video_t_s is not None:
            self.resume_video_t_s = max(plan.video_t_s, self.resume_video_t_s or 0.0)
        return tuple(records)


def _info(doc: Mapping[str, Any]) -> dict[int, tuple[float, str]]:
    out: dict[int, tuple[float, str]] = {}
    for i, e in enumerate(doc.get("events", [])):
        if "confidence" in e:
            out[i] = (float(e["confidence"]), str(e.get("evidence", "")))
    return out


def _accepted(shot: Shot, info: Info) -> tuple[Shot, Info]:
    """A person confirms the events as seen: their doubt is cleared."""
    events = tuple(replace(e, doubt=None, t_err_s=0.0) for e in shot.events)
    return replace(shot, events=events, doubt=None), info


def _rejected(shot: Shot, info: Info) -> tuple[Shot, Info]:
    """A person says the doubtful events did not happen: they are dropped."""
    keep = [i for i, e in enumerate(shot.events) if e.doubt is None]
    events = tuple(replace(shot.events[i], t_err_s=0.0) for i in keep)
    kept = {new: info[old] for new, old in enumerate(keep) if old in info}
    return replace(shot, events=events, doubt=None), kept


def _with_call(shot: Shot, foul: Foul) -> Shot:
    """The shot with a person's call added after its last event."""
    times = [e.t_s for e in shot.events]
    t_s = max([*times, shot.end_s if shot.end_s is not None else 0.0])
    return replace(shot, events=(*shot.events, Call(t_s=t_s, foul=foul)))


def _override(record: ShotRecord, points: int, match: Match) -> list[Correction]:
    """Corrections that make a recorded shot count ``points`` for its shooter.

    Only for a decision stored before decisions were strokes (:meth:`_plan_decide`).
    """
    shooter, v = record.player, record.verdict
    note = f"review: shot {record.index} scored {points}"
    out = []
    if points != v.points:
        out.append(Correction(CorrectionKind.POINTS, shooter, points - v.points, note))
    if points > 0 and v.inning_ends:
        out.append(Correction(CorrectionKind.TURN, shooter, note=note))
    elif points == 0 and not v.inning_ends:
        following = match.state.config.next_player(shooter)  # the opponent, of two
        out.append(Correction(CorrectionKind.TURN, following, note=note))
    return out


def _called(foul: Foul | None, said: Account) -> Account:
    """``said``, after "foul F called: " when a person called ``foul`` on the shot."""
    return said if foul is None else Account("foul_called", {"foul": str(foul), "then": said})


def _joined(steps: Sequence[Step], said: Account) -> Account:
    """``said``, after the join's words when ``steps`` join the match (no lag was seen)."""
    joins = any(isinstance(step, JoinStep) for step in steps)
    return Account("joined", {"then": said}) if joins else said


def _lag_reported(rule: object, shooter: str | None) -> bool:
    """Whether a lag before the first stroke is reported (not judged) under ``rule``.

    Once the breaker or a start was set, by the rule its entry was written under
    (docs/live-storage.md): an earlier version's entry without one played it as a
    stroke, ``report`` reported it only with a breaker.
    """
    return rule == "report_all" or (rule == "report" and shooter is not None)


def _lag_not_judged(shooter: str | None) -> Account:
    if shooter is None:  # a start that leaves the player at the table to the stroke
        return Account("lag_not_judged_start")
    return Account("lag_not_judged", {"player": shooter})
