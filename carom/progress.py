"""One progress line for every long command: the stage, counts, rate and ETA.

``carom analyze`` (calibrating, analysing, writing the annotated video), ``carom synth``
(rendering) and ``carom calibrate`` from a camera (waiting for a clear view) show the
same line on stderr while they work::

    analysing  1200/5400 frames (22%)  148 fps, 2.5x real time  ETA 28 s

It is redrawn in place at most four times a second (a redraw costs a terminal write,
and a faster one is unreadable) and cleared when the stage ends, so the lines the
command prints after it start on a clean row. The ETA is left out for the first
seconds of a stage (the rate then still holds the start-up: a wild guess). Nothing is
shown when stderr is not a terminal (a log of an unattended run stays clean) or with
``--json``: :meth:`Progress.for_terminal` gives a progress that draws nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["ETA_AFTER_S", "REDRAW_S", "Progress", "duration_text"]

#: Seconds between two redraws (four a second at most).
REDRAW_S = 0.25
#: No ETA before a stage has run this long: the rate still holds its start-up.
ETA_AFTER_S = 3.0


def duration_text(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Progress:
    """The progress line of a long command (module docstring).

    ``out``: where the line is drawn (a terminal), None to draw nothing. ``clock``:
    seconds, monotonic (a fake one in tests).
    """

    def __init__(self, out: TextIO | None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._out, self._clock = out, clock
        self._stage = ""
        self._unit = "frames"
        self._total: int | None = None
        self._fps: float | None = None
        self._done = 0
        self._started = self._last = clock()
        self._shown = False

    @classmethod
    def for_terminal(cls, quiet: bool = False, stream: TextIO | None = None) -> Progress:
        """A progress on ``stream`` (stderr) if it is a terminal and not ``quiet``."""
        out = stream or sys.stderr
        return cls(out if not quiet and out.isatty() else None)

    @property
    def active(self) -> bool:
        """True when the line is drawn (a terminal, not quiet)."""
        return self._out is not None

    def stage(
        self, name: str, total: int | None = None, *, fps: float | None = None,
        unit: str = "frames",
    ) -> None:  # fmt: skip
        """Begin stage ``name`` of ``total`` ``unit`` (None: unknown).

        ``fps``: the video's frame rate, for the "x real time" of a stage over frames.
        """
        self.clear()
        self._stage, self._total, self._fps, self._unit = name, total, fps, unit
        self._done = 0
        self._started = self._clock()
        self.update(0)  # the stage is named at once, before its first count

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` of the stage's units are done (``total`` if it is known only now)."""
        self._done = done
        if total is not None:
            self._total = total
        now = self._clock()
        if self._out is None or now - self._last < REDRAW_S:
            return
        self._last = now
        print(f"\r{self.status_text()}\x1b[K", end="", file=self._out, flush=True)
        self._shown = True

    def status_text(self) -> str:
        """The line's text: stage, counts, rate, ETA."""
        elapsed = self._clock() - self._started
        if not self._total and not self._done:  # nothing counted yet: the stage and its time
            return f"{self._stage} ...  {duration_text(elapsed)}"
        if self._total:
            share = 100 * min(self._done, self._total) // self._total
            of = f"/{self._total} {self._unit} ({share}%)"
        else:
            of = f" {self._unit}"
        parts = [f"{self._stage}  {self._done}{of}"]
        rate = self._done / elapsed if elapsed > 0 else 0.0
        if elapsed > 0 and self._done and self._unit == "frames":
            speed = f"{rate:.0f} fps"
            if self._fps:
                speed += f", {rate / self._fps:.1f}x real time"
            parts.append(speed)
        if self._total and elapsed >= ETA_AFTER_S and rate > 0:
            parts.append(f"ETA {duration_text(max(self._total - self._done, 0) / rate)}")
        return "  ".join(parts)

    def clear(self) -> None:
        """Wipe the line (before another line is printed, and at the end).

        The next update draws it again at once.
        """
        self._last = -1e9
        if self._out is not None and self._shown:
            print("\r\x1b[K", end="", file=self._out, flush=True)
            self._shown = False

    def say(self, line: str, out: TextIO | None = None) -> None:
        """Print ``line`` on ``out`` (stderr) on a clean row; the bar is back at the next update."""
        self.clear()
        print(line, file=out or sys.stderr, flush=True)
