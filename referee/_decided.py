"""A stroke a person decided: the points of a shot held for review, whatever its events say.

A camera's evidence may not settle a stroke (a thin kiss, a hidden pin): the shot is
held for review and a referee decides it. ``accept`` and ``reject`` keep or drop the
doubtful events and the rules judge them; ``points N`` (``Shot.decided_points``) says
what the stroke scored. The stroke is then judged as any other, and its verdict is
replaced by the decision before the match moves on: N points for the shooter, no foul
(a foul is called as a foul), the review settled. So the decided points are the
stroke's own: they count in the run and the high run, and the target, the
equalizing inning, the inning limit, the sets and five-pins' cut to the target follow
from them as after any stroke, even where the camera's call had ended the game.

The turn: in five-pins it passes after every stroke; otherwise a decision that keeps
the stroke scoring (or not scoring) keeps the judged end of the inning (a 7-pin carom
without pins still ends the series), and one that turns a miss into points keeps the
player at the table, points into none ends the inning. The balls that left the table
are still spotted, and the break position a ball off the table gave stays. A carom
game's stroke scores 1 point at most, a five-pins stroke 16 (every pin and the
carom), a 7-pin stroke the count left; in five-pins the stroke from the break
position set for frozen balls none (rule option ``five_pins_frozen_break_no_score``).
"""

from __future__ import annotations

from dataclasses import replace

from referee._disciplines import rules_of
from referee._errors import IllegalMoveError
from referee._five_pins import most_stroke_points
from referee._names import NextPosition
from referee._reason import Reason, ReasonKey
from referee._shot import Carry, ShotContext
from referee._verdict import Verdict

__all__ = ["decided_verdict"]


def decided_verdict(
    judged: Verdict, points: int, ctx: ShotContext, remaining: int | None
) -> Verdict:
    """``judged`` as a person decided it: ``points`` for the shooter (module docstring).

    ``remaining``: the shooter's count before the stroke in a countdown game.

    Raises:
        IllegalMoveError: more points than one stroke of the game can score.
    """
    rules = rules_of(ctx.discipline)
    most = None if rules.countdown else 1 if not rules.pins else most_stroke_points()
    if most is not None and points > most:
        raise IllegalMoveError(f"decided points: one stroke scores {most} at most in "
                               f"{ctx.discipline}, not {points}")  # fmt: skip
    if points and ctx.carry.frozen_restart and ctx.options.five_pins_frozen_break_no_score:
        raise IllegalMoveError("decided points: the stroke from the break position set for "
                               "frozen balls may not score (five-pins §10.4); decide 0 "
                               "or call its foul")  # fmt: skip
    if remaining is not None and points > remaining:
        raise IllegalMoveError(f"decided points: the count is {remaining}, the most one "
                               f"stroke can score; not {points}")  # fmt: skip
    if rules.alternates_every_stroke:
        ends = True
    elif (points > 0) == (judged.points > 0) and not judged.fouls:
        ends = judged.inning_ends
    else:
        ends = points == 0
    kept = not judged.fouls and ends == judged.inning_ends
    return replace(
        judged,
        inning_ends=ends, points=points, opponent_points=0, penalty=0, fouls=(),
        review=None, review_parts=(), wins_game=False,
        reason="", reason_parts=(Reason.of(ReasonKey.DECIDED, points=points),),
        # The break position the balls' leaving the table gave stays (it is no foul's).
        next_position=judged.next_position if kept or _kept_break(judged) else NextPosition.PLAY_ON,
        carry=judged.carry if kept and not ends else Carry(),
    )  # fmt: skip


def _kept_break(judged: Verdict) -> bool:
    """The judged stroke gave the break position (the shooter's own ball off the table)."""
    return judged.next_position is NextPosition.BREAK
