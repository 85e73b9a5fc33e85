"""AnalyzeOptions refuses a set-up it cannot run when it is made, before a calibration is
fitted for it (a developer's one player, or a detector name mistyped, failed only after
the video's calibration: seconds later, as an error on the run)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from carom.analyze import AnalyzeOptions, AnalyzeRun, match_config, shots_document
from carom.match import MatchFile
from referee import Discipline, Match, RulesError, Table, UnknownBallError, parse_shot_log
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


@pytest.mark.parametrize(
    ("discipline", "set_up"),
    [
        (Discipline.PIN_CAROM_7, {"start_count": 500}),
        (Discipline.FIVE_PINS, {"sets": 3}),
        (
            Discipline.BALKLINE_47_2,
            {"innings_limit": 20, "equalizing": False, "equalizing_from_break": False},
        ),
    ],
)
def test_the_shot_log_keeps_the_whole_set_up_so_a_replay_is_the_same_match(
    tmp_path: Path, discipline: Discipline, set_up: dict[str, object]
) -> None:
    """``carom score`` on analyze's log counted a 7-pin game from 300 that was played
    from 500, and lost the sets and the innings limit (found by a club official)."""
    match = MatchFile(discipline=discipline, players=("Ana", "Ben"), first_player="Ana",
                      **set_up)  # type: ignore[arg-type]  # fmt: skip
    opts = AnalyzeOptions(video=CLIP, out=tmp_path, table=Table(), discipline=discipline,
                          players=("Ana", "Ben"), match=match)  # fmt: skip
    run = AnalyzeRun(options=opts, match=Match(match_config(opts)))
    doc = shots_document(run)
    assert {k: doc["match"][k] for k in set_up} == set_up
    replayed = parse_shot_log(doc).match
    assert replayed == run.match.state.config
