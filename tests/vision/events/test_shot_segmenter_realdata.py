"""The shot segmenter on real tracked shots: one shot each, never closed early.

Both the offline settings and live mode's shorter ones (``carom live``) are run over
the 60 real three-cushion shots (tracked at about 50 Hz, 2 s of rest added after each):
every shot must open once and close once, and never before its last real motion (a
step over 0.5 mm), which a too-short rest would cut off.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from carom.cli._live import LIVE_MOVE_MM, LIVE_REST_S, LIVE_WINDOW_S
from synth import RealShot, load_real_shots
from vision import Segmenter, SegmentSettings, Transition

REAL = Path(__file__).parents[4] / "shared" / "realdata" / "three_cushion_match_dev.json"
pytestmark = pytest.mark.skipif(not REAL.exists(), reason="needs ../shared/realdata")

SETTINGS = {
    "analyze": SegmentSettings(),
    "live": SegmentSettings(window_s=LIVE_WINDOW_S, move_mm=LIVE_MOVE_MM, rest_s=LIVE_REST_S),
}


def _replay(shot: RealShot, settings: SegmentSettings) -> tuple[int, int, float]:
    """(opens, closes, time of the last close) over the shot's samples and 2 s of rest."""
    t_all = np.unique(np.concatenate([tr.t_s for tr in shot.tracks.values()]))
    grid = np.concatenate([t_all, t_all[-1] + np.arange(1, 101) * 0.02])
    seg = Segmenter(settings)
    opens = closes = 0
    closed_s = -1.0
    for t in grid:
        xy = {}
        for ball, tr in shot.tracks.items():
            k = int(np.clip(np.searchsorted(tr.t_s, t, side="right") - 1, 0, len(tr.t_s) - 1))
            xy[ball] = (float(tr.xy_mm[k, 0]), float(tr.xy_mm[k, 1]))
        change = seg.update(float(t), xy)
        opens += change is Transition.OPENED
        if change is Transition.CLOSED:
            closes, closed_s = closes + 1, float(t)
    return opens, closes, closed_s


def _last_motion_s(shot: RealShot) -> float:
    last = 0.0
    for tr in shot.tracks.values():
        moved = np.nonzero(np.hypot(*np.diff(tr.xy_mm, axis=0).T) > 0.5)[0]
        if len(moved):
            last = max(last, float(tr.t_s[moved[-1] + 1]))
    return last


@pytest.mark.parametrize("name", SETTINGS)
def test_every_real_shot_is_one_shot_closed_after_its_last_motion(name: str) -> None:
    shots = load_real_shots(REAL)
    assert len(shots) == 60
    for shot in shots:
        opens, closes, closed_s = _replay(shot, SETTINGS[name])
        assert (opens, closes) == (1, 1), shot.shot_id
        assert closed_s >= _last_motion_s(shot), shot.shot_id
