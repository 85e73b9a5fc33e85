"""The match state machine [rules.md §2-7].

Theory of operation. A match is a sequence of immutable :class:`MatchState`
snapshots. Each input is a pure transition: it either returns a new state or
raises a :class:`RulesError` subclass and changes nothing (h11's discipline)::

    LAG ──lag decided / join──> PLAYING ──shot / correction──> PLAYING ──last game won──> OVER
     └──lag again──> LAG

A record that did not see the match start joins it instead of the lag
(:func:`apply_join`, or ``MatchConfig.start``): the score and turn it knows, the
rest unknown. Within PLAYING, before a shot is judged, :mod:`referee._turn_and_break`
says who plays it (the stroke's cue ball when nobody is known at the table) and
whether it is a break (the balls' layout, never an assumption). The discipline's
rule (:func:`referee.judge`) judges it, its points go to the shooter's run (fouls'
points to the opponent in five-pins, penalties to the shooter's count in the
7-pin game) and, when the verdict ends the inning, the turn passes. After every
input the game-end rules of :mod:`referee._game_end` run.

:class:`Match` is a small mutable shell around these functions that keeps the
history, so the last input can be undone; undo and corrections are recorded in
the state's audit trail.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from referee._break import BreakCall
from referee._config import MatchConfig
from referee._corrections import apply_correction
from referee._decided import decided_verdict
from referee._disciplines import rules_of
from referee._errors import IllegalMoveError, RulesError
from referee._event_checks import check_shot
from referee._game_end import cut_to_target, game_end, join_notes
from referee._join import joined_state
from referee._lag import Lag, LagResult, judge_lag
from referee._names import Ball, NextPosition
from referee._rules import judge
from referee._shot import Carry, Shot, ShotContext
from referee._start import StartState
from referee._state import (
    AuditEntry,
    Correction,
    MatchState,
    Phase,
    Score,
    ShotRecord,
)
from referee._turn_and_break import TurnCall, cue_ball_due, decide_break, whose_stroke
from referee._verdict import Verdict, announce, with_review

__all__ = [
    "Match",
    "apply_join",
    "apply_lag",
    "apply_shot",
    "new_match",
    "shot_context",
]


def new_match(config: MatchConfig) -> MatchState:
    """The state before the first input: waiting for the lag unless a breaker is set.

    With ``config.start`` the record joins a match in progress (``first_player``,
    if given, is then the player at the table when ``start`` names none).
    """
    if config.start is not None:
        start = config.start
        if start.shooter is None and config.first_player is not None:
            start = replace(start, shooter=config.first_player)
        return joined_state(config, start)
    scores = {p: Score() for p in config.players}
    sets_won = dict.fromkeys(config.players, 0)
    if config.first_player is None:
        return MatchState(config=config, phase=Phase.LAG, scores=scores, sets_won=sets_won)
    first = config.first_player
    return MatchState(
        config=config,
        phase=Phase.PLAYING,
        scores=scores,
        sets_won=sets_won,
        breaker=first,
        shooter=first,
    )


def apply_lag(state: MatchState, lag: Lag) -> tuple[LagResult, MatchState]:
    """Decide the lag; the state stays in LAG when it must be played again."""
    if state.phase is not Phase.LAG:
        raise IllegalMoveError("the lag is already decided; undo to replay it")
    result = judge_lag(lag, state.config)
    if result.winner is None:
        return result, replace(state, version=state.version + 1)
    breaker = result.breaker or result.winner
    return result, replace(
        state, phase=Phase.PLAYING, breaker=breaker, shooter=breaker,
        next_position=NextPosition.BREAK, break_due=True, version=state.version + 1,
    )  # fmt: skip


def apply_join(state: MatchState, start: StartState) -> MatchState:
    """No lag was seen: join the match as ``start`` describes it (from the LAG phase)."""
    if state.phase is not Phase.LAG:
        raise IllegalMoveError("the match is already under way; undo to join it differently")
    start.check(state.config.players, state.config.sets)
    joined = joined_state(state.config, start, version=state.version + 1)
    return replace(joined, audit=state.audit)


def shot_context(state: MatchState, cue_ball: Ball | None = None) -> ShotContext:
    """The context the next stroke is judged in.

    ``cue_ball``: the ball the stroke is judged as the shooter's own; default the
    ball due (:func:`referee.cue_ball_due`), or the white when either may be played.
    """
    cfg, shooter = state.config, _shooter(state)
    if (shared := cfg.shared_cue_ball) is not None:
        _, first_white, second_white = rules_of(cfg.discipline).balls
        return ShotContext(
            discipline=cfg.discipline,
            cue_ball=shared,
            opponent_ball=first_white,
            object_ball=second_white,
            table=cfg.table,
            is_break=state.next_position is NextPosition.BREAK,
            options=cfg.options,
            carry=state.carry,
            remaining=state.board(shooter),
            start_count=cfg.countdown_from,
        )
    cue = cue_ball or cue_ball_due(state) or cfg.cue_ball_pair[0]
    return ShotContext(
        discipline=cfg.discipline,
        cue_ball=cue,
        opponent_ball=cfg.other_cue_ball(cue),
        table=cfg.table,
        is_break=state.next_position is NextPosition.BREAK,
        options=cfg.options,
        carry=state.carry,
        must_attempt=shooter in state.must_attempt,
    )


def _shooter(state: MatchState) -> str:
    if state.phase is Phase.LAG:
        why = "none recorded, or one judged 'lag again' is played again"
        raise IllegalMoveError(f"the lag is not decided yet ({why}): record the next lag, its "
                               "winner, first_player, or the start of a match joined in "
                               "progress (match.start)")  # fmt: skip
    if state.phase is Phase.OVER:
        raise IllegalMoveError("the match is over: no more shots (undo to reopen it)")
    if state.shooter is None:
        raise IllegalMoveError("nobody is known at the table yet: the next stroke's ball tells")
    return state.shooter


def in_time_order(shot: Shot) -> Shot:
    """``shot`` with its events sorted by ``t_s``, equal times in their given order.

    As the shot-log reader sorts them: the judges read the events in order, and a contact
    listed after a later one gave another verdict than the same shot read from a log.
    """
    ordered = tuple(sorted(shot.events, key=lambda e: e.t_s))
    return shot if ordered == shot.events else replace(shot, events=ordered)


def _check_order(state: MatchState, shot: Shot) -> None:
    """A shot does not start before the one before it started (as the reader checks)."""
    before = state.last_start_s
    if before is not None and shot.start_s is not None and shot.start_s < before:
        raise IllegalMoveError(f"shot {shot.index}.start_s: {shot.start_s} s is before the "
                               f"shot before it started ({before} s); shots are in time "
                               "order")  # fmt: skip


def apply_shot(state: MatchState, shot: Shot) -> tuple[ShotRecord, MatchState]:
    """Judge ``shot`` for the player at the table and move the match on.

    Who plays and whether it is a break come from :mod:`referee._turn_and_break`.
    """
    if state.phase is not Phase.PLAYING:
        _shooter(state)  # raises the phase's error
    check_shot(shot, f"shot {shot.index}")
    _check_order(state, shot)
    shot = in_time_order(shot)
    turn, state = whose_stroke(state, shot)
    shooter = turn.shooter
    call = decide_break(state, shot)
    ctx = replace(shot_context(state, turn.cue_ball), is_break=call.is_break)
    verdict = _with_calls(judge(shot, ctx), turn, call)
    if shot.decided_points is not None:  # a person's decision on a held stroke
        remaining = state.board(shooter) if state.config.countdown_from is not None else None
        verdict = decided_verdict(verdict, shot.decided_points, ctx, remaining)
    cfg = state.config
    incoming = cfg.next_player(shooter)  # five-pins (two players): the opponent
    scores = dict(state.scores)
    scores[shooter] = scores[shooter].after_stroke(verdict)
    if verdict.opponent_points:
        o = scores[incoming]
        gift = verdict.opponent_points
        scores[incoming] = replace(o, points=o.points + gift, awarded=o.awarded + gift)
    ends = verdict.inning_ends
    played = shot.cue_ball if shot.cue_ball in cfg.cue_ball_pair else turn.cue_ball
    moved = replace(
        state,
        scores=scores,
        last_cue_ball=played,
        shooter=incoming if ends else shooter,
        carry=Carry() if ends else verdict.carry,
        next_position=verdict.next_position,
        shots_played=state.shots_played + 1,
        last_inning_ended_by=shooter if ends else None,
        must_attempt=_must_attempt(state.must_attempt, shooter, shot, verdict),
        version=state.version + 1,
        last_start_s=state.last_start_s if shot.start_s is None else shot.start_s,
    )
    alternate = rules_of(moved.config.discipline).alternates_every_stroke
    moved, cut = cut_to_target(moved, shooter) if alternate else (moved, ())
    after, note = game_end(moved, shooter, verdict)
    after = replace(after, break_due=after.next_position is NextPosition.BREAK)
    record = ShotRecord(
        index=shot.index,
        player=shooter,
        verdict=verdict,
        score_after={p: moved.board(p) for p in state.config.players},
        inning=moved.scores[shooter].innings,
        run=_last_run(moved.scores[shooter]) if ends else moved.scores[shooter].current_run,
        set_index=state.set_index,
        game_over=after.set_index != state.set_index or after.phase is Phase.OVER,
        note_parts=join_notes(turn.note, cut, note),
        is_break=call.is_break,
        break_part=call.why_part,
    )
    return record, after


def _with_calls(verdict: Verdict, turn: TurnCall, call: BreakCall) -> Verdict:
    """The verdict with the turn's and the break's review and announcements added."""
    if not verdict.review:
        verdict = with_review(verdict, turn.review or call.review)
    return announce(verdict, call.faults, first=True)


def _must_attempt(
    players: frozenset[str], shooter: str, shot: Shot, verdict: Verdict
) -> frozenset[str]:
    """[001 §25]: after a declared safety or a foul the next inning must attempt to score."""
    if not verdict.inning_ends:
        return players - {shooter}
    if shot.safety or verdict.fouls:
        return players | {shooter}
    return players - {shooter}


def _last_run(score: Score) -> int:
    return score.runs[-1] if score.runs else 0


class Match:
    """A match with history: play shots, take corrections, undo the last input.

    Wraps the pure transitions; every method either succeeds or raises and
    leaves the match exactly as it was. ``undo_depth`` bounds how many inputs can
    be undone (``None``: all of them); a replay that never undoes keeps only the
    last states instead of one per input (each state holds every finished run).
    """

    def __init__(self, config: MatchConfig, *, undo_depth: int | None = None) -> None:
        if not isinstance(config, MatchConfig):
            raise RulesError(f"config: expected a MatchConfig, got {type(config).__name__}")
        if undo_depth is not None and not (isinstance(undo_depth, int) and undo_depth >= 0):
            raise RulesError(f"undo_depth: expected None or >= 0, got {undo_depth!r}")
        keep = None if undo_depth is None else undo_depth + 1
        self._history: deque[MatchState] = deque([new_match(config)], maxlen=keep)
        self._inputs: deque[str] = deque(maxlen=undo_depth)
        self._records: list[ShotRecord | None] = []
        self._n_shots = 0  # the records that are shots (the next shot's index)

    @property
    def state(self) -> MatchState:
        """The current state."""
        return self._history[-1]

    @property
    def records(self) -> tuple[ShotRecord, ...]:
        """The judged shots still in effect, in order."""
        return tuple(r for r in self._records if r is not None)

    def _push(self, state: MatchState, what: str, record: ShotRecord | None = None) -> None:
        self._history.append(state)
        self._inputs.append(what)
        self._records.append(record)
        self._n_shots += record is not None

    def lag(self, lag: Lag) -> LagResult:
        """Record the lag."""
        result, state = apply_lag(self.state, lag)
        self._push(state, f"lag: {result.reason}")
        return result

    def join(self, start: StartState) -> MatchState:
        """No lag was seen: join the match in progress as ``start`` describes it."""
        state = apply_join(self.state, start)
        self._push(state, "join the match in progress")
        return state

    def play(self, shot: Shot) -> ShotRecord:
        """Judge and record a shot.

        Its ``index`` must be the number of shots recorded so far (0 for the first, as
        in a shot log), so a shot is never recorded twice or out of order.
        """
        if not isinstance(shot, Shot):
            raise RulesError(f"play: expected a Shot, got {type(shot).__name__} (parse_shot "
                             "reads one from a shot log's object)")  # fmt: skip
        expected = self._n_shots
        if shot.index != expected and isinstance(shot.index, int):
            raise IllegalMoveError(
                f"shot {shot.index}: expected index {expected} (shots in order: "
                f"{expected} recorded so far)"
            )
        record, state = apply_shot(self.state, shot)
        self._push(state, f"shot {shot.index}", record)
        return record

    def correct(self, correction: Correction) -> MatchState:
        """Apply a referee correction."""
        state = apply_correction(self.state, correction)
        self._push(state, f"correction: {state.audit[-1].detail}")
        return state

    def undo(self) -> MatchState:
        """Undo the last input (shot, lag or correction), keeping the audit trail."""
        if len(self._history) < 2:
            raise IllegalMoveError("nothing to undo")
        current, previous = self._history[-1], self._history[-2]
        what = self._inputs[-1]
        entry = AuditEntry(current.version + 1, previous.shots_played, "undo", what)
        restored = replace(previous, audit=(*current.audit, entry), version=current.version + 1)
        self._history.pop()
        self._history[-1] = restored
        self._inputs.pop()
        self._n_shots -= self._records.pop() is not None
        return restored
