"""Ball tracks: per-frame detections in pixels -> one path per ball in table mm.

:class:`Tracker` keeps one identity per ball over a whole video; each frame gives a
:class:`TrackStep` (every ball's centre at ball height, seen or predicted, its speed,
at rest, identity in doubt); :meth:`Tracker.tracks` gives each ball's history as a
:class:`vision.BallTrack` whose per-sample :class:`vision.TrackFlag` bits say whether
the position was measured, predicted with the ball unseen (``OCCLUDED``), or predicted
while a doubtful sighting was held (``PREDICTED`` alone). The motion model of one
ball is a Kalman filter with a rest mode (``_ball_filter``); pixels become table mm
through :class:`calibration.PxToMm`.
"""

from vision.track._steps import BallState, TrackStep
from vision.track._tracker import Tracker

__all__ = ["BallState", "TrackStep", "Tracker"]
