"""``carom stats --json``: the season as one JSON document (format ``carom-stats/1``).

A match's ``statistics`` carry the keys of ``carom score --json``'s with the same
values, plus the player's ``categories``. Field meanings: docs/stats.md.
"""

from __future__ import annotations

from typing import Any

from carom.stats._model import MatchFigures, PlayerSeason, SeasonStats, ShotCategories

__all__ = ["FORMAT", "categories_json", "stats_json"]

FORMAT = "carom-stats/1"


def categories_json(c: ShotCategories) -> dict[str, Any]:
    """The counts by name, then ``fouls``: foul name -> times called."""
    return {**c.counts(), "fouls": dict(c.fouls)}


def _player_json(s: PlayerSeason) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "player": s.player,
        "discipline": s.discipline,
        "matches": s.matches,
        "finished": s.finished,
        "won": s.won,
        "drawn": s.drawn,
        "lost": s.lost,
        "match_points": s.match_points,
        "points": s.points,
        "innings": s.innings,
        "general_average": s.general_average,
        "best_average": s.best_average_text,
        "high_run": s.high_run,
        "points_by_discipline": dict(s.points_by_discipline),
        "categories": categories_json(s.categories),
    }


def _match_json(number: int, m: MatchFigures) -> dict[str, Any]:
    stats = {
        f.player: {
            "match_points": f.match_points,
            "points": f.points,
            "innings": f.innings,
            "average": f.average,
            "high_run": f.high_run,
            "sets_won": f.sets_won,
            "categories": categories_json(f.categories),
        }
        for f in m.figures
    }
    return {
        "match": number,
        "name": m.name,
        "path": str(m.path),
        "parts": [str(p) for p in m.parts or (m.path,)],
        "discipline": m.discipline,
        "players": list(m.players),
        "phase": m.phase,
        "winner": m.winner,
        "draw": m.draw,
        "tied": list(m.tied),
        "statistics": stats,
        "error": m.error,
        "unjudged": m.unjudged,
    }


def stats_json(season: SeasonStats) -> dict[str, Any]:
    """The whole document: ``players`` ranked, ``matches`` in order, ``skipped``."""
    return {
        "format": FORMAT,
        "players": [_player_json(s) for s in season.players],
        "matches": [_match_json(i, m) for i, m in enumerate(season.matches, start=1)],
        "skipped": [{"path": str(p), "reason": why} for p, why in season.skipped],
    }
