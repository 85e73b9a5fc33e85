"""``write_html(run, path, lang)`` on a real analysis of the bundled sample: the report in
Korean, with the per-shot CSV beside it; the scoresheet has a row per logged shot."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from carom.analyze import AnalyzeOptions, AnalyzeRun, analyze_video, write_html
from carom.i18n import catalogue
from referee import Table
from tests.carom.report.shot_csv_check import check_against_log

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> AnalyzeRun:
    out = tmp_path_factory.mktemp("ko")
    opts = AnalyzeOptions(video=SAMPLE, out=out, table=Table(), players=("Ana", "Ben"),
                          trajectories=False)  # fmt: skip
    return analyze_video(opts)


def test_the_report_is_written_in_korean_with_the_shot_csv_beside_it(run: AnalyzeRun) -> None:
    out = run.options.out
    write_html(run, out / "report.html", lang="ko")
    text = (out / "report.html").read_text(encoding="utf-8")
    page = _Tags()
    page.feed(text)
    words = "".join(page.text)
    assert '<html lang="ko">' in text
    cat = catalogue("report")
    for key in ("meta_video", "meta_frames", "sheet_heading", "col_average", "col_high_run"):
        assert cat.text("ko", key) in words, key
    assert "56.5초" in words  # the frames' seconds, as Korean writes them
    doc = json.loads((out / "shots.json").read_text(encoding="utf-8"))
    n = len(doc["shots"])
    sections = [a for t, a in page.tags if t == "section"]
    plots = [a for t, a in page.tags if t == "svg" and "plot" in (a.get("class") or "")]
    assert len(sections) == n == 4 and len(plots) == 2
    assert sum(1 for t, _ in page.tags if t == "svg") == n + 2  # a diagram a card, two plots
    assert re.findall(r'<a href="#(shot-\d+)">', text) == [a["id"] for a in sections]
    check_against_log((out / "shots.csv").read_text(encoding="utf-8"), doc, SAMPLE.name)


def test_an_unknown_language_gives_english(run: AnalyzeRun, tmp_path: Path) -> None:
    write_html(run, tmp_path / "report.html", lang="xx")
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in text and "<dt>video</dt>" in text and "Scoresheet" in text
