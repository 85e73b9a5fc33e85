"""Writing shots back: ``parse_shot(shot_json(s)) == s`` for every golden shot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import parse_shot, shot_json
from tests.referee.golden import golden_files


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.parent.name + "/" + p.name)
def test_golden_shot_survives_a_write_and_a_read(path: Path) -> None:
    shot = parse_shot(json.loads(path.read_text())["shot"], "shot")
    written = json.loads(json.dumps(shot_json(shot)))
    assert parse_shot(written, "shot") == shot
