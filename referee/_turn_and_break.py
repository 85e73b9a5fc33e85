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
  With three players or more the ball names nobody (the whites rotate, or players
  share a ball): the expected shooter plays, an unknown one is assumed (the first
  in the order) and the shot marked for review, as in the 7-pin game.
* **With which ball.** :func:`cue_ball_due`: the player's own, or with rotating
  whites the one the previous stroke did not use.
* **Is it a break.** The shot's own ``is_break`` (a person or a log said so)
  wins; else the start positions decide (:mod:`referee._break`); without them
  the match's position does (``next_position``: the break at a game's start).
  A break the match knows is due while the balls say otherwise is judged as the
  break and marked for review.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee._break import BreakCall, check_break_layout
from referee._names import Ball, NextPosition
from referee._reason import Reason, ReasonKey
from referee._shot import Carry, Shot
from referee._state import MatchState

__all__ = ["TurnCall", "cue_ball_due", "decide_break", "whose_stroke"]


@dataclass(frozen=True, slots=True)
class TurnCall:
    """Who plays the stroke, with which ball; ``note`` is said once, ``review`` asks a person.

    ``cue_ball`` is the ball the stroke is judged as the shooter's own: another
    ball played is the wrong-ball foul.
    """

    shooter: str
    cue_ball: Ball
    note: tuple[Reason, ...] = ()
    review: tuple[Reason, ...] = ()


def cue_ball_due(state: MatchState) -> Ball | None:
    """The ball the player at the table is to play; ``None``: nobody known, or either white.

    A player keeps a ball (two players, or every player given one) or, when the
    whites rotate [rules.md §1], plays the white that was not the cue ball of the
    previous stroke; by default the player keeps it for his inning (rule option
    ``rotate_cue_ball_every_stroke``). Before any stroke is seen either white may be
    played (the breaker chooses, as the lag winner does with two players).
    """
    cfg, shooter = state.config, state.shooter
    if shooter is None:
        return None
    if not cfg.rotates:
        return cfg.ball_of(shooter)
    last = state.last_cue_ball
    if last is None:
        return None
    keeps = state.scores[shooter].in_inning and not cfg.options.rotate_cue_ball_every_stroke
    return last if keeps else cfg.other_cue_ball(last)


def whose_stroke(state: MatchState, shot: Shot) -> tuple[TurnCall, MatchState]:
    """The shooter of ``shot`` and the state with that player at the table."""
    cfg = state.config
    expected, owner = state.shooter, cfg.owner_of(shot.cue_ball)
    if expected is None:
        return _first_seen(state, shot)
    two = len(cfg.players) == 2
    if not two or owner is None or owner == expected or not cfg.options.follow_cue_ball:
        return _ball_played(state, expected, shot), state
    moved = _hand_over(state, expected, owner)
    ball = cfg.ball_of(owner)
    if state.shots_played == 0:
        note = Reason.of(ReasonKey.NOTE_VIDEO_FIRST, player=owner, ball=shot.cue_ball,
                         expected=expected, other=cfg.ball_of(expected))  # fmt: skip
        return TurnCall(owner, ball, note=(note,)), moved
    review = Reason.of(ReasonKey.REVIEW_TURN_OWNER, player=owner, cue=shot.cue_ball,
                       expected=expected)  # fmt: skip
    return TurnCall(owner, ball, review=(review,)), moved


def _first_seen(state: MatchState, shot: Shot) -> tuple[TurnCall, MatchState]:
    """Nobody known at the table: the ball names its one owner, else the first is assumed."""
    cfg = state.config
    ball = shot.cue_ball
    owners = [p for p in cfg.players if cfg.cue_balls.get(p) == ball and not cfg.rotates]
    if cfg.shared_cue_ball is not None:
        owners = []
    if len(owners) == 1:
        (owner,) = owners
        moved = replace(state, shooter=owner)
        note = Reason.of(ReasonKey.NOTE_FIRST_SEEN, player=owner, ball=ball)
        return replace(_ball_played(moved, owner, shot), note=(note,)), moved
    first = owners[0] if owners else cfg.players[0]
    n = len(cfg.players)
    if cfg.shared_cue_ball is not None and n == 2:
        review = Reason.of(ReasonKey.REVIEW_NOBODY_SHARED, ball=ball, player=first)
    elif cfg.shared_cue_ball is not None:
        review = Reason.of(ReasonKey.REVIEW_NOBODY_SHARED_ALL, n=n, ball=ball, player=first)
    elif cfg.rotates:
        review = Reason.of(ReasonKey.REVIEW_NOBODY_ROTATE, n=n, player=first)
    elif owners:
        review = Reason.of(ReasonKey.REVIEW_NOBODY_MANY, n=len(owners), ball=ball, player=first)
    else:
        review = Reason.of(ReasonKey.REVIEW_NOBODY_NONE, ball=ball, player=first)
    moved = replace(state, shooter=first)
    return replace(_ball_played(moved, first, shot), review=(review,)), moved


def _ball_played(state: MatchState, shooter: str, shot: Shot) -> TurnCall:
    """The ball ``shooter`` is judged with: the ball due, or the white played when free.

    With three players or more the ball cannot name the shooter (the whites rotate,
    or several players share one), so with ``follow_cue_ball`` the other white
    played keeps the expected shooter, is judged as his ball and is marked for
    review; without it, it is the wrong-ball foul.
    """
    cfg = state.config
    due, pair = cue_ball_due(state), cfg.cue_ball_pair
    if due is None:  # the whites rotate and no stroke was seen yet: either white
        return TurnCall(shooter, shot.cue_ball if shot.cue_ball in pair else pair[0])
    other_white = shot.cue_ball != due and shot.cue_ball in pair
    if not other_white or len(cfg.players) == 2 or not cfg.options.follow_cue_ball:
        return TurnCall(shooter, due)
    review = Reason.of(ReasonKey.REVIEW_TURN_DUE, player=shooter, cue=shot.cue_ball, ball=due)
    return TurnCall(shooter, shot.cue_ball, review=(review,))


def _hand_over(state: MatchState, old: str, new: str) -> MatchState:
    scores = dict(state.scores)
    scores[old] = scores[old].closed()
    return replace(state, scores=scores, shooter=new, carry=Carry(), last_inning_ended_by=old)


def decide_break(state: MatchState, shot: Shot) -> BreakCall:
    """Whether ``shot`` is judged as a break, and the rule that said so."""
    if shot.is_break is not None:
        logged = ReasonKey.BREAK_LOGGED if shot.is_break else ReasonKey.PLAY_LOGGED
        return BreakCall(shot.is_break, Reason.of(logged))
    cfg = state.config
    at_break = state.next_position is NextPosition.BREAK
    check = check_break_layout(
        cfg.discipline, cfg.table, shot.start_positions_mm, shot.cue_ball, cfg.options
    )
    if check is None:
        unknown = ReasonKey.BREAK_NO_POSITIONS if at_break else ReasonKey.PLAY_NO_POSITIONS
        return BreakCall(at_break, Reason.of(unknown))
    if check.recognised:
        return BreakCall(True, Reason.of(ReasonKey.BREAK_LAYOUT, layout=check.layout),
                         check.faults)  # fmt: skip
    if state.break_due:
        why = Reason.of(ReasonKey.REVIEW_BREAK_DUE, layout=check.layout)
        return BreakCall(True, Reason.of(ReasonKey.BREAK_DUE, layout=check.layout), review=(why,))
    return BreakCall(False, Reason.of(ReasonKey.PLAY_NO_LAYOUT, layout=check.layout))
