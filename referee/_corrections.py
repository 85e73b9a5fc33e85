"""A referee's corrections: points, the turn, the break position [rules.md §2-7].

Theory of operation. A correction changes what the strokes left: it never replays
them. Points are a plain correction (``Score.corrected``, apart from the runs), or,
with ``in_run``, a stroke's own whose call was overturned (a shot held for review
that the referee decides: ``carom.live``), which count in the run of that stroke:
the inning under way of the player at the table, else the inning the last stroke
ended, when it was that player's (in five-pins every stroke ends one). So the high
run is the run as played. A turn to the player whose inning the last stroke ended
gives that inning back (its run goes on); any other turn closes the inning of the
player at the table. A match kept by hand takes points and turns as strokes instead
(:mod:`referee._by_hand`).
"""

from __future__ import annotations

from dataclasses import replace

from referee._by_hand import by_hand_step
from referee._disciplines import rules_of
from referee._errors import IllegalMoveError, UnknownBallError
from referee._game_end import cut_to_target, target_reached
from referee._names import NextPosition
from referee._shot import Carry
from referee._state import AuditEntry, Correction, CorrectionKind, MatchState, Phase, Score

__all__ = ["apply_correction", "counts_in_run"]


def apply_correction(state: MatchState, correction: Correction) -> MatchState:
    """Apply a referee correction and record it in the audit trail."""
    if state.phase is not Phase.PLAYING:
        raise IllegalMoveError(f"corrections are taken while playing, not in phase {state.phase}")
    player = correction.player
    if player not in state.config.players:
        raise UnknownBallError(f"correction: player {player!r} is not in this match")
    if correction.by_hand and (step := by_hand_step(state, correction)) is not None:
        moved, detail = step
    elif correction.kind is CorrectionKind.POINTS:
        moved, detail = _correct_points(state, player, correction.points, correction.in_run)
    elif correction.kind is CorrectionKind.TURN:
        moved, detail = _correct_turn(state, player)
    else:
        if state.shooter != player:
            raise IllegalMoveError(f"correction: only {state.shooter} (at the table) may ask")
        moved = replace(state, next_position=NextPosition.BREAK, break_due=True, carry=Carry())
        detail = f"break position for {player}"
    if correction.note:
        detail += f" ({correction.note})"
    entry = AuditEntry(state.version + 1, state.shots_played, f"correct {correction.kind}", detail)
    return replace(moved, audit=(*state.audit, entry), version=state.version + 1)


def _correct_points(
    state: MatchState, player: str, points: int, in_run: bool
) -> tuple[MatchState, str]:
    if points == 0:
        raise IllegalMoveError("correction: points must not be zero")
    score = state.scores[player]
    if score.points + points < 0:
        raise IllegalMoveError(f"correction: {player} has only {score.points} points")
    if state.config.countdown_from is not None and state.board(player) - points < 0:
        raise IllegalMoveError(f"correction: {player}'s count is {state.board(player)}; it "
                               "ends at exactly zero, never below (rules.md §7)")  # fmt: skip
    scores = dict(state.scores)
    if in_run:
        scores[player] = _in_run(state, player, points)
    else:
        scores[player] = replace(
            score, points=score.points + points, corrected=score.corrected + points
        )
    moved = replace(state, scores=scores)
    if rules_of(state.config.discipline).alternates_every_stroke:  # five-pins, as after a shot
        moved, _ = cut_to_target(moved, None)
        scores = dict(moved.scores)
    if state.config.countdown_from is None and not state.equalizing:
        reached = [p for p in state.config.players if scores[p].points >= state.config.target[p]]
        if reached:
            moved, _ = target_reached(moved, reached[0], ())
    return moved, f"{points:+d} points to {player}" + (" in the run" if in_run else "")


def counts_in_run(state: MatchState, player: str, points: int) -> bool:
    """Whether ``points`` may count in the run of ``player``'s last stroke (module docstring).

    The run of the inning under way when ``player`` is at the table in one, else of
    the inning the last stroke ended when it was ``player``'s; and it stays 0 or more.
    """
    score = state.scores[player]
    if state.shooter == player and score.in_inning:
        return score.current_run + points >= 0
    return (
        state.last_inning_ended_by == player and bool(score.runs) and score.runs[-1] + points >= 0
    )


def _in_run(state: MatchState, player: str, points: int) -> Score:
    """``player``'s score with ``points`` more in the run of their last stroke."""
    if not counts_in_run(state, player, points):
        raise IllegalMoveError(f"correction: {points:+d} points in {player}'s run: no stroke "
                               f"of {player}'s leaves such a run to amend")  # fmt: skip
    score = state.scores[player]
    if state.shooter == player and score.in_inning:
        return replace(score, points=score.points + points,
                       current_run=score.current_run + points)  # fmt: skip
    runs = (*score.runs[:-1], score.runs[-1] + points)
    return replace(score, points=score.points + points, runs=runs)


def _correct_turn(state: MatchState, player: str) -> tuple[MatchState, str]:
    if state.shooter == player:
        raise IllegalMoveError(f"correction: {player} is already at the table")
    scores = dict(state.scores)
    current = state.shooter or state.config.previous_player(player)
    if state.last_inning_ended_by == player and scores[player].runs:
        s = scores[player]
        scores[player] = replace(s, runs=s.runs[:-1], current_run=s.runs[-1], in_inning=True)
        detail = f"turn back to {player}: inning resumed"
    else:
        scores[current] = scores[current].closed()
        detail = f"turn to {player}"
    moved = replace(state, scores=scores, shooter=player, last_inning_ended_by=None, carry=Carry())
    return moved, detail
