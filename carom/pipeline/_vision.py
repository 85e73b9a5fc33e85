"""One description of the vision pipeline, built the same way by every front end.

``carom analyze``, ``carom live``, ``carom serve`` and ``carom synth --check`` all build
their :class:`vision.Analyzer` from a :class:`VisionPipeline`: the discipline, the balls
on the table, the detector and the analyser's settings. It is made from the referee's
match set-up (:meth:`VisionPipeline.for_match`), so no front end fakes another's
options to get one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

import cv2

from calibration import Calibration
from referee import Ball, Discipline, MatchConfig, rules_of
from vision import (
    Analyzer,
    AnalyzerSettings,
    Frame,
    Tracker,
    inference_device,
    make_detector,
    make_pin_check,
)

__all__ = ["VisionPipeline", "balls_on_table"]


def balls_on_table(discipline: Discipline, cue_balls: Collection[Ball] = ()) -> tuple[Ball, ...]:
    """The three balls on the table in ``discipline`` (the discipline registry's).

    The dotted white instead of the yellow when ``cue_balls`` (the cue balls in play)
    name it: the traditional white, dotted-white and red set.
    """
    balls = rules_of(discipline).balls
    if Ball.DOTTED in cue_balls and Ball.YELLOW in balls:
        return tuple(Ball.DOTTED if b is Ball.YELLOW else b for b in balls)
    return balls


@dataclass(frozen=True, slots=True, kw_only=True)
class VisionPipeline:
    """What the vision pipeline is built from.

    ``detector``: ``color``, ``onnx`` or ``auto`` (docs/detector.md); ``settings``:
    the analyser's (live mode's shorter rest, say), ``None`` for the defaults.
    """

    discipline: Discipline
    balls: tuple[Ball, ...]
    detector: str = "auto"
    settings: AnalyzerSettings | None = None

    @classmethod
    def for_match(
        cls, config: MatchConfig, detector: str = "auto", settings: AnalyzerSettings | None = None
    ) -> VisionPipeline:
        """The pipeline that watches ``config``'s match."""
        in_play = {*config.cue_balls.values(), *config.rotation_balls}
        balls = balls_on_table(config.discipline, in_play)
        return cls(discipline=config.discipline, balls=balls, detector=detector, settings=settings)

    def build(
        self,
        calib: Calibration,
        first: Frame,
        pin_frame: Frame,
        fps: float,
        warn: Callable[[str], None] | None = None,
    ) -> Analyzer:
        """The analyser for one camera: colours learned from ``first``, pins from ``pin_frame``.

        A missing or broken model file falls back to the colour detector and tells ``warn``.
        """
        # The detector calls OpenCV on small windows, thousands of times a second: waking
        # its thread pool costs more than the work, and the pool's threads fight the
        # video decoder's for the cores (measured on the 1080p bench clip: 6.2 ms of
        # main-thread CPU a frame with the default pool, 5.8 ms with one thread and no
        # pool threads busy at all). Process-wide, set here where the pipeline is built.
        cv2.setNumThreads(1)
        detector = make_detector(self.detector, calib, first.image_bgr, self.balls, warn=warn)
        # The 7-pin whites look alike: named by their starting places, then by continuity.
        shared = rules_of(self.discipline).shared_cue_ball is not None
        start = calib.geometry.seven_pins_whites_mm() if shared else None
        tracker = Tracker(calib, self.balls, fps=fps, start_mm=start)
        pins = calib.geometry.pins_mm(self.discipline)
        pin_check = None
        if pins:
            pin_check = make_pin_check(self.detector, calib, pin_frame.image_bgr, pins, warn=warn)
        return Analyzer(calib, detector, tracker, discipline=self.discipline,
                        pin_check=pin_check, settings=self.settings)  # fmt: skip

    def device_line(self) -> str | None:
        """Where the networks run, said at start: ``ball detector: onnxruntime on the CPU (...)``.

        None with the colour detector or before :meth:`build` opened a network.
        """
        device = inference_device() if self.detector != "color" else None
        return None if device is None else f"ball detector: {device.describe()}"
