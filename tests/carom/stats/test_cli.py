"""carom stats on the command line: tables or JSON out, the files written, one-line errors."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from carom.cli._stats import add_parser, run
from carom.stats import collect_stats, stats_json
from referee import CaromError
from tests.carom.stats.season import SAMPLES, write_season

FILES = ("stats-players.csv", "stats-matches.csv", "stats.html")


def carom_stats(*argv: str | Path) -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    add_parser(sub)
    return run(parser.parse_args(["stats", *map(str, argv)]))


def test_prints_the_tables_and_writes_into_the_first_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_season(tmp_path / "season")
    assert carom_stats(tmp_path / "season") == 0
    out = capsys.readouterr().out
    assert out.startswith("Players (") and "\nMatches (" in out
    assert out.splitlines()[-1].startswith("wrote ")
    for name in FILES:
        assert (tmp_path / "season" / name).is_file() and name in out


def test_json_goes_to_stdout_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = write_season(tmp_path / "season")
    assert carom_stats(*paths[:3], "--json", "--out", tmp_path / "out") == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == stats_json(collect_stats(paths[:3]))
    assert captured.err.startswith("wrote ")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(FILES)


def test_a_file_first_writes_into_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert carom_stats(SAMPLES / "three_cushion_match.shots.json") == 0
    assert all((tmp_path / name).is_file() for name in FILES)
    assert "three_cushion_match" in capsys.readouterr().out


def test_an_empty_folder_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(CaromError, match="no shot log found") as caught:
        carom_stats(tmp_path)
    assert "\n" not in str(caught.value)
    assert not any(tmp_path.iterdir())  # nothing written


def test_an_output_folder_that_cannot_be_written_is_refused_before_the_work(
    tmp_path: Path,
) -> None:
    write_season(tmp_path / "season")
    with pytest.raises(CaromError, match=r"^--out /proc: cannot write there \(") as caught:
        carom_stats(tmp_path / "season", "--out", "/proc")
    assert "\n" not in str(caught.value)
    (tmp_path / "afile").write_text("x")
    with pytest.raises(CaromError, match="afile is a file, not a folder"):
        carom_stats(tmp_path / "season", "--out", tmp_path / "afile" / "stats")


def test_lang_writes_the_page_in_that_language_and_the_tables_stay_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--lang, else LANG (as analyze and batch): stats.html's words; the terminal and the
    CSV headers (read by programs) stay English."""
    write_season(tmp_path / "season")
    assert carom_stats(tmp_path / "season", "--lang", "ko") == 0
    page = (tmp_path / "season" / "stats.html").read_text(encoding="utf-8")
    assert '<html lang="ko">' in page and "<h1>시즌 통계</h1>" in page
    assert capsys.readouterr().out.startswith("Players (")
    assert (tmp_path / "season" / "stats-players.csv").read_text().startswith("rank,player")
    monkeypatch.setenv("LANG", "tr_TR.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert carom_stats(tmp_path / "season") == 0
    assert '<html lang="tr">' in (tmp_path / "season" / "stats.html").read_text(encoding="utf-8")
    with pytest.raises(SystemExit):
        carom_stats(tmp_path / "season", "--lang", "de")
