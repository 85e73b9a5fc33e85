"""When do two moving things touch: event times as polynomial roots.

Within one phase every ball centre is a quadratic in time, so

* ball-ball: ``|r_b(t) - r_a(t)|^2 - (2R)^2`` is a quartic;
* ball-pin and ball-pocket: the same quartic with one side standing still;
* ball-cushion: the distance of the centre from the line ``R`` inside the cushion
  is a quadratic.

Each is written as a *gap polynomial* ``f(tau)`` (positive while apart, ``tau``
seconds from now) and :func:`first_contact` finds the first time it falls
through zero while the two approach. Candidates come from ``numpy.roots``; the
sign of ``f`` is checked at every candidate and between them, and the first
sign change is bracketed and polished by safeguarded Newton steps, so a
double (grazing) root or a badly conditioned quartic never lets a contact slip.
A pair already touching counts as a contact now if it approaches and is skipped
until it has opened again if it separates (this is what makes frozen balls and
repeated contacts work).

Most pairs are far apart for the whole window: :func:`pair_contact` and
:func:`circle_contact` skip their search when the triangle inequality (the distance
now less the most the motion can close in the window) keeps them apart, and
:func:`first_contact` skips it for any gap whose value now exceeds the most its other
terms can take off in the window (a ball far from every cushion). Both give exactly
what the search gives, sooner (about 40% off the bundled samples' stroke search).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import NDArray

from synth._motion import Segment

__all__ = [
    "circle_contact",
    "circle_gap",
    "first_contact",
    "line_gap",
    "pair_contact",
    "pair_gap",
]

Poly = NDArray[np.float64]

# f'(0) below minus this is "approaching" (units of f per second).
_APPROACH_EPS = 1e-13
# Two centres further apart than the contact distance plus this (1 um) throughout a
# window cannot touch in it: their gap polynomial stays far above rounding there.
_APART_M = 1e-6


def pair_gap(a: Segment, b: Segment, t_s: float, distance_m: float) -> Poly:
    """Quartic ``|r_b - r_a|^2 - distance^2`` in ``tau = t - t_s`` (coefficients high first)."""
    dr = b.position(t_s) - a.position(t_s)
    dv = b.velocity(t_s) - a.velocity(t_s)
    da = b.a_mps2 - a.a_mps2
    return _quartic(dr, dv, da, distance_m)


def pair_contact(
    a: Segment, b: Segment, t_s: float, distance_m: float, t_max_s: float, tol: float
) -> float | None:
    """:func:`first_contact` of :func:`pair_gap`, None at once for a pair that stays apart.

    A pair whose centres cannot come within ``distance_m`` in ``t_max_s`` (bounded
    by the triangle inequality) has no root to find: ``first_contact`` would say None
    too, only after its costly search.
    """
    dr = b.position(t_s) - a.position(t_s)
    dv = b.velocity(t_s) - a.velocity(t_s)
    da = b.a_mps2 - a.a_mps2
    if _apart(dr, dv, da, distance_m, t_max_s):
        return None
    return first_contact(_quartic(dr, dv, da, distance_m), t_max_s, tol)


def circle_contact(
    a: Segment, centre_m: NDArray[np.float64], t_s: float, distance_m: float, t_max_s: float,
    tol: float,
) -> float | None:  # fmt: skip
    """:func:`first_contact` of :func:`circle_gap`, None at once for a ball that stays away."""
    dr, dv, da = centre_m - a.position(t_s), -a.velocity(t_s), -a.a_mps2
    if _apart(dr, dv, da, distance_m, t_max_s):
        return None
    return first_contact(_quartic(dr, dv, da, distance_m), t_max_s, tol)


def _apart(
    dr: NDArray[np.float64], dv: NDArray[np.float64], da: NDArray[np.float64], d: float,
    t_max_s: float,
) -> bool:  # fmt: skip
    """True when ``|dr + dv t + da t^2 / 2| > d`` for every ``t`` in ``[0, t_max_s]``."""
    if not 0.0 <= t_max_s < math.inf:
        return False
    reach = math.hypot(*dv) * t_max_s + 0.5 * math.hypot(*da) * t_max_s * t_max_s
    return math.hypot(*dr) - reach > d + _APART_M


def circle_gap(a: Segment, centre_m: NDArray[np.float64], t_s: float, distance_m: float) -> Poly:
    """Quartic ``|c - r_a|^2 - distance^2`` for a fixed point ``centre_m`` (2,)."""
    dr = centre_m - a.position(t_s)
    return _quartic(dr, -a.velocity(t_s), -a.a_mps2, distance_m)


def _quartic(
    dr: NDArray[np.float64], dv: NDArray[np.float64], da: NDArray[np.float64], d: float
) -> Poly:
    return np.array(
        [
            0.25 * float(da @ da),
            float(dv @ da),
            float(dv @ dv) + float(dr @ da),
            2.0 * float(dr @ dv),
            float(dr @ dr) - d * d,
        ]
    )


def line_gap(a: Segment, t_s: float, axis: int, limit_m: float, high: bool) -> Poly:
    """Quadratic distance past ``limit_m`` on ``axis`` (0: x, 1: y), positive inside.

    ``high``: the limit is the larger coordinate (foot or right cushion), so the
    gap is ``limit - coordinate``; otherwise ``coordinate - limit``.
    """
    p = float(a.position(t_s)[axis])
    v = float(a.velocity(t_s)[axis])
    acc = float(a.a_mps2[axis])
    sign = -1.0 if high else 1.0
    return np.array([sign * 0.5 * acc, sign * v, sign * (p - limit_m)])


def first_contact(f: Poly, t_max_s: float, tol: float) -> float | None:
    """First ``tau`` in ``[0, t_max_s]`` at which the gap ``f`` closes, or None.

    Args:
        f: polynomial coefficients, highest power first; ``f > 0`` means apart.
        t_max_s: the polynomials hold until then (end of the earlier phase).
        tol: ``|f| <= tol`` counts as touching now.
    """
    c = [float(x) for x in f]
    if not all(math.isfinite(x) for x in c) or not 0.0 <= t_max_s < math.inf:
        return None
    f0, d0 = c[-1], c[-2]
    touching = f0 <= tol
    if not touching and _stays_positive(c, t_max_s, tol):
        return None
    pressing = abs(d0) <= _APPROACH_EPS and c[-3] < 0.0
    if touching and (d0 < -_APPROACH_EPS or pressing):
        return 0.0
    opened = not touching
    last_positive = 0.0
    for t in _probe_points(c, t_max_s):
        value = _horner(c, t)
        if not opened:
            opened = value > tol
            last_positive = t
            continue
        if value < 0.0:
            return _polish(c, last_positive, t)
        last_positive = t
    return None


def _stays_positive(c: list[float], t_max_s: float, tol: float) -> bool:
    """True when the gap ``c`` cannot close within ``[0, t_max_s]``.

    ``f(0)`` less the most its other terms can take off there (``sum |c_k| t_max^k``)
    stays above ``tol`` and far above rounding.
    """
    spread, power = 0.0, 1.0
    for x in reversed(c[:-1]):
        power *= t_max_s
        spread += abs(x) * power
    low = c[-1] - spread
    return low > tol and low > 1e-9 * (c[-1] + spread)


def _horner(c: list[float], t: float) -> float:
    value = 0.0
    for x in c:
        value = value * t + x
    return value


def _real_roots(c: list[float]) -> list[float]:
    """Real parts of the roots (of all roots for a quartic, to catch grazing pairs)."""
    while c and c[0] == 0.0:
        c = c[1:]
    if len(c) <= 1:
        return []
    if len(c) == 2:
        return [-c[1] / c[0]]
    if len(c) == 3:
        a, b, k = c
        disc = b * b - 4.0 * a * k
        if disc < 0.0:
            return [-b / (2.0 * a)]
        q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
        return [q / a, k / q] if q != 0.0 else [0.0]
    return [float(r.real) for r in np.roots(np.array(c))]


def _probe_points(c: list[float], t_max_s: float) -> list[float]:
    """Roots' real parts within the window, the midpoints between them and the end.

    The roots are found in the scaled time ``tau / t_max`` with the leading terms
    that cannot matter inside the window (below 1e-13 of the largest) dropped, which
    keeps ``numpy.roots`` well conditioned when two balls slow down alike.
    """
    if t_max_s <= 0.0:
        return []
    n = len(c) - 1
    scaled = [x * t_max_s ** (n - i) for i, x in enumerate(c)]
    big = max(abs(x) for x in scaled)
    while scaled and abs(scaled[0]) <= 1e-13 * big:
        scaled = scaled[1:]
    roots = [r * t_max_s for r in _real_roots(scaled)]
    knots = sorted({0.0, t_max_s, *(r for r in roots if 0.0 < r < t_max_s)})
    points = []
    for lo, hi in itertools.pairwise(knots):
        points += [0.5 * (lo + hi), hi]
    return points


def _polish(c: list[float], lo: float, hi: float) -> float:
    """The root in ``[lo, hi]`` where ``f(lo) > 0 >= f(hi)``: Newton inside a bracket."""
    n = len(c) - 1
    dc = [x * (n - i) for i, x in enumerate(c[:-1])]
    t = hi
    for _ in range(100):
        value = _horner(c, t)
        if value > 0.0:
            lo = t
        else:
            hi = t
        if hi - lo <= 1e-15 * max(1.0, hi):
            break
        slope = _horner(dc, t)
        step = t - value / slope if slope != 0.0 else 0.5 * (lo + hi)
        t = step if lo < step < hi else 0.5 * (lo + hi)
    return hi
