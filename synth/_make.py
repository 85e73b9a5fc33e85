"""From a named source and camera settings to a video, its truth and its shot log.

The one function both ``carom synth`` and the sample-clip script call. A source is
a sequence (several strokes judged by the referee, :mod:`synth._samples`),
a single-stroke scenario (:mod:`synth._catalogue`), a lag
(:mod:`synth._lag`; a sequence may also open with one), or a real recorded shot
(replayed motion, no events known). Three files come out: ``NAME.mp4``,
``NAME.json`` (the truth: camera, table, per-frame positions in mm and px, events,
expected verdicts) and, when events are known, ``NAME.shots.json`` (a
``carom-shots/1`` log that ``carom score`` judges to the same verdicts).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from calibration import Camera, Distortion
from referee import FORMAT, MATCH_TABLE, Discipline, Table, record_json
from synth._clip import Clip, ClipFiles, render_clip, whole_clip
from synth._props import ScoreGraphic
from synth._realdata import RecordedMotion, load_real_shots
from synth._scenarios import scenario, scenario_names
from synth._scene import PlayerStroke, RenderError, Scene, TableLook
from synth._sequence import Sequence, single_stroke
from synth._settings import RenderSettings
from synth._truth import event_json

__all__ = [
    "CameraSettings",
    "LookSettings",
    "MadeClip",
    "Replay",
    "make_clip",
    "motion_for",
    "replay",
    "shot_log",
    "source_description",
    "source_names",
]

Progress = Callable[[str], None]


def _check(name: str, value: float, lo: float, hi: float) -> None:
    if not lo <= value <= hi:
        raise RenderError(f"camera {name} must be {lo:g}..{hi:g}, got {value:g}")


@dataclass(frozen=True, slots=True, kw_only=True)
class CameraSettings:
    """An overhead camera as an installer describes it (``hfov_deg=0``: fit the table)."""

    width_px: int = 1280
    height_px: int = 720
    fps: float = 30.0
    height_m: float = 2.8
    hfov_deg: float = 0.0
    tilt_deg: float = 0.0
    roll_deg: float = 0.0
    yaw_deg: float = 0.0
    k1: float = 0.0
    k2: float = 0.0
    p1: float = 0.0
    p2: float = 0.0
    k3: float = 0.0

    def __post_init__(self) -> None:
        _check("width_px", self.width_px, 320, 3840)
        _check("height_px", self.height_px, 240, 2160)
        if self.fps not in (24.0, 25.0, 30.0, 50.0, 60.0, 100.0, 120.0):
            raise RenderError(
                f"camera fps must be one of 24, 25, 30, 50, 60, 100, 120, got {self.fps:g}"
            )
        _check("height_m", self.height_m, 1.5, 6.0)
        if self.hfov_deg:
            _check("hfov_deg", self.hfov_deg, 20.0, 150.0)
        _check("tilt_deg", self.tilt_deg, -40.0, 40.0)  # oblique club mounts: up to ~35
        _check("roll_deg", self.roll_deg, -45.0, 45.0)

    def camera(self, table: Table) -> Camera:
        """The camera model, aimed at the table centre."""
        height_mm = self.height_m * 1000.0
        hfov = self.hfov_deg or _fitting_hfov(table, self.width_px / self.height_px, height_mm)
        return Camera.overhead(
            width_px=self.width_px, height_px=self.height_px, hfov_deg=hfov,
            height_mm=height_mm, aim_mm=(table.length_mm / 2.0, table.width_mm / 2.0),
            yaw_deg=self.yaw_deg, tilt_deg=self.tilt_deg, roll_deg=self.roll_deg,
            distortion=Distortion(self.k1, self.k2, self.p1, self.p2, self.k3),
        )  # fmt: skip


def _fitting_hfov(table: Table, aspect: float, height_mm: float) -> float:
    """Horizontal field of view showing the table, its rails and a margin."""
    margin_mm = 330.0
    half_w = table.length_mm / 2.0 + margin_mm
    half_h = table.width_mm / 2.0 + margin_mm
    half = max(half_w, half_h * aspect)
    return math.degrees(2.0 * math.atan(half / height_mm))


@dataclass(frozen=True, slots=True, kw_only=True)
class LookSettings:
    """Cloth, light, sensor and extras.

    ``light`` scales the lamps (1 normal, 0.4 dim); ``noise`` scales the sensor
    noise (dim halls need gain, so more noise).
    """

    cloth: str = "blue"
    light: float = 1.0
    noise: float = 1.0
    players: bool = True
    score_graphic: bool = False

    def __post_init__(self) -> None:
        if not 0.1 <= self.light <= 2.0:
            raise RenderError(f"light must be 0.1..2 (1 = normal), got {self.light:g}")
        if not 0.0 <= self.noise <= 10.0:
            raise RenderError(f"noise must be 0..10 (1 = normal), got {self.noise:g}")

    def scene(self, table: Table, discipline: Discipline | None = None) -> Scene:
        """The scene: table look with the cloth and chalk marks, lamps scaled by ``light``."""
        look = TableLook.with_cloth(
            self.cloth, table=table, discipline=discipline,
            pockets=discipline is Discipline.PIN_CAROM_7,  # played on a pocket table
        )  # fmt: skip
        base = Scene(look=look)
        lamps = tuple(replace(lamp, power=lamp.power * self.light) for lamp in base.lamps)
        return replace(base, lamps=lamps, ambient=min(1.0, base.ambient * self.light))

    def settings(self, fps: float, seed: int, graphic: ScoreGraphic | None) -> RenderSettings:
        """Render settings with noise scaled and the score graphic if asked for."""
        s = RenderSettings(fps=fps, seed=seed)
        return replace(
            s,
            read_noise_dn=s.read_noise_dn * self.noise,
            shot_noise_dn=s.shot_noise_dn * self.noise,
            players=self.players, score=graphic if self.score_graphic else None,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class MadeClip:
    """The files written and the render figures."""

    clip: Clip
    shots_path: Path | None
    duration_s: float
    n_strokes: int


def make_clip(
    name: str,
    motion: Sequence | Replay,
    out_dir: Path,
    camera: CameraSettings,
    look: LookSettings,
    *,
    seed: int = 0,
    max_bytes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MadeClip:
    """Render ``motion`` to ``out_dir/NAME.mp4`` with its truth (and shot log).

    All or nothing (:func:`~synth._clip.whole_clip`): the files appear when the render
    completed; an error or Ctrl-C leaves those of an earlier render as they were.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    table = motion.spec.table if isinstance(motion, Sequence) else MATCH_TABLE
    cam = camera.camera(table)
    graphic = _score_graphic(motion) if isinstance(motion, Sequence) else None
    duration = motion.duration_s
    bitrate = None
    if max_bytes is not None:  # leave room for the container
        bitrate = int(0.92 * max_bytes * 8 / duration)
    discipline = motion.spec.discipline if isinstance(motion, Sequence) else None
    final = ClipFiles(out_dir, name)
    with whole_clip(out_dir, name) as part:
        extra = _extra(motion, part.shots, final.shots.name)
        clip = render_clip(
            motion, cam, part.video, duration_s=duration,
            scene=look.scene(table, discipline),
            settings=look.settings(camera.fps, seed, graphic), strokes=_strokes(motion),
            events=motion.events if isinstance(motion, Sequence) else (),
            verdicts=_verdicts(motion), bitrate_bps=bitrate, extra=extra, progress=progress,
            lag=motion.lag.to_json() if isinstance(motion, Sequence) and motion.lag else None,
            truth_path=part.truth, video_name=final.video.name,
        )  # fmt: skip
    n = len(motion.motions) if isinstance(motion, Sequence) else 1
    clip = replace(clip, video_path=final.video, truth_path=final.truth)
    return MadeClip(clip, final.shots if isinstance(motion, Sequence) else None, duration, n)


