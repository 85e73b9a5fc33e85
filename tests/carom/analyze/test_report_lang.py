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


def test_the_run_s_notes_about_the_match_are_in_the_report_s_language(
    run: AnalyzeRun, tmp_path: Path
) -> None:
    """The clip has no lag: "no lag seen" is said in Korean; a note from elsewhere (not
    keyed) stays as it was written."""
    english = run.notes[0]
    assert english.startswith("no lag seen: the match is joined in progress")
    assert run.keyed_notes[english].key == "no_lag"
    run.notes.append("ball detector: something technical")
    try:
        write_html(run, tmp_path / "report.html", lang="ko")
    finally:
        run.notes.pop()
    page = _Tags()
    page.feed((tmp_path / "report.html").read_text(encoding="utf-8"))
    words = "".join(page.text)
    assert catalogue("report").text("ko", "run_note_no_lag") in words
    assert "no lag seen" not in words and "ball detector: something technical" in words
    write_html(run, tmp_path / "en.html", lang="en")
    assert english in (tmp_path / "en.html").read_text(encoding="utf-8").replace("&#x27;", "'")


def test_an_unknown_language_gives_english(run: AnalyzeRun, tmp_path: Path) -> None:
    write_html(run, tmp_path / "report.html", lang="xx")
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in text and "<dt>video</dt>" in text and "Scoresheet" in text
