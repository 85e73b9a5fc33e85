"""``stats.html``: the season on one self-contained page, readable on a phone and on paper.

Inline CSS and inline SVG plots (:mod:`carom.stats._plots`), no script and no external
resource (a strict CSP with no ``script-src`` shows it whole), so the file can be mailed
or opened offline. Every text from outside (player and match names, paths, reasons) is
escaped. Its fixed words come from the ``report`` catalogue in the page's language
(``lang``, as ``carom analyze --lang`` writes the report); the carom abbreviations (MP,
GA, BA, HR) and the numbers stay as they are. The plots: points per match for the
leading players, general average and high run per player, each player's shots by
category and, in the carom disciplines, the cue ball's opening.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path

from carom.i18n import catalogue, format_number
from carom.stats._categories import OPENING_DISCIPLINES
from carom.stats._model import MatchFigures, PlayerSeason, SeasonStats
from carom.stats._plots import bar_plot, line_plot, stacked_plot
from carom.stats._text import player_cells
from referee import CaromError

__all__ = ["LINE_PLAYERS", "render_stats_html", "write_stats_html"]

#: The points-per-match plot draws the first players of the ranking, no more.
LINE_PLAYERS = 8

_CSS = """
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:12px;background:#fff;color:#1b1e23}
:lang(ko) body{word-break:keep-all;overflow-wrap:anywhere}
main{max-width:1000px;margin:auto}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:13px;margin:4px 0}
th,td{border-bottom:1px solid #dde;padding:3px 6px;text-align:right;white-space:nowrap}
th.t,td.t{text-align:left}thead th{background:#eef1f5}
tr.first td{border-top:1px solid #99a}
figure.plot{margin:10px 0;padding:6px;border:1px solid #dde;break-inside:avoid}
figcaption{font-weight:bold;margin-bottom:4px}
p.note{color:#555;font-size:13px}
@media print{body{padding:0;font-size:11px}table{font-size:10px}thead{display:table-header-group}
tr,figure.plot{break-inside:avoid}.scroll{overflow:visible}}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _table(
    cls: str,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    text_cols: frozenset[int],
    row_classes: Sequence[str] = (),
) -> str:
    def cell(tag: str, i: int, value: object) -> str:
        attr = ' class="t"' if i in text_cols else ""
        return f"<{tag}{attr}>{_e(value)}</{tag}>"

    head = "".join(cell("th", i, h) for i, h in enumerate(header))
    body = []
    for n, row in enumerate(rows):
        cls_attr = f' class="{row_classes[n]}"' if n < len(row_classes) and row_classes[n] else ""
        body.append(
            f"<tr{cls_attr}>" + "".join(cell("td", i, v) for i, v in enumerate(row)) + "</tr>"
        )
    return (
        f'<div class="scroll"><table class="{cls}">\n<thead><tr>{head}</tr></thead>\n'
        f"<tbody>\n" + "\n".join(body) + "\n</tbody></table></div>"
    )


#: The columns by catalogue key (``season_*``); the carom abbreviations as they are.
_PLAYER_HEAD = ("#", "col_player", "col_discipline", "col_matches", "col_finished", "col_won",
                "col_drawn", "col_lost", "MP", "col_points", "col_innings", "GA", "BA", "HR",
                "col_shots", "scoring", "misses", "col_fouls", "col_review", "col_breaks",
                "ball_first", "cushion_1", "cushion_2", "cushion_3")  # fmt: skip
_MATCH_HEAD = ("#", "col_match", "col_discipline", "col_result", "col_player", "col_points",
               "col_innings", "col_average", "HR", "col_sets", "MP")  # fmt: skip

#: The columns holding averages, written with the language's decimal mark.
_AVERAGE_COLUMNS = frozenset({"GA", "BA", "col_average"})


class _Words:
    """The page's fixed words in ``lang`` (the ``report`` catalogue's ``season_*``)."""

    def __init__(self, lang: str) -> None:
        self.lang, self._catalogue = lang, catalogue("report")

    def __call__(self, key: str, **fields: object) -> str:
        return self._catalogue.text(self.lang, f"season_{key}", **fields)

    def head(self, keys: Sequence[str]) -> list[str]:
        """Column headers: a key's words, or the abbreviation as it is."""
        return [self(k) if k[0].islower() else k for k in keys]

    def tick(self, value: float) -> str:
        """A plot axis' value (``1.25``, ``2.5``, ``5``) as the language writes it."""
        places = next((d for d in range(3) if round(value, d) == round(value, 2)), 2)
        return format_number(self.lang, value, places)

    def decimals(self, value: object) -> object:
        """An average (``17.666``) with the language's decimal mark (``17,666``), else as is.

        A Dutch page read ``gemiddelde 50.000`` as fifty thousand, beside a report that
        writes ``1,000``.
        """
        if not (isinstance(value, str) and re.fullmatch(r"-?\d+\.\d+", value)):
            return value
        return format_number(self.lang, float(value), len(value.partition(".")[2]))

    def local(self, rows: list[list[object]], head: Sequence[str]) -> list[list[object]]:
        """``rows`` with their average columns in the language's way (:meth:`decimals`).

        Only those columns: a name that looks like a number stays as it is.
        """
        cols = {i for i, key in enumerate(head) if key in _AVERAGE_COLUMNS}
        return [[self.decimals(v) if i in cols else v for i, v in enumerate(row)] for row in rows]

    def discipline(self, name: str) -> str:
        return self._catalogue.text(self.lang, f"discipline_{name}")

    def label(self, s: PlayerSeason, season: SeasonStats) -> str:
        """A plot's name for ``s``: the player's, with the discipline in a mixed season."""
        if all(p.discipline == s.discipline for p in season.players):
            return s.player
        return f"{s.player} · {self.discipline(s.discipline)}"

    def result(self, m: MatchFigures) -> str:
        """``won by X``, ``drawn``, ``stopped`` or ``in progress``."""
        if m.finished:
            return self("drawn") if m.winner is None else self("won_by", player=m.winner)
        return self("stopped") if m.error else self("in_progress")


def _match_rows(matches: Sequence[MatchFigures], w: _Words) -> tuple[list[list[object]], list[str]]:
    rows: list[list[object]] = []
    classes: list[str] = []
    for n, m in enumerate(matches, start=1):
        for i, f in enumerate(m.figures):
            head: list[object] = (
                [n, m.name, w.discipline(m.discipline), w.result(m)] if i == 0 else [""] * 4
            )
            mp = "–" if f.match_points is None else f.match_points
            rows.append(
                [*head, f.player, f.points, f.innings, f.average, f.high_run, f.sets_won, mp]
            )
            classes.append("first" if i == 0 else "")
    return rows, classes


def _figure(caption: str, svg: str, note: str = "") -> str:
    extra = f'<p class="note">{_e(note)}</p>' if note else ""
    return f'<figure class="plot">\n<figcaption>{_e(caption)}</figcaption>\n{svg}{extra}</figure>'


def _points_figure(season: SeasonStats, w: _Words) -> str:
    """Points per match, one line per leading player (``None`` where they did not play).

    A player's line in one discipline has the matches of that discipline only.
    """
    leading = season.players[:LINE_PLAYERS]
    series = [
        (w.label(s, season), [float(m.of(s.player).points) if _played(s, m) else None
                              for m in season.matches])
        for s in leading
    ]  # fmt: skip
    more = len(season.players) - len(leading)
    note = w("first_players", shown=len(leading), more=more)
    svg = line_plot(w("points_plot"), series, len(season.matches), number=w.tick)
    return _figure(w("points_caption"), svg, note if more > 0 else "")


def _plots(season: SeasonStats, w: _Words) -> list[str]:
    players = season.players
    name = {id(s): w.label(s, season) for s in players}
    kinds = [w(k) for k in ("scoring", "misses", "fouls_no_points", "no_events")]
    shots = [(name[id(s)], _shot_parts(s)) for s in players]
    openings = [w(k) for k in ("ball_first", "cushion_1", "cushion_2", "cushion_3",
                               "no_ball_contact")]  # fmt: skip
    # The opening is counted in the carom disciplines only: a pin game's line has none.
    carom = [s for s in players if s.discipline in OPENING_DISCIPLINES] or players
    opening = [(name[id(s)], _opening_parts(s)) for s in carom]
    nobody = w("no_player")
    return [
        _points_figure(season, w),
        *_by_discipline(season, w),
        _figure(w("shots_caption"), stacked_plot(w("shots_caption"), kinds, shots, nobody)),
        _figure(w("opening_caption"), stacked_plot(w("opening_plot"), openings, opening, nobody)),
    ]


def _by_discipline(season: SeasonStats, w: _Words) -> list[str]:
    """The GA and HR bars, a pair per discipline.

    On one scale, a 7-pin game's 50 points an inning left three-cushion's 1.2 a sliver.
    """
    kinds = list(dict.fromkeys(s.discipline for s in season.players))
    out, nobody = [], w("no_player")
    for kind in kinds:
        lines = [s for s in season.players if s.discipline == kind]
        ga = [(s.player, s.points / s.innings if s.innings else 0.0,
               str(w.decimals(s.general_average))) for s in lines]  # fmt: skip
        hr = [(s.player, float(s.high_run), str(s.high_run)) for s in lines]
        of = f" · {w.discipline(kind)}" if len(kinds) > 1 else ""
        out += [_figure(w("ga_caption") + of, bar_plot(w("ga_plot") + of, ga, nobody)),
                _figure(w("hr") + of, bar_plot(w("hr") + of, hr, nobody))]  # fmt: skip
    return out or [_figure(w("ga_caption"), bar_plot(w("ga_plot"), [], nobody)),
                   _figure(w("hr"), bar_plot(w("hr"), [], nobody))]  # fmt: skip


def _played(s: PlayerSeason, m: MatchFigures) -> bool:
    return m.discipline == s.discipline and s.player in m.players


def _shot_parts(s: PlayerSeason) -> list[int]:
    c = s.categories
    fouled = c.shots - c.without_events - c.scoring - c.misses
    return [c.scoring, c.misses, fouled, c.without_events]


def _opening_parts(s: PlayerSeason) -> list[int]:
    c = s.categories
    return [
        c.ball_first,
        c.cushion_first_1,
        c.cushion_first_2,
        c.cushion_first_3plus,
        c.no_ball_contact,
    ]


def _skipped_html(season: SeasonStats, w: _Words) -> str:
    if not season.skipped:
        return ""
    items = "".join(f"<li>{_e(p)}: {_e(why)}</li>" for p, why in season.skipped)
    return f"<h2>{_e(w('skipped', n=len(season.skipped)))}</h2>\n<ul>{items}</ul>\n"


def render_stats_html(season: SeasonStats, title: str | None = None, lang: str = "en") -> str:
    """The whole page as text in ``lang`` (see :func:`write_stats_html`)."""
    w = _Words(lang)
    title = w("title") if title is None else title
    player_table = _table(
        "players",
        w.head(_PLAYER_HEAD),
        w.local(
            [player_cells(s, w.discipline(s.discipline)) for s in season.players], _PLAYER_HEAD
        ),
        frozenset({1, 2}),
    )
    rows, classes = _match_rows(season.matches, w)
    match_table = _table("matches", w.head(_MATCH_HEAD), w.local(rows, _MATCH_HEAD),
                         frozenset({1, 2, 3, 4}), classes)  # fmt: skip
    names = len({s.player for s in season.players})  # a line per discipline: one player
    summary = w("summary", matches=len(season.matches), players=names)
    return (
        f'<!DOCTYPE html>\n<html lang="{_e(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        f'<h1>{_e(title)}</h1>\n<p class="note">{_e(summary)}</p>\n'
        f"<h2>{_e(w('players'))}</h2>\n{player_table}\n"
        f"<h2>{_e(w('matches'))}</h2>\n{match_table}\n"
        f"{_skipped_html(season, w)}<h2>{_e(w('plots'))}</h2>\n"
        + "\n".join(_plots(season, w))
        + "\n</main>\n</body>\n</html>\n"
    )


def write_stats_html(
    season: SeasonStats, path: Path, title: str | None = None, lang: str = "en"
) -> None:
    """Write the page in ``lang`` as one self-contained HTML file (overwritten).

    Raises:
        CaromError: the file cannot be written (one line naming it).
    """
    text = render_stats_html(season, title, lang)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        why = exc.strerror or exc.__class__.__name__
        raise CaromError(f"{path}: cannot write ({why}); check the folder") from None