class Replay:
    """A real recorded shot replayed after ``lead_s`` of stillness (no events known)."""

    def __init__(self, motion: RecordedMotion, cue_ball: Any, lead_s: float = 1.5) -> None:
        self.motion, self.cue_ball, self.lead_s = motion, cue_ball, lead_s

    @property
    def duration_s(self) -> float:
        """Lead, the recorded motion, and a second of rest."""
        return self.lead_s + self.motion.duration_s + 1.0

    def positions_mm(self, t_s: Any) -> Any:
        """Centres (n, 2) table mm at clip times ``t_s``."""
        import numpy as np

        return self.motion.positions_mm(np.asarray(t_s, dtype=np.float64) - self.lead_s)


def replay(path: Path, index: int) -> Replay:
    """Shot ``index`` of a recording in the realdata layout, as a clip source."""
    if (problem := _recording_problem(path)) is not None:
        raise RenderError(f"{path}: {problem}")
    shots = load_real_shots(path)
    if not 0 <= index < len(shots):
        held = f"{len(shots)} shot" + ("s" if len(shots) > 1 else "")
        raise RenderError(f"--shot {index}: the file holds {held}; give --shot 0..{len(shots) - 1}")
    shot = shots[index]
    return Replay(RecordedMotion(shot.tracks, cubic=True), shot.cue_ball)


