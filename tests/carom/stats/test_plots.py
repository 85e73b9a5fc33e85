"""The season page's plots (``carom.stats._plots``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from carom.stats._plots import line_plot

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
