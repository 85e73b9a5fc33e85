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

from carom.analyze import AnalyzeOptions, AnalyzeRun, judge_shot, shots_document, write_html
from carom.match import score_file
from carom.report import render_sheet
from referee import Ball, Match, StartState
from tests.carom.live.shotpool import analyzed, example_log, lag_shot

CLIP = Path(__file__).parents[3] / "examples" / "one_shot.mp4"
JOINED = "joined in progress (the score before is not known: counted from 0)"


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
    said = [n for n in run.notes if "the match is joined in progress" in n]
    seen = "the lag was to be played again, but a stroke came first" if lag_again else "no lag seen"
    assert len(said) == 1 and said[0].startswith(seen), said
    doc = shots_document(run)
    assert doc["match"]["start"] == {} and "lag" not in doc
    path = tmp_path / "shots.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    scored = score_file(path)
    assert scored.error is None
    assert scored.match.state.scores == run.match.state.scores
    assert [r.verdict for r in scored.match.records] == [r.verdict for r in run.match.records]


def test_the_scoresheet_and_the_report_say_the_match_was_joined_knowing_nothing(
    tmp_path: Path,
) -> None:
    """The set-up line says the join (it said nothing, as if the match began at 0 : 0);
    with a first player given and no lag either, the match is not a join."""
    log = example_log()
    for first, joined in ((None, True), (log.match.players[0], False)):
        config = replace(log.match, first_player=first)
        opts = AnalyzeOptions(video=CLIP, out=tmp_path, table=config.table,
                              players=config.players)  # fmt: skip
        run = AnalyzeRun(options=opts, match=Match(config))
        for shot in (analyzed(s) for s in log.shots[:3]):
            run.shots.append((shot, judge_shot(run, shot)))
        assert run.joined is joined
        setup = render_sheet(run.score_run()).splitlines()[1]
        assert setup.startswith("set-up: ")
        assert setup.endswith(JOINED) is joined, setup
        write_html(run, tmp_path / "report.html")
        page = (tmp_path / "report.html").read_text(encoding="utf-8")
        assert (JOINED in page) is joined
        assert (run.judged_setup().start is not None) is joined


def test_a_join_whose_first_ball_cannot_name_the_player_says_one_was_assumed(
    tmp_path: Path,
) -> None:
    """Three players share the whites: the note said the first stroke's ball names the
    player, while the stroke itself was held for review with one assumed."""
    log = example_log()
    config = replace(log.match, players=("A", "B", "C"), first_player=None, cue_balls={},
                     target=dict.fromkeys(("A", "B", "C"), 40))  # fmt: skip
    opts = AnalyzeOptions(video=CLIP, out=tmp_path, table=config.table, players=config.players)
    run = AnalyzeRun(options=opts, match=Match(config))
    first = judge_shot(run, analyzed(log.shots[0]))
    assert first is not None and first.verdict.review is not None
    assert first.verdict.review.startswith("nobody known at the table and the whites rotate")
    assert run.notes == [
        "no lag seen: the match is joined in progress (the first stroke's ball cannot name "
        "the player at the table: one is assumed and the stroke marked for review; --first "
        "names who breaks)"
    ]
    judge_shot(run, analyzed(log.shots[1]))
    assert len(run.notes) == 1  # said once, at the join


@pytest.mark.parametrize("shooter", [None, "second"], ids=["no shooter", "a shooter"])
def test_a_lag_after_a_start_is_not_judged_and_the_note_names_no_one_unset(
    tmp_path: Path, shooter: str | None
) -> None:
    """A start that leaves the shooter to the first stroke had its lag noted as "None was
    set to break"."""
    log = example_log()
    assert log.lag is not None
    players = log.match.players
    at_table = None if shooter is None else players[1]
    start = StartState(board={players[0]: 5, players[1]: 3}, shooter=at_table)
    config = replace(log.match, first_player=None, start=start)
    opts = AnalyzeOptions(video=CLIP, out=tmp_path, table=config.table, players=config.players)
    run = AnalyzeRun(options=opts, match=Match(config))
    assert judge_shot(run, lag_shot(log.lag)) is None and not run.match.records
    said = [n for n in run.notes if "a lag was seen" in n]
    if at_table is None:
        assert said == ["a lag was seen, but the match was set to begin from a start: "
                        "lag not judged"]  # fmt: skip
    else:
        assert said == [f"a lag was seen, but {at_table} was set to break: lag not judged"]
    assert not any("None" in n for n in run.notes)
