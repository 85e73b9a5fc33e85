"""Before a stroke is judged: who is playing it, and is it a break?

The match knows whose turn it is and whether the break position is due only from
what it has seen. A record that joins a match in progress has seen neither, so
both are read from the stroke itself:

* **Who plays.** With the shooter unknown (no lag, no start state) the stroke's
  cue ball names its owner. With ``follow_cue_ball`` on (the camera front ends),
  a stroke played with the other player's ball moves the turn to that player: on
  the record's first stroke that is the set-up contradicting the video, said once
  in the shot's note; later it is a change of shooter the rules did not give (a
  point the camera saw that was not one, a wrong-ball foul), marked for review.
* **Is it a break.** The shot's own ``is_break`` (a person or a log said so)
  wins; else the start positions decide (:mod:`referee._break`); without them
  the match's position does (``next_position``: the break at a game's start).
  A break the match knows is due while the balls say otherwise is judged as the
  break and marked for review.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee._break import BreakCall, check_break_layout
from referee._names import NextPosition
from referee._shot import Carry, Shot
from referee._state import MatchState

__all__ = ["TurnCall", "decide_break", "whose_stroke"]


@dataclass(frozen=True, slots=True)
class TurnCall:
    """Who plays the stroke; ``note`` is said once, ``review`` asks a person to look."""

    shooter: str
    note: str = ""
    review: str | None = None


def whose_stroke(state: MatchState, shot: Shot) -> tuple[TurnCall, MatchState]:
    """The shooter of ``shot`` and the state with that player at the table."""
    cfg = state.config
    expected, owner = state.shooter, cfg.owner_of(shot.cue_ball)
    if expected is None:
        if owner is None:
            first = cfg.players[0]
            why = f"nobody known at the table and both play the {shot.cue_ball}"
            call = TurnCall(first, review=f"{why}: {first} assumed (correct the turn if not)")
            return call, replace(state, shooter=first)
        note = f"{owner} at the table: the first stroke is played with {shot.cue_ball}"
        return TurnCall(owner, note=note), replace(state, shooter=owner)
    if owner is None or owner == expected or not cfg.options.follow_cue_ball:
        return TurnCall(expected), state
    moved = _hand_over(state, expected, owner)
    if state.shots_played == 0:
        mine = cfg.ball_of(expected)
        note = (
            f"the video shows {owner}'s {shot.cue_ball} played first, not {expected}'s {mine}: "
            f"following the video (set {owner} as the first player, or swap the cue balls)"
        )
        return TurnCall(owner, note=note), moved
    review = (
        f"{owner} plays the {shot.cue_ball} although the rules had {expected} at the table: "
        f"check the last stroke's verdict, or call a wrong-ball foul"
    )
    return TurnCall(owner, review=review), moved


def _hand_over(state: MatchState, old: str, new: str) -> MatchState:
    scores = dict(state.scores)
    scores[old] = scores[old].closed()
    return replace(state, scores=scores, shooter=new, carry=Carry(), last_inning_ended_by=old)


def decide_break(state: MatchState, shot: Shot) -> BreakCall:
    """Whether ``shot`` is judged as a break, and the rule that said so."""
    if shot.is_break is not None:
        said = "a break" if shot.is_break else "not a break"
        return BreakCall(shot.is_break, f"{said}: the shot log says so")
    cfg = state.config
    at_break = state.next_position is NextPosition.BREAK
    check = check_break_layout(
        cfg.discipline, cfg.table, shot.start_positions_mm, shot.cue_ball, cfg.options
    )
    if check is None:
        said = "a break" if at_break else "play"
        where = "the game starts from the break" if at_break else "the game is under way"
        return BreakCall(at_break, f"{said}: no start positions, and {where}")
    if check.recognised:
        return BreakCall(True, f"a break: the balls stand in the break layout ({check.detail})",
                         check.faults)  # fmt: skip
    if state.break_due:
        why = f"the break position was due but the balls are not in it ({check.detail})"
        return BreakCall(True, f"a break: {why}", review=why)
    return BreakCall(False, f"play: the balls are not in the break layout ({check.detail})")
