"""What the live loop's board view counts and shows for a shot a person decided."""

from __future__ import annotations

from pathlib import Path

from carom.live import DecisionKind, ReviewDecision
from carom.live.loop._board import BoardView
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.match import ShotClock
from hardware import EventKind
from tests.carom.live.shotpool import NOW, held_example


class _Sink(BoardSink):
    """No port: keeps what the view shows."""

    def __init__(self) -> None:
        super().__init__(None)
        self.events: list[object] = []

    def show(self, snapshot: object, event: object = None, on_written: object = None) -> None:
        self.events.append(event)


def test_a_shot_released_by_a_decision_is_counted_and_shown_as_its_outcome(
    tmp_path: Path,
) -> None:
    """The status lines said "0 shots" after three verdicts released by decisions, and
    the board kept "REVIEW" on the accepted shot (found by a review as a club operator)."""
    session = held_example(tmp_path)
    metrics, sink = LiveMetrics(), _Sink()
    BoardView(session, sink, ShotClock(), metrics, session.state.config.players)  # subscribes
    session.decide(ReviewDecision(DecisionKind.ACCEPT), who="test", now_iso=NOW)
    assert metrics.summary().shots == 1
    shown = [e for e in sink.events if e is not None]
    assert shown and shown[-1].kind is EventKind.POINT  # type: ignore[attr-defined]
