"""The renderers read back: CSV rows equal the JSON, the HTML page holds what it says."""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from carom.i18n import LANGUAGES, catalogue
from carom.stats import (
    MATCH_HEADER,
    PLAYER_HEADER,
    SeasonStats,
    collect_stats,
    stats_json,
    stats_text,
    write_stats_csv,
    write_stats_html,
)
from referee import Discipline, Foul
from tests.carom.stats.season import NASTY, SAMPLES, renamed, sample, write_log, write_season

DOCS = Path(__file__).parents[3] / "docs" / "stats.md"
PLOTS = 5


def season_of(tmp_path: Path, damaged: bool = False) -> SeasonStats:
    write_season(tmp_path / "season")
    if damaged:
        write_log(tmp_path / "season" / "zz-damaged" / "shots.json", {"format": "x"})
    return collect_stats([tmp_path / "season"])


def read_csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def cell(value: Any) -> str:
    """A JSON value as the CSV writes it."""
    if value is None:
        return ""
    return str(int(value)) if isinstance(value, bool) else str(value)


def category_cells(c: dict[str, Any]) -> dict[str, str]:
    out = {k: str(v) for k, v in c.items() if k != "fouls"}
    out["fouls"] = str(sum(c["fouls"].values()))
    out.update({f"foul_{f.value}": str(c["fouls"].get(f.value, 0)) for f in Foul})
    return out


def test_players_csv_rows_are_the_json(tmp_path: Path) -> None:
    season = season_of(tmp_path)
    players, _ = write_stats_csv(season, tmp_path / "out")
    header, rows = read_csv(players)
    assert header == list(PLAYER_HEADER) and players.name == "stats-players.csv"
    want = stats_json(season)["players"]
    assert len(rows) == len(want)
    for row, p in zip(rows, want, strict=True):
        expected = {
            k: cell(v) for k, v in p.items() if k not in ("points_by_discipline", "categories")
        }
        expected |= {
            f"points_{d.value}": str(p["points_by_discipline"].get(d.value, 0)) for d in Discipline
        }
        expected |= category_cells(p["categories"])
        assert row == expected


def test_matches_csv_has_a_row_per_match_and_player(tmp_path: Path) -> None:
    season = season_of(tmp_path)
    _, matches = write_stats_csv(season, tmp_path / "out")
    header, rows = read_csv(matches)
    assert header == list(MATCH_HEADER) and matches.name == "stats-matches.csv"
    want = [(m, p, s) for m in stats_json(season)["matches"] for p, s in m["statistics"].items()]
    assert len(rows) == len(want)
    for row, (m, player, s) in zip(rows, want, strict=True):
        expected = {
            k: cell(m[k])
            for k in ("match", "name", "path", "discipline", "phase", "winner", "draw", "error")
        }
        expected |= {k: cell(v) for k, v in s.items() if k != "categories"}
        expected |= {"player": player} | category_cells(s["categories"])
        assert row == expected
        assert float(row["points"]) == s["points"]  # numbers are numbers


def test_every_csv_column_is_documented() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    for name in {*PLAYER_HEADER, *MATCH_HEADER}:
        if name.startswith(("points_", "foul_")):
            name = name.split("_", 1)[0] + "_<"  # documented as a pattern
        assert f"`{name}" in docs, name


