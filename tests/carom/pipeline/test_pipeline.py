"""The one pipeline description: the same match, vision and calibration for every front end."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Iterator
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from calibration import CalibrationError, CalibrationFailed, Outcome, save_calibration
from carom.analyze import AnalyzeOptions, match_config
from carom.cli._serve import DEFAULT_PORT
from carom.match import MatchFile, add_match_options, match_from_args, parse_match_file
from carom.pipeline import (
    WIZARD_URL,
    Pipeline,
    best_calibration,
    camera_calibration_path,
    fit_calibration,
    how_to_mark,
)
from carom.pipeline import _calibrate as calibrate_step
from carom.web._routes_pages import PAGES
from hardware import CameraFrame, CameraKind, register_camera
from hardware.camera import _cameras as hardware_cameras
from referee import MATCH_TABLE, Ball, Discipline, Table
from tests.calibration.test_empty_table import clean_table, with_player
from tests.carom.cli._no_table import floor, write_clip
from tests.sample_truth import sample_truth
from vision import FrameSource, open_source, read_frame

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


def test_without_a_file_the_camera_is_fitted_from_the_source_and_says_nothing_when_good(
    tmp_path: Path,
) -> None:
    said: list[str] = []
    calib = Pipeline(source=str(SAMPLE), match=MatchFile()).calibrate(
        (1280, 720), tmp_path, say=said.append
    )
    assert calib.image_size_px == (1280, 720)
    assert (tmp_path / "calibration.json").is_file()
    assert (tmp_path / "calibration_overlay.png").is_file()
    assert said == []  # good: nothing to say


def test_a_failed_fit_fails_with_the_way_out(tmp_path: Path) -> None:
    clip = write_clip(tmp_path / "floor.mp4", floor())
    with pytest.raises(CalibrationFailed) as failed:
        Pipeline(source=str(clip), match=MatchFile()).calibrate((960, 540), tmp_path / "f")
    assert str(failed.value).startswith(f"{clip}: calibration failed: ")
    assert not (tmp_path / "f" / "calibration.json").exists()


def test_the_way_out_names_real_commands_and_the_wizard_route() -> None:
    assert "/wizard" in PAGES and f"http://127.0.0.1:{DEFAULT_PORT}/wizard" == WIZARD_URL
    video = how_to_mark("my clips/a.mp4")
    assert "carom calibrate 'my clips/a.mp4' --frame 30 --corners 'u,v;u,v;u,v;u,v'" in video
    assert f"carom serve --camera 'my clips/a.mp4', then {WIZARD_URL}" in video
    assert "--frame" not in how_to_mark("0") and "serve" not in how_to_mark("still.png")
    # carom live's camera calibration: the wizard of its own database saves where it looks.
    live = how_to_mark("0", wizard_db=Path("club db/live.db"))
    assert f"carom serve --camera 0 --db 'club db/live.db', then {WIZARD_URL}" in live


def test_a_failed_fit_of_carom_live_names_its_database_s_wizard(tmp_path: Path) -> None:
    """carom live --db auto.db: the wizard of carom serve without --db saved its fit
    beside carom-live.db, where this command never looks (found by a new installer)."""
    clip = write_clip(tmp_path / "floor.mp4", floor())
    with pytest.raises(CalibrationFailed) as failed:
        fit_calibration(str(clip), Table(), Discipline.THREE_CUSHION, tmp_path / "c",
                        wizard_db=tmp_path / "auto.db")  # fmt: skip
    line = str(failed.value)
    assert f"carom serve --camera {clip} --db {tmp_path / 'auto.db'}, then {WIZARD_URL}" in line
    assert line.endswith("; the wizard saves where carom live finds it"), line
    assert "--calibration" not in line


def test_a_picture_sequence_s_way_out_names_a_frame_it_has_and_no_wizard(
    tmp_path: Path,
) -> None:
    """A folder or glob of 5 pictures: frame 30 does not exist and ``carom serve --camera``
    opens no picture sequence (both were suggested)."""
    for i in range(5):
        assert cv2.imwrite(str(tmp_path / f"p{i}.png"), np.full((12, 16, 3), 40 * i, np.uint8))
    for source in (str(tmp_path), str(tmp_path / "*.png")):
        way = how_to_mark(source)
        assert f"carom calibrate {shlex.quote(source)} --frame 4 --corners" in way
        assert "serve" not in way and "wizard" not in way
        assert read_frame(source, 4).shape == (12, 16, 3)  # the frame named is there
    one = tmp_path / "one"
    one.mkdir()
    assert cv2.imwrite(str(one / "a.png"), np.zeros((12, 16, 3), np.uint8))
    assert "--frame" not in how_to_mark(str(one)) and "serve" not in how_to_mark(str(one))


@pytest.mark.parametrize(
    ("camera", "name"),
    [("0", "camera-0.json"), ("rtsp://cam:554/1", "camera-rtsp-cam-554-1.json"),
     ("/dev/video2", "camera-dev-video2.json"), ("clips/a b.mp4", "camera-a-b.mp4.json")],
)  # fmt: skip
def test_each_camera_has_its_calibration_file_beside_the_database(camera: str, name: str) -> None:
    path = camera_calibration_path(Path("/srv/club/table3.db"), camera)
    assert path == Path("/srv/club/table3-calibration") / name


class _TableCamera:
    """A camera kind of the test's own: ``table://`` films the rendered table at 10 fps,
    a player walking along the near cushion for the first 3 s, then a clear view."""

    fps, size_px = 10.0, (960, 540)

    def __init__(self, spec: int | str, clock: object) -> None:
        self.closed = False

    def frames(self) -> Iterator[CameraFrame]:
        clean = clean_table()
        for i in range(200):
            t_s = i / self.fps
            image = with_player(clean, 100 + 25 * i) if t_s < 3.0 else clean
            yield CameraFrame(i, t_s, image)
        self.close()

    def close(self) -> None:
        self.closed = True


def test_a_camera_is_watched_until_the_view_is_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hardware_cameras, "_KINDS", list(hardware_cameras._KINDS))
    register_camera(CameraKind("table", lambda s: str(s).startswith("table://"), _TableCamera))
    said: list[str] = []
    result = best_calibration("table://1", MATCH_TABLE, say=said.append)
    assert result.report.verdict is Outcome.GOOD
    waits = [line for line in said if line.startswith("waiting for a clear view of the table")]
    assert waits[0] == "waiting for a clear view of the table: 0 of 8 s"
    assert waits[-1] == "waiting for a clear view of the table: 8 of 8 s"
    assert len(waits) == 9  # one line each time another clear second is in


def _walked_clip(path: Path, gop: int) -> Path:
    """12 s at 10 fps of the table, a player walking along it for the first 4 s;
    a key frame every ``gop`` frames (no others: no scene cuts)."""
    clean = clean_table()
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=10)
        stream.width, stream.height, stream.pix_fmt = clean.shape[1], clean.shape[0], "yuv420p"
        stream.codec_context.gop_size = gop
        stream.codec_context.options = {"sc_threshold": "0"}
        for i in range(120):
            image = with_player(clean, 100 + 20 * i) if i < 40 else clean
            for packet in stream.encode(av.VideoFrame.from_ndarray(image, format="bgr24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The keyword arguments of each ``open_source`` call the calibration step makes."""
    seen: list[dict[str, object]] = []

    def recorded(source: str, **kwargs: object) -> FrameSource:
        seen.append(kwargs)
        return open_source(source, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(calibrate_step, "open_source", recorded)
    return seen


@pytest.mark.parametrize(("gop", "keys"), [(3, True), (30, False)])
def test_a_video_is_fitted_from_the_median_of_a_sparse_read(
    tmp_path: Path, reads: list[dict[str, object]], gop: int, keys: bool
) -> None:
    """Key frames 0.3 s apart: the key frames alone; 3 s apart: the frames others refer
    to. A good fit from the median reads nothing more (the single frames are not read)."""
    clip = _walked_clip(tmp_path / "walk.mp4", gop)
    result = best_calibration(str(clip), MATCH_TABLE)
    assert result.report.verdict is Outcome.GOOD
    assert reads == [{"sparse_after_idx": 0, "sparse_keys": keys}]


def test_the_single_frames_are_read_when_the_median_gives_no_good_fit(
    tmp_path: Path, reads: list[dict[str, object]]
) -> None:
    clip = write_clip(tmp_path / "floor.mp4", floor())
    with pytest.raises(CalibrationError):
        best_calibration(str(clip), MATCH_TABLE)
    assert reads == [{"sparse_after_idx": 0, "sparse_keys": False}, {}]
