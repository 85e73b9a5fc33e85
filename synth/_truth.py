"""The truth file of a rendered clip: what every frame shows, exactly.

Format ``carom-synth-truth/1`` (JSON)::

    {"format": "carom-synth-truth/1",
     "video": {"file", "codec", "bitrate_bps", "fps", "width_px", "height_px",
               "n_frames", "exposure_s"},
     "camera": <carom-camera/1: intrinsics, distortion, pose, OpenCV extrinsics>,
     "table": {"length_mm", "width_mm", "ball_radius_mm", "cushion_height_mm", ...},
     "frames": [{"frame_idx", "t_s", "balls": {"white": {"xy_mm": [x, y],
                 "uv_px": [u, v], "covered": false} | null, ...},
                 "pins": {"center": {"xy_mm": [x, y], "standing": true}, ...}}],
     "events": [<shot-log event objects: kind, t_s, ...>],
     "verdicts": [<whatever the caller passes: the referee's expected verdicts>],
     "lag": {"winner": "A" | "B" | null, "breaker", "reason", "faults": {"A": [...]},
             "cue_balls", "strokes", "events", "start_positions_mm",
             "end_positions_mm", "t_s", "end_s"},   # only when the clip opens with a lag
     "extra": {...}}

A frame's ``t_s`` is the middle of its exposure; ``uv_px`` is the projection of the
ball centre at its real height (z = R), lens distortion included. Frame values are
rounded to what they can mean: ``xy_mm`` to 0.01 mm, ``uv_px`` to 0.001 px, ``t_s``
to 1 us; the file holds one frame per line, without spaces. ``table`` also names the
``discipline`` (or null) and its ``chalk_lines_mm`` segments ``[x0, y0, x1, y1]``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from calibration import Camera
from referee import Event, event_json
from synth._scene import TableLook
from synth._settings import RenderedFrame, RenderSettings

__all__ = ["TRUTH_FORMAT", "event_json", "frame_json", "table_json", "truth_json", "write_truth"]

TRUTH_FORMAT = "carom-synth-truth/1"
_MM_DIGITS = 2  # 0.01 mm
_PX_DIGITS = 3  # 0.001 px
_S_DIGITS = 6  # 1 us


def frame_json(frame: RenderedFrame) -> dict[str, Any]:
    """The truth of one frame: time, ball centres in mm and px, pins."""
    balls: dict[str, Any] = {}
    for ball, xy in frame.balls_mm.items():
        uv = frame.balls_px.get(ball)
        balls[ball.value] = (
            None
            if xy is None
            else {
                "xy_mm": _rounded(xy, _MM_DIGITS),
                "uv_px": None if uv is None else _rounded(uv, _PX_DIGITS),
                "covered": ball in frame.covered,
            }
        )
    pins = {
        pin.value: {"xy_mm": _rounded((x, y), _MM_DIGITS), "standing": standing}
        for pin, (x, y, standing) in frame.pins.items()
    }
    out: dict[str, Any] = {"frame_idx": frame.frame_idx, "t_s": round(frame.t_s, _S_DIGITS)}
    out["balls"] = balls
    if pins:
        out["pins"] = pins
    return out


def _rounded(xy: tuple[float, float], digits: int) -> list[float]:
    return [round(float(xy[0]), digits), round(float(xy[1]), digits)]


def table_json(look: TableLook) -> dict[str, Any]:
    """Table geometry: playing surface, ball, cushions, rails, diamonds and spots (mm)."""
    table = look.table
    return {
        "length_mm": table.length_mm,
        "width_mm": table.width_mm,
        "ball_radius_mm": table.radius_mm,
        "cushion_height_mm": look.cushion_height_mm,
        "cushion_width_mm": look.cushion_width_mm,
        "rail_width_mm": look.rail_width_mm,
        "rail_height_mm": look.rail_height_mm,
        "diamonds_mm": look.diamonds_mm().round(3).tolist(),
        "spots_mm": look.spots_mm().round(3).tolist(),
        "cloth_srgb": list(look.cloth),
        "discipline": None if look.discipline is None else look.discipline.value,
        "chalk_lines_mm": look.chalk_lines_mm().round(3).tolist(),
    }


def truth_json(
    *,
    camera: Camera,
    look: TableLook,
    settings: RenderSettings,
    frames: Sequence[Mapping[str, Any]],
    video: Mapping[str, Any],
    events: Sequence[Event] = (),
    verdicts: Sequence[Mapping[str, Any]] = (),
    extra: Mapping[str, Any] | None = None,
    lag: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole truth document (see the module docstring); ``frames`` from frame_json."""
    opening = {} if lag is None else {"lag": dict(lag)}
    return {
        "format": TRUTH_FORMAT,
        "video": dict(video) | {"exposure_s": settings.exposure, "seed": settings.seed},
        "camera": camera.to_dict(),
        "table": table_json(look),
        "frames": list(frames),
        "events": [event_json(e) for e in sorted(events, key=lambda e: e.t_s)],
        "verdicts": [dict(v) for v in verdicts],
        **opening,
        "extra": dict(extra or {}),
    }


def write_truth(path: Path, truth: Mapping[str, Any]) -> None:
    """Write the truth document as compact, stable JSON (one frame per line)."""
    head = {k: v for k, v in truth.items() if k != "frames"}
    lines = ",\n".join(json.dumps(f, separators=(",", ":")) for f in truth["frames"])
    body = json.dumps(head, indent=1)[:-2]
    path.write_text(f'{body},\n "frames": [\n{lines}\n ]\n}}\n')
