"""The designed report page, parsed back: the match panel, the statistics plots, the
scoresheet table (a row per shot), a card per shot with its diagram, in two languages.

The match is the bundled example log (a lag, 14 shots, points, misses, a foul), judged
by the referee; the second player is named ``<b>&``.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from carom.i18n import catalogue, format_number
from carom.match import score_document
from carom.report import ReportShot, match_summary, render_report
from referee import Ball, parse_shot_log
from vision import ScoredEvent

EXAMPLE = Path(__file__).parents[3] / "examples" / "three_cushion_match.json"
NASTY = "<b>&"


def _example(start: dict[str, Any] | None = None) -> tuple[list[ReportShot], Any]:
    """The example's shots judged, the second player renamed ``<b>&`` (``start``: joined)."""
    text = EXAMPLE.read_text(encoding="utf-8")
    doc = json.loads(text)
    if start is not None:  # joined with points: a target it cannot reach before the end
        doc["match"]["start"], doc["match"]["target"] = start, 100
        doc.pop("lag", None)  # a match joined in progress has no lag
    old = doc["match"]["players"][1]
    doc = json.loads(json.dumps(doc).replace(json.dumps(old), json.dumps(NASTY)))
    run = score_document(doc)
    log = parse_shot_log(doc)
    shots = [
        ReportShot(index=r.index, player=r.player, cue_ball=s.cue_ball, verdict=r.verdict,
                   events=tuple(ScoredEvent(e, 0.4 if e.doubt else 0.97) for e in s.events),
                   score_after=dict(r.score_after), start_s=s.start_s or 0.0,
                   end_s=s.end_s or 0.0,
                   break_rule=r.break_why, record=r)
        for s, r in zip(log.shots, run.match.records, strict=True)
    ]  # fmt: skip
    return shots, run


class Page(HTMLParser):
    """Tags with their attributes, the text, the scoresheet's body rows, the cards (their
    diagrams counted) and the bar titles of each plot."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.sheet_rows: list[str] = []  # each body row's class
        self.cards: list[int] = []  # <svg> per card
        self.plot_bars: dict[str, list[str]] = {}
        self._table = self._plot = ""
        self._body = self._bar = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        cls = (a.get("class") or "").split()
        if tag == "table":
            self._table = cls[0] if cls else ""
        elif tag == "tbody":
            self._body = True
        elif tag == "tr" and self._body and self._table == "sheet":
            self.sheet_rows.append(a.get("class") or "")
        elif tag == "section" and "shot" in cls:
            self.cards.append(0)
        elif tag == "svg" and "plot" in cls:
            self._plot = cls[1]
            self.plot_bars[self._plot] = []
        elif tag == "svg" and self.cards:
            self.cards[-1] += 1
        elif tag == "rect" and "bar" in cls:
            self._bar = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._body = False
        elif tag == "table":
            self._table = ""
        elif tag == "svg":
            self._plot = ""
        elif tag == "rect":
            self._bar = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._bar and self._plot:
            self.plot_bars[self._plot].append(data)


def _reason_in(lang: str, parts: Any) -> str:
    """The oracle: keyed reason parts said with the report catalogue's words."""
    cat = catalogue("report")
    said = []
    for part in parts:
        fields = part.field_map()
        for name in ("first", "second", "only", "missing"):
            if name in fields:
                fields[name] = cat.text(lang, f"ball_{fields[name]}")
        if "fouls" in fields:
            fouls = str(fields["fouls"]).split(",")
            fields["fouls"] = ", ".join(cat.text(lang, f"foul_{f}") for f in fouls)
        said.append(cat.text(lang, f"reason_{part.key}", **fields))
    return "; ".join(said)


def _page(
    lang: str, start: dict[str, Any] | None = None
) -> tuple[str, Page, list[ReportShot], Any]:
    shots, run = _example(start)
    meta = {"video": "match <1>.mp4", "discipline": "three-cushion"}
    text = render_report(shots, title=f"report {NASTY}", meta=meta, summary=match_summary(run),
                         lang=lang)  # fmt: skip
    page = Page()
    page.feed(text)
    page.close()
    return text, page, shots, run


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_page_has_a_table_row_and_a_card_with_a_diagram_per_shot(lang: str) -> None:
    _, page, shots, _ = _page(lang)
    assert len(shots) == 14
    assert len(page.sheet_rows) == 14
    assert page.cards == [1] * 14  # one diagram each
    ids = [a["id"] for t, a in page.tags if t == "section"]
    links = [a["href"] for t, a in page.tags if t == "a"]
    assert ids == [f"shot-{s.index}" for s in shots] and links == [f"#{i}" for i in ids]
    expected = []
    for s in shots:
        v = s.verdict
        assert v is not None
        marks = (("point", v.points), ("foul", v.fouls), ("review", v.review))
        expected.append(" ".join(name for name, on in marks if on))
    assert page.sheet_rows == expected and "point" in expected and "" in expected


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_page_speaks_the_language_and_writes_its_numbers(lang: str) -> None:
    text, page, shots, _ = _page(lang)
    cat = catalogue("report")
    assert re.search(rf'<html lang="{lang}">', text)
    words = "".join(page.text)
    keys = ("key_start", "key_unseen", "sheet_heading", "stats_heading", "match_heading",
            "col_average", "col_high_run", "plot_points_title", "plot_runs_title",
            "ev_confidence")  # fmt: skip
    for key in keys:
        assert cat.text(lang, key) in words, key
    assert cat.text(lang, "shot_title", n=3, player=shots[3].player) in words
    # The referee's reasons in the language, from their keyed parts (every reason of
    # this match has them); in English, as the referee said them.
    for s in shots:
        v = s.verdict
        assert v is not None and v.reason_parts, s.index
        said = v.reason if lang == "en" else _reason_in(lang, v.reason_parts)
        assert said in words, said
        assert (v.reason in words) == (lang == "en"), v.reason
    first = shots[0]
    assert format_number(lang, first.start_s, 3) in words
    if lang != "en":
        assert cat.text(lang, "reasons_english") in words


