"""``carom.files.make_folder``: the output folder of ``carom analyze`` and ``carom synth``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from carom.files import make_folder, remove_empty, remove_left_by_ended, remove_own, work_prefix
from referee import CaromError


def test_the_folders_made_are_given_deepest_first_and_an_existing_one_makes_none(
    tmp_path: Path,
) -> None:
    deep = tmp_path / "a" / "b" / "c"
    assert make_folder(deep, "--out") == [deep, deep.parent, deep.parent.parent]
    assert deep.is_dir()
    assert make_folder(deep, "--out") == []


def test_a_file_in_the_way_is_one_line_naming_the_option_and_what_goes_there(
    tmp_path: Path,
) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(CaromError) as caught:
        make_folder(tmp_path / "afile", "--out", "the results")
    assert str(caught.value) == (
        f"--out {tmp_path / 'afile'}: is a file, not a folder; give a folder for the results "
        "(it is made if missing)"
    )
    with pytest.raises(CaromError, match=r"/afile/x: cannot make the folder \("):
        make_folder(tmp_path / "afile" / "x", "--samples")


def test_a_folder_no_file_can_be_written_in_is_refused() -> None:
    # /proc takes no new file, even from root: the check makes one, never asks os.access
    with pytest.raises(CaromError, match=r"^--out /proc: cannot write the results there \("):
        make_folder(Path("/proc"), "--out", "the results")
    with pytest.raises(CaromError, match=r"^--out /proc: cannot write there \("):
        make_folder(Path("/proc"), "--out")


def test_only_the_empty_folders_are_removed(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b"
    made = make_folder(deep, "--out")
    (tmp_path / "a" / "kept.txt").write_text("x")
    remove_empty(made)
    assert not deep.exists()
    assert (tmp_path / "a").is_dir()


def _folder(root: Path, name: str) -> Path:
    (root / name / "video").mkdir(parents=True)
    (root / name / "video" / "half.mp4").write_bytes(b"x" * 100)
    return root / name


def test_the_folders_of_ended_processes_of_this_machine_go_the_others_stay(
    tmp_path: Path,
) -> None:
    """Real processes: one ended and reaped, one ended and not reaped (a zombie), one
    running; a folder of another machine and one not named after a process."""
    ended = subprocess.Popen(["true"])
    ended.wait()
    zombie = subprocess.Popen(["true"])  # never waited for until the end of the test
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        while Path(f"/proc/{zombie.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
            pass  # it ends in a moment
        gone = [_folder(tmp_path, f"{work_prefix('w', pid)}a") for pid in (ended.pid, zombie.pid)]
        kept = [_folder(tmp_path, f"{work_prefix('w', running.pid)}b"),
                _folder(tmp_path, f"{work_prefix('w')}c"),  # this process's
                _folder(tmp_path, f"w-zzzzzz-{ended.pid}-d"),  # another machine's
                _folder(tmp_path, "w-unnamed"),
                _folder(tmp_path, f"{work_prefix('other', ended.pid)}e")]  # fmt: skip
        assert remove_left_by_ended(tmp_path, "w") == 2
        assert [p.exists() for p in gone] == [False, False]
        assert all(p.exists() for p in kept)
    finally:
        running.kill()
        running.wait()
        zombie.wait()


def test_given_pids_only_theirs_go_and_a_process_removes_its_own(tmp_path: Path) -> None:
    first, second = (subprocess.Popen(["true"]) for _ in range(2))
    first.wait()
    second.wait()
    a = _folder(tmp_path, f"{work_prefix('w', first.pid)}a")
    b = _folder(tmp_path, f"{work_prefix('w', second.pid)}b")
    assert remove_left_by_ended(tmp_path, "w", [second.pid]) == 1
    assert a.exists() and not b.exists()
    mine = _folder(tmp_path, f"{work_prefix('w')}c")
    remove_own(tmp_path, "w")
    assert not mine.exists() and a.exists()
    assert work_prefix("w").endswith(f"-{os.getpid()}-")
