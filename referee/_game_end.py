"""How a game (set) ends: the target, the equalizing inning, the inning limit, sets.

After every stroke :func:`game_end` applies the game-end rules [rules.md §5-7]:
the 7-pin count at exactly zero, the target reached (an equalizing inning for the
player who did not break, if enabled), the inning limit. A finished game is a set;
when a player has won the majority of ``sets`` the match is over, else the next
set is broken by the other player (alternate breaks).
"""

from __future__ import annotations

from dataclasses import replace

from referee._names import NextPosition
from referee._shot import Carry
from referee._state import GameResult, MatchState, Phase, Score
from referee._verdict import Verdict

__all__ = ["cut_to_target", "game_end", "join_notes", "target_reached"]


def game_end(state: MatchState, shooter: str, verdict: Verdict) -> tuple[MatchState, str]:
    """Apply the game-end rules after a stroke by ``shooter``; returns a note."""
    cfg = state.config
    if cfg.countdown_from is not None:
        if verdict.wins_game:
            return _finish_game(state, shooter, f"{shooter} wins the game")
        return state, ""
    reached = [p for p in cfg.players if state.scores[p].points >= cfg.target[p]]
    if state.equalizing:
        return _equalizing_end(state, shooter, verdict, reached)
    if reached:
        return target_reached(state, reached[0], "")
    limit = cfg.innings_limit
    closes_round = verdict.inning_ends and shooter != state.breaker
    if limit and closes_round and state.scores[shooter].innings >= limit:
        return _finish_on_points(state, f"inning limit {limit} reached")
    return state, ""


def cut_to_target(state: MatchState) -> tuple[MatchState, str]:
    """Five-pins [rules.md §6]: a total past the target is cut back to the target."""
    scores = dict(state.scores)
    for p, target in state.config.target.items():
        over = scores[p].points - target
        if over > 0:
            s = scores[p]
            scores[p] = replace(s, points=target, corrected=s.corrected - over)
            return replace(state, scores=scores), f"{p}'s total cut back to the target {target}"
    return state, ""


def target_reached(state: MatchState, player: str, note: str) -> tuple[MatchState, str]:
    cfg = state.config
    breaker = state.breaker or player
    other = cfg.opponent(breaker)
    behind = state.scores[other].innings < state.scores[breaker].innings
    if player == breaker and cfg.equalizing and behind:
        scores = dict(state.scores)
        scores[breaker] = scores[breaker].closed()
        start = NextPosition.BREAK if cfg.equalizing_from_break else NextPosition.PLAY_ON
        moved = replace(
            state, scores=scores, shooter=other, equalizing=True, next_position=start, carry=Carry()
        )
        return moved, join_notes(
            note, f"{breaker} reached the target: equalizing inning for {other}"
        )
    return _finish_game(state, player, join_notes(note, f"{player} reached the target"))


def _equalizing_end(
    state: MatchState, shooter: str, verdict: Verdict, reached: list[str]
) -> tuple[MatchState, str]:
    breaker = state.breaker or shooter
    other = state.config.opponent(breaker)
    if other in reached:
        return _finish_game(state, None, f"{other} equalized: draw")
    if shooter == other and verdict.inning_ends:
        return _finish_game(state, breaker, f"{other} did not equalize: {breaker} wins")
    return state, ""


def _finish_on_points(state: MatchState, why: str) -> tuple[MatchState, str]:
    a, b = state.config.players
    pa, pb = state.scores[a].points, state.scores[b].points
    winner = None if pa == pb else (a if pa > pb else b)
    return _finish_game(state, winner, f"{why}: " + (f"{winner} wins" if winner else "draw"))


def join_notes(*notes: str) -> str:
    """The non-empty notes, joined with '; '."""
    return "; ".join(n for n in notes if n)


def _finish_game(state: MatchState, winner: str | None, note: str) -> tuple[MatchState, str]:
    """Close the game (set); start the next set or end the match."""
    cfg = state.config
    scores = {p: s.closed() for p, s in state.scores.items()}
    result = GameResult(
        winner=winner,
        points={p: s.points for p, s in scores.items()},
        innings={p: s.innings for p, s in scores.items()},
        high_run={p: s.high_run for p, s in scores.items()},
    )
    sets_won = dict(state.sets_won)
    if winner is not None:
        sets_won[winner] += 1
    games = (*state.games, result)
    decided = winner is not None and sets_won[winner] > cfg.sets // 2
    if decided or cfg.sets == 1:
        over = replace(
            state, phase=Phase.OVER, scores=scores, sets_won=sets_won, games=games,
            shooter=None, winner=winner, draw=winner is None, equalizing=False,
        )  # fmt: skip
        return over, join_notes(
            note, f"match over: {winner} wins" if winner else "match over: draw"
        )
    breaker = cfg.opponent(state.breaker or cfg.players[0])
    fresh = replace(
        state, scores={p: Score() for p in cfg.players}, sets_won=sets_won, games=games,
        set_index=state.set_index + 1, breaker=breaker, shooter=breaker, equalizing=False,
        next_position=NextPosition.BREAK, carry=Carry(), last_inning_ended_by=None,
    )  # fmt: skip
    return fresh, join_notes(note, f"set {state.set_index + 1} to {winner or 'nobody (draw)'}")
