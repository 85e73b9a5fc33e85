"""``carom batch``'s command line refuses what it cannot use before any work, in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _batch(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from carom.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, "batch", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)  # fmt: skip


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--ray", "videos", "b.mp4", "--out", "o"], "--ray videos: not a Ray address"),
        (["missing.mp4", "--out", "o"], "missing.mp4: no such file or folder"),
        (["a.mp4", "--out", "afile"], "--out afile: is a file"),
        (["a.mp4", "--out", "afile/o"], "--out afile/o: afile is a file, not a folder"),
        (["a.mp4", "--out", "/proc/o"], "--out /proc/o: cannot write there ("),
        (["'*.nothing'", "--out", "o"], "the pattern matches no file"),
        (["a.mp4", "--out", "o", "--players", "Ana"], "--players: expected 2 to"),
        # Ray's GPU shares without Ray were taken and ignored.
        (["a.mp4", "--out", "o", "--gpus-per-video", "0.5"], "--gpus-per-video is for --ray"),
        (["a.mp4", "--out", "o", "--ray-gpus", "1"], "--ray-gpus is for --ray"),
        (["a.mp4", "--out", "o", "--calibration", "none.json"], "--calibration none.json"),
        # Checked before any work, naming the user's file (it failed every video, exit 5,
        # naming the workers' copy).
        (
            ["a.mp4", "--out", "o", "--calibration", "bad.json"],
            "calibration file bad.json: not a carom-calibration/1 file",
        ),
    ],
)
def test_a_bad_command_line_is_one_line_and_status_2_and_nothing_is_written(
    tmp_path: Path, args: list[str], says: str
) -> None:
    (tmp_path / "a.mp4").write_bytes(b"not a video")
    (tmp_path / "b.mp4").write_bytes(b"not a video either")
    (tmp_path / "afile").write_text("x")
    (tmp_path / "bad.json").write_text('{"a": 1}')
    done = _batch(*[a.strip("'") for a in args], cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("flag", "value"), [("--workers", "0"), ("--workers", "x"), ("--gpus-per-video", "2"),
                        ("--gpus-per-video", "nan"), ("--ray-gpus", "-1"), ("--lang", "de"),
                        ("--out", "")],  # the current folder, unasked
)  # fmt: skip
def test_numbers_out_of_range_are_refused_by_the_parser(
    tmp_path: Path, flag: str, value: str
) -> None:
    done = _batch("a.mp4", "--out", "o", flag, value, cwd=tmp_path)
    assert done.returncode == 2
    assert f"argument {flag}" in done.stderr
