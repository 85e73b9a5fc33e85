"""The lag as vision sees it: the motion that decides who breaks [rules.md §2].

Theory of operation. The lag is a motion of its own, found like any stroke by the
shot segmenter: it opens when the first ball moves and closes when every ball has
rested for the segmenter's quiet time (a lag runs 10-15 s: about 4.5 m out to the
foot cushion and back at 1 m/s). :func:`vision.is_lag` tells it from a stroke: the
first two balls to move are the two cue balls, set off within half a second of each
other and never near each other meanwhile (a cue ball sent into the other ball meets
it at 2R), and the red is not one of them (a lag ball may touch it later: that is a
fault the referee judges). Its events are the ordinary ones of the event extractor
(every cushion contact of both balls, ball contacts, off the table, pins down) and
its start and rest positions those of the shot; :func:`lag_of` hands them to the
referee as a :class:`referee.Lag`, and :func:`referee.judge_lag` decides.
"""

from __future__ import annotations

from referee import Lag
from vision._types import AnalyzedShot

__all__ = ["lag_of"]


def lag_of(analyzed: AnalyzedShot) -> Lag | None:
    """The referee's :class:`Lag` of an analysed motion that was a lag; None for a stroke.

    Events carry their ``doubt`` as vision found them; start positions are the balls
    at rest before the first strike, end positions where they came to rest (a ball
    that left the table has none), all in table mm.
    """
    if not analyzed.lag:
        return None
    shot = analyzed.shot
    return Lag(
        events=shot.events,
        start_positions_mm=dict(shot.start_positions_mm),
        end_positions_mm=dict(shot.end_positions_mm),
    )
