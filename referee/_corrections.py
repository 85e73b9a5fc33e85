"""A referee's corrections: points, the turn, the break position [rules.md §2-7].

Theory of operation. A correction changes what the strokes left: it never replays
them. Points are a plain correction (``Score.corrected``, apart from the runs: a
person's decision on a stroke held for review is the stroke's own instead,
:mod:`referee._decided`). A turn to the player whose inning the last stroke ended
gives that inning back (its run goes on); any other turn closes the inning of the
player at the table. The break position goes to the player at the table (in
five-pins that stroke may not score, [000 §10.4]). A match kept by hand takes points
and turns as strokes instead (:mod:`referee._by_hand`).
"""

from __future__ import annotations

from dataclasses import replace

from referee._by_hand import by_hand_step
from referee._disciplines import rules_of
from referee._errors import IllegalMoveError, UnknownBallError
from referee._game_end import cut_to_target, target_reached
from referee._names import Discipline, NextPosition
from referee._shot import Carry
from referee._state import AuditEntry, Correction, CorrectionKind, MatchState, Phase

__all__ = ["apply_correction"]


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
        moved, detail = _correct_points(state, player, correction.points)
    elif correction.kind is CorrectionKind.TURN:
        moved, detail = _correct_turn(state, player)
    else:
        if state.shooter != player:
            raise IllegalMoveError(f"correction: only {state.shooter} (at the table) may ask")
        frozen = state.config.discipline is Discipline.FIVE_PINS  # no legal stroke [§6]
        carry = Carry(frozen_restart=frozen)
        moved = replace(state, next_position=NextPosition.BREAK, break_due=True, carry=carry)
        detail = f"break position for {player}"
    if correction.note:
        detail += f" ({correction.note})"
    entry = AuditEntry(state.version + 1, state.shots_played, f"correct {correction.kind}", detail)
    return replace(moved, audit=(*state.audit, entry), version=state.version + 1)


def _correct_points(state: MatchState, player: str, points: int) -> tuple[MatchState, str]:
    if points == 0:
        raise IllegalMoveError("correction: points must not be zero")
    score = state.scores[player]
    if score.points + points < 0:
        has = "1 point" if score.points == 1 else f"{score.points} points"
        raise IllegalMoveError(f"correction: {player} has only {has}")
    if state.config.countdown_from is not None and state.board(player) - points < 0:
        raise IllegalMoveError(f"correction: {player}'s count is {state.board(player)}; it "
                               "ends at exactly zero, never below (rules.md §7)")  # fmt: skip
    scores = dict(state.scores)
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
    return moved, f"{points:+d} points to {player}"


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
