"""Each player over the season: totals over the matches, ranked as the standings rank.

Match points and the best average come from ``referee.standings`` over the finished
matches, so they are the core's own numbers [rules.md §5]; points, innings, the high
run and the shot categories add up every analysed match, finished or not. The ranking
is the standings' order (match points, then GA, BA, HR, all descending), with GA over
every analysed match; players level on all four keep alphabetical order, so the table
does not depend on the order the logs were read in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from carom.stats._model import MatchFigures, PlayerSeason, ShotCategories
from referee import Standing, standings

__all__ = ["rank_players"]


def rank_players(matches: Sequence[MatchFigures]) -> tuple[PlayerSeason, ...]:
    """Every player of ``matches``, best first."""
    table = {s.player: s for s in standings(m.result for m in matches if m.result is not None)}
    names = sorted({p for m in matches for p in m.players})
    seasons = [_season_of(p, [m for m in matches if p in m.players], table.get(p)) for p in names]
    return tuple(sorted(seasons, key=PlayerSeason.rank_key, reverse=True))  # stable: by name


def _season_of(player: str, matches: list[MatchFigures], standing: Standing | None) -> PlayerSeason:
    mine = [m.of(player) for m in matches]
    points = [m.result.match_points(player) for m in matches if m.result is not None]
    by_discipline: Counter[str] = Counter()
    for m, f in zip(matches, mine, strict=True):
        by_discipline[m.discipline] += f.points
    totals = Standing(
        player=player,
        matches=len(matches),
        match_points=0 if standing is None else standing.match_points,
        points=sum(f.points for f in mine),
        innings=sum(f.innings for f in mine),
        best_average=Fraction(0) if standing is None else standing.best_average,
        high_run=max((f.high_run for f in mine), default=0),
    )
    return PlayerSeason(
        totals=totals,
        finished=len(points),
        won=points.count(2),
        drawn=points.count(1),
        lost=points.count(0),
        points_by_discipline=dict(sorted(by_discipline.items())),
        categories=sum((f.categories for f in mine), ShotCategories()),
    )
