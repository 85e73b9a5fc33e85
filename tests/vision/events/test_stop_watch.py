"""The stop watch after a shot closed: strong and weak evidence, gaps the creep closed."""

from __future__ import annotations

import math

import pytest

from referee import Ball
from vision import StopSettings, StopWatch

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
RADIUS = 30.75
TABLE = (2840.0, 1420.0)


def _watch(
    xy: dict[Ball, tuple[float, float]], seen: dict[Ball, bool] | None = None, **settings: float
) -> StopWatch:
    return StopWatch(10.0, xy, seen, table_mm=TABLE, radius_mm=RADIUS,
                     settings=StopSettings(**settings))  # fmt: skip


def test_it_waits_while_a_ball_is_not_at_rest_and_calls_when_all_are() -> None:
    xy = {W: (500.0, 500.0), Y: (900.0, 300.0), R: (1500.0, 700.0)}
    watch = _watch(xy)
    assert watch.update(10.1, xy, {W: False, Y: True, R: True}) is None
    call = watch.update(10.15, xy, {W: True, Y: True, R: True})
    assert call is not None
    assert call.strong
    assert call.t_s == 10.15
    assert call.closed_gaps == ()


def test_a_ball_off_the_table_does_not_hold_the_call() -> None:
    xy = {W: (500.0, 500.0), R: (math.nan, math.nan)}
    call = _watch(xy).update(10.05, xy, {W: True, R: False})
    assert call is not None
    assert call.strong


def test_a_ball_unseen_a_while_no_longer_holds_the_call_and_closes_no_gap() -> None:
    """A pocketed ball's track drifts on predicted: neither its rest nor its gaps count."""
    then = {W: (1000.0, 700.0), R: (1200.0, 700.0)}
    watch = _watch(then, {W: True, R: False}, gone_s=0.2)
    ghost = {W: then[W], R: (1000.0 + 2 * RADIUS + 0.2, 700.0)}  # drifted onto the white
    assert watch.update(10.1, ghost, {W: True, R: False}, {W: True, R: False}) is None
    call = watch.update(10.25, ghost, {W: True, R: False}, {W: True, R: False})
    assert call is not None
    assert call.strong
    assert call.closed_gaps == ()


def test_weak_evidence_calls_after_the_longest_wait() -> None:
    xy = {W: (500.0, 500.0), R: (1500.0, 700.0)}
    watch = _watch(xy, max_wait_s=0.3)
    assert watch.update(10.29, xy, {W: False, R: True}) is None
    call = watch.update(10.3, xy, {W: False, R: True})
    assert call is not None
    assert not call.strong


def test_a_creep_into_another_ball_and_into_a_cushion_are_closed_gaps() -> None:
    then = {W: (1000.0, 700.0), R: (1000.0 + 2 * RADIUS + 3.0, 700.0), Y: (2000.0, 34.0)}
    now = {W: (1002.5, 700.0), R: then[R], Y: (2000.0, 31.0)}
    call = _watch(then).update(10.2, now, {W: True, R: True, Y: True})
    assert call is not None
    assert call.closed_gaps == ("red-white", "yellow-left")


def test_a_contact_between_two_frames_counts_though_the_balls_parted_again() -> None:
    then = {W: (1000.0, 700.0), R: (1000.0 + 2 * RADIUS + 2.5, 700.0)}
    touching = {W: (1002.3, 700.0), R: then[R]}
    parted = {W: (1002.0, 700.0), R: (then[R][0] + 1.5, 700.0)}
    watch = _watch(then)
    assert watch.update(10.1, touching, {W: False, R: False}) is None
    call = watch.update(10.2, parted, {W: True, R: True})
    assert call is not None
    assert call.closed_gaps == ("red-white",)


def test_balls_already_touching_when_the_shot_closed_are_no_new_contact() -> None:
    """A ball frozen to a cushion (or to a ball) that creeps along it closes no gap."""
    then = {W: (1000.0, 700.0), R: (1000.0 + 2 * RADIUS + 0.5, 700.0), Y: (2000.0, RADIUS)}
    now = {W: (1000.0, 700.3), R: then[R], Y: (2002.2, RADIUS)}
    call = _watch(then).update(10.2, now, {W: True, R: True, Y: True})
    assert call is not None
    assert call.closed_gaps == ()


def test_a_ball_resting_near_another_closes_no_gap_by_its_jitter() -> None:
    then = {W: (1000.0, 700.0), R: (1000.0 + 2 * RADIUS + 1.2, 700.0)}
    watch = _watch(then)
    for k, dx in enumerate((0.3, -0.2, 0.35, 0.1)):
        watch.update(
            10.0 + 0.02 * (k + 1), {W: (1000.0 + dx, 700.0), R: then[R]}, {W: False, R: True}
        )
    assert watch.closed_gaps() == ()


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="max_wait_s"):
        StopSettings(max_wait_s=-1.0)
    with pytest.raises(ValueError, match="gone_s"):
        StopSettings(gone_s=-0.1)
    with pytest.raises(ValueError, match="touch_mm"):
        StopSettings(touch_mm=0.0)
    with pytest.raises(ValueError, match="approach_mm"):
        StopSettings(approach_mm=0.0)
