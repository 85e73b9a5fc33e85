"""Joining a match in progress: the state a record starts from when it did not see the start."""

from __future__ import annotations

from referee._config import MatchConfig
from referee._names import NextPosition
from referee._start import StartState
from referee._state import MatchState, Phase, Score

__all__ = ["joined_state"]


def joined_state(config: MatchConfig, start: StartState, version: int = 0) -> MatchState:
    """The match as ``start`` describes it, ready for its next stroke.

    Unknown fields stay unknown: no shooter (the first stroke's cue ball names
    them), no breaker, and the break is decided from the balls unless
    ``start.next_break`` says otherwise.
    """
    scores = {p: _score(config, start, p) for p in config.players}
    at_break = start.next_break is True
    return MatchState(
        config=config,
        phase=Phase.PLAYING,
        scores=scores,
        sets_won={p: start.sets_won.get(p, 0) for p in config.players},
        breaker=start.breaker,
        shooter=start.shooter,
        set_index=start.set_index,
        next_position=NextPosition.BREAK if at_break else NextPosition.PLAY_ON,
        break_due=at_break,
        version=version,
    )


def _score(config: MatchConfig, start: StartState, player: str) -> Score:
    board = start.board.get(player)
    countdown = config.countdown_from
    if board is None:
        points, penalties = 0, 0
    elif countdown is None:
        points, penalties = board, 0
    else:  # the 7-pin board shows the remaining count: start - points + penalties
        points, penalties = max(0, countdown - board), max(0, board - countdown)
    run = start.run if player == start.shooter else 0
    innings = start.innings.get(player, 0)
    return Score(
        points=points,
        innings=max(innings, 1) if run else innings,
        current_run=run,
        in_inning=run > 0,
        carried=points - run,
        penalties=penalties,
    )
