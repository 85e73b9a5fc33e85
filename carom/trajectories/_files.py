"""``trajectories.json`` and ``trajectories.csv``: writing them, and reading the JSON back.

The JSON is columnar (per shot one ``frame_idx`` and one ``t_s`` list, per ball
``x_mm``, ``y_mm`` and ``flags`` lists of the same length) and written one shot per
line; the CSV has one row per sample. Both carry the same rounded numbers: times to
1 µs, positions to 0.01 mm. docs/trajectories.md is the format's page,
docs/trajectories.schema.json its schema.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from carom.trajectories._model import (
    FLAG_NAMES,
    FORMAT,
    BallPath,
    ShotTrack,
    Trajectories,
    TrajectoriesError,
    flag_text,
)
from referee import Ball, CaromError, Table
from referee.jsonread import Obj, ask_enum, ask_int, ask_list, ask_num, show

__all__ = [
    "CSV_COLUMNS",
    "CSV_NAME",
    "JSON_NAME",
    "parse_trajectories",
    "shot_track_from_json",
    "shot_track_json",
    "trajectories_csv",
    "trajectories_json",
    "write_trajectories",
    "write_trajectories_csv",
    "write_trajectories_json",
]

#: The files' names beside a shot log.
JSON_NAME, CSV_NAME = "trajectories.json", "trajectories.csv"
#: The CSV's columns, one row per sample.
CSV_COLUMNS = ("shot", "ball", "frame_idx", "t_s", "x_mm", "y_mm", "flags")
T_DIGITS, MM_DIGITS = 6, 2


def _mm(values: tuple[float | None, ...]) -> list[float | None]:
    return [None if v is None else round(v, MM_DIGITS) for v in values]


def shot_track_json(shot: ShotTrack) -> dict[str, Any]:
    """One shot as the JSON's ``shots`` item."""
    return {
        "index": shot.index,
        "cue_ball": str(shot.cue_ball),
        "start_s": shot.start_s,
        "end_s": shot.end_s,
        "frame_idx": list(shot.frame_idx),
        "t_s": [round(t, T_DIGITS) for t in shot.t_s],
        "balls": {
            str(ball): {"x_mm": _mm(p.x_mm), "y_mm": _mm(p.y_mm), "flags": list(p.flags)}
            for ball, p in shot.balls.items()
        },
    }


def trajectories_json(traj: Trajectories) -> dict[str, Any]:
    """The whole ``carom-trajectories/1`` document."""
    t = traj.table
    return {
        "format": FORMAT,
        "table": {"length_mm": t.length_mm, "width_mm": t.width_mm,
                  "ball_diameter_mm": t.ball_diameter_mm},
        "flags": dict(FLAG_NAMES),
        "shots": [shot_track_json(s) for s in traj.shots],
    }  # fmt: skip


def _json_text(doc: Mapping[str, Any]) -> str:
    """The document with its head indented and one line per shot (long number lists)."""
    head = {k: v for k, v in doc.items() if k != "shots"}
    lines = [json.dumps(s, separators=(",", ":")) for s in doc["shots"]]
    inner = json.dumps(head, indent=1)[:-2]  # without the closing "\n}"
    body = ",\n".join(lines)
    return f'{inner},\n "shots": [\n{body}\n ]\n}}\n' if lines else f'{inner},\n "shots": []\n}}\n'


def _csv_rows(traj: Trajectories) -> Iterator[list[Any]]:
    for shot in traj.shots:
        for ball, path in shot.balls.items():
            xs, ys = _mm(path.x_mm), _mm(path.y_mm)
            for k, t in enumerate(shot.t_s):
                f = shot.frame_idx[k]
                yield [shot.index, str(ball), "" if f is None else f, repr(round(t, T_DIGITS)),
                       "" if xs[k] is None else repr(xs[k]), "" if ys[k] is None else repr(ys[k]),
                       flag_text(path.flags[k])]  # fmt: skip


