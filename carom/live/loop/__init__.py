"""Live mode's camera side: frames in, the session fed, the board and the status shown.

* :class:`Capture` reads a camera, a stream or a file (replayed at its pace) on its
  own thread and never waits;
* :class:`LiveRunner` is the loop: each frame through the analyser, each closed shot
  to the :class:`carom.live.LiveSession`, a person's calls, the shot clock, the drift
  check, the board (:class:`BoardSink`) and the metrics (:class:`LiveMetrics`);
* :func:`read_keyboard` turns stdin lines into calls for the loop.

Kept apart from :mod:`carom.live` (the match journal) so the history and export
commands do not load the vision pipeline.
"""

from carom.live.loop._capture import (
    Capture,
    Captured,
    CaptureSettings,
    CaptureState,
    CaptureStatus,
    is_file_source,
)
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.live.loop._runner import LiveRunner, read_keyboard

__all__ = [
    "BoardSink",
    "Capture",
    "CaptureSettings",
    "CaptureState",
    "CaptureStatus",
    "Captured",
    "LiveMetrics",
    "LiveRunner",
    "is_file_source",
    "read_keyboard",
]
