"""A third cushion reached at 50 mm/s, 11 ms before the second ball, on real pixels.

``hard_three_cushion``'s second shot: the yellow creeps on to the left cushion (its
third) and meets the white resting by that cushion 11 ms later. ``carom live`` (the
truth's camera as its calibration) had called it "2 cushions before the second ball"
with a review whose other call was the point: the slow arrival was timed 12 ms late,
after the ball contact. Analysed through each of three calibrations a fraction of a
millimetre apart (the truth's camera, moved 0.4 mm either way along the table's
width), every verdict must agree with the truth's, and the third cushion's true time
must lie within its error. The clip is cut after the second shot (at 30 s, the first
two of its three shots, the packets copied as they are), with its truth.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration import Calibration, Camera, TableGeometry, save_calibration
from carom.synth_check import check_clip
from referee import Ball, Cushion, CushionContact, Table
from tests.readme_run import cut_clip

CLIP = Path(__file__).parents[2] / "sample_videos" / "hard_three_cushion.mp4"
CUT_S = 30.0  # the second shot's balls stop at 28.6 s, the third stroke is at 30.8 s


@pytest.fixture(scope="module")
def two_shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The clip's first two shots: its video, truth and shot log cut at ``CUT_S``."""
    video = tmp_path_factory.mktemp("race") / CLIP.name
    n_frames = cut_clip(CLIP, video, CUT_S)
    truth = json.loads(CLIP.with_suffix(".json").read_text())
    log = json.loads(CLIP.with_name(CLIP.stem + ".shots.json").read_text())
    assert [s["end_s"] < CUT_S for s in log["shots"]] == [True, True, False]
    truth["frames"], truth["video"]["n_frames"] = truth["frames"][:n_frames], n_frames
    truth["events"] = [e for e in truth["events"] if e["t_s"] < CUT_S]
    truth["verdicts"], log["shots"] = truth["verdicts"][:2], log["shots"][:2]
    video.with_suffix(".json").write_text(json.dumps(truth))
    video.with_name(video.stem + ".shots.json").write_text(json.dumps(log))
    return video


def _calibration(where: Path, shift_mm: float) -> Path:
    truth = json.loads(CLIP.with_suffix(".json").read_text())
    table = truth["table"]
    geometry = TableGeometry(
        Table(table["length_mm"], table["width_mm"], ball_diameter_mm=2 * table["ball_radius_mm"])
    )
    camera = truth["camera"]
    camera["pose"]["y_mm"] += shift_mm
    del camera["opencv"]  # derived from the pose
    path = where / "calibration.json"
    save_calibration(path, Calibration(geometry, Camera.from_dict(camera), "2026-12-04"))
    return path


def _truth_time(ball: Ball, cushion: Cushion, near_s: float) -> float:
    truth = json.loads(CLIP.with_suffix(".json").read_text())
    times = [
        e["t_s"]
        for e in truth["events"]
        if e["kind"] == "cushion" and e["ball"] == ball and e["cushion"] == cushion
    ]
    return min(times, key=lambda t: abs(t - near_s))


@pytest.mark.parametrize("shift_mm", [-0.4, 0.0, 0.4])
def test_a_slow_third_cushion_just_before_the_second_ball_is_called_as_the_truth(
    tmp_path: Path, two_shots: Path, shift_mm: float
) -> None:
    calibration = _calibration(tmp_path, shift_mm)
    check = check_clip(two_shots, tmp_path / "out", calibration=calibration)
    assert (check.verdicts_total, check.verdicts_agree) == (2, 2), check.verdict_diffs
    assert check.verdict_diffs == (), check.verdict_diffs
    truth_s = _truth_time(Ball.YELLOW, Cushion.LEFT, 19.55)
    (third,) = [
        e
        for shot, _ in check.run.shots
        for e in shot.shot.events
        if isinstance(e, CushionContact)
        and (e.ball, e.cushion) == (Ball.YELLOW, Cushion.LEFT)
        and abs(e.t_s - truth_s) < 0.05
    ]
    assert abs(third.t_s - truth_s) <= third.t_err_s