_LAYOUT = (
    "a recording holds 'shots', each with 'shot_id', 'ball_order_in_source' (the cue ball "
    "first) and 'balls' (white, yellow, red: 't_s', 'x_mm', 'y_mm'), the layout of "
    "three_cushion_match_dev.json (docs/synthetic.md)"
)
_BALL_NAMES = ("white", "yellow", "red")


def _recording_problem(path: Path) -> str | None:
    """What keeps ``path`` from being a recording, and the way out (None: nothing found)."""
    try:
        doc = json.loads(path.read_text())
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc}); check the path after --recorded"
    except ValueError as exc:
        return f"not JSON ({exc}); {_LAYOUT}"
    shots = doc.get("shots") if isinstance(doc, dict) else None
    if not isinstance(shots, list):
        return f"no 'shots' list; {_LAYOUT}"
    if not shots:
        return f"the file holds no shots; {_LAYOUT}"
    for i, shot in enumerate(shots):
        if (problem := _shot_problem(shot)) is not None:
            return f"shot {i} {problem}; {_LAYOUT}"
    return None


def _shot_problem(shot: object) -> str | None:
    """What is missing from one shot of a recording (None: nothing)."""
    if not isinstance(shot, dict):
        return "is not an object"
    for key in ("balls", "ball_order_in_source", "shot_id"):
        if key not in shot:
            return f"has no {key!r}"
    order, balls = shot["ball_order_in_source"], shot["balls"]
    if not (isinstance(order, list) and order and order[0] in _BALL_NAMES):
        return "has no cue ball first in 'ball_order_in_source'"
    if not (isinstance(balls, dict) and balls):
        return "has no ball in 'balls'"
    for name, ball in balls.items():
        if name not in _BALL_NAMES:
            return f"has an unknown ball {name!r}"
        if not isinstance(ball, dict) or any(k not in ball for k in ("t_s", "x_mm", "y_mm")):
            return f"has no 't_s', 'x_mm' and 'y_mm' for the {name} ball"
    return None


def _strokes(motion: Sequence | Replay) -> list[PlayerStroke]:
    if isinstance(motion, Replay):
        return [PlayerStroke(motion.lead_s, motion.cue_ball)]
    return [PlayerStroke(t, ball) for t, ball in motion.stroke_times()]


def _verdicts(motion: Sequence | Replay) -> list[dict[str, Any]]:
    if isinstance(motion, Replay):
        return []
    return [record_json(p.record) for p in motion.played]


def _score_graphic(motion: Sequence) -> ScoreGraphic:
    rows = []
    for p in motion.played:
        a, b = (p.record.score_after[name] for name in motion.config.players)
        rows.append((p.t0_s + p.sim.duration_s, a, b))
    title = str(motion.spec.discipline).upper()
    return ScoreGraphic(players=("PLAYER A", "PLAYER B"), scores=tuple(rows), title=title)


