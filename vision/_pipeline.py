"""The streaming pipeline: frames in, analysed shots out, one shot at a time.

``Analyzer.feed(frame)`` detects the balls, updates the tracker and the shot
segmenter, and returns the shots that closed on that frame (usually none). Memory is
bounded: the tracker keeps only the open shot's history (plus ``pre_s``, or up to 2 s
while a ball is unseen: ``vision._sightings``). The same
object serves ``carom analyze`` (a file) and live mode (a camera).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np

from calibration import Calibration
from referee import Ball, Discipline
from vision._referee_shot import build_shot
from vision._sightings import Sightings
from vision._types import AnalyzedShot, BallTrack, Frame
from vision.detect import Detector, Guide
from vision.events import (
    Segmenter,
    SegmentSettings,
    Transition,
    cue_ball_behind,
    cue_ball_doubt,
    extract_events,
    is_lag,
    shot_span,
)
from vision.pins import PinCheck, PinSeries, pin_events
from vision.track import Tracker, TrackStep

__all__ = ["Analyzer", "AnalyzerSettings", "analyze_frames", "is_placement"]

_ROLL_MM = 40.0
_JITTER_MM = 1.5  # steps below this are noise of a ball at rest
_ROLL_ON_MM = 30.0  # a ball seen again after it was struck unseen rolls on this far in 0.2 s


@dataclass(frozen=True, slots=True, kw_only=True)
class AnalyzerSettings:
    """How the pipeline decides (see :class:`SegmentSettings`)."""

    segment: SegmentSettings = field(default_factory=SegmentSettings)
    min_confidence: float = 0.5
    path_step_s: float = 1 / 15
    #: A detector with a guided mode searches the whole frame every N frames only, and
    #: on every frame after one where a ball was not seen or its identity was in doubt
    #: (a ball taken away and put back is searched for until it is seen again). The
    #: periodic search only catches a track that stayed on something else; a whole
    #: search costs two to three guided ones, so every 10th frame had cost a tenth of
    #: the analysis. 60 (a second at 60 fps) gives the same tracks on all 29 bench
    #: clips as 10 did.
    full_every: int = 60


class Analyzer:
    """Frames -> analysed shots for one table and one discipline."""

    def __init__(
        self,
        calibration: Calibration,
        detector: Detector,
        tracker: Tracker,
        *,
        discipline: Discipline = Discipline.THREE_CUSHION,
        pin_check: PinCheck | None = None,
        settings: AnalyzerSettings | None = None,
    ) -> None:
        self.calibration = calibration
        self.detector = detector
        self.tracker = tracker
        self.discipline = discipline
        self.pin_check = pin_check
        self.settings = settings or AnalyzerSettings()
        self.segmenter = Segmenter(self.settings.segment)
        self.pins = PinSeries()
        self.last_step: TrackStep | None = None
        self.last_t_s = 0.0
        self.n_shots = 0
        self.placements: list[float] = []  # times balls were put down by hand, not struck
        self.sightings = Sightings()
        self._usual_s = -math.inf  # where history starts when no ball vanished
        # What the detector declared it can do decides what it is fed.
        caps = detector.capabilities
        self._reads_planes = caps.reads_planes
        self.guide = Guide(calibration, self.settings.full_every) if caps.guided else None

    def feed(self, frame: Frame) -> list[AnalyzedShot]:
        """Process one frame; the shots that ended with it (0 or 1)."""
        windows = self.guide.windows() if self.guide is not None else None
        # A detector that reads planes converts only the windows it searches.
        image = frame.image if self._reads_planes else frame.image_bgr
        if windows is None:
            detections = self.detector.detect(image)
        else:
            detections = self.detector.detect(image, *windows)
        step = self.tracker.update(frame.frame_idx, frame.t_s, detections)
        if self.guide is not None:
            self.guide.record(step, was_full=windows is None)
        self.last_step, self.last_t_s = step, frame.t_s
        self.sightings.see(step)
        if self.pin_check is not None:
            # The pin checks cut patches around the spots: planes convert only those.
            self.pins.add(frame.t_s, self.pin_check.check(frame.image, detections))
        xy = {b: (float(x), float(y)) for b, (x, y) in zip(step.balls, step.xy_mm, strict=True)}
        transition = self.segmenter.update(frame.t_s, xy)
        if transition is Transition.CLOSED:
            return self._close(frame.t_s, doubt=None)
        if not self.segmenter.is_open:
            self._forget(frame.t_s)
        return []

    def finish(self) -> list[AnalyzedShot]:
        """The video ended: a shot still open is closed with a doubt."""
        if not self.segmenter.is_open:
            return []
        self.segmenter.open_s = None
        return self._close(self.last_t_s, doubt="the video ended before every ball stopped")

    def _forget(self, t_s: float) -> None:
        """Between shots keep only ``pre_s`` of history (bounded memory).

        The tracks keep more while a ball is unseen (:class:`Sightings`); the pins never.
        """
        seg = self.settings.segment
        self._usual_s = t_s - seg.pre_s - seg.window_s
        self.tracker.drop_before(self.sightings.keep_since(t_s, self._usual_s))
        self.sightings.forget_before(self._usual_s)
        self.pins.drop_before(self._usual_s)

    def _close(self, t_s: float, doubt: str | None) -> list[AnalyzedShot]:
        tracks = self._shot_tracks()
        span = shot_span(tracks)
        try:
            return self._shot(tracks, span, doubt)
        finally:
            self._forget(t_s)  # after the shot's pin checks and tracks were read

    def _shot_tracks(self) -> dict[Ball, BallTrack]:
        """The shot's tracks from where history usually starts.

        A ball seen again far from where it vanished before that, and rolling on: from
        its rest. (A ball seen again at rest was found a little off where it stood, an
        arm over part of it: its older past would make it pass for a struck one.)
        """
        usual = self.tracker.tracks(since_s=self._usual_s)
        moved = self.sightings.moved_unseen(self._usual_s)
        if not moved:
            return usual
        whole = self.tracker.tracks()
        struck = {ball for ball, back_s in moved.items() if _rolls_on(whole[ball], back_s)}
        return {ball: whole[ball] if ball in struck else track for ball, track in usual.items()}

    def _shot(
        self,
        tracks: Mapping[Ball, BallTrack],
        span: tuple[float, float, Ball] | None,
        doubt: str | None,
    ) -> list[AnalyzedShot]:
        if span is None:
            return []  # jitter, a ball nudged by hand: nothing was struck
        start_s, end_s, cue_ball = span
        geometry = self.calibration.geometry
        scored = extract_events(tracks, geometry, min_confidence=self.settings.min_confidence)
        scored += pin_events(self.pins, tracks, geometry, self.discipline)
        scored.sort(key=lambda s: s.event.t_s)
        doubt = doubt or cue_ball_doubt(cue_ball, start_s, scored)  # the call is reviewed
        cue_ball = cue_ball_behind(cue_ball, start_s, scored)
        if not scored and is_placement(tracks, geometry.radius_mm):
            self.placements.append(start_s)
            return []
        shot = build_shot(
            self.n_shots, cue_ball, (start_s, end_s), tracks, scored,
            pins=self.pins.standing_at(start_s) if self.pin_check is not None else None,
            doubt=doubt, path_step_s=self.settings.path_step_s,
        )  # fmt: skip
        self.n_shots += 1
        table_mm = (geometry.length_mm, geometry.width_mm)
        events = [s.event for s in scored]
        lag = is_lag(tracks, radius_mm=geometry.radius_mm, table_mm=table_mm, events=events)
        return [AnalyzedShot(shot=shot, scored=tuple(scored), tracks=tracks, lag=lag)]


def _rolls_on(track: BallTrack, back_s: float) -> bool:
    """True if the ball, seen again at ``back_s``, rolls ``_ROLL_ON_MM`` in its next 0.2 s."""
    after = track.seen & (track.t_s >= back_s) & (track.t_s <= back_s + 0.2)
    xy = track.xy_mm[after]
    return len(xy) >= 2 and float(np.hypot(*(xy[-1] - xy[0]))) >= _ROLL_ON_MM


def is_placement(tracks: Mapping[Ball, BallTrack], radius_mm: float) -> bool:
    """True when the balls moved only by jumps (put down by hand), never rolled.

    Rolling shows as a chain of small seen steps; a ball carried by hand vanishes
    under the hand and reappears more than a ball diameter away. Rolled distance
    under ``_ROLL_MM`` on every ball means nothing was struck.
    """
    for track in tracks.values():
        ok = track.seen & np.isfinite(track.xy_mm[:, 0])
        steps = np.hypot(*np.diff(track.xy_mm[ok], axis=0).T)
        rolled = steps[(steps > _JITTER_MM) & (steps < 2.0 * radius_mm)]
        if float(rolled.sum()) > _ROLL_MM:
            return False
    return True


def analyze_frames(
    frames: Iterable[Frame],
    analyzer: Analyzer,
    on_frame: Callable[[Frame, Analyzer], None] | None = None,
) -> Iterator[AnalyzedShot]:
    """Run ``analyzer`` over ``frames``, yielding each shot as soon as it ends."""
    for frame in frames:
        yield from analyzer.feed(frame)
        if on_frame is not None:
            on_frame(frame, analyzer)
    yield from analyzer.finish()
