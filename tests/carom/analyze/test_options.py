"""AnalyzeOptions refuses a set-up it cannot run when it is made, before a calibration is
fitted for it (a developer's one player, or a detector name mistyped, failed only after
the video's calibration: seconds later, as an error on the run)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from carom.analyze import AnalyzeOptions
from referee import RulesError, Table, UnknownBallError
from vision import DETECTOR_KINDS, VisionError

CLIP = Path(__file__).parents[3] / "examples" / "one_shot.mp4"


@pytest.mark.parametrize(
    ("change", "error", "said"),
    [
        ({"players": ("A",)}, RulesError, "players: 2 to 8 names, got 1"),
        ({"first_player": "Zed"}, UnknownBallError, "first_player 'Zed' is not one of"),
        ({"detector": "colour"}, VisionError, "detector: unknown kind 'colour'; use one of"),
        ({"target": 0}, RulesError, "target must give every player a positive"),
    ],
)
def test_a_set_up_that_cannot_run_is_refused_when_made(
    tmp_path: Path, change: dict[str, object], error: type[Exception], said: str
) -> None:
    start = time.process_time()
    with pytest.raises(error, match=said):
        AnalyzeOptions(video=CLIP, out=tmp_path, table=Table(), **change)  # type: ignore[arg-type]
    assert time.process_time() - start < 1.0  # nothing decoded, nothing fitted
    assert not any(tmp_path.iterdir())


def test_every_detector_kind_is_taken(tmp_path: Path) -> None:
    for kind in DETECTOR_KINDS:
        assert AnalyzeOptions(video=CLIP, out=tmp_path, table=Table(), detector=kind)
