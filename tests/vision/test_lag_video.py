"""Lags on real rendered pixels: render, run the whole vision pipeline, judge the lag.

Three lags are rendered at 640x360, 25 fps (a broadcast rate; about 15 s each): a clean one and two
losing cases (a ball crossing into the other half, a ball touching the red). The
first motion vision calls a lag, judged by the referee, must give the truth file's
winner and every player's faults (``bench/lag_accuracy.py`` does all the lags).
"""

from __future__ import annotations

import pytest

from carom.synth_check import LagCheck, check_lag
from synth import CameraSettings, LookSettings, make_clip, motion_for

NAMES = ("lag-clean", "lag-crosses", "lag-red")


@pytest.fixture(scope="module")
def checks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, LagCheck]:
    out = tmp_path_factory.mktemp("lags")
    camera = CameraSettings(width_px=640, height_px=360, fps=25)
    done = {}
    for name in NAMES:
        made = make_clip(name, motion_for(name), out, camera, LookSettings(), seed=5)
        done[name] = check_lag(made.clip.video_path, out / f"{name}.analysis")
    return done


@pytest.mark.parametrize("name", NAMES)
def test_the_lag_judged_from_video_is_the_truth(checks: dict[str, LagCheck], name: str) -> None:
    check = checks[name]
    assert check.seen is not None, "no motion taken for a lag"
    assert check.seen.winner == check.truth["winner"], check.seen.reason
    assert check.faults_seen == check.truth["faults"], check.seen.reason
    assert check.right


def test_the_lag_events_are_found(checks: dict[str, LagCheck]) -> None:
    for name, check in checks.items():
        ev = check.events
        assert ev.recall("cushion") == 1.0 and ev.recall("ball") == 1.0, (name, ev.misses)
        assert not ev.extras, (name, ev.extras)


def test_the_losing_reasons_are_read_off_the_video(checks: dict[str, LagCheck]) -> None:
    crosses = checks["lag-crosses"].seen
    red = checks["lag-red"].seen
    assert crosses is not None and red is not None
    assert crosses.reason == "A won: B crossed into the opponent's half"
    assert red.reason == "B won: A touched the red"
