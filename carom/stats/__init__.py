"""A season's statistics from many shot logs (``carom stats``, docs/stats.md).

* :func:`collect_stats`: every shot log of some folders (``carom batch``'s output) or
  files replayed through the referee core -> :class:`SeasonStats`: each match's
  figures (:class:`MatchFigures`, :class:`PlayerMatch`), each player over the season
  ranked as the standings rank (:class:`PlayerSeason`), the logs skipped (not read, or
  the same bytes as another);
* :class:`ShotCategories`: what the shots were (scoring, misses, fouls by name, review,
  breaks, the cue ball's opening in the carom disciplines);
* renderers: :func:`stats_text` (two aligned tables), :func:`stats_json` (``--json``),
  :func:`write_stats_csv` (``stats-players.csv``, ``stats-matches.csv``) and
  :func:`write_stats_html` (one self-contained page with inline SVG plots).
"""

from carom.stats._collect import collect_stats
from carom.stats._csv import MATCH_HEADER, PLAYER_HEADER, write_stats_csv
from carom.stats._html import render_stats_html, write_stats_html
from carom.stats._json import stats_json
from carom.stats._model import MatchFigures, PlayerMatch, PlayerSeason, SeasonStats, ShotCategories
from carom.stats._text import stats_text

__all__ = [
    "MATCH_HEADER",
    "PLAYER_HEADER",
    "MatchFigures",
    "PlayerMatch",
    "PlayerSeason",
    "SeasonStats",
    "ShotCategories",
    "collect_stats",
    "render_stats_html",
    "stats_json",
    "stats_text",
    "write_stats_csv",
    "write_stats_html",
]
