"""A clip's files appear whole: video, truth and shot log of one render, or none of them."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from synth import CameraSettings, LookSettings, MadeClip, make_clip, motion_for
from synth._samples_run import _manifest

CAMERA = CameraSettings(width_px=320, height_px=240)
NAMES = ["3c-point.json", "3c-point.mp4", "3c-point.shots.json"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _stop_at(frame: int, exc: BaseException) -> Callable[[int, int], None]:
    """A progress callback that raises ``exc`` once ``frame`` frames are rendered."""

    def progress(done: int, _total: int) -> None:
        if done == frame:
            raise exc

    return progress


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> MadeClip:
    """One complete render (the tests that stop one work on a copy of its folder)."""
    out = tmp_path_factory.mktemp("made")
    return make_clip("3c-point", motion_for("3c-point"), out, CAMERA, LookSettings())


def test_the_files_name_each_other_by_their_own_names(made: MadeClip) -> None:
    folder = made.clip.video_path.parent
    assert sorted(p.name for p in folder.iterdir()) == NAMES  # no temporary left
    assert made.clip.video_path == folder / "3c-point.mp4"
    assert made.clip.truth_path == folder / "3c-point.json"
    assert made.shots_path == folder / "3c-point.shots.json"
    truth = json.loads(made.clip.truth_path.read_text())
    assert truth["video"]["file"] == "3c-point.mp4"
    assert truth["extra"]["shot_log"] == "3c-point.shots.json"


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), RuntimeError("disk gone")],
                         ids=["ctrl-c", "error"])  # fmt: skip
def test_a_render_stopped_half_way_leaves_the_earlier_files(
    made: MadeClip, tmp_path: Path, exc: BaseException
) -> None:
    out = tmp_path / "out"
    shutil.copytree(made.clip.video_path.parent, out)
    before = _snapshot(out)
    with pytest.raises(type(exc)):
        make_clip("3c-point", motion_for("3c-point"), out, CAMERA, LookSettings(), seed=9,
                  progress=_stop_at(20, exc))  # fmt: skip
    assert _snapshot(out) == before


def test_a_first_render_stopped_half_way_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        make_clip("3c-point", motion_for("3c-point"), tmp_path, CAMERA, LookSettings(),
                  progress=_stop_at(5, KeyboardInterrupt()))  # fmt: skip
    assert list(tmp_path.iterdir()) == []


def test_the_samples_manifest_leaves_out_a_render_under_way(tmp_path: Path) -> None:
    for name in ("a.mp4", "a.json", "a.shots.json", "manifest.json", ".b.part-0123abcd.mp4",
                 ".b.part-0123abcd.json", "README.md"):  # fmt: skip
        (tmp_path / name).write_text(name)
    assert sorted(_manifest(tmp_path)) == ["a.json", "a.mp4", "a.shots.json"]
