"""Balls in a frame: the colour detector, the learned detector, and the ``auto`` mix.

Every detector is a :class:`Detector` and declares its :class:`DetectorCapabilities`
(reads the decoder's planes; searches only windows given by the :class:`Guide`).
:func:`make_detector` builds one by kind (``color``, ``onnx``, ``auto``). The network
crops (:func:`cut_roi`, ``BALL_PX``) are shared with the learned pin check and with
training (``train/``). The networks' onnxruntime sessions run where :func:`open_session`
decides (CUDA where there is a GPU, else the CPU; ``CAROM_ONNX_DEVICE``).
"""

from vision.detect._auto_detector import AutoDetector
from vision.detect._ball_network import MODEL_PATH, BallModel, ModelError, Peak, ort_errors
from vision.detect._ball_scale import BallScale, apparent_radius_px, ball_scale
from vision.detect._colour_detector import ColourDetector
from vision.detect._detector import Detector, DetectorCapabilities, Pixels
from vision.detect._guided_search import Guide
from vision.detect._inference import (
    ONNX_DEVICE_ENV,
    InferenceDevice,
    ProviderChoice,
    choose_providers,
    device_setting,
    inference_device,
    open_session,
    settle,
)
from vision.detect._learned_detector import LearnedDetector
from vision.detect._make_detector import KINDS as DETECTOR_KINDS
from vision.detect._make_detector import DetectorKind, load_or_fallback, make_detector
from vision.detect._network_crops import BALL_PX, CLASSES, STRIDE, Roi, cut_roi, roi_size
from vision.detect._table_image import ball_radius_px, surface_polygon_px

__all__ = [
    "BALL_PX",
    "CLASSES",
    "DETECTOR_KINDS",
    "MODEL_PATH",
    "ONNX_DEVICE_ENV",
    "STRIDE",
    "AutoDetector",
    "BallModel",
    "BallScale",
    "ColourDetector",
    "Detector",
    "DetectorCapabilities",
    "DetectorKind",
    "Guide",
    "InferenceDevice",
    "LearnedDetector",
    "ModelError",
    "Peak",
    "Pixels",
    "ProviderChoice",
    "Roi",
    "apparent_radius_px",
    "ball_radius_px",
    "ball_scale",
    "choose_providers",
    "cut_roi",
    "device_setting",
    "inference_device",
    "load_or_fallback",
    "make_detector",
    "open_session",
    "ort_errors",
    "roi_size",
    "settle",
    "surface_polygon_px",
]
