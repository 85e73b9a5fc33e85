"""Synthetic ground truth: an event-based physics simulator of carom shots.

It produces every ball's trajectory and the exact contact events (the referee's
event types) for a stroke, so a renderer can draw a clip whose verdict is known::

    from synth import Stroke, simulate
    from referee import Ball

    sim = simulate({Ball.WHITE: (700, 400), Ball.RED: (1500, 1000), Ball.YELLOW: (2400, 300)},
                   Stroke(Ball.WHITE, speed_mps=4.0, heading_deg=220.0, follow=0.2, side=-0.3))
    sim.events                      # BallContact / CushionContact ... with exact times
    sim.positions_mm(t_s)           # {ball: (n, 2) table mm} at the frame times

Named hard cases live in a registry (:func:`scenario`); real recordings can be
replayed through the same interface (:class:`RecordedMotion`) and measured with
the same functions as the simulation (``docs/physics.md``), and so can shots from an
independent simulator, pooltool (:func:`load_independent_shots`: exact segments and
events, :class:`IndependentReplay` for a clip; ``docs/independent-events.md``).

The renderer draws a motion as an overhead camera sees it (:class:`Renderer`,
:func:`render_clip`: an H.264 video and its truth file); :func:`make_clip` goes from
a named source (:func:`source_names`: sample sequences, scenarios, lags) and camera
and look settings to the video, the truth and a shot log (``carom synth``), and
:func:`make_samples` regenerates the bundled samples. :func:`calibration_scene` renders
still frames of tables of every kind (:data:`CALIBRATION_CATEGORIES`) with their true
camera and corners, for calibration's tests and benchmark. :func:`truth_events`,
:func:`compare_events` and :func:`compare_positions` score what vision found against
a truth file. synth imports the referee, calibration (the camera model) and vision
(the video writer), never the app (``carom``).
"""

from synth._calib_scene import CALIBRATION_CATEGORIES, CalibrationScene, calibration_scene
from synth._clip import Clip, render_clip
from synth._evaluate import (
    EventScore,
    PositionScore,
    compare_events,
    compare_positions,
    truth_events,
)
from synth._independent import (
    INDEPENDENT_FORMAT,
    IndependentReplay,
    IndependentSet,
    IndependentShot,
    SegmentMotion,
    load_independent_shots,
    split_of,
)
from synth._lag import lag_config, lag_names, lag_scenario
from synth._make import (
    CameraSettings,
    LookSettings,
    MadeClip,
    Replay,
    make_clip,
    motion_for,
    replay,
    shot_log,
    source_description,
    source_names,
)
from synth._measure import (
    CushionHit,
    cushion_hits,
    motion_end_s,
    rolling_decelerations,
    sample_tracks,
)
from synth._motion import Phase
from synth._params import JumpOff, PhysicsParams, SimulationError, Stroke
from synth._props import ScoreGraphic
from synth._realdata import (
    RealShot,
    RecordedMotion,
    ReplayStart,
    Track,
    load_real_shots,
    replay_start,
)
from synth._render import Renderer
from synth._samples import sequence, sequence_names
from synth._samples_run import make_samples
from synth._scenarios import (
    PYRAMID_TABLE,
    Expect,
    Scenario,
    Search,
    UnknownScenarioError,
    five_pins_layout,
    pyramid_pockets,
    research,
    scenario,
    scenario_names,
    search_stroke,
    seven_pins_layout,
)
from synth._scene import (
    BALL_LOOKS,
    CLOTH_COLOURS,
    BallLook,
    FloorPatch,
    Lamp,
    MotionSource,
    PinSource,
    PlayerStroke,
    RenderError,
    Scene,
    Sticker,
    TableLook,
    default_lamps,
)
from synth._sequence import Sequence
from synth._settings import RenderedFrame, RenderSettings
from synth._sim import simulate
from synth._trajectory import Simulation
from synth._truth import TRUTH_FORMAT, event_json, frame_json, truth_json, write_truth

__all__ = [
    "BALL_LOOKS",
    "CALIBRATION_CATEGORIES",
    "CLOTH_COLOURS",
    "INDEPENDENT_FORMAT",
    "PYRAMID_TABLE",
    "TRUTH_FORMAT",
    "BallLook",
    "CalibrationScene",
    "CameraSettings",
    "Clip",
    "CushionHit",
    "EventScore",
    "Expect",
    "FloorPatch",
    "IndependentReplay",
    "IndependentSet",
    "IndependentShot",
    "JumpOff",
    "Lamp",
    "LookSettings",
    "MadeClip",
    "MotionSource",
    "Phase",
    "PhysicsParams",
    "PinSource",
    "PlayerStroke",
    "PositionScore",
    "RealShot",
    "RecordedMotion",
    "RenderError",
    "RenderSettings",
    "RenderedFrame",
    "Renderer",
    "Replay",
    "ReplayStart",
    "Scenario",
    "Scene",
    "ScoreGraphic",
    "Search",
    "SegmentMotion",
    "Sequence",
    "Simulation",
    "SimulationError",
    "Sticker",
    "Stroke",
    "TableLook",
    "Track",
    "UnknownScenarioError",
    "calibration_scene",
    "compare_events",
    "compare_positions",
    "cushion_hits",
    "default_lamps",
    "event_json",
    "five_pins_layout",
    "frame_json",
    "lag_config",
    "lag_names",
    "lag_scenario",
    "load_independent_shots",
    "load_real_shots",
    "make_clip",
    "make_samples",
    "motion_end_s",
    "motion_for",
    "pyramid_pockets",
    "render_clip",
    "replay",
    "replay_start",
    "research",
    "rolling_decelerations",
    "sample_tracks",
    "scenario",
    "scenario_names",
    "search_stroke",
    "sequence",
    "sequence_names",
    "seven_pins_layout",
    "shot_log",
    "simulate",
    "source_description",
    "source_names",
    "split_of",
    "truth_events",
    "truth_json",
    "write_truth",
]
