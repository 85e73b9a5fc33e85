"""Frames to ball tracks, contact events and shots (issue 5).

Pipeline: a frame source (:func:`open_source`) -> a detector (:class:`ColourDetector`,
or :class:`AutoDetector` with the learned model where colour is unsure, behind the
:class:`Detector` protocol; :func:`make_detector`) -> the :class:`Tracker` (table mm at ball-centre
height) -> the online shot segmenter and :func:`extract_events` -> :class:`AnalyzedShot`
for the referee. :class:`Analyzer` runs it frame by frame (``feed``), so offline
analysis and live mode share it.
"""

from vision._build import build_shot, rest_position
from vision._detect import ColourDetector, Detector, ball_radius_px, surface_polygon_px
from vision._events import extract_events
from vision._lag import lag_of
from vision._learned import AutoDetector, LearnedDetector, load_or_fallback, make_detector
from vision._learned_model import MODEL_PATH, BallModel, ModelError
from vision._learned_pins import PINS_MODEL_PATH, LearnedPinCheck, PinModel, make_pin_check
from vision._motion import frozen_cushions, frozen_pairs, is_lag, moving_mask, shot_span
from vision._pinevents import PinSeries, pin_events
from vision._pins import PinCheck
from vision._pipeline import Analyzer, AnalyzerSettings, analyze_frames, is_placement
from vision._segment import Segmenter, SegmentSettings, Transition
from vision._source import (
    CameraSource,
    FrameSource,
    ImageSource,
    VideoFileSource,
    decode_only,
    open_source,
)
from vision._track import BallState, Tracker, TrackStep
from vision._types import (
    AnalyzedShot,
    BallTrack,
    Detections,
    Frame,
    ScoredEvent,
    VideoError,
    VisionError,
)
from vision._video_out import VIDEO_CODECS, VideoSink, default_bitrate, open_video

__all__ = [
    "MODEL_PATH",
    "PINS_MODEL_PATH",
    "VIDEO_CODECS",
    "AnalyzedShot",
    "Analyzer",
    "AnalyzerSettings",
    "AutoDetector",
    "BallModel",
    "BallState",
    "BallTrack",
    "CameraSource",
    "ColourDetector",
    "Detections",
    "Detector",
    "Frame",
    "FrameSource",
    "ImageSource",
    "LearnedDetector",
    "LearnedPinCheck",
    "ModelError",
    "PinCheck",
    "PinModel",
    "PinSeries",
    "ScoredEvent",
    "SegmentSettings",
    "Segmenter",
    "TrackStep",
    "Tracker",
    "Transition",
    "VideoError",
    "VideoFileSource",
    "VideoSink",
    "VisionError",
    "analyze_frames",
    "ball_radius_px",
    "build_shot",
    "decode_only",
    "default_bitrate",
    "extract_events",
    "frozen_cushions",
    "frozen_pairs",
    "is_lag",
    "is_placement",
    "lag_of",
    "load_or_fallback",
    "make_detector",
    "make_pin_check",
    "moving_mask",
    "open_source",
    "open_video",
    "pin_events",
    "rest_position",
    "shot_span",
    "surface_polygon_px",
]
