"""``carom.files.make_folder``: the output folder of ``carom analyze`` and ``carom synth``."""

from __future__ import annotations

from pathlib import Path

import pytest

from carom.files import make_folder, remove_empty
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
