"""``stats-players.csv`` and ``stats-matches.csv``: the season for a spreadsheet.

One row per player (ranked), and one row per match and player (matches in order).
Numbers are written as numbers (averages with three decimals, truncated); an unknown
value (match points of a match in progress, no winner) is an empty cell; ``draw`` is
1 or 0. A text cell a spreadsheet would run as a formula (a player named
``=HYPERLINK(...)``: it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return) is written with a leading ``'`` (OWASP; docs/security.md). The headers are
fixed, every discipline and foul name a column whether the season has it or not, so
seasons line up column by column (docs/stats.md).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from carom.stats._model import MatchFigures, PlayerSeason, SeasonStats, ShotCategories
from referee import CaromError, Discipline, Foul

__all__ = ["CATEGORY_HEADER", "MATCH_HEADER", "PLAYER_HEADER", "text_cell", "write_stats_csv"]

CATEGORY_HEADER: tuple[str, ...] = (
    *ShotCategories().counts(),
    "fouls",
    *(f"foul_{f.value}" for f in Foul),
)
PLAYER_HEADER: tuple[str, ...] = (
    "rank",
    "player",
    "discipline",
    "matches",
    "finished",
    "won",
    "drawn",
    "lost",
    "match_points",
    "points",
    "innings",
    "general_average",
    "best_average",
    "high_run",
    *(f"points_{d.value}" for d in Discipline),
    *CATEGORY_HEADER,
)
MATCH_HEADER: tuple[str, ...] = (
    "match",
    "name",
    "path",
    "discipline",
    "phase",
    "winner",
    "draw",
    "player",
    "points",
    "innings",
    "average",
    "high_run",
    "sets_won",
    "match_points",
    "error",
    *CATEGORY_HEADER,
)


#: What a spreadsheet takes for the start of a formula (OWASP, CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """A text cell as written: one that would start a formula gets a leading ``'``."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def _categories_row(c: ShotCategories) -> list[Any]:
    return [*c.counts().values(), c.foul_total, *(c.fouls.get(f.value, 0) for f in Foul)]


def _player_row(s: PlayerSeason) -> list[Any]:
    by_discipline = [s.points_by_discipline.get(d.value, 0) for d in Discipline]
    return [
        s.rank,
        text_cell(s.player),
        s.discipline,
        *s.figures(),
        *by_discipline,
        *_categories_row(s.categories),
    ]


def _match_rows(number: int, m: MatchFigures) -> list[list[Any]]:
    texts = [text_cell(t) for t in (m.name, str(m.path), m.discipline, m.phase, m.winner or "")]
    head = [number, *texts, int(m.draw)]
    return [
        [
            *head,
            text_cell(f.player),
            f.points,
            f.innings,
            f.average,
            f.high_run,
            f.sets_won,
            "" if f.match_points is None else f.match_points,
            text_cell(m.error or ""),
            *_categories_row(f.categories),
        ]
        for f in m.figures
    ]


def _write(path: Path, header: tuple[str, ...], rows: list[list[Any]]) -> None:
    try:
        with path.open("w", encoding="utf-8", newline="") as f:
            out = csv.writer(f)
            out.writerow(header)
            out.writerows(rows)
    except OSError as exc:
        why = exc.strerror or exc.__class__.__name__
        raise CaromError(f"{path}: cannot write ({why}); check the folder") from None


def write_stats_csv(season: SeasonStats, folder: Path) -> list[Path]:
    """Write the two CSV files into ``folder`` (made if missing); their paths.

    Raises:
        CaromError: a file cannot be written (one line naming it).
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        why = exc.strerror or exc.__class__.__name__
        raise CaromError(f"{folder}: cannot make the folder ({why}); give --out") from None
    players = folder / "stats-players.csv"
    matches = folder / "stats-matches.csv"
    player_rows = [_player_row(s) for s in season.players]
    match_rows = [r for i, m in enumerate(season.matches, start=1) for r in _match_rows(i, m)]
    _write(players, PLAYER_HEADER, player_rows)
    _write(matches, MATCH_HEADER, match_rows)
    return [players, matches]
