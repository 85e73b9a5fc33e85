"""Choosing which detection is which ball: joint assignments and their helpers.

The tracker scores every joint choice of detections for its few balls ("not seen"
included) and takes the cheapest (:func:`best_two`); the runner-up tells where two
balls could have been swapped (:func:`swapped`). A detection far off its ball is taken
at once only where another ball just passed close (:func:`passed_near`). Balls a
detector cannot tell apart (:func:`same_classes`) differ by continuity alone.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from referee import Ball
from vision.track._ball_filter import XY

__all__ = ["Choice", "best_two", "differs", "passed_near", "same_classes", "swapped"]


Move = tuple[XY, XY, bool]  # a ball's last move: from, to, at rest


def passed_near(moves: Sequence[Move | None], reach_mm: float) -> list[bool]:
    """Per ball: did another ball's last move pass within ``reach_mm`` of it?

    ``moves`` per ball (None: not tracked). Two balls at rest never count.
    """
    near = [False] * len(moves)
    reach = reach_mm
    for i, j in itertools.combinations(range(len(moves)), 2):
        a, b = moves[i], moves[j]
        if a is None or b is None or (a[2] and b[2]):
            continue
        # Relative motion over the frame; closest approach of the two centres.
        (ax, ay), (bx, by) = a[0], b[0]
        rx, ry = bx - ax, by - ay
        dx = (b[1][0] - bx) - (a[1][0] - ax)
        dy = (b[1][1] - by) - (a[1][1] - ay)
        dd = dx * dx + dy * dy
        f = min(1.0, max(0.0, -(rx * dx + ry * dy) / dd)) if dd > 0 else 0.0
        if math.hypot(rx + f * dx, ry + f * dy) < reach:
            near[i] = near[j] = True
    return near


def same_classes(balls: tuple[Ball, ...]) -> dict[Ball, tuple[Ball, ...]]:
    """Labels a detector gives interchangeably: the white-ish balls it cannot tell apart."""
    same: dict[Ball, tuple[Ball, ...]] = {}
    groups: list[tuple[Ball, ...]] = []
    if Ball.WHITE1 in balls or Ball.WHITE2 in balls:  # 7-pin: detectors call both white
        groups.append((Ball.WHITE1, Ball.WHITE2, Ball.WHITE))
    if Ball.DOTTED in balls:
        groups.append((Ball.WHITE, Ball.DOTTED))
    for group in groups:
        for b in group:
            same[b] = tuple(x for x in group if x != b)
    return same


Choice = tuple[float, tuple[int, ...]]


def best_two(options: list[list[tuple[float, int]]]) -> tuple[Choice, Choice | None]:
    """Cheapest and second-cheapest joint choices, each detection used at most once."""
    best: Choice | None = None
    second: Choice | None = None
    for combo in itertools.product(*options):
        dets = [k for _, k in combo if k >= 0]
        if len(dets) != len(set(dets)):
            continue
        choice = (sum(c for c, _ in combo), tuple(k for _, k in combo))
        if best is None or choice[0] < best[0]:
            best, second = choice, best
        elif second is None or choice[0] < second[0]:
            second = choice
    assert best is not None  # "all missed" is always allowed
    return best, second


def swapped(a: tuple[int, ...], b: tuple[int, ...]) -> set[int]:
    """Balls whose detection went to another ball between two choices."""
    out: set[int] = set()
    for i, k in enumerate(a):
        if k >= 0 and k in b and b.index(k) != i:
            out |= {i, b.index(k)}
    return out


def differs(best: Choice, second: Choice, k: int) -> bool:
    """True when detection ``k`` goes to another ball in ``second`` than in ``best``."""
    return k in second[1] and second[1].index(k) != best[1].index(k)
