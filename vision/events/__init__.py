"""Shots and their events: when a stroke starts and ends, and every contact in it.

The online :class:`Segmenter` opens and closes shots frame by frame (and
:class:`StopWatch` tells when a closed shot's last creeping ball has really stopped,
for live mode's verdict); afterwards the
tracks give the shot's span and first ball to move (:func:`shot_span`; the cue ball
unless a contact set it off: :func:`cue_ball_behind`), whether it was a lag
(:func:`is_lag`, :func:`lag_of`) and its events (:func:`extract_events`: cushion and
ball contacts with sub-frame times, a cushion just before a kiss, near misses, balls
off the table or pocketed).
"""

from vision.events._extract import estimate_noise_mm, extract_events
from vision.events._lag import lag_of
from vision.events._motion import frozen_cushions, frozen_pairs, is_lag, moving_mask, shot_span
from vision.events._set_offs import cue_ball_behind, cue_ball_doubt
from vision.events._shot_segmenter import (
    Segmenter,
    SegmentSettings,
    StopCall,
    StopSettings,
    StopWatch,
    Transition,
)

__all__ = [
    "SegmentSettings",
    "Segmenter",
    "StopCall",
    "StopSettings",
    "StopWatch",
    "Transition",
    "cue_ball_behind",
    "cue_ball_doubt",
    "estimate_noise_mm",
    "extract_events",
    "frozen_cushions",
    "frozen_pairs",
    "is_lag",
    "lag_of",
    "moving_mask",
    "shot_span",
]
