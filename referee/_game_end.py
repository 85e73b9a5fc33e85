"""How a game (set) ends: the target, the equalizing inning, the inning limit, sets.

After every stroke :func:`game_end` applies the game-end rules [rules.md §5-7]:
the 7-pin count at exactly zero, the target reached, the inning limit. Players
take their innings in the order of play from the breaker; a *round* is one inning
each. A player who reaches the target before the round is complete gives every
player after him who has played fewer innings an equalizing inning (if enabled):
when the last of them is done the game ends, won by the one player at the target
or drawn between all who reached it. The inning limit closes the game when a round
closes (nobody has played fewer innings than the player whose inning ended); the
most points win, a tie at the top is a draw. A finished game is a set; when a
player has won the majority of ``sets`` the match is over, else the next set is
broken by the next player in the order (alternate breaks with two players).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from referee._names import NextPosition
from referee._reason import Reason, ReasonKey
from referee._shot import Carry
from referee._state import GameResult, MatchState, Phase, Score
from referee._verdict import Verdict

__all__ = ["Notes", "cut_to_target", "game_end", "join_notes", "target_reached"]

#: A shot's notes, each a keyed phrase (``ShotRecord.note_parts``).
Notes = tuple[Reason, ...]


def game_end(state: MatchState, shooter: str, verdict: Verdict) -> tuple[MatchState, Notes]:
    """Apply the game-end rules after a stroke by ``shooter``; returns its notes."""
    cfg = state.config
    if cfg.countdown_from is not None:
        if verdict.wins_game:
            return _finish_game(state, shooter, _say(ReasonKey.NOTE_GAME_WON, player=shooter))
        return state, ()
    if state.equalizing:
        return _equalizing_end(state, shooter, verdict)
    reached = [p for p in cfg.players if state.scores[p].points >= cfg.target[p]]
    if reached:
        return target_reached(state, reached[0], ())
    limit = cfg.innings_limit
    innings = state.scores[shooter].innings
    closes_round = verdict.inning_ends and all(s.innings >= innings for s in state.scores.values())
    if limit and closes_round and innings >= limit:
        return _finish_on_points(state, limit)
    return state, ()


def cut_to_target(state: MatchState, shooter: str | None) -> tuple[MatchState, Notes]:
    """Five-pins [rules.md §6]: a total past the target is cut back to the target.

    The points cut off come first off the run of ``shooter``'s stroke that made them,
    so a high run never counts points the total did not keep (8 points made with 2 to
    go are a run of 2); the rest (points the opponent's foul gave) as a correction.
    ``shooter`` None: no stroke made them (a referee's correction of the points).
    """
    scores = dict(state.scores)
    for p, target in state.config.target.items():
        over = scores[p].points - target
        if over > 0:
            scores[p] = _cut(scores[p], over, own_stroke=p == shooter)
            cut = _say(ReasonKey.NOTE_CUT_TO_TARGET, player=p, target=target)
            return replace(state, scores=scores), cut
    return state, ()


def _cut(score: Score, over: int, *, own_stroke: bool) -> Score:
    """``score`` with ``over`` points taken off (:func:`cut_to_target`)."""
    off_run = 0
    if own_stroke and score.in_inning:
        off_run = min(over, score.current_run)
        score = replace(score, current_run=score.current_run - off_run)
    elif own_stroke and score.runs:
        off_run = min(over, score.runs[-1])
        score = replace(score, runs=(*score.runs[:-1], score.runs[-1] - off_run))
    return replace(score, points=score.points - over, corrected=score.corrected - (over - off_run))


def target_reached(state: MatchState, player: str, note: Notes) -> tuple[MatchState, Notes]:
    """``player`` reached the target: equalizing innings for those behind, or the game."""
    cfg = state.config
    behind = _still_to_play(state, player)
    if cfg.equalizes and behind:
        scores = dict(state.scores)
        scores[player] = scores[player].closed()
        start = NextPosition.BREAK if cfg.equalizing_from_break else NextPosition.PLAY_ON
        moved = replace(
            state, scores=scores, shooter=behind[0], equalizing=True, to_equalize=behind,
            next_position=start, carry=Carry(),
        )  # fmt: skip
        who = ", ".join(behind)
        said = _say(ReasonKey.NOTE_TARGET_EQUALIZING, player=player, players=who)
        return moved, join_notes(note, said)
    return _finish_game(state, player, join_notes(note, _say(ReasonKey.NOTE_TARGET, player=player)))


def _still_to_play(state: MatchState, player: str) -> tuple[str, ...]:
    """Who has yet to play the round in which ``player`` reached the target.

    Those after ``player`` in the order of play from the game's breaker [rules.md §5:
    the breaker reaching the target first gives the others an equalizing inning]. With
    no breaker known (a match joined in progress without it), those with fewer innings
    begun. The innings of a joined match may be the ones not given (0), and a first
    stroke opens an inning: the breaker, when given, decides (a breaker B and A
    reaching the target at 20 innings each gave B an equalizing inning).
    """
    cfg = state.config
    if state.breaker is not None:
        order = cfg.order_from(state.breaker)
        return order[order.index(player) + 1 :]
    mine = state.scores[player].innings
    return tuple(q for q in cfg.order_from(player)[1:] if state.scores[q].innings < mine)


def _equalizing_end(state: MatchState, shooter: str, verdict: Verdict) -> tuple[MatchState, Notes]:
    """During the equalizing innings: the next one, or the end of the game."""
    cfg = state.config
    at_target = state.scores[shooter].points >= cfg.target[shooter]
    if not (at_target or verdict.inning_ends):
        return state, ()
    rest = tuple(p for p in state.to_equalize if p != shooter)
    if rest:
        scores = dict(state.scores)
        scores[shooter] = scores[shooter].closed()
        start = NextPosition.BREAK if cfg.equalizing_from_break else state.next_position
        moved = replace(
            state, scores=scores, shooter=rest[0], to_equalize=rest, next_position=start,
            carry=Carry(),
        )  # fmt: skip
        return moved, _say(ReasonKey.NOTE_EQUALIZING, player=rest[0])
    reached = [p for p in cfg.players if state.scores[p].points >= cfg.target[p]]
    two = len(cfg.players) == 2
    if len(reached) == 1:
        (winner,) = reached
        if two:
            won = _say(ReasonKey.NOTE_NOT_EQUALIZED, player=shooter, winner=winner)
        else:
            won = _say(ReasonKey.NOTE_EQUALIZING_OVER, winner=winner)
        return _finish_game(state, winner, won)
    if two:
        drawn = _say(ReasonKey.NOTE_EQUALIZED, player=shooter)
    else:
        drawn = _say(ReasonKey.NOTE_LEVEL, players=", ".join(reached))
    return _finish_game(state, None, drawn, tied=reached)


def _finish_on_points(state: MatchState, limit: int) -> tuple[MatchState, Notes]:
    top = max(s.points for s in state.scores.values())
    tops = [p for p in state.config.players if state.scores[p].points == top]
    if len(tops) == 1:
        return _finish_game(state, tops[0], _say(ReasonKey.NOTE_INNINGS_WON, limit=limit,
                                                 winner=tops[0]))  # fmt: skip
    if len(tops) == len(state.config.players):
        drawn = _say(ReasonKey.NOTE_INNINGS_DRAW, limit=limit)
    else:
        drawn = _say(ReasonKey.NOTE_INNINGS_DRAW_BETWEEN, limit=limit, players=", ".join(tops))
    return _finish_game(state, None, drawn, tied=tops)


def join_notes(*notes: Notes) -> Notes:
    """The notes one after the other."""
    return tuple(n for group in notes for n in group)


def _say(key: ReasonKey, **fields: str | int) -> Notes:
    """One note."""
    return (Reason.of(key, **fields),)


def _finish_game(
    state: MatchState, winner: str | None, note: Notes, tied: Sequence[str] = ()
) -> tuple[MatchState, Notes]:
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
            shooter=None, winner=winner, draw=winner is None, equalizing=False, to_equalize=(),
            tied=() if winner is not None else tuple(tied),
        )  # fmt: skip
        over_note = (
            _say(ReasonKey.NOTE_MATCH_WON, winner=winner)
            if winner
            else _say(ReasonKey.NOTE_MATCH_DRAW)
        )
        return over, join_notes(note, over_note)
    breaker = cfg.next_player(state.breaker or cfg.players[0])
    fresh = replace(
        state, scores={p: Score() for p in cfg.players}, sets_won=sets_won, games=games,
        set_index=state.set_index + 1, breaker=breaker, shooter=breaker, equalizing=False,
        to_equalize=(), next_position=NextPosition.BREAK, carry=Carry(), last_inning_ended_by=None,
    )  # fmt: skip
    n = state.set_index + 1
    said = (
        _say(ReasonKey.NOTE_SET_WON, set=n, winner=winner)
        if winner
        else _say(ReasonKey.NOTE_SET_DRAW, set=n)
    )
    return fresh, join_notes(note, said)
