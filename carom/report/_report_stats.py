"""The report's match panel: result, per-player figures and two small inline-SVG plots.

* :class:`MatchSummary` (from :func:`match_summary`): what ``carom score`` prints under
  the scoresheet (result, score, innings, average, high run, sets), as data;
* :func:`inning_points`: each player's points inning by inning, from the judged shots;
* :func:`points_plot`, :func:`runs_plot`: bars per inning, and how many innings gave
  each run length (an inning's points: its run), one colour per player.

A plot is plain ``<svg>`` (no script), its every text escaped; each bar has a
``<title>`` saying what it is (a phone shows it on a long press).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from carom.match import ScoreRun
from referee import LagResult, MatchConfig, ShotRecord, match_stats

__all__ = ["MatchSummary", "PlayerLine", "inning_points", "match_summary", "points_plot",
           "runs_plot"]  # fmt: skip

#: ``tr(key, **fields)``: a report message in the report's language (unescaped).
Tr = Callable[..., str]
W, H, LEFT, BOTTOM, TOP, RIGHT = 420.0, 200.0, 48.0, 40.0, 10.0, 8.0


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLine:
    """One player's figures over the match (``average`` the referee's truncated text)."""

    player: str
    board: int
    innings: int
    average: str
    high_run: int
    sets_won: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchSummary:
    """The match as the report's panel shows it.

    Args:
        discipline: The discipline's name (``three-cushion``).
        players: In the order of play.
        lines: One per player, same order.
        winner: Who won; ``None`` while in progress or drawn.
        draw: The match ended drawn; ``tied``: who shares it (empty: everyone).
        lag: The lag's reason (the referee's words), if a lag was judged; ``lag_result``
            the result itself (the report says it in its language).
        audit: The corrections a person made: (version, shots played, action, detail).
        config: The set-up the shots were judged under (the panel says it), if known.
    """

    discipline: str
    players: tuple[str, ...]
    lines: tuple[PlayerLine, ...]
    winner: str | None = None
    draw: bool = False
    tied: tuple[str, ...] = ()
    lag: str | None = None
    lag_result: LagResult | None = None
    audit: tuple[tuple[int, int, str, str], ...] = ()
    config: MatchConfig | None = None


def match_summary(run: ScoreRun) -> MatchSummary:
    """The summary of a scored match (``carom score``'s figures)."""
    state = run.match.state
    stats = match_stats(state)
    lines = tuple(
        PlayerLine(player=p, board=state.board(p), innings=stats[p].innings,
                   average=stats[p].average, high_run=stats[p].high_run,
                   sets_won=stats[p].sets_won)
        for p in state.config.players
    )  # fmt: skip
    audit = tuple((a.version, a.shots_played, a.action, a.detail) for a in state.audit)
    return MatchSummary(
        discipline=str(state.config.discipline), players=tuple(state.config.players),
        lines=lines, winner=state.winner, draw=state.draw, tied=tuple(state.tied),
        lag=None if run.lag is None else run.lag.reason, lag_result=run.lag, audit=audit,
        config=run.setup or state.config,
    )  # fmt: skip


def inning_points(records: Sequence[ShotRecord], players: Sequence[str]) -> dict[str, list[int]]:
    """Each player's points per inning in play order (sets one after the other)."""
    out: dict[str, dict[tuple[int, int], int]] = {p: {} for p in players}
    for r in records:
        innings = out.setdefault(r.player, {})
        key = (r.set_index, r.inning)
        innings[key] = innings.get(key, 0) + r.verdict.points
    return {p: list(innings.values()) for p, innings in out.items()}


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _axes(top: int, x_label: str, y_label: str) -> list[str]:
    """The frame, the y ticks (0, the middle, ``top``) and the axis names."""
    x0, y0, y1 = LEFT, H - BOTTOM, TOP
    out = [f'<line x1="{x0}" y1="{y0}" x2="{W - RIGHT}" y2="{y0}"/>',
           f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}"/>']  # fmt: skip
    for value in sorted({0, top // 2, top}):
        y = y0 - (y0 - y1) * value / top
        out.append(f'<text x="{x0 - 4}" y="{_f(y + 4)}" text-anchor="end">{value}</text>')
    out.append(
        f'<text x="{_f((x0 + W) / 2)}" y="{H - 4}" text-anchor="middle">{_e(x_label)}</text>'
    )
    # The axis name clear of three-digit ticks (it touched them at x 13 with LEFT 38).
    out.append(f'<text x="11" y="{_f((y0 + y1) / 2)}" text-anchor="middle" '
               f'transform="rotate(-90 11 {_f((y0 + y1) / 2)})">{_e(y_label)}</text>')  # fmt: skip
    return out


def _top(series: Mapping[str, Sequence[int]]) -> int:
    """The y axis' top: the largest value, at least 1."""
    return max([1, *(v for values in series.values() for v in values)])


def _bars(groups: Sequence[str], series: Mapping[str, Sequence[int]],
          titles: Callable[[str, int, int], str]) -> list[str]:  # fmt: skip
    """Grouped bars: one group per label, one bar per player (seat colour ``pN``).

    Heights are scaled to :func:`_top`; a negative value is drawn as an empty bar.
    """
    top = _top(series)
    width = (W - LEFT - RIGHT) / max(1, len(groups))
    bar = min(width * 0.8 / max(1, len(series)), 36.0)
    pad = (width - bar * len(series)) / 2
    every = max(1, len(groups) // 15)  # at most ~15 labels on the x axis
    out = []
    for g, label in enumerate(groups):
        x = LEFT + g * width
        last = g == len(groups) - 1  # named too (a run of 50 had its axis end at 48)
        if last or (g % every == 0 and len(groups) - 1 - g >= every / 2):
            out.append(f'<text x="{_f(x + width / 2)}" y="{_f(H - BOTTOM + 16)}" '
                       f'text-anchor="middle">{_e(label)}</text>')  # fmt: skip
        for seat, (player, values) in enumerate(series.items()):
            if g >= len(values):
                continue
            h = (H - BOTTOM - TOP) * max(0, values[g]) / top
            out.append(
                f'<rect class="bar p{seat % 8}" x="{_f(x + pad + seat * bar)}" '
                f'y="{_f(H - BOTTOM - h)}" width="{_f(bar)}" height="{_f(h)}">'
                f"<title>{_e(titles(player, g, values[g]))}</title></rect>"
            )
    return out


def _svg(kind: str, title: str, body: list[str]) -> str:
    return (f'<svg class="plot {kind}" xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 0 {_f(W)} {_f(H)}" role="img"><title>{_e(title)}</title>\n'
            + "\n".join(body) + "\n</svg>")  # fmt: skip


def points_plot(per_inning: Mapping[str, Sequence[int]], tr: Tr, first_inning: int = 1) -> str:
    """Bars of each player's points in each inning (x: the inning, from ``first_inning``).

    A match joined in progress goes on from the inning it was joined at.
    """
    n = max((len(v) for v in per_inning.values()), default=0)

    def said(player: str, g: int, v: int) -> str:
        return tr("plot_bar_points", player=player, inning=g + first_inning, points=v)

    bars = _bars([str(i + first_inning) for i in range(n)], per_inning, said)
    axes = _axes(_top(per_inning), tr("plot_points_x"), tr("col_points"))
    return _svg("points", tr("plot_points_title"), axes + bars)


def runs_plot(per_inning: Mapping[str, Sequence[int]], tr: Tr) -> str:
    """How many innings of each length (0, 1, 2 ... points) each player had."""
    longest = max((v for values in per_inning.values() for v in values), default=0)
    counts = {p: [list(v).count(k) for k in range(max(0, longest) + 1)]
              for p, v in per_inning.items()}  # fmt: skip
    bars = _bars([str(k) for k in range(max(0, longest) + 1)], counts,
                 lambda p, g, c: tr("plot_bar_runs", player=p, count=c, points=g))  # fmt: skip
    axes = _axes(_top(counts), tr("plot_runs_x"), tr("plot_count"))
    return _svg("runs", tr("plot_runs_title"), axes + bars)