class Page(HTMLParser):
    """Tables by class, figures, svgs, every attribute and the text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[str] = []
        self.figures = 0
        self.svgs = 0
        self.attrs: list[tuple[str, str]] = []
        self.text: list[str] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.attrs += list(a.items())
        if tag == "table":
            self.tables.append(a.get("class", ""))
        self.figures += tag == "figure" and a.get("class") == "plot"
        self.svgs += tag == "svg"
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        (self.styles if self._in_style else self.text).append(data)


def page_of(tmp_path: Path) -> tuple[str, Page]:
    path = tmp_path / "stats.html"
    write_stats_html(season_of(tmp_path, damaged=True), path)
    text = path.read_text(encoding="utf-8")
    page = Page()
    page.feed(text)
    return text, page


def test_the_page_has_both_tables_and_one_svg_per_plot(tmp_path: Path) -> None:
    """Five plots; in a season of several disciplines the GA and HR bars one pair per
    discipline (on one scale a 7-pin game's 50 left three-cushion's 1.2 a sliver)."""
    text, page = page_of(tmp_path)
    assert page.tables == ["players", "matches"]
    kinds = {s.discipline for s in season_of(tmp_path / "again").players}
    assert len(kinds) == 4
    assert page.figures == page.svgs == PLOTS - 2 + 2 * len(kinds)
    assert "General average (points per inning) · 7-pin carom" in text
    one = collect_stats([SAMPLES / "three_cushion_match.shots.json"])
    write_stats_html(one, tmp_path / "one.html")
    single = Page()
    single.feed((tmp_path / "one.html").read_text(encoding="utf-8"))
    assert single.figures == PLOTS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_speaks_the_language_asked_for(tmp_path: Path, lang: str) -> None:
    """The headings, column names, plot titles, legends and results from the report
    catalogue (stats.html was English whatever --lang said); names and numbers as they are."""
    season = season_of(tmp_path, damaged=True)
    path = tmp_path / "stats.html"
    write_stats_html(season, path, lang=lang)
    text = path.read_text(encoding="utf-8")
    page = Page()
    page.feed(text)
    words = catalogue("report")
    said = "\n".join(page.text)
    assert f'<html lang="{lang}">' in text
    keys = ("title", "players", "matches", "plots", "ga_caption", "opening_caption",
            "col_innings", "col_discipline", "ball_first", "no_ball_contact")  # fmt: skip
    for key in keys:
        assert words.text(lang, f"season_{key}") in said, (lang, key)
    assert words.text(lang, "season_skipped", n=1) in said
    assert words.text(lang, "discipline_three-cushion") in said
    assert words.text(lang, "season_won_by", player=season.matches[0].winner or "") in said
    if lang != "en":
        english = ("Season statistics", "Players", "Matches", "General average", "ball first")
        assert [w for w in english if w in said] == []
    assert season.players[0].player in said
    # Averages with the language's decimal mark, as the report writes them: a Dutch page
    # read "gemiddelde 50.000" as fifty thousand.
    mark = "," if lang in ("es", "fr", "nl", "tr") else "."
    for s in season.players:
        whole, _, frac = s.general_average.partition(".")
        assert f"{whole}{mark}{frac}" in said, (lang, s.general_average)


def test_a_season_of_several_disciplines_names_each_line_s_discipline(tmp_path: Path) -> None:
    """A player of two disciplines has a line in each; the page counts him once, and
    each bar says whose line it is (the GA plot had one bar mixing 7-pin and three-cushion)."""
    text, page = page_of(tmp_path)
    said = "\n".join(page.text)
    season = season_of(tmp_path / "again")
    names = {s.player for s in season.players}
    assert len(season.players) > len(names)
    words = catalogue("report")
    assert words.text("en", "season_summary", matches=len(season.matches),
                      players=len(names)) in said  # fmt: skip
    for s in season.players:
        label = f"{s.player} · {words.text('en', f'discipline_{s.discipline}')}"
        assert label in said or label[:19] + "…" in said, label
    # The opening plot lists the carom disciplines' lines only.
    opening = text.split(words.text("en", "season_opening_caption"))[1]
    assert "five-pins" not in opening and "7-pin" not in opening


def test_the_page_is_self_contained_without_script(tmp_path: Path) -> None:
    text, page = page_of(tmp_path)
    assert "<script" not in text.lower()
    links = [v for k, v in page.attrs if k in ("href", "src", "xlink:href", "srcset", "action")]
    assert [v for v in links if re.match(r"\s*(https?:|//)", v)] == []
    assert "http" not in text and "url(" not in "".join(page.styles)
    assert not [k for k, _ in page.attrs if k.startswith("on")]  # no event handlers


def test_every_name_is_escaped(tmp_path: Path) -> None:
    text, page = page_of(tmp_path)
    assert NASTY not in text and html_escaped(NASTY) in text
    assert NASTY in "".join(page.text)
    assert "zz-damaged" in "".join(page.text)  # the skipped log is listed


def html_escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_the_text_has_two_aligned_tables_and_the_skipped_line(tmp_path: Path) -> None:
    season = season_of(tmp_path, damaged=True)
    text = stats_text(season)
    players, matches, *rest = text.split("\n\n")
    names = len({s.player for s in season.players})
    assert players.startswith(
        f"Players ({names}; {len(season.players)} lines, ranked by discipline)"
    )
    assert matches.startswith(f"Matches ({len(season.matches)})")
    rows = players.splitlines()[1:]
    assert [r.split()[1:3] for r in rows[1:]] == [[s.player, s.discipline] for s in season.players]
    assert [int(r.split()[0]) for r in rows[1:]] == [s.rank for s in season.players]
    ga = rows[0].index(" GA") + len(" GA")  # numbers right-aligned under their header
    assert all(
        r[ga - 5 : ga] == s.general_average[-5:]
        for r, s in zip(rows[1:], season.players, strict=True)
    )
    assert "skipped 1 shot log(s)" in rest[-1] and "zz-damaged" in rest[-1]


def test_a_season_of_damaged_logs_only_still_renders(tmp_path: Path) -> None:
    """``collect_stats`` refuses it (test_collect.py); the writers still take one."""
    bad = write_log(tmp_path / "season" / "bad" / "shots.json", {"format": "x"})
    season = SeasonStats((), (), ((bad, "not a carom-shots/1 log"),))
    assert "skipped 1 shot log(s)" in stats_text(season)
    players, matches = write_stats_csv(season, tmp_path / "out")
    assert read_csv(players) == (list(PLAYER_HEADER), [])
    assert read_csv(matches) == (list(MATCH_HEADER), [])
    write_stats_html(season, tmp_path / "out" / "stats.html")
    page = Page()
    page.feed((tmp_path / "out" / "stats.html").read_text(encoding="utf-8"))
    assert page.figures == page.svgs == PLOTS


def test_a_name_that_would_run_as_a_formula_is_written_as_text(tmp_path: Path) -> None:
    formula = "=HYPERLINK(1)"
    write_log(
        tmp_path / "s" / "-x" / "shots.json", renamed(sample("five_pins_match"), {"A": formula})
    )
    season = collect_stats([tmp_path / "s"])
    players, matches = write_stats_csv(season, tmp_path / "out")
    rows = read_csv(players)[1]
    assert {r["player"] for r in rows} == {"'" + formula, "B"}
    assert [r["player"] for r in rows] == [
        "'" + p["player"] if p["player"] == formula else p["player"]
        for p in stats_json(season)["players"]
    ]
    match_rows = read_csv(matches)[1]
    assert {r["name"] for r in match_rows} == {"'-x"}
    assert {r["points"] for r in match_rows} == {"10", "5"}  # numbers stay numbers


def test_a_name_that_looks_like_a_number_keeps_its_point(tmp_path: Path) -> None:
    """Only the average columns take the language's decimal mark, not a name."""
    import json

    example = json.loads((Path(__file__).parents[3] / "examples" / "three_cushion_match.json")
                         .read_text(encoding="utf-8"))  # fmt: skip
    (tmp_path / "a.shots.json").write_text(json.dumps(example).replace('"Ben"', '"12.5"'))
    path = tmp_path / "stats.html"
    write_stats_html(collect_stats([tmp_path]), path, lang="nl")
    text = path.read_text(encoding="utf-8")
    assert "12.5" in text and "12,5" not in text
