"""``--players`` reads the same in ``carom analyze`` and ``carom live``: ``A,B`` or ``A B``."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from carom.cli._main import _parser
from carom.match import match_from_args
from tests.carom.cli._in_process import carom_in_process

FORMS = [["Ana,Ben"], ["Ana", "Ben"], ["Ana, Ben"], ["Ana,Ben,Cleo"], ["Ana", "Ben", "Cleo"]]


def _argv(command: str, players: list[str]) -> list[str]:
    where = ["video.mp4"] if command == "analyze" else ["--camera", "video.mp4"]
    return [command, *where, "--players", *players, "--first", "Ana"]


@pytest.mark.parametrize("command", ["analyze", "live"])
@pytest.mark.parametrize("players", FORMS, ids=" ".join)
def test_both_forms_name_the_same_players(command: str, players: list[str]) -> None:
    args = _parser().parse_args(_argv(command, players))
    want = ("Ana", "Ben", "Cleo") if "Cleo" in " ".join(players) else ("Ana", "Ben")
    assert match_from_args(args).players == want


@pytest.mark.parametrize("command", ["analyze", "live"])
def test_a_name_given_twice_is_the_same_one_line_in_both(command: str) -> None:
    done = carom_in_process(*_argv(command, ["Ana", "Ana"]))
    assert done.returncode == 2
    assert done.stderr == (
        "carom: --players: expected 2 to 8 different names in the order of play like A,B or "
        "A,B,C (or A B C), got 'Ana Ana'\n"
    )


@pytest.mark.parametrize(("command", "what"), [("analyze", "video"), ("batch", "SOURCE, --out")])
def test_a_video_after_the_names_is_said_to_be_taken_for_a_name(command: str, what: str) -> None:
    """``--players Ana Ben VIDEO``: the video became a third name, and the error said only
    that the video was missing (the README says two words work)."""
    done = carom_in_process(command, "--players", "Ana", "Ben", "clip.mp4")
    assert done.returncode == 2
    assert done.stderr.startswith(
        f"carom {command}: error: the following arguments are required: {what} (if clip.mp4 "
        "is the video, --players took it as a name: give the video before --players, or the "
        "names with commas: --players Ana,Ben); "
    ), done.stderr
    done = carom_in_process(command, "--players", "Ana,Ben")  # nothing taken: no such hint
    assert "took" not in done.stderr and done.returncode == 2
    done = carom_in_process("live", "--players", "A", "B", "C")  # live takes no video
    assert "took" not in done.stderr and done.returncode == 2


@pytest.mark.parametrize("command", ["analyze", "batch"])
def test_names_with_commas_before_the_video_are_said_to_have_taken_it(command: str) -> None:
    """``--players Ana,Ben VIDEO`` said only "required: SOURCE"; a suggested name with a
    space could not be pasted."""
    done = carom_in_process(command, "--players", "Ana,Ben", "my clip.mp4")
    assert done.returncode == 2
    assert "(if 'my clip.mp4' is the video, --players took it as a name: give the video " \
        "before --players); " in done.stderr, done.stderr  # fmt: skip
    done = carom_in_process(command, "--players", "Jean Luc", "Marie Curie", "x.mp4")
    assert "the names with commas: --players 'Jean Luc,Marie Curie')" in done.stderr


@pytest.mark.parametrize("command", ["analyze", "batch"])
def test_a_file_after_space_separated_names_is_refused_not_made_a_player(
    command: str, tmp_path: Path
) -> None:
    """``carom batch a.mp4 --players Ana Ben b.mp4`` judged a.mp4 as a three-player match
    with a player named b.mp4, and never analysed b.mp4."""
    for name in ("a.mp4", "b.mp4"):
        (tmp_path / name).write_bytes(b"")
    more = ["--out", str(tmp_path / "out")]
    done = carom_in_process(command, "a.mp4", "--players", "Ana", "Ben", "b.mp4", *more,
                            cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "carom: --players: 'b.mp4' is a file here, not a player's name; give the names with "
        "commas (--players Ana,Ben) or put the videos before --players\n"
    )
    assert not (tmp_path / "out").exists()


def test_names_that_are_also_files_or_folders_here_are_names(tmp_path: Path) -> None:
    """A file named like a player, or a folder per player, next to the videos: ``--players
    Ana Ben`` after the video was refused as if a video had been taken for a name."""
    (tmp_path / "Ana").write_text("")
    (tmp_path / "Ben").mkdir()
    with contextlib.chdir(tmp_path):
        args = _parser().parse_args(["analyze", "v.mp4", "--players", "Ana", "Ben"])
        assert match_from_args(args).players == ("Ana", "Ben")


def test_the_hint_names_only_the_words_before_the_first_video(tmp_path: Path) -> None:
    """``--players Cem Ben a.mp4 u.mp4`` suggested ``--players Cem,Ben,a.mp4``."""
    for name in ("a.mp4", "u.mp4"):
        (tmp_path / name).write_bytes(b"")
    done = carom_in_process("batch", "--players", "Cem", "Ben", "a.mp4", "u.mp4", "--out", "o",
                            cwd=tmp_path)  # fmt: skip
    assert "--players took it as a name: give the video before --players, or the names " \
        "with commas: --players Cem,Ben); " in done.stderr, done.stderr  # fmt: skip
