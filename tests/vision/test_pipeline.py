"""The pipeline feeds a detector by the capabilities it declares, nothing else; a shot
holds the rest of a cue ball struck unseen, and only of such a ball."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import numpy as np
import pytest

from calibration import Calibration
from referee import Ball
from tests.sample_truth import sample_truth
from vision import (
    Analyzer,
    AutoDetector,
    BallTrack,
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


Where = Callable[[float], dict[Ball, tuple[float, float] | None]]


def _struck_unseen(t_s: float) -> dict[Ball, tuple[float, float] | None]:
    # White at rest until 1 s, then struck and unseen for a second (a faint streak),
    # then seen rolling down the table from (800, 850); the others stay.
    white: tuple[float, float] | None = (2700.0, 470.0)
    if 1.0 < t_s < 2.0:
        white = None
    elif t_s >= 2.0:
        white = (800.0 + 1500.0 * (t_s - 2.0), 850.0 - 400.0 * (t_s - 2.0))
    return {Ball.WHITE: white, Ball.YELLOW: (600.0, 300.0), Ball.RED: (1400.0, 1100.0)}


def _struck_unseen_then_lost_again(t_s: float) -> dict[Ball, tuple[float, float] | None]:
    # As _struck_unseen, and unseen again in the shot for 0.2 s (a cushion, an arm):
    # a second move unseen, which must not hide the first from the shot.
    where = _struck_unseen(t_s)
    if 2.5 < t_s < 2.7:
        where[Ball.WHITE] = None
    return where


def _placed_then_struck(t_s: float) -> dict[Ball, tuple[float, float] | None]:
    # White taken up at 1 s, put down at (800, 850) at 1.5 s, struck from there at 3 s.
    white: tuple[float, float] | None = (2700.0, 470.0)
    if 1.0 < t_s < 1.5:
        white = None
    elif t_s >= 1.5:
        white = (800.0 + 1500.0 * max(t_s - 3.0, 0.0), 850.0)
    return {Ball.WHITE: white, Ball.YELLOW: (600.0, 300.0), Ball.RED: (1400.0, 1100.0)}


class _Script:
    """A detector that sees each ball where a script puts it (None: unseen)."""

    capabilities: ClassVar[DetectorCapabilities] = DetectorCapabilities()

    def __init__(self, calibration: Calibration, fps: float, where: Where) -> None:
        self.calibration, self.fps, self.where, self.frame_idx = calibration, fps, where, 0
        self.r_mm = calibration.geometry.radius_mm

    def detect(
        self, image_bgr: object, near_px: object = None, reach_px: object = None
    ) -> Detections:
        t_s = self.frame_idx / self.fps
        self.frame_idx += 1
        seen = [(b, xy) for b, xy in self.where(t_s).items() if xy is not None]
        xy_mm = np.array([xy for _, xy in seen], np.float64)
        uv = self.calibration.mm_to_px(xy_mm, self.r_mm)
        n = len(seen)
        return Detections(uv, tuple(b for b, _ in seen), np.ones(n), np.full(n, 12.0),
                          np.zeros((n, 2)))  # fmt: skip


def _white_of_the_shot(where: Where, n_frames: int) -> BallTrack:
    _, calibration = sample_truth("three_cushion_match")
    tracker = Tracker(calibration, (Ball.WHITE, Ball.YELLOW, Ball.RED), fps=30.0)
    analyzer = Analyzer(calibration, _Script(calibration, 30.0, where), tracker)
    shots = [s for frame in _frames(calibration, n_frames) for s in analyzer.feed(frame)]
    (shot,) = [*shots, *analyzer.finish()]
    return shot.tracks[Ball.WHITE]


def test_a_shot_holds_the_rest_of_a_cue_ball_unseen_for_a_second_after_it_was_struck() -> None:
    white = _white_of_the_shot(_struck_unseen, 150)
    # Its last sighting at rest (1.0 s) and the frames before it are in the shot: the
    # shot opened only when it was seen again, a second later.
    rest = white.seen & (white.t_s <= 1.0)
    assert rest.sum() >= 4 and white.t_s[rest][-1] == pytest.approx(1.0)
    assert np.allclose(white.xy_mm[rest], (2700.0, 470.0), atol=1.0)


def test_a_cue_ball_unseen_again_in_its_shot_keeps_the_rest_it_was_struck_from() -> None:
    white = _white_of_the_shot(_struck_unseen_then_lost_again, 150)
    rest = white.seen & (white.t_s <= 1.0)
    assert rest.sum() >= 4 and white.t_s[rest][-1] == pytest.approx(1.0)
    assert np.allclose(white.xy_mm[rest], (2700.0, 470.0), atol=1.0)
    assert not white.seen[(white.t_s > 2.55) & (white.t_s < 2.65)].any()  # lost again


def test_a_ball_put_down_by_hand_and_struck_later_keeps_the_usual_past() -> None:
    white = _white_of_the_shot(_placed_then_struck, 150)
    # Taken up at 1 s and seen at rest where it was put down from 1.5 s: struck at 3 s,
    # its shot starts 0.6 s before it opened, as every shot does, not at the old rest.
    assert white.t_s[0] > 2.0
    assert np.allclose(white.xy_mm[white.seen & (white.t_s < 3.0)], (800.0, 850.0), atol=1.0)
