"""The HTML report of the four truth shots of a sample video, parsed back."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser
from pathlib import Path

import pytest

from calibration import TableGeometry
from carom.i18n import catalogue
from carom.report import ReportError, ReportShot, table_origin, write_report
from referee import Ball, Call, Foul, Pin, PinDown, Verdict
from tests.carom.report.test_diagram import SVG, by_class, centre, truth, truth_shot
from vision import ScoredEvent

NASTY = "<b>&"


@dataclass
class Section:
    id: str | None
    rows: int = 0
    svgs: int = 0
    classes: list[str] = field(default_factory=list)


class Outline(HTMLParser):
    """What the report holds: sections, svgs, event rows per section, text, tags."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[Section] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.svgs = 0
        self._in_tbody = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "section" and a.get("class") == "shot":
            self.sections.append(Section(a.get("id")))
        elif tag == "svg":
            self.svgs += 1
            self.sections[-1].svgs += 1
        elif tag == "tbody" and self.sections:
            self._in_tbody = True
        elif tag == "tr" and self._in_tbody and self.sections:
            self.sections[-1].rows += 1
        elif tag == "div" and self.sections:
            self.sections[-1].classes.append(a.get("class") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_tbody = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def report_shots() -> list[ReportShot]:
    shots = []
    for i, v in enumerate(truth()["verdicts"]):
        tracks, events, verdict, player = truth_shot(i)
        stroke = truth()["extra"]["strokes"][i]
        shots.append(ReportShot(
            index=i, player=NASTY if player == "B" else player, cue_ball=Ball(stroke["cue_ball"]),
            tracks=tracks, events=tuple(events), verdict=verdict, score_after=v["score_after"],
            start_s=stroke["t_s"], end_s=stroke["end_s"],
        ))  # fmt: skip
    return shots


def write(tmp_path: Path, shots: list[ReportShot]) -> tuple[str, Outline]:
    path = tmp_path / "report.html"
    meta = {"video": "three_cushion_match.mp4", "calibration": "cal.json",
            "discipline": "three-cushion", "date": "2026-11-29", "note": "x < y & z"}  # fmt: skip
    write_report(path, shots, title="three-cushion: A vs <b>&", meta=meta)
    text = path.read_text(encoding="utf-8")
    parser = Outline()
    parser.feed(text)
    parser.close()
    return text, parser


def test_one_section_per_shot_with_diagram_and_every_event(tmp_path: Path) -> None:
    shots = report_shots()
    _, outline = write(tmp_path, shots)
    assert [s.id for s in outline.sections] == ["shot-0", "shot-1", "shot-2", "shot-3"]
    assert outline.svgs == 4 and all(s.svgs == 1 for s in outline.sections)
    assert [s.rows for s in outline.sections] == [len(s.events) for s in shots] == [9, 6, 9, 10]
    joined = "".join(outline.text)
    assert "2.361" in joined and "white / right" in joined  # time with ms, ball / cushion
    assert "point: red then yellow after 3 cushions" in joined


def test_text_is_escaped_and_nothing_is_external(tmp_path: Path) -> None:
    text, outline = write(tmp_path, report_shots())
    assert "<b>&" not in text and "&lt;b&gt;&amp;" in text and "x &lt; y &amp; z" in text
    assert NASTY in "".join(outline.text)  # a parser reads the name back as it was given
    assert "b" not in [tag for tag, _ in outline.tags]  # the name made no tag
    assert not [t for t, a in outline.tags if t in ("script", "link", "img", "iframe")]
    assert not [a for _, a in outline.tags if "src" in a]
    assert all((a.get("href") or "#").startswith("#") for _, a in outline.tags)  # in-page only
    assert re.findall(r"https?://[^\"' ]+", text) == ["http://www.w3.org/2000/svg"] * 4


def test_each_svg_is_xml_and_puts_white_where_it_started(tmp_path: Path) -> None:
    shots = report_shots()
    text, _ = write(tmp_path, shots)
    svgs = re.findall(r"<svg .*?</svg>", text, flags=re.S)
    assert len(svgs) == 4
    ox, oy = table_origin(TableGeometry())
    for svg, shot in zip(svgs, shots, strict=True):
        root = ET.fromstring(svg)
        assert root.tag == SVG + "svg"
        white = [
            centre(e) for e in by_class(root, "circle", "start") if "white" in e.get("class", "")
        ]
        x, y = shot.tracks[Ball.WHITE].xy_mm[0]
        assert white == [pytest.approx((x + ox, y + oy), abs=0.06)]


def test_review_and_missing_verdict_are_highlighted(tmp_path: Path) -> None:
    shots = report_shots()
    review = Verdict(inning_ends=True, reason="no point", review="kiss hidden by the arm")
    shots[1] = ReportShot(index=1, player="A", cue_ball=Ball.WHITE, verdict=review)
    shots[2] = ReportShot(index=2, player="B", cue_ball=Ball.YELLOW, review="tracking lost")
    text, outline = write(tmp_path, shots)
    verdict_divs = [next(c for c in s.classes if "verdict" in c) for s in outline.sections]
    assert verdict_divs == ["verdict point", "verdict review", "verdict review", "verdict point"]
    assert "kiss hidden by the arm" in text and "tracking lost" in text and "no verdict" in text
    assert outline.sections[2].rows == 1  # "no event"


def test_an_unwritable_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="cannot write"):
        write_report(tmp_path / "no" / "such" / "r.html", [], title="t", meta={})


def test_calls_and_pins_in_the_event_table_are_in_the_page_s_language(tmp_path: Path) -> None:
    """A called foul and a fallen pin in a Korean report: the table's words from the
    catalogue (``video_call``, ``video_pin``), not the English labels."""
    shot = report_shots()[0]
    t = shot.start_s
    extra = (ScoredEvent(Call(t_s=t + 0.1, foul=Foul.MISCUE), 1.0),
             ScoredEvent(PinDown(t_s=t + 0.2, pin=Pin.CENTER, ball=Ball.WHITE), 0.9))  # fmt: skip
    shot = replace(shot, events=(*shot.events, *extra))
    path = tmp_path / "report.html"
    write_report(path, [shot], title="t", meta={"video": "v.mp4"}, lang="ko")
    text = path.read_text(encoding="utf-8")
    said = catalogue("report")
    call = said.text("ko", "video_call", foul=said.text("ko", "foul_miscue"))
    pin = said.text("ko", "video_pin", pin=said.text("ko", "pin_center"))
    assert f"<td>{call}</td>" in text and f"<td>{pin}</td>" in text
    assert "call miscue" not in text and "pin down" not in text