def _extra(motion: Sequence | Replay, log_path: Path, log_name: str) -> dict[str, Any]:
    """The truth's ``extra``; a sequence's shot log is written to ``log_path`` (``log_name``)."""
    if isinstance(motion, Replay):
        return {"source": "recorded", "events_known": False}
    log_path.write_text(json.dumps(shot_log(motion), indent=1) + "\n")
    extra = {
        "source": motion.spec.name, "description": motion.spec.description,
        "discipline": str(motion.spec.discipline), "shot_log": log_name,
        "strokes": [
            {"t_s": p.t0_s, "cue_ball": str(p.sim.stroke.cue_ball),
             "speed_mps": p.sim.stroke.speed_mps,
             "heading_deg": p.sim.stroke.heading_deg, "follow": p.sim.stroke.follow,
             "side": p.sim.stroke.side, "end_s": p.t0_s + p.sim.duration_s}
            for p in motion.played
        ],
    }  # fmt: skip
    return extra


def shot_log(seq: Sequence) -> dict[str, Any]:
    """The sequence as a ``carom-shots/1`` document, times on the clip's time line."""
    table = seq.spec.table
    shots = []
    for p in seq.played:
        s = p.shot
        doc: dict[str, Any] = {
            "index": s.index, "start_s": p.t0_s, "end_s": p.t0_s + p.sim.duration_s,
            "cue_ball": str(s.cue_ball),
            "events": [event_json(replace(e, t_s=e.t_s + p.t0_s)) for e in s.events],
            "start_positions_mm": {str(b): list(xy) for b, xy in s.start_positions_mm.items()},
            "end_positions_mm": {str(b): list(xy) for b, xy in s.end_positions_mm.items()},
        }  # fmt: skip
        if s.paths_mm:
            doc["paths_mm"] = {
                str(b): [[t + p.t0_s, x, y] for t, x, y in path] for b, path in s.paths_mm.items()
            }
        if s.pins_standing is not None:
            doc["pins_standing"] = sorted(str(pin) for pin in s.pins_standing)
        shots.append(doc)
    cfg = seq.config
    lag = {}
    if seq.lag is not None:
        full = seq.lag.to_json()
        lag = {"lag": {k: full[k] for k in ("events", "start_positions_mm", "end_positions_mm")}}
    return {
        "format": FORMAT,
        "table": {"length_mm": table.length_mm, "width_mm": table.width_mm,
                  "ball_diameter_mm": table.ball_diameter_mm},
        "discipline": str(cfg.discipline),
        "match": {"players": list(cfg.players),
                  "cue_balls": {p: str(b) for p, b in cfg.cue_balls.items()},
                  "first_player": cfg.first_player, "target": dict(cfg.target),
                  "equalizing": cfg.equalizing},
        **lag,
        "shots": shots,
    }  # fmt: skip


def source_names() -> tuple[str, ...]:
    """Every name ``carom synth`` accepts: sample sequences, scenarios, then lags."""
    from synth._lag import lag_names
    from synth._samples import sequence_names

    return (*sequence_names(), *scenario_names(), *lag_names())


def source_description(name: str) -> str:
    """The one-line description of a name :func:`source_names` gives ('' if unknown)."""
    from synth._lag import lag_names, lag_scenario
    from synth._samples import sequence_description, sequence_names

    if name in sequence_names():
        return sequence_description(name)
    if name in scenario_names():
        return scenario(name).description
    return lag_scenario(name).description if name in lag_names() else ""


def motion_for(name: str, progress: Progress | None = None) -> Sequence:
    """The played sequence (or single-stroke scenario) called ``name``."""
    from synth._samples import sequence, sequence_names

    if name in sequence_names():
        return sequence(name, progress)
    if name in scenario_names():
        return single_stroke(scenario(name))
    from synth._lag import lag_names, lag_scenario
    from synth._sequence import lag_sequence

    if name in lag_names():
        return lag_sequence(lag_scenario(name))
    known = ", ".join(source_names())
    raise RenderError(f"unknown scenario {name!r} (known: {known})")
