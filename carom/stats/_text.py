"""``carom stats`` in the terminal: the players table, the matches table, skipped logs.

Plain text, columns aligned (names left, numbers right), one header line each.
Column meanings: docs/stats.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from carom.i18n import display_width, pad_to
from carom.stats._model import MatchFigures, PlayerSeason, SeasonStats

__all__ = ["player_cells", "render_table", "result_text", "stats_text"]

_PLAYER_COLUMNS = (
    "#",
    "player",
    "discipline",
    "M",
    "fin",
    "W",
    "D",
    "L",
    "MP",
    "points",
    "inn",
    "GA",
    "BA",
    "HR",
    "shots",
    "score",
    "miss",
    "fouls",
    "review",
    "break",
    "ball1st",
    "1c",
    "2c",
    "3c+",
)
_MATCH_COLUMNS = (
    "#",
    "match",
    "discipline",
    "phase",
    "result",
    "player",
    "points",
    "inn",
    "avg",
    "HR",
    "sets",
    "MP",
)
_LEFT = frozenset({"player", "match", "discipline", "phase", "result"})


def render_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Rows under a header, each column as wide as its widest cell (text left, numbers right)."""
    cells = [[str(c) for c in header], *([str(c) for c in r] for r in rows)]
    widths = [max(display_width(row[i]) for row in cells) for i in range(len(header))]
    lines = []
    for row in cells:
        parts = [
            pad_to(c, w, right=h not in _LEFT) for c, w, h in zip(row, widths, header, strict=True)
        ]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def player_cells(s: PlayerSeason, discipline: str | None = None) -> list[object]:
    """One player's line of the players table (the text and the HTML page).

    ``discipline``: the discipline's name as shown (default: as in the logs).
    """
    c = s.categories
    return [
        s.rank,
        s.player,
        s.discipline if discipline is None else discipline,
        *s.figures(),
        c.shots,
        c.scoring,
        c.misses,
        c.foul_total,
        c.review,
        c.breaks,
        c.ball_first,
        c.cushion_first_1,
        c.cushion_first_2,
        c.cushion_first_3plus,
    ]


def result_text(m: MatchFigures) -> str:
    """``won by X``, ``drawn`` or ``in progress`` (``stopped`` when the replay stopped)."""
    if m.finished:
        return "drawn" if m.winner is None else f"won by {m.winner}"
    return "stopped" if m.error else "in progress"


def _match_rows(number: int, m: MatchFigures) -> list[list[object]]:
    rows: list[list[object]] = []
    for i, f in enumerate(m.figures):
        head: list[object] = [number, m.name, m.discipline, m.phase, result_text(m)]
        if i:
            head = ["", "", "", "", ""]  # the match once, on its first player's line
        mp = "-" if f.match_points is None else f.match_points
        rows.append([*head, f.player, f.points, f.innings, f.average, f.high_run, f.sets_won, mp])
    return rows


def _players_head(season: SeasonStats) -> str:
    """``3``, or ``3; 4 lines, ranked by discipline`` when some play several."""
    names = len({s.player for s in season.players})
    if names == len(season.players):
        return str(names)
    return f"{names}; {len(season.players)} lines, ranked by discipline"


def _skipped_lines(season: SeasonStats) -> list[str]:
    if not season.skipped:
        return []
    lines = [f"skipped {len(season.skipped)} shot log(s) (not read, or read already):"]
    return lines + [f"  {path}: {why}" for path, why in season.skipped]


def stats_text(season: SeasonStats) -> str:
    """The players table (ranked), the matches table, then the skipped logs if any."""
    players = [player_cells(s) for s in season.players]
    matches = [r for i, m in enumerate(season.matches, start=1) for r in _match_rows(i, m)]
    parts = [
        f"Players ({_players_head(season)})\n" + render_table(_PLAYER_COLUMNS, players),
        f"Matches ({len(season.matches)})\n" + render_table(_MATCH_COLUMNS, matches),
    ]
    stopped = [f"  {m.name}: stopped: {m.error}" for m in season.matches if m.error]
    if stopped:
        parts.append("replays that stopped before the log's end:\n" + "\n".join(stopped))
    skipped = _skipped_lines(season)
    if skipped:
        parts.append("\n".join(skipped))
    return "\n\n".join(parts)
