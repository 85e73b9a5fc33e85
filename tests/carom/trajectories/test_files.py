"""``trajectories.json`` / ``.csv``: the writer, the reader and the schema agree.

Random trajectories (at the files' precision) are written to real files and read
back; the JSON passes ``docs/trajectories.schema.json``; every CSV row is the JSON's
sample; a damaged document is refused with ``TrajectoriesError`` naming the field and
never with another exception, and the schema never refuses what the reader accepts.
"""

from __future__ import annotations

import copy
import csv
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from carom.trajectories import (
    CSV_COLUMNS,
    FLAG_NAMES,
    Trajectories,
    TrajectoriesError,
    flag_text,
    parse_trajectories,
    trajectories_csv,
    trajectories_json,
    write_trajectories,
)
from referee import Table
from tests.carom.trajectories.strategies import trajectories
from vision import TrackFlag

DOCS = Path(__file__).parents[3] / "docs"
SCHEMA: dict[str, Any] = json.loads((DOCS / "trajectories.schema.json").read_text())
VALIDATOR = Draft202012Validator(SCHEMA)


def _written(traj: Trajectories) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """Both files written to disk and read back as plain JSON and CSV rows."""
    with tempfile.TemporaryDirectory() as tmp:
        json_path, csv_path = write_trajectories(Path(tmp), traj)
        doc = json.loads(json_path.read_text(encoding="utf-8"))
        with csv_path.open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
    return doc, rows


def _cell(value: Any) -> str:
    return "" if value is None else repr(value)


def csv_of_json(doc: dict[str, Any]) -> list[dict[str, str]]:
    """What the CSV must hold for ``doc``: per shot, per ball, per frame."""
    names = {bit: name for name, bit in doc["flags"].items()}
    rows = []
    for shot in doc["shots"]:
        for ball, path in shot["balls"].items():
            for k, t in enumerate(shot["t_s"]):
                f = path["flags"][k]
                frame = shot["frame_idx"][k]
                rows.append({
                    "shot": str(shot["index"]), "ball": ball,
                    "frame_idx": "" if frame is None else str(frame), "t_s": repr(t),
                    "x_mm": _cell(path["x_mm"][k]), "y_mm": _cell(path["y_mm"][k]),
                    "flags": "+".join(names[b] for b in sorted(names) if f & b),
                })  # fmt: skip
    return rows


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trajectories())
def test_written_files_read_back_to_the_same_trajectories(traj: Trajectories) -> None:
    doc, rows = _written(traj)
    assert parse_trajectories(doc) == traj
    assert doc == trajectories_json(traj)
    VALIDATOR.validate(doc)
    assert rows == csv_of_json(doc)
    assert len(rows) == traj.n_samples


def test_a_folder_given_as_a_string_is_written_too(tmp_path: Path) -> None:
    """As open() takes one (it was a TypeError on ``str / str``)."""
    traj = parse_trajectories(json.loads(_doc_example("json")))
    json_path, csv_path = write_trajectories(str(tmp_path), traj)
    assert json_path == tmp_path / "trajectories.json" and csv_path.is_file()
    assert parse_trajectories(json.loads(json_path.read_text())) == traj


def test_flag_names_are_the_bits_of_vision_and_the_schema() -> None:
    assert {str(f.name).lower(): int(f) for f in TrackFlag} == FLAG_NAMES
    assert SCHEMA["properties"]["flags"]["const"] == dict(FLAG_NAMES)
    assert SCHEMA["$defs"]["path"]["properties"]["flags"]["items"]["enum"] == [0, 1, 3, 4]
    assert [flag_text(f) for f in (0, 1, 3, 4)] == [
        "", "predicted", "predicted+occluded", "interpolated",
    ]  # fmt: skip
    empty = trajectories_csv(Trajectories(table=Table(), shots=()))
    assert empty.splitlines() == [",".join(CSV_COLUMNS)]


def _doc_example(kind: str) -> str:
    text = (DOCS / "trajectories.md").read_text(encoding="utf-8")
    blocks = re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)
    return str(blocks[0])


def test_the_pages_example_is_valid_and_its_csv_is_the_writers() -> None:
    doc = json.loads(_doc_example("json"))
    VALIDATOR.validate(doc)
    traj = parse_trajectories(doc)
    assert trajectories_csv(traj) == _doc_example("text")


_JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=False),
    st.text(max_size=8), st.just([]), st.just({}), st.just([1.0, None]),
)  # fmt: skip


def _places(node: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key) of a JSON tree."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in list(items):
        out.append((node, key))
        if isinstance(value, dict | list):
            _places(value, out)
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trajectories(), st.data())
def test_a_damaged_document_is_refused_by_name_and_the_schema_agrees(
    traj: Trajectories, data: st.DataObject
) -> None:
    doc = copy.deepcopy(trajectories_json(traj))
    places = _places(doc, [])
    node, key = data.draw(st.sampled_from(places))
    if data.draw(st.booleans()) and isinstance(node, dict):
        del node[key]
    else:
        node[key] = data.draw(_JSON_VALUES)
    try:
        parse_trajectories(doc)
    except TrajectoriesError as exc:
        refusal = str(exc)
    else:
        refusal = None
    if refusal is None:
        assert VALIDATOR.is_valid(doc), "the reader accepted what the schema refuses"
    else:
        assert refusal and "\n" not in refusal


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="carom-trajectories/2"), "format: expected"),
        (lambda d: d["shots"][0]["t_s"].pop(), r"shots\[0\]: frame_idx: expected 2 values"),
        (lambda d: d["shots"][0]["balls"]["white"]["flags"].__setitem__(1, 2),
         r"shots\[0\].balls.white: sample 1: flags 2: occluded without predicted"),
        (lambda d: d["shots"][0]["balls"]["white"]["x_mm"].__setitem__(0, None),
         r"shots\[0\].balls.white: sample 0: x_mm and y_mm must both be null"),
        (lambda d: d["shots"][0]["t_s"].__setitem__(2, 0.5),
         r"shots\[0\]: t_s: expected strictly increasing"),
        (lambda d: d["shots"][0]["balls"].update(blue={}), r"shots\[0\].balls.blue: unknown name"),
        (lambda d: d["shots"][0].update(speed=1), r"shots\[0\].speed: unknown field"),
        # true equals 1 in Python, not in JSON: the legend's bits are numbers (hypothesis)
        (lambda d: d.update(flags={"predicted": True, "occluded": 2, "interpolated": 4}),
         r"flags: expected \{'predicted': 1"),
    ],
)  # fmt: skip
def test_errors_name_the_field(change: Any, message: str) -> None:
    doc = {
        "format": "carom-trajectories/1",
        "table": {"length_mm": 2840, "width_mm": 1420, "ball_diameter_mm": 61.5},
        "shots": [{"index": 0, "cue_ball": "white", "frame_idx": [0, 1, 2],
                   "t_s": [0.0, 0.5, 1.0],
                   "balls": {"white": {"x_mm": [1.0, 2.0, 3.0], "y_mm": [1.0, 2.0, 3.0],
                                       "flags": [0, 0, 3]}}}],
    }  # fmt: skip
    parse_trajectories(copy.deepcopy(doc))
    change(doc)
    with pytest.raises(TrajectoriesError, match=message):
        parse_trajectories(doc)
