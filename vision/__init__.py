"""Frames to ball tracks, contact events and shots (issue 5).

Pipeline, one subpackage per stage: frames in (:mod:`vision.frames`:
:func:`open_source`) -> balls per frame (:mod:`vision.detect`: :class:`ColourDetector`,
or :class:`AutoDetector` with the learned model where colour is unsure, behind the
:class:`Detector` protocol; :func:`make_detector`) -> ball paths in table mm at
ball-centre height (:mod:`vision.track`: :class:`Tracker`) -> shots and their contact
events (:mod:`vision.events`: the online :class:`Segmenter`, :func:`extract_events`)
and pins down (:mod:`vision.pins`) -> :class:`AnalyzedShot` for the referee.
:class:`Analyzer` runs it frame by frame (``feed``), so offline analysis and live mode
share it.
"""

from vision._pipeline import Analyzer, AnalyzerSettings, analyze_frames, is_placement
from vision._referee_shot import build_shot, rest_position
from vision._types import (
    AnalyzedShot,
    BallTrack,
    Detections,
    Frame,
    ScoredEvent,
    TrackFlag,
    VideoError,
    VisionError,
)
from vision.detect import (
    MODEL_PATH,
    AutoDetector,
    BallModel,
    ColourDetector,
    Detector,
    DetectorCapabilities,
    InferenceDevice,
    LearnedDetector,
    ModelError,
    ball_radius_px,
    inference_device,
    load_or_fallback,
    make_detector,
    surface_polygon_px,
)
from vision.events import (
    Segmenter,
    SegmentSettings,
    StopCall,
    StopSettings,
    StopWatch,
    Transition,
    cue_ball_behind,
    cue_ball_doubt,
    extract_events,
    frozen_cushions,
    frozen_pairs,
    is_lag,
    lag_of,
    moving_mask,
    shot_span,
)
from vision.frames import (
    IMAGE_SUFFIXES,
    CameraSource,
    FrameSource,
    ImageSource,
    VideoFileSource,
    decode_only,
    key_frame_times_s,
    open_source,
    read_frame,
)
from vision.frames._video_out import VIDEO_CODECS, VideoSink, default_bitrate, open_video
from vision.pins import (
    PINS_MODEL_PATH,
    LearnedPinCheck,
    PinCheck,
    PinModel,
    PinSeries,
    make_pin_check,
    pin_events,
)
from vision.track import BallState, Tracker, TrackStep

__all__ = [
    "IMAGE_SUFFIXES",
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
    "DetectorCapabilities",
    "Frame",
    "FrameSource",
    "ImageSource",
    "InferenceDevice",
    "LearnedDetector",
    "LearnedPinCheck",
    "ModelError",
    "PinCheck",
    "PinModel",
    "PinSeries",
    "ScoredEvent",
    "SegmentSettings",
    "Segmenter",
    "StopCall",
    "StopSettings",
    "StopWatch",
    "TrackFlag",
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
    "cue_ball_behind",
    "cue_ball_doubt",
    "decode_only",
    "default_bitrate",
    "extract_events",
    "frozen_cushions",
    "frozen_pairs",
    "inference_device",
    "is_lag",
    "is_placement",
    "key_frame_times_s",
    "lag_of",
    "load_or_fallback",
    "make_detector",
    "make_pin_check",
    "moving_mask",
    "open_source",
    "open_video",
    "pin_events",
    "read_frame",
    "rest_position",
    "shot_span",
    "surface_polygon_px",
]
