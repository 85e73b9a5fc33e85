"""The review replay: the web keeps the runner's frames small and hands over the pending shot's."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from carom.live import LiveSession, LiveSetup, MatchStore
from carom.web._replay import REPLAY_FPS, REPLAY_WIDTH_PX, ReplayBuffer
from tests.carom.live.shotpool import NOW, analyzed, golden_shots, long_config


def test_the_pending_shots_frames_are_kept_small_and_in_its_time(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "r.db")
    session = LiveSession.open(store, LiveSetup(long_config(), "cam"), now_iso=NOW)
    buffer = ReplayBuffer()
    session.subscribe(buffer.on_update)
    doubtful = next(w for w, _ in golden_shots(review=True) if any(e.doubt for e in w.events))
    start_s, end_s = doubtful.start_s or 0.0, doubtful.end_s or 0.0
    image = np.zeros((720, 1280, 3), np.uint8)
    for t_s in np.arange(max(0.0, start_s - 8.0), end_s + 3.0, 1 / 30):
        buffer.keep(float(t_s), image)  # what keep_frame does, at most REPLAY_FPS a second
    update = session.submit(analyzed(doubtful), video_t_s=end_s, now_iso=NOW)
    assert update.pending is not None
    fps, frames = buffer.replay
    assert fps == REPLAY_FPS and frames
    assert all(f.shape == (REPLAY_WIDTH_PX * 720 // 1280, REPLAY_WIDTH_PX, 3) for f in frames)
    assert len(frames) <= (end_s - start_s + 1.0) * 30 + 1  # only the shot's time (+- 0.5 s)
    store.close()
