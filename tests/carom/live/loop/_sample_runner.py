"""A live runner refereeing the sample clip from a given capture, in its own thread."""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from pathlib import Path

from carom.analyze import AnalyzeOptions, match_config
from carom.live import LiveSession, LiveSetup, MatchStore
from carom.live.loop._capture import Capture
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.live.loop._runner import LiveRunner
from carom.match import ShotClock
from carom.pipeline import CalibrationFile
from carom.timestamps import now_iso
from referee import Table
from tests.carom.live._helpers import SAMPLE, write_truth_calibration


@dataclass
class SampleRunner:
    """The match store and session, the runner, its thread and what it printed."""

    store: MatchStore
    session: LiveSession
    runner: LiveRunner
    thread: threading.Thread
    out: io.StringIO

    def stop(self) -> None:
        """Stop the runner, wait for its thread, close the store."""
        self.runner.stop.set()
        self.thread.join(5)
        self.store.close()


def start_runner(tmp_path: Path, capture: Capture, board: BoardSink) -> SampleRunner:
    """A new A-B three-cushion match on the sample, refereed from ``capture`` (started)."""
    opts = AnalyzeOptions(video=SAMPLE, out=tmp_path, table=Table(), players=("A", "B"),
                          first_player="A")  # fmt: skip
    config = match_config(opts)
    out = io.StringIO()
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(config, str(SAMPLE)), now_iso=now_iso())
    runner = LiveRunner(
        session, capture.start(),
        calibration_file=CalibrationFile(write_truth_calibration(tmp_path / "c.json")),
        config=config, board=board, clock=ShotClock(), metrics=LiveMetrics(), out=out,
    )  # fmt: skip
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    return SampleRunner(store, session, runner, thread, out)
