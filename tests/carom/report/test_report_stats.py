"""The report's plots (``carom.report._report_stats``): their axes."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from carom.report._report_stats import LEFT, runs_plot

SVG = "{http://www.w3.org/2000/svg}"


def _words(key: str, **fields: object) -> str:
    return key


def test_the_run_length_axis_names_its_last_bar() -> None:
    """A run of 50: the labels stopped at 48 beside a bar at 50."""
    root = ET.fromstring(runs_plot({"A": [50, 3, 0], "B": [1, 2]}, _words))
    labels = [t.text for t in root.iter(SVG + "text") if t.get("text-anchor") == "middle"
              and t.get("transform") is None]  # fmt: skip
    numbers = [int(x) for x in labels if x and x.isdigit()]
    assert numbers[-1] == 50 and numbers[0] == 0
    assert all(b - a >= 2 for a, b in itertools.pairwise(numbers))  # no crowding


def test_the_y_axis_name_clears_three_digit_ticks() -> None:
    """The rotated name sat against the tick labels (``득점`` on ``25``; ``100`` overlapped)."""
    root = ET.fromstring(runs_plot({"A": [1] * 100}, _words))
    ticks = [t for t in root.iter(SVG + "text") if t.get("text-anchor") == "end"]
    name = next(t for t in root.iter(SVG + "text") if t.get("transform"))
    widest = max(len(t.text or "") for t in ticks)  # 0.6 em a digit; plot text is 13 px
    tick_left = LEFT - 4 - widest * 0.6 * 13
    assert float(name.get("x", "0")) + 0.6 * 13 < tick_left
