"""The season page's plots (``carom.stats._plots``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from carom.stats._html import _Words
from carom.stats._plots import bar_plot, line_plot, stacked_plot

SVG = ""  # inline in the page: no namespace


def test_a_player_s_line_breaks_where_they_did_not_play() -> None:
    """B played matches 1 and 4 of four: the line ran across 2 and 3 as if B had."""
    svg = ET.fromstring(line_plot("points", [("A", [3.0, 5.0, 2.0, 4.0]),
                                             ("B", [6.0, None, None, 1.0])], 4))  # fmt: skip
    lines = [p.get("points", "").split() for p in svg.iter(SVG + "polyline")]
    assert [len(points) for points in lines] == [4]  # A's only: B's two points stand alone
    assert len(list(svg.iter(SVG + "circle"))) == 6
    two = ET.fromstring(line_plot("points", [("B", [6.0, 2.0, None, 1.0, 3.0])], 5))
    assert [len(p.get("points", "").split()) for p in two.iter(SVG + "polyline")] == [2, 2]


def _legend_texts(svg: ET.Element) -> list[tuple[float, float, str]]:
    """(x, y, text) of the legend's names: the texts right of a swatch."""
    rects = {(float(r.get("x", 0)) + 14, float(r.get("y", 0)) + 10) for r in svg.iter("rect")}
    texts = [(float(t.get("x", 0)), float(t.get("y", 0)), t.text or "") for t in svg.iter("text")]
    return [t for t in texts if (t[0], t[1]) in rects]


def test_a_legend_of_long_names_wraps_inside_the_plot_and_the_plot_moves_down() -> None:
    """Eight long names (or names with their discipline) ran past the right edge, cut off."""
    names = [f"Player {i} · three-cushion" for i in range(8)]
    svg = ET.fromstring(line_plot("points", [(n, [1.0, 2.0]) for n in names], 2))
    width = float(svg.get("viewBox", "0 0 0 0").split()[2])
    legend = _legend_texts(svg)
    assert [t for _, _, t in legend] == names  # all, whole (24 letters), in order
    assert all(x + 7 * len(t) <= width for x, _, t in legend)
    rows = sorted({y for _, y, _ in legend})
    assert len(rows) >= 2
    grid = [float(line.get("y1", 0)) for line in svg.iter("line")]
    assert min(grid) > rows[-1]  # the plot starts below the legend's last row
    short = ET.fromstring(line_plot("points", [("A", [1.0, 2.0]), ("B", [2.0, 1.0])], 2))
    assert len({y for _, y, _ in _legend_texts(short)}) == 1


def test_the_axis_and_an_empty_plot_speak_the_page_s_language() -> None:
    """A Turkish page's axis read 1.25 / 2.5 / 3.75 beside averages written 1,600, and an
    empty plot said "no player" in English (found by a review as a non-English club)."""
    turkish = _Words("tr")
    assert [turkish.tick(v) for v in (0.0, 1.25, 2.5, 3.75, 5.0)] == [
        "0",
        "1,25",
        "2,5",
        "3,75",
        "5",
    ]
    assert _Words("en").tick(2.5) == "2.5" and _Words("ko").tick(1250.0) == "1,250"
    svg = ET.fromstring(line_plot("points", [("A", [5.0, 1.0])], 2, number=turkish.tick))
    assert {"1,25", "2,5", "3,75"} <= {t.text for t in svg.iter("text")}
    empty = ET.fromstring(bar_plot("GA", [], turkish("no_player")))
    assert [t.text for t in empty.iter("text")][-1] == "oyuncu yok"
    stacked = ET.fromstring(stacked_plot("shots", ["a"], [], turkish("no_player")))
    assert [t.text for t in stacked.iter("text")][-1] == "oyuncu yok"
