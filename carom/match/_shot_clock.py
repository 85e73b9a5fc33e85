"""The shot clock: pure time keeping, every time is passed in (seconds, any one clock).

Theory of operation. The clock *starts* when vision sees every ball at rest after a
stroke (the player at the table may now aim) and *stops* when the next stroke starts;
it is never read from a wall clock here, so live mode passes the video time of the
frames and tests pass plain numbers. A time-out (an *extension*) is a person's call:
it adds ``extension_s`` to the running clock; how many a player has left is counted by
the match session (it is a recorded call), the clock only says whether one may be used.

The repository's rules (``../shared/rules.md``, ``docs/rules-options.md``) say nothing
about a shot clock, so every value is an option. The defaults follow common
three-cushion tournament practice: 40 s a shot, a warning when 10 s are left, two
extensions of 40 s per player per game. What running out means is an option too
(:class:`ClockExpiry`): shown only (``warn``, the default: a referee may call the foul
``shot_clock``), or the stroke begun after time ran out is that foul (``foul``); the
clock only answers whether a stroke is :meth:`ShotClock.late`, live mode calls the foul.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from referee import CaromError

__all__ = ["ClockExpiry", "ClockReading", "ClockSettings", "ShotClock"]


class ClockExpiry(StrEnum):
    """What the shot clock running out does (``shot_clock_expiry``)."""

    WARN = "warn"  # shown (0, expired), nothing more: a person may call ``shot_clock``
    FOUL = "foul"  # the stroke begun after time ran out is the foul ``shot_clock``


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSettings:
    """The shot clock's rules (seconds); ``enabled=False`` shows no clock at all."""

    enabled: bool = True
    length_s: float = 40.0
    warning_s: float = 10.0
    extension_s: float = 40.0
    extensions: int = 2  # per player per game
    expiry: ClockExpiry = ClockExpiry.WARN

    def __post_init__(self) -> None:
        if not (math.isfinite(self.length_s) and 1.0 <= self.length_s <= 999.0):
            raise CaromError(f"shot clock length {self.length_s} s: use 1..999 s")
        if not 0.0 <= self.warning_s <= self.length_s:
            raise CaromError(f"shot clock warning {self.warning_s} s: use 0..length")
        if not 0.0 <= self.extension_s <= 999.0 or not 0 <= self.extensions <= 99:
            raise CaromError("shot clock extensions: 0..99 of 0..999 s each")
        if not isinstance(self.expiry, ClockExpiry):
            choices = ", ".join(e.value for e in ClockExpiry)
            raise CaromError(f"shot clock expiry {self.expiry!r}: use one of {choices}")


@dataclass(frozen=True, slots=True)
class ClockReading:
    """What a board shows: whole seconds left (None: no clock runs), warning, expired."""

    left_s: int | None
    warning: bool = False
    expired: bool = False


class ShotClock:
    """One table's shot clock; ``start``/``stop``/``extend`` take the current time."""

    def __init__(self, settings: ClockSettings | None = None) -> None:
        self.settings = settings or ClockSettings()
        self._deadline_s: float | None = None  # while running: when time is up
        self._before: list[float | None] = []  # the deadline before each time-out

    @property
    def running(self) -> bool:
        """True between "all balls stopped" and the next stroke."""
        return self._deadline_s is not None

    def start(self, t_s: float) -> None:
        """All balls came to rest at ``t_s``: the player at the table has ``length_s``."""
        if self.settings.enabled:
            self._deadline_s = t_s + self.settings.length_s
        self._before.clear()

    def stop(self) -> None:
        """The match waits (a review, a pause, the end): no clock runs."""
        self._deadline_s = None
        self._before.clear()

    def late(self, t_s: float) -> bool:
        """True when a stroke starting at ``t_s`` is the foul ``shot_clock``.

        That is: the clock runs, its time is up at ``t_s`` and ``expiry`` is ``foul``.
        """
        return self.settings.expiry is ClockExpiry.FOUL and self.read(t_s).expired

    def stroke(self, t_s: float) -> bool:
        """A stroke started at ``t_s``: the clock stops; returns :meth:`late` before that."""
        late = self.late(t_s)
        self.stop()
        return late

    def may_extend(self, used: int) -> bool:
        """True when a player who used ``used`` extensions this game may take one more."""
        return self.settings.enabled and used < self.settings.extensions

    def check_extension(self, player: str, used: int, t_s: float) -> None:
        """Refuse a time-out of ``player`` (who used ``used`` this game) called at ``t_s``.

        Raises:
            CaromError: no extension is left, or (expiry ``foul``) time is already up:
                the stroke is the foul whatever is called now.
        """
        if not self.may_extend(used):
            raise CaromError(f"timeout: {player} has no extension left this game")
        if self.late(t_s):
            raise CaromError(
                f"timeout: {player}'s time is up; the next stroke is a shot-clock foul "
                "(a time-out must be called before the clock runs out)"
            )

    def extend(self, t_s: float) -> None:
        """A time-out was called at ``t_s``: ``extension_s`` more (starts it if stopped)."""
        if not self.settings.enabled:
            return
        self._before.append(self._deadline_s)
        if self._deadline_s is None:
            self._deadline_s = t_s + self.settings.length_s
        self._deadline_s += self.settings.extension_s

    def retract(self) -> None:
        """The last time-out was undone: the clock as it was before it.

        Undo gave back the time-out but left its seconds on the clock. Nothing when no
        time-out is on it.
        """
        if self._before:
            self._deadline_s = self._before.pop()

    def read(self, t_s: float) -> ClockReading:
        """The reading at ``t_s``: seconds left rounded up, so "1" shows until time is up."""
        if self._deadline_s is None:
            return ClockReading(None)
        left = self._deadline_s - t_s
        shown = max(0, min(999, math.ceil(left - 1e-9)))
        return ClockReading(shown, warning=0 < left <= self.settings.warning_s, expired=left <= 0)
