"""The pipeline feeds a detector by the capabilities it declares, nothing else."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest

from calibration import Calibration
from referee import Ball
from tests.sample_truth import sample_truth
from vision import (
    Analyzer,
    AutoDetector,
    ColourDetector,
    Detections,
    Detector,
    DetectorCapabilities,
    Frame,
    LearnedDetector,
    Tracker,
)
from vision.frames import YuvImage


class _Recorder:
    """A detector that finds nothing and notes what it was given."""

    capabilities: ClassVar[DetectorCapabilities] = DetectorCapabilities()

    def __init__(self) -> None:
        self.calls: list[tuple[type, bool]] = []

    def detect(
        self, image_bgr: object, near_px: object = None, reach_px: object = None
    ) -> Detections:
        self.calls.append((type(image_bgr), near_px is not None or reach_px is not None))
        return Detections.empty()


class _PlaneRecorder(_Recorder):
    capabilities: ClassVar[DetectorCapabilities] = DetectorCapabilities(reads_planes=True)


@pytest.mark.parametrize(
    ("detector", "planes", "guided"),
    [(ColourDetector, True, True), (AutoDetector, True, True), (LearnedDetector, False, True)],
)
def test_every_detector_declares_what_it_can_do(
    detector: type[Detector], planes: bool, guided: bool
) -> None:
    caps = detector.capabilities
    assert (caps.reads_planes, caps.guided) == (planes, guided)


def _frames(calibration: Calibration, n: int) -> list[Frame]:
    w, h = calibration.image_size_px
    i420 = np.full((h * 3 // 2, w), 128, np.uint8)
    return [Frame(i, i / 30.0, YuvImage.from_i420(i420)) for i in range(n)]


@pytest.mark.parametrize(
    ("recorder", "given"), [(_Recorder, np.ndarray), (_PlaneRecorder, YuvImage)]
)
def test_a_detector_gets_planes_only_if_it_reads_them_and_windows_only_if_guided(
    recorder: type[_Recorder], given: type
) -> None:
    _, calibration = sample_truth("three_cushion_match")
    detector = recorder()
    tracker = Tracker(calibration, (Ball.WHITE, Ball.YELLOW, Ball.RED), fps=30.0)
    analyzer = Analyzer(calibration, detector, tracker)
    assert analyzer.guide is None
    for frame in _frames(calibration, 3):
        analyzer.feed(frame)
    assert detector.calls == [(given, False)] * 3
