"""Batch manifests: CSV and JSON rows, paths against the manifest's folder, one-line errors."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from carom.batch import COLUMNS, ManifestError, expand_sources
from carom.batch._manifest import NAMES_SEP, read_manifest
from referee import CaromError
from referee.jsonbound import DocumentLimits
from tests.fuzz_scale import examples

Row = tuple[str, dict[str, str], str]


def rows_of(path: Path) -> list[Row]:
    return list(read_manifest(path))


def write_csv(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_json(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def one_line_error(path: Path) -> str:
    """The ManifestError reading ``path`` gives (checked to be one line naming the file)."""
    with pytest.raises(ManifestError) as err:
        rows_of(path)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    return message


def test_csv_rows_with_paths_resolved_against_the_manifest_s_folder(tmp_path: Path) -> None:
    base = tmp_path / "season"
    manifest = write_csv(
        base / "m.csv",
        "path,players,calibration,match,discipline,name\n"
        'day1/a.mp4,"Ana,Ben",cal/t1.json,m.toml,,first\n'
        f"{tmp_path / 'abs.mp4'},Cem Dan,{tmp_path / 'c.json'},,balkline-47-2,\n"
        "https://example.invalid/v/c.mp4,,,,,\n",
    )
    assert rows_of(manifest) == [
        (
            str(base / "day1" / "a.mp4"),
            {"players": "Ana,Ben", "calibration": str(base / "cal" / "t1.json"),
             "match": str(base / "m.toml"), "name": "first"},
            f"{manifest} line 2",
        ),
        (
            str(tmp_path / "abs.mp4"),
            {"players": "Cem Dan", "calibration": str(tmp_path / "c.json"),
             "discipline": "balkline-47-2"},
            f"{manifest} line 3",
        ),
        ("https://example.invalid/v/c.mp4", {}, f"{manifest} line 4"),
    ]  # fmt: skip


def test_a_csv_with_a_byte_order_mark_and_spaces_in_the_header(tmp_path: Path) -> None:
    manifest = tmp_path / "m.csv"
    manifest.write_bytes("\ufeff path , target \r\na.mp4, 40 \r\n".encode())
    assert rows_of(manifest) == [(str(tmp_path / "a.mp4"), {"target": "40"}, f"{manifest} line 2")]


def test_json_list_and_videos_object_give_the_same_rows(tmp_path: Path) -> None:
    videos = [
        {"path": "a.mp4", "players": ["Ana", "Ben"], "target": 40, "start_break": True},
        {"path": "b.mp4", "start-score": "Ana=3,Ben=1", "start_break": False, "table": None},
    ]
    as_list = write_json(tmp_path / "list.json", videos)
    as_object = write_json(tmp_path / "object.json", {"videos": videos})
    expected = [
        {"players": f"Ana{NAMES_SEP}Ben", "target": "40", "start_break": "yes"},
        {"start_score": "Ana=3,Ben=1", "start_break": "no"},
    ]
    for manifest in (as_list, as_object):
        rows = rows_of(manifest)
        assert [r[0] for r in rows] == [str(tmp_path / "a.mp4"), str(tmp_path / "b.mp4")]
        assert [r[1] for r in rows] == expected
        assert [r[2] for r in rows] == [f"{manifest} video {i} of the list" for i in (1, 2)]


def test_hyphenated_columns_in_a_csv_header(tmp_path: Path) -> None:
    manifest = write_csv(tmp_path / "m.csv", "path,start-score,start-sets-won\na.mp4,A=1,A=0\n")
    assert rows_of(manifest)[0][1] == {"start_score": "A=1", "start_sets_won": "A=0"}


def test_an_empty_cell_leaves_the_command_line_s_option(tmp_path: Path) -> None:
    manifest = write_csv(tmp_path / "m.csv", "path,players,target\na.mp4,  ,\n")
    assert rows_of(manifest)[0][1] == {}


def test_every_documented_column_is_accepted(tmp_path: Path) -> None:
    row = {c: f"v-{c}" for c in COLUMNS}
    (source, fields, _), = rows_of(write_json(tmp_path / "m.json", [row]))  # fmt: skip
    assert source == str(tmp_path / "v-path")
    assert set(fields) == set(COLUMNS) - {"path"}


def test_an_unknown_column_names_the_header_s_line_and_the_column(tmp_path: Path) -> None:
    """The header is line 1 (it said line 2, the first row's); cells parted by semicolons
    (a spreadsheet's CSV in some languages) are one column, and the line says so."""
    manifest = write_csv(tmp_path / "m.csv", "path,player\na.mp4,Ana\n")
    message = one_line_error(manifest)
    assert message.startswith(f"{manifest} line 1 (the header): unknown column 'player'; the ")
    semi = one_line_error(write_csv(tmp_path / "s.csv", "path;players\na.mp4;Ana\n"))
    assert "unknown column 'path;players'; separate the cells with commas;" in semi
    with pytest.raises(ManifestError, match="video 1 of the list: unknown column 'player'"):
        rows_of(write_json(tmp_path / "m.json", [{"path": "a.mp4", "player": "Ana"}]))


def test_a_csv_row_longer_than_the_header_is_refused(tmp_path: Path) -> None:
    """Named by the file's line (the header is line 1), as an editor numbers it; a cell
    over two lines counts both."""
    manifest = write_csv(tmp_path / "m.csv", 'path,name\n"a\nb.mp4",x\nb.mp4,y,extra\n')
    assert one_line_error(manifest) == (
        f"{manifest} line 4: more cells than the header has columns (1 too many); "
        "quote a cell that holds a comma"
    )


@pytest.mark.parametrize(
    "doc",
    [[{"path": "a.mp4"}, {"players": "Ana,Ben"}], [{"path": "a.mp4"}, {"path": ""}]],
    ids=["no-path-key", "empty-path"],
)
def test_a_row_without_path_names_the_row(tmp_path: Path, doc: list[dict[str, str]]) -> None:
    manifest = write_json(tmp_path / "m.json", doc)
    assert one_line_error(manifest).startswith(f"{manifest} video 2 of the list: no path")


@pytest.mark.parametrize(
    ("name", "content"),
    [("m.csv", b""), ("m.csv", b"path,players\n"), ("m.json", b"[]"),
     ("m.json", b'{"videos": []}')],
    ids=["empty-csv", "header-only", "empty-list", "empty-videos"],
)  # fmt: skip
def test_an_empty_manifest_is_refused(tmp_path: Path, name: str, content: bytes) -> None:
    manifest = tmp_path / name
    manifest.write_bytes(content)
    assert "lists no video" in one_line_error(manifest)


@pytest.mark.parametrize(
    "doc",
    [{"path": "a.mp4"}, ["a.mp4"], {"videos": [{"path": "a.mp4"}], "other": 1}, 3],
    ids=["one-object", "list-of-strings", "extra-key", "number"],
)
def test_json_of_another_shape_is_refused(tmp_path: Path, doc: Any) -> None:
    assert "expected a list of objects" in one_line_error(write_json(tmp_path / "m.json", doc))


@pytest.mark.parametrize(
    "value", [{"nested": 1}, [1, 2], True], ids=["object", "list-not-players", "bool"]
)
def test_a_json_cell_that_is_not_text_names_the_row_and_column(tmp_path: Path, value: Any) -> None:
    manifest = write_json(tmp_path / "m.json", [{"path": "a.mp4", "target": value}])
    assert one_line_error(manifest).startswith(
        f"{manifest} video 1 of the list: target: expected text"
    )


def test_a_csv_not_in_utf8_is_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "m.csv"
    manifest.write_bytes('path,players\nà.mp4,"José,Ana"\n'.encode("latin-1"))
    assert "not UTF-8" in one_line_error(manifest)


def test_json_that_does_not_decode_is_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "m.json"
    manifest.write_bytes(b'[{"path": "a.mp4",}]')
    one_line_error(manifest)


def test_a_manifest_over_16_mb_is_refused_before_it_is_read(tmp_path: Path) -> None:
    manifest = tmp_path / "m.csv"
    manifest.write_bytes(b"path\na.mp4\n")
    os.truncate(manifest, (16 << 20) + 1)  # sparse: no 16 MB written
    message = one_line_error(manifest)
    assert "16.0 MB" in message


def test_a_manifest_at_the_limit_is_read_and_a_byte_more_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("carom.batch._manifest._LIMITS", DocumentLimits(max_bytes=64))
    manifest = tmp_path / "m.csv"
    head = b"path\na.mp4\n"
    manifest.write_bytes(head + b"\n" * (64 - len(head)))  # blank lines: no rows
    assert [r[0] for r in rows_of(manifest)] == [str(tmp_path / "a.mp4")]
    with manifest.open("ab") as f:
        f.write(b"\n")
    assert "more than the 64 bytes" in one_line_error(manifest)


def test_an_unreadable_manifest_is_a_manifest_error(tmp_path: Path) -> None:
    folder_named_csv = tmp_path / "m.csv"
    folder_named_csv.mkdir()
    one_line_error(folder_named_csv)


FUZZ = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
CSV_ALPHABET = st.sampled_from([*'path,name"players\n\r ;-_x./:[]\x00é', "start-break"])


@FUZZ
@given(
    st.one_of(
        st.text(),
        st.lists(CSV_ALPHABET).map("".join),
        st.lists(CSV_ALPHABET).map(lambda s: "path,players\n" + "".join(s)),
    )
)
@example("path\nhttp://[broken/a.mp4\n")
@example("path\n\x00\n")
@example('path,name\n"unclosed\n')
def test_any_csv_text_gives_rows_or_one_manifest_error(tmp_path: Path, text: str) -> None:
    manifest = tmp_path / "m.csv"
    manifest.write_text(text, encoding="utf-8", newline="")
    entries, message = [], ""
    try:
        entries = expand_sources([str(manifest)], tmp_path / "out")
    except CaromError as exc:
        message = str(exc)
    assert "\n" not in message
    assert bool(entries) != bool(message)
    for entry in entries:
        assert entry.source
        assert re.fullmatch(rf"{re.escape(str(manifest))} line ([2-9]|[1-9][0-9]+)", entry.where)
        assert set(entry.fields) <= set(COLUMNS) - {"path"}
