"""Joining a match in progress: the state a record starts from when it did not see the start."""

from __future__ import annotations

from referee._config import MatchConfig
from referee._names import NextPosition
from referee._shot import Carry
from referee._start import StartState
from referee._state import MatchState, Phase, Score

__all__ = ["continues", "joined_state", "start_after"]


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
        # A run under way: how many of its caroms were made in a zone is not known.
        carry=Carry(zone_unknown=start.run > 0),
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


def start_after(state: MatchState) -> StartState:
    """What a record joining ``state`` (a match under way) would be told: its whole start.

    The boards, innings, the player at the table and their run, the breaker, the set
    and the sets won, and whether the next stroke is from the break position.
    """
    players = state.config.players
    shooter = state.shooter
    run = state.scores[shooter].current_run if shooter is not None else 0
    return StartState(
        board={p: state.board(p) for p in players},
        innings={p: state.scores[p].innings for p in players},
        run=run, shooter=shooter, breaker=state.breaker, set_index=state.set_index,
        sets_won=dict(state.sets_won), next_break=state.break_due,
    )  # fmt: skip


def continues(start: StartState, end: StartState, players: tuple[str, ...]) -> bool:
    """Whether a record joined at ``start`` takes up a match that stopped at ``end``.

    ``end`` is :func:`start_after` of the earlier record's last state. ``start`` must
    give every player's board and innings, past the match's very start (an inning
    begun, or a later set), and each other field it gives must agree.
    """
    if set(start.board) != set(players) or set(start.innings) != set(players):
        return False
    if start.set_index == 0 and not any(start.innings.values()):
        return False  # nothing played yet: a match's start continues nothing
    given = [
        dict(start.board) == dict(end.board),
        dict(start.innings) == dict(end.innings),
        all(end.sets_won.get(p) == n for p, n in start.sets_won.items()),
        start.set_index == end.set_index,
        start.shooter is None or (start.shooter == end.shooter and start.run == end.run),
        start.breaker in (None, end.breaker),
        start.next_break in (None, end.next_break),
    ]
    return all(given)
