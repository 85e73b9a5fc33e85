"""A match recorded in two (or three) files counts once, with the figures of one file of
the whole match: real shot logs (the bundled example match, cut where a camera might have
been restarted), the second part joined where the first stopped as ``carom analyze
--start-score ...`` would be told."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from carom.match import score_file
from carom.stats import collect_stats, stats_json
from referee import start_after, start_json
from tests.carom.stats.season import write_log

EXAMPLE = Path(__file__).parents[3] / "examples" / "three_cushion_match.json"
Doc = dict[str, Any]


def _parts(tmp: Path, cuts: list[int]) -> list[Path]:
    """The example match's log cut before each shot of ``cuts``, each later part joined."""
    whole: Doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    bounds = [0, *cuts, len(whole["shots"])]
    paths: list[Path] = []
    for k, (a, b) in enumerate(itertools.pairwise(bounds)):
        doc = {**whole, "shots": [{**s, "index": s["index"] - a} for s in whole["shots"][a:b]]}
        if paths:  # joined where the part before stopped
            state = score_file(paths[-1]).match.state
            doc = {
                **doc,
                "lag": None,
                "match": {**whole["match"], "start": start_json(start_after(state))},
            }
        paths.append(write_log(tmp / f"part-{k + 1}" / "shots.json", doc))
    return paths


def _figures(season: Any) -> list[Doc]:
    return [m["statistics"] for m in stats_json(season)["matches"]]


@pytest.mark.parametrize("cuts", [[6], [3, 9], [1]])
def test_the_parts_count_as_the_whole_match(tmp_path: Path, cuts: list[int]) -> None:
    whole = collect_stats([EXAMPLE])
    parts = _parts(tmp_path / "season", cuts)
    season = collect_stats([tmp_path / "season"])
    assert len(season.matches) == 1
    (match,) = season.matches
    assert match.parts == tuple(parts) and match.path == parts[-1]
    assert match.name == " + ".join(f"part-{k + 1}" for k in range(len(parts)))
    assert (match.phase, match.winner, match.result) == (
        whole.matches[0].phase, whole.matches[0].winner, whole.matches[0].result,
    )  # fmt: skip
    assert _figures(season) == _figures(whole)  # points, innings, GA, HR, categories ...
    assert season.players == whole.players
    assert stats_json(season)["matches"][0]["parts"] == [str(p) for p in parts]


def test_a_part_alone_or_one_that_does_not_take_up_the_other_counts_on_its_own(
    tmp_path: Path,
) -> None:
    first, second = _parts(tmp_path / "season", [6])
    alone = collect_stats([second]).matches[0]
    assert alone.parts == () and alone.of("Ana").carried_points > 0  # joined: its score kept
    # The second part's start one point off the first's end: two matches, as before.
    doc = json.loads(second.read_text(encoding="utf-8"))
    board = doc["match"]["start"]["board"]
    doc["match"]["start"]["board"] = {**board, "Ana": board["Ana"] + 1}
    write_log(second, doc)
    apart = collect_stats([tmp_path / "season"])
    assert [m.parts for m in apart.matches] == [(), ()]
    assert [m.path for m in apart.matches] == [first, second]
    # Out of order (the later part found first), nothing is taken up either.
    _parts(tmp_path / "other", [6])
    swapped = collect_stats([tmp_path / "other" / "part-2", tmp_path / "other" / "part-1"])
    assert len(swapped.matches) == 2
