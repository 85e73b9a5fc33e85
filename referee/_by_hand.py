"""A match kept by hand: a person enters the points and the turns; no stroke is recorded.

Without a camera (``carom serve`` with no ``--camera``) nobody records strokes, so the
corrections are the match. Points given to the player at the table are scored in
their inning, which begins (and is counted) if none was under way; a turn ends the
inning of the player leaving the table, counted even when they scored nothing. Each
is then a stroke for the game-end rules (:func:`referee._game_end.game_end`): the
target, the equalizing innings, the inning limit and the sets apply as after a shot,
and the game-end rules may give the table to someone else than the turn named (the
first equalizing player, the next set's breaker).

A turn back to the player who just left the table is that player's next inning (the
other scored nothing: most innings do not); a turn given by mistake is taken back with
undo. What stays a plain correction (:func:`referee.apply_correction`): points
removed, points to a player away from the table, and, in the 7-pin game, points (its
count reaches zero only by a stroke's verdict). A camera-kept match's corrections fix
what the camera got wrong and count no inning.
"""

from __future__ import annotations

from dataclasses import replace

from referee._disciplines import rules_of
from referee._game_end import cut_to_target, game_end
from referee._names import NextPosition
from referee._reason import english_reason
from referee._shot import Carry
from referee._state import Correction, CorrectionKind, MatchState
from referee._verdict import Verdict

__all__ = ["by_hand_step"]


def by_hand_step(state: MatchState, correction: Correction) -> tuple[MatchState, str] | None:
    """``correction`` of a match kept by hand, as a stroke: the new state and what it did.

    None when it is a plain correction (the module docstring).
    """
    player, at_table = correction.player, state.shooter
    if correction.kind is CorrectionKind.POINTS:
        if player != at_table or correction.points <= 0 or state.config.countdown_from:
            return None
        verdict = Verdict(inning_ends=False, points=correction.points)
        return _stroke(state, player, verdict, f"{correction.points:+d} points to {player}")
    if correction.kind is CorrectionKind.TURN:
        if at_table is None or player == at_table:
            return None
        moved = replace(state, shooter=player)  # whom the turn names, unless the rules say
        return _stroke(moved, at_table, Verdict(inning_ends=True), f"turn to {player}")
    return None


def _stroke(
    state: MatchState, shooter: str, verdict: Verdict, detail: str
) -> tuple[MatchState, str]:
    """``verdict`` applied to ``shooter``'s score, then the game-end rules."""
    scores = dict(state.scores)
    scores[shooter] = scores[shooter].after_stroke(verdict)
    ends = verdict.inning_ends
    moved = replace(
        state, scores=scores, next_position=NextPosition.PLAY_ON, break_due=False,
        carry=Carry(), last_inning_ended_by=shooter if ends else None,
    )  # fmt: skip
    alternate = rules_of(state.config.discipline).alternates_every_stroke
    moved, cut = cut_to_target(moved, shooter) if alternate else (moved, ())  # five-pins, as a shot
    after, notes = game_end(moved, shooter, verdict)
    after = replace(after, break_due=after.next_position is NextPosition.BREAK)
    inning = f"{shooter}'s inning {scores[shooter].innings} over" if ends else ""
    said = "; ".join(x for x in (inning, english_reason((*cut, *notes))) if x)
    return after, f"{detail} ({said})" if said else detail