def test_french_numbers_use_a_decimal_comma() -> None:
    _, page, shots, run = _page("fr")
    words = "".join(page.text)
    assert "0,97" in words and "0.97" not in words  # every confidence
    first = min(shots[0].events, key=lambda e: e.event.t_s)
    assert f"{format_number('fr', first.event.t_s, 3)} s  " in words  # the diagram's legend
    averages = [line.average for line in match_summary(run).lines]
    assert all(a.replace(".", ",") in words for a in averages)


def test_the_plots_show_each_player_s_points_per_inning_and_run_lengths() -> None:
    _, page, _, run = _page("en")
    assert set(page.plot_bars) == {"points", "runs"}
    per_player: dict[str, int] = {}
    for title in page.plot_bars["points"]:
        m = re.fullmatch(r"(.+), inning (\d+): (-?\d+)", title)
        assert m, title
        per_player[m[1]] = per_player.get(m[1], 0) + int(m[3])
    state = run.match.state
    assert per_player == {p: state.board(p) for p in state.config.players}
    assert NASTY in per_player  # the name came back as written (escaped in the file)
    innings: dict[str, int] = {}
    for title in page.plot_bars["runs"]:
        m = re.fullmatch(r"(.+): (\d+) innings of (\d+)", title)
        assert m, title
        innings[m[1]] = innings.get(m[1], 0) + int(m[2])
    stats = {line.player: line.innings for line in match_summary(run).lines}
    assert innings == stats and sum(stats.values()) > 4


def test_a_match_joined_in_progress_numbers_its_innings_on_from_where_it_was_joined() -> None:
    """Joined at 12:7 after 9 innings each: the bars are innings 10, 11 ... (they said
    inning 1), and they add up to the points made in the record."""
    start = {"board": {"Ana": 12, NASTY: 7}, "innings": {"Ana": 9, NASTY: 9}, "shooter": "Ana"}
    _, page, _, run = _page("en", start)
    made: dict[str, int] = {}
    numbers = set()
    for title in page.plot_bars["points"]:
        m = re.fullmatch(r"(.+), inning (\d+): (-?\d+)", title)
        assert m, title
        made[m[1]] = made.get(m[1], 0) + int(m[3])
        numbers.add(int(m[2]))
    assert min(numbers) == 10
    state = run.match.state
    assert made == {"Ana": state.board("Ana") - 12, NASTY: state.board(NASTY) - 7}


def test_nothing_runs_nothing_is_fetched_and_outside_text_is_escaped() -> None:
    text, page, _, _ = _page("en")
    assert not [t for t, _ in page.tags if t in ("script", "link", "img", "iframe", "object")]
    assert not [a for _, a in page.tags if "src" in a or any(k.startswith("on") for k in a)]
    assert set(re.findall(r"https?://[^\"' ]+", text)) == {"http://www.w3.org/2000/svg"}
    assert "<b>&" not in text and "&lt;b&gt;&amp;" in text and "match &lt;1&gt;.mp4" in text
    assert "b" not in [t for t, _ in page.tags]
    assert NASTY in "".join(page.text)


def test_print_keeps_cards_whole_and_drops_dark_backgrounds() -> None:
    text, *_ = _page("en")
    style = re.search(r"<style>(.*?)</style>", text, flags=re.S)
    assert style is not None
    printed = style[1].split("@media print{", 1)[1]
    assert re.search(r"section\.shot[^{]*\{[^}]*break-inside:avoid", printed)
    assert re.search(r"body\{background:#fff", printed)
    assert ".diagram svg .background{fill:#fff}" in printed


def test_a_diagram_card_keeps_its_cue_ball_and_events() -> None:
    _, page, shots, _ = _page("en")
    words = "".join(page.text)
    assert f"cue ball: {shots[0].cue_ball}" in words
    assert Ball.WHITE.value in words


@pytest.mark.parametrize("lang", ["en", "ko", "fr"])
def test_foul_names_are_in_the_page_s_language(lang: str) -> None:
    """The example's push and cue ball off the table, named in the language on the card."""
    _, page, shots, _ = _page(lang)
    cat = catalogue("report")
    words = "".join(page.text)
    fouls = [f for s in shots if s.verdict is not None for f in s.verdict.fouls]
    assert {str(f) for f in fouls} == {"push", "cue_ball_off_table"}
    for foul in fouls:
        assert cat.text(lang, "fouls", fouls=cat.text(lang, f"foul_{foul}")) in words, foul
    if lang != "en":
        assert cat.text("en", "foul_cue_ball_off_table") not in words


def test_why_a_shot_is_play_or_a_break_is_said_on_breaks_and_the_first_shot_only() -> None:
    """Joined with no lag, every shot's position is judged from its balls; every card said
    "Judged as: play: the balls are not in the break layout ..." (found by a review as a
    new user). As the scoresheet: the first shot and a break."""
    start = {"board": {"Ana": 12, NASTY: 7}, "innings": {"Ana": 9, NASTY: 9}, "shooter": "Ana"}
    text, _, shots, _ = _page("en", start)
    judged = [s.index for s in shots if s.record and (s.record.is_break or s.record.index == 0)]
    assert judged[0] == 0 and len(judged) < sum(bool(s.break_rule) for s in shots)
    assert text.count("Judged as: ") == len(judged)
