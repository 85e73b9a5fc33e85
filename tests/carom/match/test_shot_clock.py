"""The shot clock: pure time keeping, every time passed in."""

from __future__ import annotations

import pytest

from carom.match import ClockExpiry, ClockReading, ClockSettings, ShotClock
from referee import CaromError


def test_the_clock_runs_from_rest_to_the_next_stroke() -> None:
    clock = ShotClock()
    assert clock.read(0.0) == ClockReading(None)  # nothing runs before the balls stop
    clock.start(10.0)
    assert clock.read(10.0) == ClockReading(40)
    assert clock.read(10.2) == ClockReading(40)  # whole seconds, rounded up
    assert clock.read(39.5) == ClockReading(11)
    assert clock.read(40.5) == ClockReading(10, warning=True)
    assert clock.read(49.9) == ClockReading(1, warning=True)
    assert clock.read(50.0) == ClockReading(0, expired=True)
    assert clock.read(80.0) == ClockReading(0, expired=True)  # stays at 0, never negative
    clock.stop()
    assert clock.read(81.0) == ClockReading(None) and not clock.running


def test_an_extension_adds_its_time_and_is_limited_per_player() -> None:
    clock = ShotClock(ClockSettings(length_s=40, warning_s=10, extension_s=40, extensions=2))
    clock.start(0.0)
    clock.extend(30.0)
    assert clock.read(30.0) == ClockReading(50)
    assert clock.may_extend(0) and clock.may_extend(1) and not clock.may_extend(2)
    idle = ShotClock()
    idle.extend(5.0)  # a time-out before the clock started: a full shot plus the extension
    assert idle.read(5.0) == ClockReading(80)


def test_options_and_off() -> None:
    off = ShotClock(ClockSettings(enabled=False))
    off.start(0.0)
    off.extend(1.0)
    assert off.read(1.0) == ClockReading(None) and not off.may_extend(0)
    short = ShotClock(ClockSettings(length_s=30, warning_s=5))
    short.start(0.0)
    assert short.read(24.5) == ClockReading(6) and short.read(25.5).warning


@pytest.mark.parametrize("expiry", list(ClockExpiry))
def test_a_stroke_after_time_ran_out_is_late_only_when_expiry_is_foul(expiry: ClockExpiry) -> None:
    clock = ShotClock(ClockSettings(length_s=20, warning_s=5, expiry=expiry))
    assert not clock.late(100.0)  # no clock runs: nothing is late
    clock.start(0.0)
    assert not clock.stroke(19.9) and not clock.running  # in time
    clock.start(30.0)
    assert clock.read(50.0).expired
    assert clock.late(50.0) is (expiry is ClockExpiry.FOUL)
    assert clock.stroke(55.0) is (expiry is ClockExpiry.FOUL)
    assert not clock.running and not clock.late(56.0)  # the stroke stopped it


def test_a_time_out_must_come_before_time_is_up_when_expiry_is_foul() -> None:
    foul = ShotClock(ClockSettings(length_s=20, warning_s=5, expiry=ClockExpiry.FOUL))
    foul.start(0.0)
    foul.check_extension("Ann", 0, 19.0)  # in time: allowed
    foul.extend(19.0)
    with pytest.raises(CaromError, match="Ann's time is up"):
        foul.check_extension("Ann", 1, 60.0)
    with pytest.raises(CaromError, match="Ann has no extension left"):
        foul.check_extension("Ann", 2, 1.0)
    warn = ShotClock(ClockSettings(length_s=20, warning_s=5))
    warn.start(0.0)
    warn.check_extension("Ann", 0, 60.0)  # warn: a late time-out is the referee's business


@pytest.mark.parametrize(
    "bad",
    [
        {"length_s": 0.5},
        {"length_s": float("nan")},
        {"warning_s": 50.0},
        {"extensions": -1},
        {"expiry": "penalty"},
    ],
)
def test_bad_settings_are_refused_in_one_line(bad: dict[str, float]) -> None:
    with pytest.raises(CaromError, match="shot clock") as err:
        ClockSettings(**bad)  # type: ignore[arg-type]
    assert "\n" not in str(err.value)


def test_an_undone_time_out_takes_its_seconds_back() -> None:
    """Undo gave the time-out back to the player but left its seconds on the clock (found
    by a review as a club operator)."""
    clock = ShotClock(ClockSettings(length_s=40.0, extension_s=40.0))
    clock.start(10.0)
    clock.extend(15.0)
    assert clock.read(15.0).left_s == 75
    clock.retract()
    assert clock.read(15.0).left_s == 35
    clock.retract()  # nothing more to take back
    assert clock.read(15.0).left_s == 35
    stopped = ShotClock(ClockSettings(length_s=40.0, extension_s=40.0))
    stopped.extend(5.0)  # a time-out before the clock ran starts it
    stopped.retract()
    assert not stopped.running
    clock.extend(16.0)
    clock.start(20.0)  # a new stroke's clock: the time-out before it is not undone by this
    clock.retract()
    assert clock.read(20.0).left_s == 40
