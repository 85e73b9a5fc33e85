"""What the live loop says about its camera while it is away.

The capture thread retries a lost source for ever (with backoff); this says so in
words a club can act on:

* a camera that has **never** delivered a frame since the start: "camera SRC has not
  opened: <what was tried and what to check>; retrying every few seconds ..." at once,
  then a reminder after 10 s, 30 s, 1 min, 2 min and every 5 min with the time and the
  number of tries so far;
* a camera lost during the match: "camera lost (<why>); reconnecting" at once (the
  runner pauses the match), the same reminders, and "camera back after N s" when frames
  come again.

Pure bookkeeping over :class:`CaptureStatus` and the time given: no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from carom.live.loop._capture import CaptureState, CaptureStatus
from hardware import safe_spec

__all__ = ["CameraWatch"]

#: Seconds after the loss at which a reminder is said; then every ``_REMIND_EVERY_S``.
_REMIND_AT_S = (10.0, 30.0, 60.0, 120.0)
_REMIND_EVERY_S = 300.0
#: Seconds a first open may take before the wait is said.
_OPENING_S = 5.0


@dataclass(slots=True)
class CameraWatch:
    """Lines to say about the camera ``spec`` as its status changes (module docstring)."""

    spec: str
    lost: bool = False
    _first_s: float | None = None
    _said_opening: bool = False
    _since_s: float = 0.0
    _reconnects_at_loss: int = 0
    _reminders: list[float] = field(default_factory=list)

    def update(self, status: CaptureStatus, now_s: float) -> list[str]:
        """The lines to say now (often none); ``lost`` tells whether the source is away."""
        lost = status.state is CaptureState.LOST
        if self._first_s is None:
            self._first_s = now_s
        opening = status.state is CaptureState.STARTING and not self._said_opening
        if opening and now_s - self._first_s >= _OPENING_S:  # an open that hangs
            self._said_opening = True
            return [f"camera {safe_spec(self.spec)}: still opening after "
                    f"{now_s - self._first_s:.0f} s; waiting for it"]  # fmt: skip
        if lost != self.lost:
            self.lost = lost
            return [self._lost_line(status, now_s) if lost else self._back_line(now_s)]
        if lost and self._reminders and now_s - self._since_s >= self._reminders[0]:
            self._reminders.pop(0)
            if not self._reminders:
                self._reminders.append(now_s - self._since_s + _REMIND_EVERY_S)
            return [self._reminder_line(status, now_s)]
        return []

    def _lost_line(self, status: CaptureStatus, now_s: float) -> str:
        self._since_s, self._reminders = now_s, list(_REMIND_AT_S)
        self._reconnects_at_loss = status.reconnects
        why = status.last_error.removeprefix(f"camera {safe_spec(self.spec)}: ") or (
            "no frame for a while")  # fmt: skip
        if status.frames_read == 0:
            return (f"camera {safe_spec(self.spec)} has not opened: {why}; retrying every few "
                    "seconds, the match starts with its first frame (Ctrl-C stops)")  # fmt: skip
        return f"camera lost ({why}); reconnecting"

    def _reminder_line(self, status: CaptureStatus, now_s: float) -> str:
        tries = status.reconnects - self._reconnects_at_loss + 1
        what = "has still not opened" if status.frames_read == 0 else "is still lost"
        why = status.last_error.removeprefix(f"camera {safe_spec(self.spec)}: ") or "no frame"
        return (f"camera {safe_spec(self.spec)} {what} after {now_s - self._since_s:.0f} s "
                f"({tries} tries; last: {why}); still retrying")  # fmt: skip

    def _back_line(self, now_s: float) -> str:
        return f"camera back after {now_s - self._since_s:.1f} s"
