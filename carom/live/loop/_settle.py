"""Live mode gives a verdict once the balls have really stopped, not when the shot closed.

Theory of operation. The segmenter closes a shot when no ball has moved faster than a
threshold for a short while (``carom live``: 2 mm in 0.1 s for 0.15 s), and the
analyser then works out its events: the costly part of a verdict (tens of
milliseconds at 1080p). A closing ball may still creep below that threshold for a few
tenths of a second and a few millimetres (on the renderer's cloth 0.2-0.3 s before
every true stop). :class:`ShotHold` keeps the judged-to-be shot until the balls have
stopped (:class:`vision.StopWatch`: the tracker holds every ball at rest, or
``max_wait_s`` passed), then hands it on, so the heavy work is done while the balls
creep and the verdict leaves right after the stop. A creep that closed a gap (a ball
came to touch another ball or a cushion after the shot closed) is a contact the
shot does not hold: the shot goes with that doubt, for a person's review. A new
stroke, a lost camera or the end of the video hands the held shot on at once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from calibration import TableGeometry
from referee import Ball
from vision import AnalyzedShot, StopCall, StopSettings, StopWatch, TrackStep

__all__ = ["Held", "ShotHold"]

XY = tuple[float, float]


@dataclass(slots=True)
class Held:
    """A closed shot waiting for its balls to stop; ``late``: begun after time ran out."""

    analyzed: AnalyzedShot
    late: bool
    watch: StopWatch

    @property
    def closed_s(self) -> float:
        """When the segmenter closed it (video s)."""
        return self.watch.closed_s


def _positions(step: TrackStep) -> tuple[dict[Ball, XY], dict[Ball, bool], dict[Ball, bool]]:
    """The step's centres, at-rest flags and seen flags by ball."""
    xy = {b: (float(p[0]), float(p[1])) for b, p in zip(step.balls, step.xy_mm, strict=True)}
    rest = {b: bool(r) for b, r in zip(step.balls, step.at_rest, strict=True)}
    seen = {b: bool(s) for b, s in zip(step.balls, step.seen, strict=True)}
    return xy, rest, seen


class ShotHold:
    """At most one closed shot held until its balls stopped (see the module's text)."""

    def __init__(self, geometry: TableGeometry, settings: StopSettings | None = None) -> None:
        self.settings = settings or StopSettings()
        self._table = (geometry.length_mm, geometry.width_mm)
        self._radius = geometry.radius_mm
        self.held: Held | None = None

    def hold(self, analyzed: AnalyzedShot, late: bool, t_s: float, step: TrackStep) -> None:
        """Keep ``analyzed`` (closed at ``t_s``, the balls as in ``step``)."""
        xy, _, seen = _positions(step)
        watch = StopWatch(t_s, xy, seen, table_mm=self._table, radius_mm=self._radius,
                          settings=self.settings)  # fmt: skip
        self.held = Held(analyzed, late, watch)

    def check(self, t_s: float, step: TrackStep) -> tuple[Held, StopCall] | None:
        """The held shot and the call, once its balls stopped (then nothing is held)."""
        if self.held is None:
            return None
        xy, rest, seen = _positions(step)
        call = self.held.watch.update(t_s, xy, rest, seen)
        if call is None:
            return None
        return self._out(call)

    def release(self, t_s: float, step: TrackStep | None) -> tuple[Held, StopCall] | None:
        """Hand the held shot on now (a new stroke, a lost camera, the video's end)."""
        if self.held is None:
            return None
        if step is not None:
            xy, _, seen = _positions(step)
            self.held.watch.see(t_s, xy, seen)
        return self._out(StopCall(t_s, False, self.held.watch.closed_gaps()))

    def _out(self, call: StopCall) -> tuple[Held, StopCall]:
        held, self.held = self.held, None
        assert held is not None
        if call.closed_gaps:
            held.analyzed = _with_doubt(held.analyzed, call.closed_gaps)
        return held, call


def _with_doubt(analyzed: AnalyzedShot, gaps: tuple[str, ...]) -> AnalyzedShot:
    """The shot with the doubt that balls still rolling after it closed came to touch."""
    why = (
        f"balls still rolling after the shot closed came to touch ({', '.join(gaps)}): "
        "a contact the shot may have missed"
    )
    old = analyzed.shot.doubt
    shot = dataclasses.replace(analyzed.shot, doubt=f"{old}; {why}" if old else why)
    return dataclasses.replace(analyzed, shot=shot)
