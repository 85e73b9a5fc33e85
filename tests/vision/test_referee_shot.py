"""The referee's shot from tracks: when and where the balls are said to have stopped.

A ball that crawls a few mm back off a cushion passes the motion test (a displacement
over 0.2 s) while it still moves: the shot must not end at the turn, and the end
position must come from the rest after it, not from the crawl.
"""

from __future__ import annotations

import numpy as np

from referee import Ball
from vision import BallTrack, build_shot, shot_span

FPS = 60.0
DECEL_MM_S2 = 98.0  # rolling resistance 0.01 g, as in pooltool's shots


def _track(x_mm: np.ndarray, y_mm: float, seed: int) -> BallTrack:
    rng = np.random.default_rng(seed)
    xy = np.c_[x_mm, np.full(len(x_mm), y_mm)] + rng.normal(0.0, 0.2, (len(x_mm), 2))
    n = len(x_mm)
    return BallTrack(np.arange(n) / FPS, xy, np.ones(n, bool), np.arange(n))


def _in_and_back(v_out_mm_s: float) -> tuple[np.ndarray, float]:
    """Struck from rest towards the head cushion, in at 200 mm/s and back at
    ``v_out_mm_s`` (pooltool's pt0070: 10 mm in 0.45 s), then still for 0.6 s (as long as
    a shot stays open after): x (n,) mm, and where it stops."""
    nose = 31.5
    t_roll = np.arange(0.0, 1.2, 1 / FPS)[::-1]  # time left until the cushion
    x_in = nose + 200.0 * t_roll + 0.5 * DECEL_MM_S2 * t_roll**2
    t_out = np.arange(1 / FPS, v_out_mm_s / DECEL_MM_S2, 1 / FPS)
    x_out = nose + v_out_mm_s * t_out - 0.5 * DECEL_MM_S2 * t_out**2
    rest = nose + v_out_mm_s**2 / (2 * DECEL_MM_S2)
    still = np.full(30, x_in[0])
    return np.r_[still, x_in, x_out, np.full(36, rest)], rest


def test_a_ball_crawling_back_off_a_cushion_ends_where_it_rests() -> None:
    for v_out in (30.0, 45.0):
        for seed in range(3):
            x, rest_mm = _in_and_back(v_out)
            tracks = {Ball.WHITE: _track(x, 570.0, seed),
                      Ball.RED: _track(np.full(len(x), 1400.0), 300.0, seed + 10)}  # fmt: skip
            span = shot_span(tracks)
            assert span is not None
            start_s, end_s, cue = span
            # The shot ends once the white stays within 2 mm of where it rests.
            assert 0.0 < rest_mm - x[round(end_s * FPS)] <= 2.5, (v_out, seed, end_s)
            shot = build_shot(0, cue, (start_s, end_s), tracks, [])
            white = shot.end_positions_mm[Ball.WHITE]
            assert abs(white[0] - rest_mm) < 0.5, (v_out, seed, white, rest_mm)
            assert abs(white[1] - 570.0) < 0.5
