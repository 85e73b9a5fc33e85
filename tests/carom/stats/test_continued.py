"""A match recorded in two (or three) files counts once, with the figures of one file of
the whole match: real shot logs (the bundled example matches and sample clips' logs), cut
where a camera might have been restarted, each later part joined where the part before
stopped as ``carom analyze --start-score ... --start-innings ...`` would be told."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from carom.match import score_file
from carom.stats import collect_stats, stats_json
from referee import StartState, start_after, start_json
from tests.carom.stats.season import write_log

ROOT = Path(__file__).parents[3]
TWO = ROOT / "examples" / "three_cushion_match.json"
THREE = ROOT / "examples" / "three_players_match.json"  # drawn in the equalizing innings
BALKLINE = ROOT / "sample_videos" / "balkline_47_2.shots.json"
PINS = ROOT / "sample_videos" / "seven_pins_match.shots.json"
Doc = dict[str, Any]


def _whole_start(start: StartState) -> Doc:
    return start_json(start)


def _scores_only(start: StartState) -> Doc:
    """What a club types: --start-score and --start-innings, nothing else."""
    return {"board": dict(start.board), "innings": dict(start.innings)}


def _parts(
    tmp: Path, source: Path, cuts: list[int], told: Callable[[StartState], Doc] = _whole_start,
    **match: Any,
) -> list[Path]:  # fmt: skip
    """``source``'s log cut before each shot of ``cuts``; each later part joined as told."""
    whole: Doc = json.loads(source.read_text(encoding="utf-8"))
    whole = {**whole, "match": {**whole["match"], **match}}
    bounds = [0, *cuts, len(whole["shots"])]
    paths: list[Path] = []
    for k, (a, b) in enumerate(itertools.pairwise(bounds)):
        doc = {**whole, "shots": [{**s, "index": s["index"] - a} for s in whole["shots"][a:b]]}
        if paths:  # joined where the part before stopped
            start = start_after(score_file(paths[-1]).match.state)
            doc = {**doc, "lag": None, "match": {**whole["match"], "start": told(start)}}
        paths.append(write_log(tmp / f"part-{k + 1}" / "shots.json", doc))
    return paths


def _figures(season: Any) -> list[Doc]:
    return [m["statistics"] for m in stats_json(season)["matches"]]


def _one_match_as_the_whole(tmp_path: Path, whole_log: Path, parts: list[Path]) -> None:
    whole = collect_stats([whole_log])
    season = collect_stats([parts[0].parent.parent])
    assert len(season.matches) == 1, [m.name for m in season.matches]
    (match,) = season.matches
    assert match.parts == tuple(parts) and match.path == parts[-1]
    assert match.name == " + ".join(f"part-{k + 1}" for k in range(len(parts)))
    (one,) = whole.matches
    assert (match.phase, match.winner, match.draw, match.result) == (
        one.phase, one.winner, one.draw, one.result,
    )  # fmt: skip
    assert _figures(season) == _figures(whole)  # points, innings, GA, HR, categories ...
    assert season.players == whole.players
    assert stats_json(season)["matches"][0]["parts"] == [str(p) for p in parts]


@pytest.mark.parametrize(
    ("source", "cuts"),
    [
        (TWO, [6]), (TWO, [3, 9]), (TWO, [1]), (TWO, [13]),
        (THREE, [9]), (THREE, [4, 8]),  # cut in the equalizing innings
        (BALKLINE, [1]), (PINS, [2]),
    ],
)  # fmt: skip
def test_the_parts_count_as_the_whole_match(tmp_path: Path, source: Path, cuts: list[int]) -> None:
    _one_match_as_the_whole(tmp_path, source, _parts(tmp_path / "season", source, cuts))


