"""Pin-down events from per-frame pin checks and ball tracks."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import TableGeometry
from referee import Ball, Discipline, Pin, PinDown, Table
from vision._types import BallTrack
from vision.pins._pin_down import PinSeries, pin_events

GEO = TableGeometry(Table())
SPOTS = GEO.pins_mm(Discipline.FIVE_PINS)
FPS = 30.0


def _series(
    t: np.ndarray, down_at: dict[Pin, float], hidden: tuple[float, float] = (0, 0)
) -> PinSeries:
    s = PinSeries()
    for ti in t:
        up = {p: not (p in down_at and ti >= down_at[p]) for p in SPOTS}
        if hidden[0] <= ti < hidden[1]:
            up[Pin.CENTER] = False  # a ball rolling over the spot hides the pin a moment
        s.add(float(ti), up)
    return s


def _through(
    t: np.ndarray, start: tuple[float, float], end: tuple[float, float], t0: float, t1: float
) -> BallTrack:
    f = np.clip((t - t0) / (t1 - t0), 0, 1)[:, None]
    xy = np.asarray(start) + f * (np.asarray(end) - np.asarray(start))
    return BallTrack(t, xy, np.ones(len(t), bool), np.arange(len(t)))


def test_pin_knocked_by_a_ball_is_down_with_that_ball() -> None:
    t = np.arange(0, 3, 1 / FPS)
    cx, cy = SPOTS[Pin.LEFT]
    tracks = {Ball.WHITE: _through(t, (cx - 600, cy), (cx + 600, cy), 0.5, 1.5),
              Ball.RED: _through(t, (300, 300), (300, 300), 0, 1)}  # fmt: skip
    # The ball reaches the pin at 1.0 - (R + 15) / 1200 s; the pin leaves its spot later.
    events = pin_events(_series(t, {Pin.LEFT: 1.15}), tracks, GEO, Discipline.FIVE_PINS)
    assert [type(e.event) for e in events] == [PinDown]
    down = events[0].event
    assert isinstance(down, PinDown)
    assert down.pin is Pin.LEFT and down.ball is Ball.WHITE
    assert down.t_s == pytest.approx(1.0 - (GEO.radius_mm + 15.0) / 1200.0, abs=0.005)


def test_pin_falling_far_from_every_ball_was_knocked_by_a_pin() -> None:
    t = np.arange(0, 3, 1 / FPS)
    tracks = {Ball.WHITE: _through(t, (300, 300), (400, 300), 0.0, 1.0)}
    events = pin_events(_series(t, {Pin.HEAD: 1.2}), tracks, GEO, Discipline.FIVE_PINS)
    assert len(events) == 1
    assert isinstance(events[0].event, PinDown) and events[0].event.ball is None


def test_pin_hidden_for_a_moment_is_not_down() -> None:
    t = np.arange(0, 3, 1 / FPS)
    cx, cy = SPOTS[Pin.CENTER]
    tracks = {Ball.WHITE: _through(t, (cx, cy - 500), (cx, cy + 500), 0.5, 1.5)}
    series = _series(t, {}, hidden=(0.95, 1.05))
    assert pin_events(series, tracks, GEO, Discipline.FIVE_PINS) == []


def test_a_pin_already_down_before_the_shot_makes_no_event() -> None:
    t = np.arange(0, 3, 1 / FPS)
    series = _series(t, {Pin.FOOT: -1.0})
    assert pin_events(series, {}, GEO, Discipline.FIVE_PINS) == []


def test_series_forgets_and_answers_what_stood() -> None:
    t = np.arange(0, 3, 1 / FPS)
    series = _series(t, {Pin.FOOT: 1.0})
    assert Pin.FOOT in series.standing_at(0.5)
    assert Pin.FOOT not in series.standing_at(2.0)
    series.drop_before(2.0)
    assert series.t_s[0] >= 2.0
    assert Pin.FOOT not in series.standing_at(0.0)