def trajectories_csv(traj: Trajectories) -> str:
    """The CSV text: a header, then per shot, per ball, one row per frame."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(_csv_rows(traj))
    return out.getvalue()


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def trajectories_text(traj: Trajectories) -> str:
    """The ``trajectories.json`` text: the head indented, then one line per shot."""
    return _json_text(trajectories_json(traj))


def write_trajectories_json(path: Path | str, traj: Trajectories) -> None:
    """Write ``trajectories.json`` at ``path`` by an atomic replace."""
    _write_atomic(Path(path), trajectories_text(traj))


def write_trajectories_csv(path: Path | str, traj: Trajectories) -> None:
    """Write ``trajectories.csv`` at ``path`` by an atomic replace."""
    _write_atomic(Path(path), trajectories_csv(traj))


def write_trajectories(folder: Path | str, traj: Trajectories) -> tuple[Path, Path]:
    """Write both files into ``folder`` (beside its ``shots.json``); their paths."""
    paths = (Path(folder) / JSON_NAME, Path(folder) / CSV_NAME)
    write_trajectories_json(paths[0], traj)
    write_trajectories_csv(paths[1], traj)
    return paths


# --- reading ---


def parse_trajectories(doc: Any) -> Trajectories:
    """The document's :class:`Trajectories`; :class:`TrajectoriesError` naming the field.

    Checks what the schema checks (docs/trajectories.schema.json) and what it cannot:
    list lengths, increasing times and frames, consistent flags.
    """
    try:
        top = Obj(doc, "", {"format", "table", "flags", "shots"})
        if top.get("format") != FORMAT:
            raise TrajectoriesError(f"format: expected {FORMAT!r}, got {show(top.get('format'))}")
        legend = top.get("flags", dict(FLAG_NAMES))
        if legend != dict(FLAG_NAMES) or any(isinstance(v, bool) for v in legend.values()):
            raise TrajectoriesError(f"flags: expected {dict(FLAG_NAMES)}, got {show(legend)}")
        table = _table(Obj(top.get("table"), "table", {"length_mm", "width_mm",
                                                       "ball_diameter_mm"}))  # fmt: skip
        shots = ask_list(top.get("shots"), "shots")
        return Trajectories(
            table=table,
            shots=tuple(shot_track_from_json(s, f"shots[{i}]") for i, s in enumerate(shots)),
        )
    except TrajectoriesError:
        raise
    except CaromError as exc:  # the shared JSON reader's errors, and the table's
        raise TrajectoriesError(str(exc)) from None


def _table(obj: Obj) -> Table:
    try:
        return Table(*(ask_num(obj.get(k), obj.at(k)) for k in ("length_mm", "width_mm",
                                                                 "ball_diameter_mm")))  # fmt: skip
    except TrajectoriesError:
        raise
    except CaromError as exc:
        raise TrajectoriesError(f"table: {exc}") from None


def _numbers(value: Any, where: str, *, nulls: bool) -> tuple[Any, ...]:
    """A list of finite numbers (or nulls, when allowed) as floats; the fast path first."""
    items = ask_list(value, where)
    if all(type(v) is float or (type(v) is int) or (nulls and v is None) for v in items):
        out = tuple(None if v is None else float(v) for v in items)
        if all(v is None or v - v == 0.0 for v in out):  # NaN and inf give NaN
            return out
    for i, v in enumerate(items):  # name the first bad item
        if not (nulls and v is None):
            ask_num(v, f"{where}[{i}]")
    raise TrajectoriesError(f"{where}: expected finite numbers")  # pragma: no cover


def _ints(value: Any, where: str, *, nulls: bool) -> tuple[Any, ...]:
    items = ask_list(value, where)
    if all((type(v) is int and v >= 0) or (nulls and v is None) for v in items):
        return tuple(items)
    for i, v in enumerate(items):
        if not (nulls and v is None):
            ask_int(v, f"{where}[{i}]", lo=0)
    return tuple(items)


def shot_track_from_json(data: Any, where: str = "shot") -> ShotTrack:
    """One ``shots`` item; the inverse of :func:`shot_track_json`."""
    try:
        obj = Obj(data, where, {"index", "cue_ball", "start_s", "end_s", "frame_idx", "t_s",
                                "balls"})  # fmt: skip
        span = {k: obj.get(k, None) for k in ("start_s", "end_s")}
        start_s, end_s = (None if v is None else ask_num(v, obj.at(k)) for k, v in span.items())
        balls = Obj(obj.get("balls"), obj.at("balls"))
        paths = {ask_enum(Ball, name, balls.at(name)): _path(value, balls.at(name))
                 for name, value in balls.data.items()}  # fmt: skip
        index = ask_int(obj.get("index"), obj.at("index"), lo=0)
        cue_ball = ask_enum(Ball, obj.get("cue_ball"), obj.at("cue_ball"))
        frame_idx = _ints(obj.get("frame_idx"), obj.at("frame_idx"), nulls=True)
        t_s = _numbers(obj.get("t_s"), obj.at("t_s"), nulls=False)
    except TrajectoriesError:
        raise
    except CaromError as exc:  # the shared JSON reader's errors name the field
        raise TrajectoriesError(str(exc)) from None
    try:
        return ShotTrack(index=index, cue_ball=cue_ball, start_s=start_s, end_s=end_s,
                         frame_idx=frame_idx, t_s=t_s, balls=paths)  # fmt: skip
    except TrajectoriesError as exc:
        raise TrajectoriesError(f"{where}: {exc}") from None


def _path(data: Any, where: str) -> BallPath:
    obj = Obj(data, where, {"x_mm", "y_mm", "flags"})
    x_mm = _numbers(obj.get("x_mm"), obj.at("x_mm"), nulls=True)
    y_mm = _numbers(obj.get("y_mm"), obj.at("y_mm"), nulls=True)
    flags = _ints(obj.get("flags"), obj.at("flags"), nulls=False)
    try:
        return BallPath(x_mm, y_mm, flags)
    except TrajectoriesError as exc:
        raise TrajectoriesError(f"{where}: {exc}") from None
