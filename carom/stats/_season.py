"""Each player in each discipline over the season, ranked as the standings rank.

A player's figures add up the matches of one discipline: a general average over
three-cushion and straight rail together (1 and 20 points an inning) would say nothing,
so a player of two disciplines has a line in each, and each discipline is ranked on
its own (disciplines in the order of ``referee.Discipline``). Match points and the best
average come from ``referee.standings`` over the discipline's finished matches, so
they are the core's own numbers [rules.md §5]; points, innings, the high run and the
shot categories add up every analysed match, finished or not. The ranking is the
standings' order (match points, then GA, BA, HR, all descending), with GA over every
analysed match; players level on all four keep alphabetical order, so the table does
not depend on the order the logs were read in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from carom.stats._model import MatchFigures, PlayerSeason, ShotCategories
from referee import Discipline, Standing, standings

__all__ = ["rank_players"]


def rank_players(matches: Sequence[MatchFigures]) -> tuple[PlayerSeason, ...]:
    """Every player of ``matches`` in each discipline they played: by discipline, best first."""
    order = {d.value: i for i, d in enumerate(Discipline)}
    kinds = sorted({m.discipline for m in matches}, key=lambda d: (order.get(d, len(order)), d))
    return tuple(p for d in kinds for p in _ranked([m for m in matches if m.discipline == d]))


def _ranked(matches: list[MatchFigures]) -> list[PlayerSeason]:
    """The players of ``matches`` (one discipline's), best first, ranked from 1."""
    table = {s.player: s for s in standings(m.result for m in matches if m.result is not None)}
    names = sorted({p for m in matches for p in m.players})
    seasons = [_season_of(p, [m for m in matches if p in m.players], table.get(p)) for p in names]
    best_first = sorted(seasons, key=PlayerSeason.rank_key, reverse=True)  # stable: by name
    return [replace(s, rank=i) for i, s in enumerate(best_first, start=1)]


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
        discipline=matches[0].discipline,
        rank=0,
        totals=totals,
        finished=len(points),
        won=points.count(2),
        drawn=points.count(1),
        lost=points.count(0),
        points_by_discipline=dict(sorted(by_discipline.items())),
        categories=sum((f.categories for f in mine), ShotCategories()),
    )
