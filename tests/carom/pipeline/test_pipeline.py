"""The one pipeline description: the same match, vision and calibration for every front end."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from calibration import CalibrationError, save_calibration
from carom.analyze import AnalyzeOptions, match_config
from carom.match import MatchFile, add_match_options, match_from_args, parse_match_file
from carom.pipeline import Pipeline
from referee import MATCH_TABLE, Ball, Discipline
from tests.sample_truth import sample_truth

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


def _flags(*argv: str) -> MatchFile:
    parser = argparse.ArgumentParser()
    add_match_options(parser)
    return match_from_args(parser.parse_args(list(argv)))


def test_a_camera_names_the_shooter_unless_the_match_file_says_otherwise() -> None:
    assert Pipeline(source="0", match=MatchFile()).config().options.follow_cue_ball
    off = parse_match_file({"rules": {"follow_cue_ball": False}})
    assert not Pipeline(source="0", match=off).config().options.follow_cue_ball


def test_analyze_and_live_get_the_same_match_from_the_same_flags() -> None:
    """``carom analyze`` (its options over the file) and ``carom live`` (the file) agree."""
    match = _flags("--discipline", "balkline-47/2", "--players", "Ana", "Ben", "--first", "Ben")
    opts = AnalyzeOptions(video=SAMPLE, out=Path("x"), table=MATCH_TABLE,
                          discipline=match.discipline, players=match.players,
                          first_player=match.first_player, match=match)  # fmt: skip
    assert match_config(opts) == Pipeline(source="0", match=match).config()
    assert opts.pipeline().config().discipline is Discipline.BALKLINE_47_2


def test_the_vision_side_watches_the_balls_in_play() -> None:
    dotted = parse_match_file({"players": ["A", "B"], "cue_balls": {"A": "white", "B": "dotted"}})
    vision = Pipeline(source="0", match=dotted, detector="color").vision()
    assert set(vision.balls) == {Ball.WHITE, Ball.DOTTED, Ball.RED}
    assert vision.detector == "color"


def test_a_calibration_file_is_checked_against_the_frame_size(tmp_path: Path) -> None:
    _, calib = sample_truth("three_cushion_match")
    path = tmp_path / "calibration.json"
    save_calibration(path, calib)
    pipeline = Pipeline(source=str(SAMPLE), match=MatchFile(), calibration=path)
    assert pipeline.calibrate((1280, 720), tmp_path / "out").image_size_px == (1280, 720)
    assert not (tmp_path / "out").exists()  # a given file is used, nothing is written
    with pytest.raises(CalibrationError):
        pipeline.calibrate((1920, 1080), tmp_path / "out")


def test_without_a_file_the_camera_is_fitted_from_the_source(tmp_path: Path) -> None:
    calib = Pipeline(source=str(SAMPLE), match=MatchFile()).calibrate((1280, 720), tmp_path)
    assert calib.image_size_px == (1280, 720)
    assert (tmp_path / "calibration.json").is_file()
    assert (tmp_path / "calibration_overlay.png").is_file()
