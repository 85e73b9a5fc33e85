"""A seeded random camera and look for each independent shot, and its render.

Drawn from ``numpy.random.default_rng(10_000 + shot_id)`` over the range the
renderer and ``make_clip`` take, as installers and halls vary:

* image 1280x720 (55 %), 1920x1080 (30 %) or 960x540 (15 %); 60 fps (70 %), 50 (20 %)
  or 30 (10 %);
* camera 2.2-3.6 m above the cloth, the table fitted in the picture, tilt -8..8 deg,
  roll -3..3, yaw -2..2 (the head cushion on the picture's left: the table looks the same
  turned half round, and with the camera turned 180 degrees calibration names every
  cushion the opposite one); lens k1 -0.22..0.02, k2 0..0.08 (30 %), decentring p1, p2
  +-0.002 (30 %);
* cloth any of ``CLOTH_COLOURS`` but red (blue, green, grey, teal): on the red cloth the
  red ball is lost altogether (3 of 3 such shots in the first run lost every contact of
  the red: a limit of the detector, not of the events); lamps 0.45-1.6 of normal;
  sensor noise 0.5-2.5;
* blur: exposure 0.25-1 frame interval, optics blur 0.4-1.4 px, sharpening 0.2-0.8;
* the player's arm and cue at the stroke (85 %), a score graphic (25 %).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from synth import (
    CLOTH_COLOURS,
    CameraSettings,
    IndependentReplay,
    LookSettings,
    ScoreGraphic,
    render_clip,
)

__all__ = ["draw_look", "motion_digest", "render_shot"]

_SIZES = ((1280, 720), (1920, 1080), (960, 540))


def draw_look(shot_id: int) -> dict[str, Any]:
    """The camera and look of shot ``shot_id`` (plain numbers, for the results)."""
    rng = np.random.default_rng(10_000 + shot_id)
    w, h = _SIZES[int(rng.choice(3, p=[0.55, 0.30, 0.15]))]
    fps = float(rng.choice([60.0, 50.0, 30.0], p=[0.7, 0.2, 0.1]))
    lens = rng.random() < 0.3, rng.random() < 0.3
    look = {
        "width_px": w, "height_px": h, "fps": fps,
        "height_m": rng.uniform(2.2, 3.6), "tilt_deg": rng.uniform(-8, 8),
        "roll_deg": rng.uniform(-3, 3),
        "yaw_deg": rng.uniform(-2, 2),
        "k1": rng.uniform(-0.22, 0.02), "k2": rng.uniform(0, 0.08) if lens[0] else 0.0,
        "p1": rng.uniform(-0.002, 0.002) if lens[1] else 0.0,
        "p2": rng.uniform(-0.002, 0.002) if lens[1] else 0.0,
        "cloth": str(rng.choice(sorted(CLOTH_COLOURS))), "light": rng.uniform(0.45, 1.6),
        "noise": rng.uniform(0.5, 2.5), "exposure_frames": rng.uniform(0.25, 1.0),
        "optics_blur_px": rng.uniform(0.4, 1.4), "sharpen": rng.uniform(0.2, 0.8),
        "players": bool(rng.random() < 0.85), "score_graphic": bool(rng.random() < 0.25),
    }  # fmt: skip
    if look["cloth"] == "red":  # the red ball vanishes on it; drawn last, the rest unchanged
        look["cloth"] = str(rng.choice(sorted(set(CLOTH_COLOURS) - {"red"})))
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in look.items()}


def _camera(look: dict[str, Any]) -> CameraSettings:
    keys = ("width_px", "height_px", "fps", "height_m", "tilt_deg", "roll_deg", "yaw_deg",
            "k1", "k2", "p1", "p2")  # fmt: skip
    return CameraSettings(**{k: look[k] for k in keys})


def motion_digest(replay: IndependentReplay) -> str:
    """A digest of the shot's segments and events: a kept render of other motion is stale."""
    h = hashlib.sha256()
    m = replay.shot.motion
    for ball in m.balls:
        h.update(m.segments(ball).tobytes())
    h.update(repr(replay.shot.events).encode())
    return h.hexdigest()[:16]


def render_shot(
    replay: IndependentReplay, look: dict[str, Any], video: Path, seed: int,
    bitrate_bps: int | None = None,
) -> None:  # fmt: skip
    """Render ``replay`` to ``video`` with its truth (``.json``) and shot log (``.shots.json``).

    The truth's ``extra`` holds the look and the motion's digest (:func:`motion_digest`).
    One encoder thread: called in a fresh process, the same shot gives the same file
    (``docs/synthetic.md``, "Bit for bit").
    """
    table = replay.table
    cam = _camera(look)
    style = LookSettings(cloth=look["cloth"], light=look["light"], noise=look["noise"],
                         players=look["players"], score_graphic=look["score_graphic"])  # fmt: skip
    end = replay.duration_s
    graphic = ScoreGraphic(scores=((end, 0, 0),))
    settings = replace(
        style.settings(cam.fps, seed, graphic),
        exposure_s=look["exposure_frames"] / cam.fps,
        optics_blur_px=look["optics_blur_px"], sharpen=look["sharpen"],
    )  # fmt: skip
    video.parent.mkdir(parents=True, exist_ok=True)
    render_clip(replay, cam.camera(table), video, duration_s=end, scene=style.scene(table),
                settings=settings, strokes=replay.strokes, events=replay.events,
                bitrate_bps=bitrate_bps, encoder_threads=1,
                extra=replay.extra() | {"look": look, "motion": motion_digest(replay)})  # fmt: skip
    video.with_name(video.stem + ".shots.json").write_text(
        json.dumps(replay.shot_log(), indent=1) + "\n"
    )
