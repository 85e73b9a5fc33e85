"""Writing shots back: ``parse_shot(shot_json(s)) == s`` for every golden shot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import Match, parse_shot, parse_shot_log, record_json, shot_json
from tests.referee.golden import golden_files


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.parent.name + "/" + p.name)
def test_golden_shot_survives_a_write_and_a_read(path: Path) -> None:
    shot = parse_shot(json.loads(path.read_text())["shot"], "shot")
    written = json.loads(json.dumps(shot_json(shot)))
    assert parse_shot(written, "shot") == shot


def test_record_json_holds_the_verdict_and_the_board_after_the_shot() -> None:
    doc = json.loads(
        (Path(__file__).parents[2] / "examples" / "three_cushion_match.json").read_text()
    )
    log = parse_shot_log(doc)
    match = Match(log.match)
    if log.lag is not None:
        match.lag(log.lag)
    for shot in log.shots:
        match.play(shot)
    assert match.records
    for record in match.records:
        out = json.loads(json.dumps(record_json(record)))
        assert (out["index"], out["player"], out["set"]) == (
            record.index, record.player, record.set_index + 1,
        )  # fmt: skip
        assert out["points"] == record.verdict.points
        assert out["fouls"] == [str(f) for f in record.verdict.fouls]
        assert out["score_after"] == dict(record.score_after)
        assert out["next_position"] == str(record.verdict.next_position)
