"""Hypothesis strategies: trajectories at the files' precision (0.01 mm, 1 µs)."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from carom.trajectories import BallPath, ShotTrack, Trajectories
from referee import Ball, Table

#: Every flag value a sample may carry: measured, predicted, occluded, interpolated.
FLAGS = (0, 1, 3, 4)

_mm = st.integers(-500_000, 500_000).map(lambda k: k / 100)


@st.composite
def ball_paths(draw: st.DrawFn, n: int) -> BallPath:
    """n samples; a position may be missing except on a measured sample."""
    flags = draw(st.lists(st.sampled_from(FLAGS), min_size=n, max_size=n))
    xs: list[float | None] = []
    ys: list[float | None] = []
    for f in flags:
        known = f == 0 or draw(st.booleans())
        xs.append(draw(_mm) if known else None)
        ys.append(draw(_mm) if known else None)
    return BallPath(tuple(xs), tuple(ys), tuple(flags))


@st.composite
def shot_tracks(draw: st.DrawFn, index: int | None = None) -> ShotTrack:
    """A shot of 0 to 12 frames, frame numbers known (possibly with gaps) or not."""
    n = draw(st.integers(0, 12))
    first_us = draw(st.integers(0, 10**10))
    steps_us = draw(st.lists(st.integers(1, 100_000), min_size=n, max_size=n))
    t_s = tuple(round((first_us + s) / 1e6, 6) for s in itertools.accumulate(steps_us))
    if draw(st.booleans()):
        start = draw(st.integers(0, 10**6))
        gaps = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
        frame_idx: tuple[int | None, ...] = tuple(start + g for g in itertools.accumulate(gaps))
    else:
        frame_idx = (None,) * n
    balls = draw(st.lists(st.sampled_from(list(Ball)), max_size=4, unique=True))
    span = st.none() | st.integers(0, 10**8).map(lambda k: k / 10_000)
    return ShotTrack(
        index=draw(st.integers(0, 500)) if index is None else index,
        cue_ball=draw(st.sampled_from(list(Ball))),
        start_s=draw(span), end_s=draw(span), frame_idx=frame_idx, t_s=t_s,
        balls={b: draw(ball_paths(n)) for b in balls},
    )  # fmt: skip


@st.composite
def trajectories(draw: st.DrawFn) -> Trajectories:
    """A table and 0 to 4 shots with increasing indexes."""
    gaps = draw(st.lists(st.integers(1, 3), max_size=4))
    indexes = [i - 1 for i in itertools.accumulate(gaps)]
    length = draw(st.integers(500, 5000))
    table = Table(length_mm=float(length), width_mm=float(draw(st.integers(250, length))),
                  ball_diameter_mm=draw(st.integers(400, 800)) / 10)  # fmt: skip
    return Trajectories(table=table, shots=tuple(draw(shot_tracks(i)) for i in indexes))
