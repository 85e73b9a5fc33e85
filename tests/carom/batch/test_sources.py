"""What ``carom batch SOURCES`` turns into videos: folders, globs, URLs, manifests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from carom.batch import SourceEntry, expand_sources
from carom.batch._manifest import NAMES_SEP
from referee import CaromError


def make_file(path: Path, data: bytes = b"not a video") -> Path:
    """``path`` (with its folders) holding ``data``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def sources_of(entries: list[SourceEntry]) -> list[str]:
    return [e.source for e in entries]


def test_a_folder_gives_its_videos_at_any_depth_in_path_order(tmp_path: Path) -> None:
    season = tmp_path / "season"
    b = make_file(season / "b.mp4")
    a = make_file(season / "a.MKV")  # the suffix in any case
    deep = make_file(season / "day2" / "table1" / "c.webm")
    make_file(season / "notes.txt")
    make_file(season / "players.csv")  # a manifest inside a folder is not a video
    entries = expand_sources([str(season)], tmp_path / "out")
    assert sources_of(entries) == [str(a), str(b), str(deep)]
    assert all(e.fields == {} and e.where == "" for e in entries)


def test_hidden_folders_and_the_out_folder_are_left_out(tmp_path: Path) -> None:
    season = tmp_path / "season"
    kept = make_file(season / "kept.mp4")
    make_file(season / ".cache" / "hidden.mp4")
    make_file(season / "x" / ".trash" / "deeper.mp4")
    out = season / "results"
    make_file(out / "old" / "annotated.mp4")  # an earlier run's annotated video
    assert sources_of(expand_sources([str(season)], out)) == [str(kept)]


def test_a_folder_of_the_out_folder_only_says_its_videos_are_under_out(tmp_path: Path) -> None:
    """``carom batch arch --out arch`` said "no video in this folder" of a folder of videos."""
    out = tmp_path / "out"
    make_file(out / "v" / "annotated.mp4")
    with pytest.raises(CaromError) as err:
        expand_sources([str(out)], out)
    assert str(err.value) == (f"{out}: its videos are all under --out {out}, where the results "
                              "go (never read as sources); give --out another folder")  # fmt: skip


def test_a_glob_pattern_matches_files_and_double_star_goes_down(tmp_path: Path) -> None:
    a = make_file(tmp_path / "s" / "a.mp4")
    b = make_file(tmp_path / "s" / "day" / "b.mp4")
    make_file(tmp_path / "s" / "day" / "b.mkv")
    (tmp_path / "s" / "dir.mp4").mkdir()  # a folder matched is not a video
    out = tmp_path / "out"
    assert sources_of(expand_sources([str(tmp_path / "s" / "*.mp4")], out)) == [str(a)]
    both = expand_sources([str(tmp_path / "s" / "**" / "*.mp4")], out)
    assert sources_of(both) == [str(a), str(b)]


def test_a_glob_leaves_out_the_out_folder(tmp_path: Path) -> None:
    a = make_file(tmp_path / "a.mp4")
    make_file(tmp_path / "out" / "a" / "annotated.mp4")
    pattern = str(tmp_path / "**" / "*.mp4")
    assert sources_of(expand_sources([pattern], tmp_path / "out")) == [str(a)]


@pytest.mark.parametrize(
    ("make", "source", "says"),
    [
        (lambda p: None, "missing.mp4", "no such file or folder"),
        (lambda p: (p / "empty").mkdir(), "empty", "no video in this folder"),
        (lambda p: make_file(p / "a.mp4"), "*.mkv", "the pattern matches no file"),
    ],
    ids=["missing", "empty-folder", "glob-without-match"],
)
def test_a_source_that_names_no_video_is_one_line_naming_it(
    tmp_path: Path, make: Callable[[Path], object], source: str, says: str
) -> None:
    make(tmp_path)
    given = str(tmp_path / source)
    with pytest.raises(CaromError) as err:
        expand_sources([given], tmp_path / "out")
    message = str(err.value)
    assert message.startswith(f"{given}: {says}")
    assert "\n" not in message


def test_no_source_at_all_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CaromError, match="no videos"):
        expand_sources([], tmp_path / "out")


def test_urls_pass_through_unread_in_order(tmp_path: Path) -> None:
    local = make_file(tmp_path / "a.mp4")
    urls = ["https://example.invalid/x.mp4", "file:///nowhere/y.mkv", "http://h/z"]
    entries = expand_sources([urls[0], str(local), urls[1], urls[2]], tmp_path / "out")
    assert sources_of(entries) == [urls[0], str(local), urls[1], urls[2]]


def test_a_file_of_any_name_is_taken_as_given(tmp_path: Path) -> None:
    odd = make_file(tmp_path / "match-recording.bin")
    assert expand_sources([str(odd)], tmp_path / "out") == [SourceEntry(str(odd))]


@pytest.mark.parametrize("suffix", [".csv", ".CSV", ".json"])
def test_a_csv_or_json_file_is_read_as_a_manifest(tmp_path: Path, suffix: str) -> None:
    make_file(tmp_path / "clips" / "a.mp4")
    manifest = tmp_path / "clips" / f"season{suffix}"
    if suffix.lower() == ".csv":
        manifest.write_text('path,players\na.mp4,"Ana,Ben"\n', encoding="utf-8")
    else:
        manifest.write_text('[{"path": "a.mp4", "players": ["Ana", "Ben"]}]', encoding="utf-8")
    (entry,) = expand_sources([str(manifest)], tmp_path / "out")
    assert entry.source == str(tmp_path / "clips" / "a.mp4")
    names = "Ana,Ben" if suffix.lower() == ".csv" else f"Ana{NAMES_SEP}Ben"  # each as given
    assert entry.fields == {"players": names}
    at = "line 2" if suffix.lower() == ".csv" else "video 1 of the list"
    assert entry.where == f"{manifest} {at}"


def test_a_broken_manifest_is_a_carom_error_not_a_video(tmp_path: Path) -> None:
    manifest = make_file(tmp_path / "season.json", b"{not json")
    with pytest.raises(CaromError) as err:
        expand_sources([str(manifest)], tmp_path / "out")
    assert str(manifest) in str(err.value)


def test_a_video_whose_name_is_not_utf8_is_refused_before_any_work(tmp_path: Path) -> None:
    """Found in a folder or by a pattern (the arguments' own check does not see it): the
    analysis ran, then failed with an internal error writing the index."""
    make_file(tmp_path / "s" / "ok.mp4")
    make_file(tmp_path / "s" / "v\udce9.mp4")  # the bytes v\xe9.mp4 on the disk
    out = tmp_path / "out"
    for source in (str(tmp_path / "s"), str(tmp_path / "s" / "*.mp4")):
        with pytest.raises(CaromError) as err:
            expand_sources([source], out)
        assert str(err.value) == (
            f"{tmp_path / 's'}/v\\xe9.mp4: its name is not UTF-8 text "
            "(written in another encoding); rename it with UTF-8 letters"
        )
