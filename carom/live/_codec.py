"""JSON and blob forms of what the journal stores: set-up, shots, lags, compact paths.

Everything is written in the public ``carom-shots/1`` vocabulary (``shot_json``,
``event_json``) and read back with the referee's own parser, so a journal entry and
an exported shot log cannot drift apart. Ball paths (the shot's ``paths_mm``, sampled
every 1/15 s by vision) go to a small zlib blob of delta-coded integers instead of
JSON text; the blob is used only when it decodes to exactly the same floats. A shot's
trajectories (every frame, :class:`carom.trajectories.ShotTrack`) go to a blob of the
same kind (:func:`encode_tracks`), at the precision the trajectories files write.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from carom.trajectories import BallPath, ShotTrack
from referee import (
    FORMAT,
    Ball,
    Correction,
    CorrectionKind,
    Lag,
    MatchConfig,
    Shot,
    event_json,
    parse_event,
    parse_shot,
    parse_shot_log,
    shot_json,
    start_json,
)

if TYPE_CHECKING:  # numpy is imported where tracks are coded: the journal loads light
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "config_doc",
    "config_from_doc",
    "correction_from_json",
    "correction_json",
    "decode_paths",
    "decode_tracks",
    "encode_paths",
    "encode_tracks",
    "lag_from_json",
    "lag_json",
    "setup_key",
    "shot_doc",
    "shot_from_doc",
    "source_identity",
]

#: Paths as integers: t in 0.1 ms, x and y in 0.01 mm (vision rounds to these).
_SCALES = (10_000, 100, 100)

Paths = Mapping[Ball, tuple[tuple[float, float, float], ...]]


def config_doc(config: MatchConfig) -> dict[str, Any]:
    """The ``carom-shots/1`` head (no shots) that describes ``config`` exactly."""
    match: dict[str, Any] = {
        "players": list(config.players),
        "first_player": config.first_player,
        "target": dict(config.target),
        "innings_limit": config.innings_limit,
        "sets": config.sets,
        "equalizing": config.equalizing,
        "equalizing_from_break": config.equalizing_from_break,
        "start_count": config.start_count,
        "rules": config.options.as_dict(),
    }
    if config.cue_balls:
        match["cue_balls"] = {p: str(b) for p, b in config.cue_balls.items()}
    elif config.rotates and config.rotation_balls != (Ball.WHITE, Ball.YELLOW):
        match["cue_balls"] = [str(b) for b in config.rotation_balls]  # the whites that rotate
    if config.start is not None:  # a match joined in progress (absent: the key is as before)
        match["start"] = start_json(config.start)
    table = config.table
    return {
        "format": FORMAT,
        "table": {"length_mm": table.length_mm, "width_mm": table.width_mm,
                  "ball_diameter_mm": table.ball_diameter_mm},
        "discipline": str(config.discipline),
        "match": match,
        "shots": [],
    }  # fmt: skip


def config_from_doc(doc: Mapping[str, Any]) -> MatchConfig:
    """The inverse of :func:`config_doc` (checked by the referee's parser).

    A 7-pin match stored with an innings limit (taken, and never applied, before the
    referee refused it) opens without it: the game is the one that was played.
    """
    match = doc.get("match")
    if doc.get("discipline") == "pin-carom-7" and isinstance(match, Mapping):
        doc = {**doc, "match": {k: v for k, v in match.items() if k != "innings_limit"}}
    return parse_shot_log({**doc, "shots": []}).match


def source_identity(source: str) -> str:
    """The camera or video a match is keyed by: a camera as given, a file by its absolute path.

    The same video reached by another spelling of its path (``clip.mp4`` from its folder,
    ``/club/clip.mp4`` from a service) is the same source, so the same command resumes
    its match. Symbolic links are kept as they are: a camera's ``/dev/v4l/by-id/...``
    name stays the same when the number it points to changes.
    """
    from hardware import is_camera_spec  # the camera kinds' own rules (indexes, URLs, devices)

    return source if is_camera_spec(source) else os.path.abspath(source)


def setup_key(config: MatchConfig, source: str) -> str:
    """What makes a restarted ``carom live`` resume a match: the set-up and the source."""
    text = json.dumps({"config": config_doc(config), "source": source}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def shot_doc(
    shot: Shot, info: Mapping[int, tuple[float, str]]
) -> tuple[dict[str, Any], bytes | None]:
    """A shot as a shot-log object plus its paths blob (``None``: paths stay in the JSON).

    ``info`` maps an event's position in ``shot.events`` to vision's (confidence,
    evidence), kept as the shot log's informative event fields.
    """
    doc = shot_json(shot)
    for i, event_doc in enumerate(doc["events"]):
        if i in info:
            confidence, evidence = info[i]
            event_doc["confidence"] = round(min(max(confidence, 0.0), 1.0), 3)
            if evidence:
                event_doc["evidence"] = evidence
    blob = encode_paths(shot.paths_mm) if shot.paths_mm else None
    if blob is not None:
        doc.pop("paths_mm", None)
    return doc, blob


def shot_from_doc(doc: Mapping[str, Any], blob: bytes | None, where: str = "shot") -> Shot:
    """The shot a journal entry holds (paths from the blob when there is one)."""
    shot = parse_shot(dict(doc), where)
    return shot if blob is None else replace(shot, paths_mm=decode_paths(blob))


def encode_paths(paths: Paths) -> bytes | None:
    """``paths`` as zlib-compressed delta-coded integers; ``None`` unless exact."""
    out: dict[str, list[list[int]]] = {}
    for ball, samples in paths.items():
        columns: list[list[int]] = []
        for k, scale in enumerate(_SCALES):
            ints = [round(s[k] * scale) for s in samples]
            columns.append([ints[0], *(b - a for a, b in itertools.pairwise(ints))]
                           if ints else [])  # fmt: skip
        out[str(ball)] = columns
    blob = zlib.compress(json.dumps(out, separators=(",", ":")).encode(), 9)
    return blob if decode_paths(blob) == dict(paths) else None


def decode_paths(blob: bytes) -> dict[Ball, tuple[tuple[float, float, float], ...]]:
    """The inverse of :func:`encode_paths`: per ball, samples ``(t_s, x_mm, y_mm)``."""
    data = json.loads(zlib.decompress(blob))
    out: dict[Ball, tuple[tuple[float, float, float], ...]] = {}
    for name, columns in data.items():
        values = []
        for k, deltas in enumerate(columns):
            total, col = 0, []
            for d in deltas:
                total += d
                col.append(total / _SCALES[k])
            values.append(col)
        out[Ball(name)] = tuple(zip(values[0], values[1], values[2], strict=True))
    return out


def lag_json(lag: Lag) -> dict[str, Any]:
    """A lag as the shot log's ``lag`` object."""
    out: dict[str, Any] = {"winner": lag.winner, "breaker": lag.breaker}
    if lag.events:
        out["events"] = [event_json(e) for e in lag.events]
    for key, positions in (("start_positions_mm", lag.start_positions_mm),
                           ("end_positions_mm", lag.end_positions_mm)):  # fmt: skip
        if positions:
            out[key] = {str(b): list(xy) for b, xy in positions.items()}
    return out


def lag_from_json(data: Mapping[str, Any]) -> Lag:
    """The inverse of :func:`lag_json`."""
    events = tuple(parse_event(e, f"lag.events[{i}]") for i, e in enumerate(data.get("events", [])))

    def xy(key: str) -> dict[Ball, tuple[float, float]]:
        return {Ball(b): (float(v[0]), float(v[1])) for b, v in data.get(key, {}).items()}

    return Lag(
        winner=data.get("winner"), breaker=data.get("breaker"),
        events=tuple(sorted(events, key=lambda e: e.t_s)),
        start_positions_mm=xy("start_positions_mm"), end_positions_mm=xy("end_positions_mm"),
    )  # fmt: skip


def correction_json(c: Correction) -> dict[str, Any]:
    """A referee correction as a JSON object.

    ``by_hand`` is written only when true: the journals written before it read as they did.
    """
    doc = {"kind": str(c.kind), "player": c.player, "points": c.points, "note": c.note}
    return {**doc, "by_hand": True} if c.by_hand else doc


def correction_from_json(data: Mapping[str, Any]) -> Correction:
    """The inverse of :func:`correction_json`."""
    return Correction(
        kind=CorrectionKind(data["kind"]), player=str(data["player"]),
        points=int(data.get("points", 0)), note=str(data.get("note", "")),
        by_hand=data.get("by_hand") is True,
    )  # fmt: skip


#: Trajectories as integers: frames, t in µs, x and y in 0.01 mm (what the files write).
_T_SCALE, _MM_SCALE = 1_000_000, 100
_NONE = -(2**63)  # no frame number / no position


def _ints(values: tuple[float | None, ...], scale: int) -> NDArray[np.int64]:
    """Scaled, rounded, delta-coded (``_NONE`` kept apart as itself, not as a delta)."""
    import numpy as np

    raw = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
    known = np.isfinite(raw)
    out = np.full(len(raw), _NONE, dtype=np.int64)
    ints = np.round(raw[known] * scale).astype(np.int64)
    out[known] = np.diff(ints, prepend=0)
    return out


def _floats(ints: NDArray[np.int64], scale: int) -> tuple[float | None, ...]:
    import numpy as np

    known = ints != _NONE
    values = np.cumsum(np.where(known, ints, 0)) / scale
    return tuple(v if k else None for v, k in zip(values.tolist(), known.tolist(), strict=True))


def encode_tracks(track: ShotTrack) -> bytes:
    """A shot's trajectories as a zlib blob: a JSON head line, then int64 columns.

    Columns (little-endian int64, delta-coded, ``-2**63`` for none): frame numbers,
    times in µs, then per ball (in the head's order) x and y in 0.01 mm, then every
    ball's flags as bytes. Positions and times come back rounded as the files write
    them (0.01 mm, 1 µs).
    """
    import numpy as np

    head = {"v": 1, "index": track.index, "cue_ball": str(track.cue_ball),
            "start_s": track.start_s, "end_s": track.end_s, "n": len(track),
            "balls": [str(b) for b in track.balls]}  # fmt: skip
    frames = np.array([_NONE if f is None else f for f in track.frame_idx], dtype=np.int64)
    frames[frames != _NONE] = np.diff(frames[frames != _NONE], prepend=0)
    columns = [frames, _ints(track.t_s, _T_SCALE)]
    for path in track.balls.values():
        columns += [_ints(path.x_mm, _MM_SCALE), _ints(path.y_mm, _MM_SCALE)]
    body = b"".join(c.astype("<i8").tobytes() for c in columns)
    flags = bytes(f for path in track.balls.values() for f in path.flags)
    return zlib.compress(json.dumps(head).encode() + b"\n" + body + flags, 6)


def decode_tracks(blob: bytes) -> ShotTrack:
    """The inverse of :func:`encode_tracks`."""
    import numpy as np

    data = zlib.decompress(blob)
    line, rest = data.split(b"\n", 1)
    head = json.loads(line)
    n, balls = int(head["n"]), [Ball(b) for b in head["balls"]]
    ints = np.frombuffer(rest, dtype="<i8", count=n * (2 + 2 * len(balls))).reshape(
        2 + 2 * len(balls), n
    )
    flags = rest[ints.nbytes :]
    frames = ints[0].astype(np.int64)
    known = frames != _NONE
    frames[known] = np.cumsum(frames[known])
    paths = {
        ball: BallPath(_floats(ints[2 + 2 * k], _MM_SCALE), _floats(ints[3 + 2 * k], _MM_SCALE),
                       tuple(flags[k * n : (k + 1) * n]))
        for k, ball in enumerate(balls)
    }  # fmt: skip
    return ShotTrack(
        index=int(head["index"]), cue_ball=Ball(head["cue_ball"]), start_s=head["start_s"],
        end_s=head["end_s"], frame_idx=tuple(f if k else None for f, k in zip(
            frames.tolist(), known.tolist(), strict=True)),
        t_s=tuple(v or 0.0 for v in _floats(ints[1], _T_SCALE)), balls=paths,
    )  # fmt: skip
