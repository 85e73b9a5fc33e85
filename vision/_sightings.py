"""Where and when each ball was last seen: the rest of a cue ball struck unseen.

A cue ball struck very hard is a streak too long and faint to detect: at 30 frames a
second and 6 m/s it may stay unseen for a second and two or three cushions, and the
shot opens only when it is seen again, far from its rest. The pipeline keeps only
``pre_s`` of history between shots, which would lose that rest, and with it the
one fixed point the unseen way can be traced back to
(``vision.events._cushion_after_stroke``). :class:`Sightings` tells the pipeline
how far back to keep history while a ball is unseen, and which balls came back far
from where they vanished as a shot opened; those that roll on get shot tracks that
reach back to their rest (``vision._pipeline``). Every
other ball's track starts where it always did: a ball hidden under a player's arm and
seen again where it was gains nothing from an older past, and a longer one would
let its re-acquisition pass for the stroke.

Every move unseen is kept until the shots can no longer reach it: such a ball often
vanishes again later in the shot it opened (a streak off a cushion), and that later
move must not hide the first (``forget_before``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee import Ball
from vision.track import TrackStep

__all__ = ["Sightings"]

#: History is kept back to a vanished ball's last sighting for at most this long (s).
LOST_KEEP_S = 2.0
#: Unseen this long (s), a ball is vanished.
GAP_S = 0.1
#: Seen again this far (mm) from where it vanished, a ball moved while unseen.
MOVED_MM = 50.0


@dataclass(slots=True)
class _Seen:
    t_s: float
    x_mm: float
    y_mm: float


class Sightings:
    """Each ball's last sighting, and the last before its latest move while unseen."""

    def __init__(self) -> None:
        self._last: dict[Ball, _Seen] = {}
        # each move unseen: the last sighting before it and the sighting after it (s),
        # oldest first; a fast ball may vanish again in the shot its rest opened
        self._moved: dict[Ball, list[tuple[float, float]]] = {}

    def see(self, step: TrackStep) -> None:
        """Note the balls measured in one tracker step."""
        for ball, seen, (x, y) in zip(
            step.balls, step.seen.tolist(), step.xy_mm.tolist(), strict=True
        ):
            if not seen:
                continue
            last = self._last.get(ball)
            if (
                last is not None
                and step.t_s - last.t_s > GAP_S
                and math.hypot(x - last.x_mm, y - last.y_mm) > MOVED_MM
            ):
                self._moved.setdefault(ball, []).append((last.t_s, step.t_s))
            self._last[ball] = _Seen(step.t_s, x, y)

    def keep_since(self, t_s: float, usual_s: float) -> float:
        """How far back (s) to keep history at ``t_s``: ``usual_s``, or before a lost rest.

        A ball unseen for ``GAP_S`` or more, or seen again far from where it vanished,
        up to ``LOST_KEEP_S`` ago, keeps the history back to its last sighting before
        (and ``usual_s``'s margin before that, its rest).
        """
        margin = t_s - usual_s
        gone = [m for moves in self._moved.values() for m, _ in moves]
        marks = [seen.t_s for seen in self._last.values()] + gone
        lost = [m for m in marks if t_s - LOST_KEEP_S <= m <= t_s - GAP_S]
        return min(usual_s, min(lost) - margin) if lost else usual_s

    def moved_unseen(self, usual_s: float) -> dict[Ball, float]:
        """The balls that vanished before ``usual_s`` and came back far away after it.

        Only those that vanished at most ``LOST_KEEP_S`` before it (older history is not
        kept), and came back after it, as the shot opened: a ball put down by hand
        earlier and seen at rest since was placed, not struck. By ball: when it came back.
        """
        return {
            ball: back
            for ball, moves in self._moved.items()
            for gone, back in moves
            if usual_s - LOST_KEEP_S <= gone < usual_s <= back
        }

    def forget_before(self, usual_s: float) -> None:
        """Drop the moves that ended before ``usual_s`` (it only grows): bounded memory."""
        for ball, moves in list(self._moved.items()):
            kept = [(gone, back) for gone, back in moves if back >= usual_s]
            if kept:
                self._moved[ball] = kept
            else:
                del self._moved[ball]
