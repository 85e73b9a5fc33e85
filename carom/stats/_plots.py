"""Inline SVG plots for the stats page, drawn from numbers only (no library, no script).

Three shapes: a line per player over the matches (:func:`line_plot`), one bar per
player (:func:`bar_plot`) and one stacked bar per player (:func:`stacked_plot`).
Coordinates are SVG user units (px at 100 %); the viewBox scales the plot to the page.
Every label is escaped; colours are the Okabe-Ito palette, readable in print and by
colour-blind readers.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Callable, Sequence

__all__ = ["PALETTE", "bar_plot", "line_plot", "stacked_plot"]

PALETTE = ("#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9", "#8a7d00", "#000")
_WIDTH = 640
_LABEL_W = 150  # the player names left of the bars
_ROW_H = 22
_LEGEND_ROW = 18
_FONT = 'font-family="system-ui,sans-serif" font-size="12"'


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _short(name: str, most: int = 20) -> str:
    return name if len(name) <= most else name[: most - 1] + "…"


def _svg(height: float, title: str, body: list[str]) -> str:
    return (
        f'<svg class="plot" viewBox="0 0 {_WIDTH} {height:.0f}" width="100%" role="img" '
        f'aria-label="{_e(title)}" {_FONT}>\n<title>{_e(title)}</title>\n'
        + "\n".join(body)
        + "\n</svg>"
    )


def _top(values: Sequence[float]) -> float:
    """A round axis maximum at or above every value (1 when all are 0)."""
    peak = max(values, default=0.0)
    if peak <= 0:
        return 1.0
    step = float(10 ** len(str(int(peak)))) / 10
    for factor in (1, 2, 2.5, 5, 10):
        if peak <= step * factor:
            return step * factor
    return peak  # not reached


def _legend(names: Sequence[str], y: float, most: int = 24) -> tuple[list[str], float]:
    """Swatches and names in rows as wide as the plot; the height the rows add below ``y``.

    A name past ``most`` letters is cut short. Eight players of long names (or names
    with their discipline) ran past the plot's right edge, cut off.
    """
    out, x, below = [], 8.0, 0.0
    for i, name in enumerate(names):
        label = _short(name, most)
        if x > 8.0 and x + 14 + _text_px(label) > _WIDTH - 4:
            x, below = 8.0, below + _LEGEND_ROW
        out.append(
            f'<rect x="{x:.0f}" y="{y + below - 10:.0f}" width="10" height="10" '
            f'fill="{PALETTE[i % len(PALETTE)]}"/>'
        )
        out.append(f'<text x="{x + 14:.0f}" y="{y + below:.0f}">{_e(label)}</text>')
        x += 24 + _text_px(label)
    return out, below


def _text_px(text: str) -> float:
    """About how wide ``text`` is drawn in the plots' 12 px type.

    A wide letter (Hangul, kanji) counts about twice a narrow one.
    """
    return sum(13.0 if unicodedata.east_asian_width(c) in "WF" else 7.0 for c in text)


def _plain(value: float) -> str:
    return f"{value:g}"


def line_plot(
    title: str, series: Sequence[tuple[str, Sequence[float | None]]], n: int,
    number: Callable[[float], str] = _plain,
) -> str:  # fmt: skip
    """One line per (name, value per match; ``None``: not in that match) over ``n`` matches.

    ``number`` writes the axis' values (the page's language: ``1,25`` in Turkish).
    """
    left, right, plot_h = 44.0, 12.0, 180.0
    step = (_WIDTH - left - right) / max(n, 1)
    peak = _top([v for _, vs in series for v in vs if v is not None])
    body, below = _legend([name for name, _ in series], 16)
    top = 28.0 + below
    for k in range(5):
        y = top + plot_h * (1 - k / 4)
        body.append(
            f'<line x1="{left}" x2="{_WIDTH - right}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke="#ccd"/><text x="{left - 4}" y="{y + 4:.1f}" '
            f'text-anchor="end">{number(peak * k / 4)}</text>'
        )
    every = max(1, n // 20)
    for i in range(0, n, every):
        x = left + (i + 0.5) * step
        body.append(
            f'<text x="{x:.1f}" y="{top + plot_h + 16:.0f}" text-anchor="middle">{i + 1}</text>'
        )
    for s, (_, values) in enumerate(series):
        colour = PALETTE[s % len(PALETTE)]
        xy = [
            None if v is None else (left + (i + 0.5) * step, top + plot_h * (1 - v / peak))
            for i, v in enumerate(values)
        ]
        # A line through the matches played in a row; broken where the player did not
        # play (it ran across those matches as if they had).
        for run in _runs(xy):
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
            body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                        'stroke-width="2"/>')  # fmt: skip
        body += [f'<circle cx="{p[0]:.1f}" cy="{p[1]:.1f}" r="3" fill="{colour}"/>'
                 for p in xy if p is not None]  # fmt: skip
    return _svg(top + plot_h + 24, title, body)


def _runs(xy: Sequence[tuple[float, float] | None]) -> list[list[tuple[float, float]]]:
    """The points in runs of two or more, split where a point is missing (``None``)."""
    runs: list[list[tuple[float, float]]] = [[]]
    for p in xy:
        if p is None:
            runs.append([])
        else:
            runs[-1].append(p)
    return [r for r in runs if len(r) >= 2]


def bar_plot(title: str, rows: Sequence[tuple[str, float, str]], empty: str = "no player") -> str:
    """One horizontal bar per (name, value, value as shown); ``empty`` said for none."""
    peak = _top([v for _, v, _ in rows])
    span = _WIDTH - _LABEL_W - 70
    body = []
    for i, (name, value, shown) in enumerate(rows):
        y = 8 + i * _ROW_H
        w = span * max(value, 0.0) / peak
        body.append(
            f'<text x="{_LABEL_W - 6}" y="{y + 14}" text-anchor="end">{_e(_short(name))}</text>'
        )
        body.append(
            f'<rect x="{_LABEL_W}" y="{y + 3}" width="{w:.1f}" height="{_ROW_H - 6}" '
            f'fill="{PALETTE[0]}"/>'
        )
        body.append(f'<text x="{_LABEL_W + w + 4:.1f}" y="{y + 14}">{_e(shown)}</text>')
    if not rows:
        body.append(f'<text x="8" y="20">{_e(empty)}</text>')
    return _svg(16 + max(len(rows), 1) * _ROW_H, title, body)


def stacked_plot(
    title: str, parts: Sequence[str], rows: Sequence[tuple[str, Sequence[int]]],
    empty: str = "no player",
) -> str:  # fmt: skip
    """One bar per (name, count per part), the parts side by side, total at the end."""
    peak = _top([float(sum(counts)) for _, counts in rows])
    span = _WIDTH - _LABEL_W - 70
    body, below = _legend(parts, 16)  # the page's own words: whole in every language
    for i, (name, counts) in enumerate(rows):
        y = 28 + below + i * _ROW_H
        body.append(
            f'<text x="{_LABEL_W - 6}" y="{y + 14}" text-anchor="end">{_e(_short(name))}</text>'
        )
        x = float(_LABEL_W)
        for k, count in enumerate(counts):
            w = span * count / peak
            if w > 0:
                body.append(
                    f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" '
                    f'height="{_ROW_H - 6}" fill="{PALETTE[k % len(PALETTE)]}">'
                    f"<title>{_e(parts[k])}: {count}</title></rect>"
                )
            x += w
        body.append(f'<text x="{x + 4:.1f}" y="{y + 14}">{sum(counts)}</text>')
    if not rows:
        body.append(f'<text x="8" y="{44 + below:.0f}">{_e(empty)}</text>')
    return _svg(36 + below + max(len(rows), 1) * _ROW_H, title, body)