def _from_zero(item: Any, t0: float) -> Any:
    """``item`` with every time in it ``t0`` earlier: a part of its own video, from 0 s."""
    if isinstance(item, list):
        return [_from_zero(x, t0) for x in item]
    if not isinstance(item, dict):
        return item
    out = {k: (v - t0 if k in ("start_s", "end_s", "t_s") and isinstance(v, float | int)
               else _from_zero(v, t0)) for k, v in item.items()}  # fmt: skip
    if isinstance(item.get("paths_mm"), dict):
        out["paths_mm"] = {b: [[s[0] - t0, *s[1:]] for s in samples]
                           for b, samples in item["paths_mm"].items()}  # fmt: skip
    return out


@pytest.mark.parametrize(("source", "cuts"), [(TWO, [6]), (TWO, [3, 9]), (BALKLINE, [1])])
def test_parts_of_videos_each_timed_from_0_still_make_the_whole(
    tmp_path: Path, source: Path, cuts: list[int]
) -> None:
    """Each video's clock starts at 0: the later part's shots started "before" the earlier
    one's, so the parts were never joined and the joined score was counted twice (found
    by a review as a league organiser)."""
    parts = _parts(tmp_path / "season", source, cuts)
    for path in parts[1:]:
        doc = json.loads(path.read_text(encoding="utf-8"))
        t0 = doc["shots"][0]["start_s"] - 0.5
        write_log(path, {**doc, "shots": _from_zero(doc["shots"], t0)})
    _one_match_as_the_whole(tmp_path, source, parts)


@pytest.mark.parametrize("cut", [1, 3, 7])
def test_told_only_the_scores_and_innings_the_parts_still_make_the_whole(
    tmp_path: Path, cut: int
) -> None:
    """Mid-run, or before the breaker's equalizing inning: the earlier part knows what the
    later one was not told (who was at the table on what run, who broke)."""
    parts = _parts(tmp_path / "season", TWO, [cut], _scores_only)
    _one_match_as_the_whole(tmp_path, TWO, parts)


def test_a_restart_between_sets_joins_at_0_0(tmp_path: Path) -> None:
    doc = json.loads(TWO.read_text(encoding="utf-8"))
    doc["match"] |= {"target": 2, "sets": 3, "equalizing": False}
    whole = write_log(tmp_path / "whole" / "shots.json", doc)
    judged = len(score_file(whole).match.records)  # the shots until the match was won
    whole = write_log(whole, {**doc, "shots": doc["shots"][:judged]})
    parts = _parts(tmp_path / "season", whole, [2])  # after A won the first set 2 : 0
    assert json.loads(parts[1].read_text())["match"]["start"]["board"] == {"Ana": 0, "Ben": 0}
    _one_match_as_the_whole(tmp_path, whole, parts)


def test_a_part_alone_or_one_that_does_not_take_up_the_other_counts_on_its_own(
    tmp_path: Path,
) -> None:
    first, second = _parts(tmp_path / "season", TWO, [6])
    alone = collect_stats([second]).matches[0]
    # Alone, the joined part counts with the score it joined at (2 of Ana's 5).
    assert alone.parts == () and alone.of("Ana").points == 5
    # The second part's start one point off the first's end: two matches, as before.
    doc = json.loads(second.read_text(encoding="utf-8"))
    board = doc["match"]["start"]["board"]
    write_log(second, {**doc, "match": {**doc["match"], "start": {
        **doc["match"]["start"], "board": {**board, "Ana": board["Ana"] + 1}}}})  # fmt: skip
    apart = collect_stats([tmp_path / "season"])
    assert [m.parts for m in apart.matches] == [(), ()]
    assert [m.path for m in apart.matches] == [first, second]
    # Out of order (the later part found first), nothing is taken up either.
    _parts(tmp_path / "other", TWO, [6])
    swapped = collect_stats([tmp_path / "other" / "part-2", tmp_path / "other" / "part-1"])
    assert len(swapped.matches) == 2
    # Another set-up (a target of 40 after one of 5) is another match.
    target = _parts(tmp_path / "target", TWO, [6])
    doc = json.loads(target[1].read_text(encoding="utf-8"))
    write_log(target[1], {**doc, "match": {**doc["match"], "target": 40}})
    assert len(collect_stats([tmp_path / "target"]).matches) == 2
