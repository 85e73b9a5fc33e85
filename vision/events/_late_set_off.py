"""A ball at rest that stood on after the approach fits touched: the contact is its set-off.

Theory of operation. A ball at rest that is touched moves off at once, so its set-off
is the sharpest time of the contact. The ball contact finder times a contact where the
two balls' approach paths come ``2R`` apart; when a ball rolls past a resting one a
hair apart and comes back to it (off a cushion a few mm away, or running along it), the
approach paths touch at the pass, frames before the real contact, and the resting ball
is set off only later. Timed at the pass, the contact can land before the cushion that
came first and turn a point into a miss.

:func:`late_set_off` finds that case: one ball at rest before the found time, still
within ``max(2 mm, 6 sigma)`` of its rest for its next samples, then leaving it on a
path that, traced back, left the rest position more than two frames after the found
time, with the other ball within touch at that moment. The contact is then timed at the
set-off. The finder asks only where the approach paths met closing at under 100 mm/s
along the line of centres (a pass or a graze): a touch closing faster sets the resting
ball off at once, and a later set-off is a second contact, not this one. Anything else
(the ball left at the found time, or nothing was near when it left) is left to the
finder's own time.

The same evidence, a ball seen at rest at one sample and off its rest at the next while
the other ball moved (:func:`struck_before`, :func:`struck_at`), tells the finder that
the contact came before that sample: it fits the approach from the samples before
first (tuning pt0226, pt0338).

Set on the tuning part of the independent set only (``docs/independent-events.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.events._cushion_contacts import Tolerances
from vision.events._path_fit import PathFit, Samples

__all__ = ["LateStart", "late_set_off", "struck_at", "struck_before"]

F64 = NDArray[np.float64]

#: The set-off must come at least this many frames after the found time.
_LATE_FRAMES = 2.0


@dataclass(frozen=True, slots=True)
class LateStart:
    """A resting ball's set-off after the found time: the contact re-timed.

    Args:
        t_s: when the resting ball left its rest position.
        post: the resting ball's path after it left.
        axis: (2,) unit vector of the line of centres then, from the first ball to the second.
        gap_mm: surface gap of the two balls then, from their samples.
    """

    t_s: float
    post: PathFit
    axis: F64
    gap_mm: float


def late_set_off(
    samples: tuple[Samples, Samples],
    approach: tuple[PathFit, PathFit],
    t_c: float,
    radius_mm: float,
    tol: Tolerances,
) -> LateStart | None:
    """The contact re-timed at a resting ball's late set-off (module docstring), or None.

    ``approach``: both balls' paths fitted before ``t_c``, the time the finder found.
    """
    resting = [
        k for k, f in enumerate(approach) if np.linalg.norm(f.velocity(f.t_hi_s)) <= tol.speed_mm_s
    ]
    if len(resting) != 1:
        return None  # both moving: no set-off; both resting: the finder weighs the starts
    k = resting[0]
    left = _left_rest(samples[k], approach[k], t_c, tol)
    if left is None or left[0] - t_c < _LATE_FRAMES * tol.dt_s:
        return None
    t_s, post = left
    xy_a, xy_b = (s.at(np.array([t_s]))[0] for s in samples)
    dist = float(np.linalg.norm(xy_b - xy_a))
    gap = dist - 2.0 * radius_mm
    if gap > tol.touch_mm:
        return None  # nothing near when it left: not this contact's doing
    return LateStart(t_s, post, (xy_b - xy_a) / max(dist, 1e-9), gap)


def struck_at(samples: tuple[Samples, Samples], grid: F64, i0: int, tol: Tolerances) -> int:
    """The first of ``grid``'s indices ``i0 - 1``, ``i0`` that shows a ball struck from rest.

    :func:`struck_before` between it and the one before; ``len(grid)`` if neither does.
    """
    for j in (i0 - 1, i0):
        if j >= 1 and struck_before(samples, float(grid[j - 1]), float(grid[j]), tol):
            return j
    return len(grid)


def struck_before(
    samples: tuple[Samples, Samples], t_before: float, t_s: float, tol: Tolerances
) -> bool:
    """True if one ball stood still at ``t_before``, the other moving, and it left by ``t_s``.

    Both seen there. If this pair's contact set it off, it came before ``t_s``, and the
    finder reads the approach from the samples before rather than through ``t_s`` (a
    third ball may have set it off instead: that reading stays the last resort). Both
    at rest: one may have been set off by a third ball.
    """
    rests = [_rest_at(s, t_before, t_s, tol) for s in samples]
    if sum(r is not None for r in rests) != 1:
        return False
    k = 0 if rests[0] is not None else 1
    moved = samples[k].at(np.array([t_s]))[0] - rests[k]
    return bool(np.linalg.norm(moved) > max(2.0, 6.0 * tol.noise_mm))


def _rest_at(s: Samples, t_before: float, t_s: float, tol: Tolerances) -> F64 | None:
    """Where the ball stood at ``t_before``, seen then and at ``t_s``; None if it moved."""
    i, k = s.index_before(t_before), s.index_before(t_s)
    if i < 0 or not (s.seen[i] and s.seen[k]):
        return None  # a ball unseen next to either is no evidence (held where it hid)
    pre = s.fit_before(i)
    if pre is None or np.linalg.norm(pre.velocity(pre.t_hi_s)) > tol.speed_mm_s:
        return None
    out: F64 = pre.at(pre.t_hi_s)[0]
    return out


def _left_rest(
    s: Samples, pre: PathFit, t_c: float, tol: Tolerances
) -> tuple[float, PathFit] | None:
    """When the ball at rest before ``t_c`` left its rest position, and its path after."""
    i = s.index_before(t_c)
    rest = pre.at(pre.t_hi_s)[0]
    away = np.linalg.norm(s.xy_mm[i + 1 :] - rest, axis=1) > max(2.0, 6.0 * tol.noise_mm)
    if not away.any():
        return None
    m = i + 1 + int(np.argmax(away))
    post = s.fit_after(m)
    if post is None or post.n < 2:
        return None
    v = post.velocity(post.t_lo_s)
    speed2 = float(v @ v)
    if speed2 < tol.speed_mm_s**2:
        return None
    return float(post.t_lo_s - ((post.at(post.t_lo_s)[0] - rest) @ v) / speed2), post
