"""``carom analyze``'s shot log of a match joined in progress replays with ``carom score``.

No lag decided who breaks (none seen, or one judged "lag again" and not played again):
the first stroke's ball names the player at the table. The log says so (``match.start``)
and leaves out the undecided lag; it kept the lag and no start, and ``carom score``
stopped at the first shot ("the lag is not decided yet") with 0 : 0.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from carom.analyze import AnalyzeOptions, AnalyzeRun, judge_shot, shots_document
from carom.match import score_file
from referee import Ball, Match
from tests.carom.live.shotpool import analyzed, example_log, lag_shot

CLIP = Path(__file__).parents[3] / "examples" / "one_shot.mp4"


@pytest.mark.parametrize("lag_again", [False, True], ids=["no lag", "a lag to play again"])
def test_a_joined_match_s_log_replays_to_the_same_score(tmp_path: Path, lag_again: bool) -> None:
    log = example_log()
    config = replace(log.match, first_player=None)
    opts = AnalyzeOptions(video=CLIP, out=tmp_path, table=config.table, players=config.players)
    run = AnalyzeRun(options=opts, match=Match(config))
    inputs = [analyzed(s) for s in log.shots[:6]]
    if lag_again:
        assert log.lag is not None
        ends = dict(log.lag.end_positions_mm)
        ends[Ball.YELLOW] = (ends[Ball.WHITE][0], ends[Ball.YELLOW][1])  # level: a tie
        inputs.insert(0, lag_shot(replace(log.lag, end_positions_mm=ends)))
    for shot in inputs:
        run.shots.append((shot, judge_shot(run, shot)))
    assert (run.lag is not None) == lag_again and run.joined
    doc = shots_document(run)
    assert doc["match"]["start"] == {} and "lag" not in doc
    path = tmp_path / "shots.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    scored = score_file(path)
    assert scored.error is None
    assert scored.match.state.scores == run.match.state.scores
    assert [r.verdict for r in scored.match.records] == [r.verdict for r in run.match.records]
