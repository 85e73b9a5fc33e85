"""``carom score --json`` written as it goes is the very text of the whole document."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from carom.match import ScoreRun, run_json, score_file, standings_json, write_score_json

ROOT = Path(__file__).parents[3]
LOGS = [*sorted((ROOT / "examples").glob("*.json")),
        *sorted((ROOT / "sample_videos").glob("*.shots.json"))]  # fmt: skip


def _whole(runs: list[ScoreRun]) -> str:
    """What ``carom score --json`` printed before: the document built whole."""
    if len(runs) == 1:
        return json.dumps(run_json(runs[0]), indent=2) + "\n"
    doc = {"matches": [run_json(r) for r in runs], "standings": standings_json(runs)}
    return json.dumps(doc, indent=2) + "\n"


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_one_log_is_written_exactly_as_the_whole_document(path: Path) -> None:
    run = score_file(path)
    assert run.match.records  # every log here has shots
    out = io.StringIO()
    write_score_json([run], None, out)
    assert out.getvalue() == _whole([run])


def test_several_logs_with_their_standings_are_written_exactly_too() -> None:
    runs = [score_file(path) for path in LOGS[:3]]
    out = io.StringIO()
    write_score_json(runs, standings_json(runs), out)
    assert out.getvalue() == _whole(runs)
