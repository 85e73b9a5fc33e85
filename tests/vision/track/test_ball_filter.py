"""One ball's filter: the rest mean of a ball at rest, and of one creeping to a stop.

Measurements are the truth plus 0.3 mm of noise (a sharp ball's scatter at 1080p) and
carry the tracker's usual gate noise (2 mm a side), far above that scatter.
"""

from __future__ import annotations

import numpy as np

from vision.track._ball_filter import BallFilter

FPS = 60.0
NOISE_MM2 = (2.0, 0.0, 2.0)  # what the tracker passes for a sharp detection
BOUNDS = (30.75, 30.75, 2809.25, 1389.25)


def _run(xy_mm: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Feed truth (n, 2) mm plus noise; the filter's (n, 2) positions and (n,) at-rest."""
    rng = np.random.default_rng(seed)
    seen = xy_mm + rng.normal(0.0, 0.3, xy_mm.shape)
    filt = BallFilter((float(seen[0, 0]), float(seen[0, 1])), 0.0, BOUNDS, window=12)
    out, rest = [], []
    for i, (x, y) in enumerate(seen):
        t_s = i / FPS
        filt.predict(t_s)
        filt.update((float(x), float(y)), NOISE_MM2, t_s)
        out.append(filt.xy_mm)
        rest.append(filt.at_rest)
    return np.array(out), np.array(rest)


def test_a_ball_at_rest_is_held_to_a_fraction_of_a_millimetre() -> None:
    truth = np.tile([[700.0, 400.0]], (600, 1))
    for seed in range(3):
        xy, rest = _run(truth, seed)
        assert rest[30:].all()
        assert np.hypot(*(xy[60:] - truth[60:]).T).max() < 0.3


def test_a_creeping_ball_is_followed_within_a_few_millimetres() -> None:
    """Stopped, then a creep at 10 mm/s for 2.5 s (as a real ball's last roll): too slow
    for the rest test to call motion, so the rest mean must follow it."""
    still = np.tile([[700.0, 400.0]], (60, 1))
    t = np.arange(150) / FPS
    creep = np.c_[700.0 + 10.0 * t, 400.0 + 2.0 * t]
    truth = np.r_[still, creep, np.tile(creep[-1:], (60, 1))]
    for seed in range(3):
        xy, _ = _run(truth, seed)
        err = np.hypot(*(xy[30:] - truth[30:]).T)
        assert err.max() < 3.0, err.max()
        assert np.median(err) < 1.0


def test_a_ball_rolling_off_slowly_from_rest_is_released() -> None:
    """At rest, then off at 45 mm/s: faster than any creep, so it is motion (not a rest
    mean dragged along behind it), and the filter stays on it."""
    still = np.tile([[700.0, 400.0]], (90, 1))
    t = np.arange(1, 121) / FPS
    roll = np.c_[700.0 - 45.0 * t, 400.0 + 5.0 * t]
    truth = np.r_[still, roll]
    for seed in range(3):
        xy, rest = _run(truth, seed)
        assert rest[60:90].all() and not rest[-60:].any()
        err = np.hypot(*(xy[90:] - truth[90:]).T)
        assert np.percentile(err, 95) < 3.0, np.percentile(err, 95)
