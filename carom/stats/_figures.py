"""One match's figures from its replay: each player's numbers and shot categories.

:func:`match_figures` turns a replayed shot log (``carom.match.ScoreRun``, the numbers
of ``carom score``) into a :class:`MatchFigures`; a log read alone
(:func:`carom.stats.read_match`) and a match recorded in several files replayed as one
(:mod:`carom.stats._continued`) both come here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from carom.match import ScoreRun, stopped_reason
from carom.stats._categories import player_categories
from carom.stats._model import MatchFigures, PlayerMatch
from referee import MatchResult, Phase, Shot, match_stats, parse_shot, start_after

__all__ = ["match_figures", "shots_by_index"]


def match_figures(
    run: ScoreRun, shots: dict[int, Shot] | None, total: int, path: Path, name: str,
    parts: tuple[Path, ...] = (),
) -> MatchFigures:  # fmt: skip
    """The figures of ``run``: the replay of the log at ``path`` (of ``parts``, several).

    ``shots``: the log's shots by index for the categories (``None``: not counted);
    ``total``: how many shots the log has (those after a refusal are unjudged).
    """
    state, records = run.match.state, run.match.records
    result = MatchResult.from_state(state) if state.phase is Phase.OVER else None
    categories = player_categories(state.config.players, records, shots, state.config.discipline)
    figures = tuple(
        PlayerMatch(
            p,
            s.points,
            s.innings,
            s.average,
            s.high_run,
            s.sets_won,
            None if result is None else result.match_points(p),
            categories[p],
        )
        for p, s in match_stats(state).items()
    )
    going_on = state.phase is Phase.PLAYING and run.error is None and bool(records)
    return MatchFigures(
        path=path, name=name, discipline=str(state.config.discipline),
        players=tuple(state.config.players), phase=str(state.phase), winner=state.winner,
        draw=state.draw, tied=tuple(state.tied), figures=figures, result=result,
        error=None if run.error is None else stopped_reason(run).splitlines()[0],
        unjudged=max(0, total - len(records)), start=state.config.start,
        end=start_after(state) if going_on else None, parts=parts, config=state.config,
    )  # fmt: skip


def shots_by_index(items: Sequence[Any]) -> dict[int, Shot]:
    """A log's shots (JSON objects) by index, only their cue ball and events kept."""
    out = {}
    for i, item in enumerate(items):
        shot = parse_shot(item, f"shots[{i}]")
        out[shot.index] = Shot(index=shot.index, cue_ball=shot.cue_ball, events=shot.events)
    return out
