"""A ball a kiss sends into a cushion a few mm away touches it within the frame.

When the path after the kiss shows no bounce to fit (a second kiss or the arm hides it,
or the ball is on the cushion before its next sample), the kick alone may tell: a ball
pointed into a cushion at most ``REACH_MM`` away, fast enough to get there before the
next frame and before its next kiss, touched it.

* :func:`pushed_in`: a ball at rest leaves along the line of centres.
* :func:`pushed_on`: a moving ball goes on at its own velocity plus the kick's along
  the line of centres (tuning pt0079: the red, rolling at 350 mm/s 9 mm from the right
  cushion, kissed into it at 650 mm/s and back into the white 27 ms after the first
  kiss, one sample at the nose between). It must be a real kick pointed into the
  cushion, and a path after that runs straight on from it (no bounce) says no.

Nearer than ``touch_mm`` the cushion finders (``_driven_into_cushion``) decide. Each
takes the cushion the ball reaches first. Thresholds were set on the tuning part of
the independent set only (``docs/independent-events.md``).
"""

from __future__ import annotations

import numpy as np

from calibration import TableGeometry
from referee import Cushion
from vision.events._cushion_contacts import NORMALS, Tolerances, normal_gap
from vision.events._kick import KICK_SHARE, Hit, Kick
from vision.events._path_fit import Samples

__all__ = ["REACH_MM", "pushed_in", "pushed_on"]

#: A ball at most this far (mm) from a cushion, struck into it, may be said to touch
#: it from the kick alone (tuning pt0230: the yellow at rest 22 mm from the foot
#: cushion, struck at 6 m/s, on it 6 ms later; 20 mm before).
REACH_MM = 30.0
#: The kick must point into the cushion at least this much (cosine).
_INTO = 0.3
#: A ball at rest: its kick is the striker's closing speed, read off one path; a moving
#: ball's is the difference of two, so it is trusted a little less.
_AT_REST_CONFIDENCE, _MOVING_CONFIDENCE = 0.65, 0.6


def pushed_in(
    s: Samples, kick: Kick, until: tuple[int, float], geometry: TableGeometry, tol: Tolerances
) -> Hit | None:
    """A ball at rest a few mm from a cushion, struck towards it, touches it.

    A struck ball at rest leaves along the line of centres; pointed into a cushion
    ``REACH_MM`` away at most, it is there within the frame, whatever else (a second
    kiss, the arm) then hides the bounce. Its speed is the one the kick gave it, or its
    path's after if faster (the bounce itself slows the path after: tuning pt0338, 13
    mm from the foot cushion, seen after the bounce at half the kick's speed); when it
    met another ball before its next sample (``until``: the last sample before that
    kiss, and its time), the kick's alone (tuning pt0302: struck 5 mm from the right
    cushion, on it 4.8 ms later, into the red 7.8 ms after that), and the cushion must
    come before that kiss.
    """
    if np.any(kick.v0_mm_s):
        return None
    hi, t_next = until
    first = s.index_before(kick.t_s) + 1
    post = s.fit_after(first, 3, hi_max=hi)
    kicked = KICK_SHARE * max(0.0, float(kick.v_other_mm_s @ kick.axis))
    if post is not None and post.n >= 2:  # at least the kick's: the bounce slows it
        speed = max(float(np.linalg.norm(post.velocity(post.t_lo_s))), kicked)
    elif hi < first:  # the next kiss before its next sample
        speed = kicked
    else:
        return None
    if speed < 4.0 * tol.speed_mm_s:
        return None  # hardly moved: a graze
    return _first_reached(kick, speed * kick.axis, t_next, (geometry, tol), _AT_REST_CONFIDENCE)


def pushed_on(
    s: Samples, kick: Kick, until: tuple[int, float], geometry: TableGeometry, tol: Tolerances
) -> Hit | None:
    """A moving ball that the kick sends into a cushion a few mm away touches it.

    Its velocity after is its own plus the kick along the line of centres (the normal
    part of the balls' relative velocity, times ``KICK_SHARE``). The kick must be one
    (at least four times the least speed read as real) and point into the cushion; when
    that velocity reaches a cushion ``touch_mm`` to ``REACH_MM`` away within the frame,
    and before the ball's next kiss (``until``: the last sample before it, and its
    time), it touched it, unless three samples or more before that kiss run straight on
    at that velocity. A ball at rest is :func:`pushed_in`'s.
    """
    if not np.any(kick.v0_mm_s):
        return None
    push = KICK_SHARE * float((kick.v_other_mm_s - kick.v0_mm_s) @ kick.axis)
    if push < 4.0 * tol.speed_mm_s:
        return None  # no kick to speak of: the ball's own run, the cushion finder's
    u = kick.v0_mm_s + push * kick.axis
    hi, t_next = until
    post = s.fit_after(s.index_before(kick.t_s) + 1, 3, hi_max=hi)
    if post is not None and post.n >= 3:
        miss = float(np.linalg.norm(post.velocity(post.t_lo_s) - u))
        if miss <= max(0.25 * float(np.linalg.norm(u)), 2.0 * tol.speed_for(post.n)):
            return None  # it ran straight on as kicked: no bounce
    return _first_reached(kick, u, t_next, (geometry, tol), _MOVING_CONFIDENCE)


def _first_reached(
    kick: Kick,
    u_mm_s: np.ndarray,
    t_next: float,
    table: tuple[TableGeometry, Tolerances],
    confidence: float,
) -> Hit | None:
    """The cushion that velocity ``u_mm_s`` from the kick reaches first, if within reach.

    Within reach: ``touch_mm`` to ``REACH_MM`` away, the kick pointed into it, reached
    within a frame and before ``t_next``.
    """
    geometry, tol = table
    speed = float(np.linalg.norm(u_mm_s))
    best: Hit | None = None
    for cushion, normal in NORMALS.items():
        n = np.array(normal)
        u_in = -float(u_mm_s @ n)
        gap = float(normal_gap(kick.xy_mm[None, :], cushion, geometry)[0])
        if u_in < _INTO * speed or -float(kick.axis @ n) < _INTO:
            continue  # not heading there, or the kick not pointed into it
        if not tol.touch_mm <= gap <= REACH_MM:
            continue
        t_c = kick.t_s + gap / u_in
        if t_c - kick.t_s <= tol.dt_s and t_c < t_next and (best is None or t_c < best[0]):
            best = (t_c, Cushion(cushion), confidence)
    return best
