"""Cushion contacts of one ball from its samples.

Theory of operation. For each cushion the normal gap ``n(t)`` (centre distance to the
cushion nose minus ``R``; 0 at contact) is a V touching zero at a bounce, or a valley
that stays at zero while the ball runs along the cushion. Candidates are local minima
of the sampled gap close enough to zero for the V to reach it between samples; minima
not separated by a rise of ``hysteresis`` are one contact (a ball running along, or
sensor noise on a ball at the cushion), so a second touch counts only after the ball
really left. A candidate is a contact when the ball approached, the fitted gap at the
contact time is within tolerance, and the normal velocity turned (bounce) or stopped
(ran along). The time is where the pre-contact fit reaches ``n = 0``, between frames.
A slow ball that comes to run along a cushion reaches its gap minimum long after the
touch: the first samples at the nose are tried before the minima, and such an arrival
is timed where the samples come within noise of the level they then keep.

Thresholds were tuned on the simulator and the ``three_cushion_match`` clip only.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, Cushion, CushionContact
from vision._types import ScoredEvent
from vision.events._path_fit import PathFit, Samples, first_crossing

__all__ = ["NORMALS", "Tolerances", "cushion_contacts", "normal_gap"]

F64 = NDArray[np.float64]

NORMALS = {
    Cushion.HEAD: (1.0, 0.0),
    Cushion.FOOT: (-1.0, 0.0),
    Cushion.LEFT: (0.0, 1.0),
    Cushion.RIGHT: (0.0, -1.0),
}


#: How far short of the nose a ball touching a cushion may be measured: the nose hides
#: part of its rim from the camera (2-3 mm seen on rendered 1080p clips; see
#: docs/vision.md). Only allowed for a clear turn of the normal speed.
_NOSE_BIAS_MM = 3.0


@dataclass(frozen=True, slots=True)
class Tolerances:
    """Noise-scaled thresholds (mm, mm/s) shared by the contact finders."""

    noise_mm: float
    dt_s: float

    @property
    def hysteresis_mm(self) -> float:
        """Rise that separates two touches of the same cushion (or two ball contacts)."""
        return max(5.0, 5.0 * self.noise_mm)

    @property
    def touch_mm(self) -> float:
        """Largest fitted gap still read as a touch."""
        return max(4.0, 4.0 * self.noise_mm)

    @property
    def speed_mm_s(self) -> float:
        """Smallest speed change read as real from 3-sample fits."""
        return self.speed_for(3)

    def speed_for(self, k: int) -> float:
        """Smallest speed read as real from a ``k``-sample line fit: 4 sigma of its noise.

        The floor (30 mm/s for 3 samples) covers model error (deceleration, spin).
        """
        if k < 2:
            return float("inf")
        spread = np.sqrt(k * (k * k - 1) / 12.0)
        return float(max(30.0 * np.sqrt(2.0) / spread, 4.0 * self.noise_mm / (self.dt_s * spread)))


def normal_gap(xy_mm: F64, cushion: Cushion, geometry: TableGeometry) -> F64:
    """Gap (n,) mm between ball surface and ``cushion`` nose for centres ``xy_mm`` (n, 2)."""
    nx, ny = NORMALS[cushion]
    far = {Cushion.FOOT: geometry.length_mm, Cushion.RIGHT: geometry.width_mm}.get(cushion, 0.0)
    out: F64 = xy_mm[:, 0] * nx + xy_mm[:, 1] * ny + far - geometry.radius_mm
    return out


def valley_starts(gap: F64, t_s: F64, hysteresis: float) -> list[list[int]]:
    """The local minima (indices) of each valley of ``gap`` (n,) at ``t_s`` (n,).

    A minimum is kept if the V through it can reach zero: the gap is below
    ``hysteresis`` plus the fastest nearby rate of change times the longer of its two
    intervals (a hidden or sparse stretch is long). Minima not separated by a rise
    above ``hysteresis`` (of the 3-sample running median, so one noisy sample does not
    split it) are one valley.
    """
    n = len(gap)
    if n < 2:
        return []
    prev = np.r_[np.inf, gap[:-1]]
    nxt = np.r_[gap[1:], gap[-1]]
    dt = np.diff(t_s)
    rate = np.abs(np.diff(gap)) / np.maximum(dt, 1e-9)
    rate4 = np.pad(rate, 2, mode="edge")  # rates of the four intervals around each sample
    near = np.max(np.stack([rate4[k : k + n] for k in range(4)]), axis=0)
    span = np.maximum(np.r_[dt[:1], dt], np.r_[dt, dt[-1:]])
    is_min = (gap <= prev) & (gap <= nxt) & (gap < hysteresis + near * span)
    smooth = np.median(np.c_[prev, gap, nxt], axis=1) if n > 2 else gap.copy()
    smooth[0], smooth[-1] = gap[0], gap[-1]
    groups: list[list[int]] = []
    last = -1
    for i in np.nonzero(is_min)[0]:
        if last < 0 or np.max(smooth[last : i + 1]) >= hysteresis:
            groups.append([])
        groups[-1].append(int(i))
        last = int(i)
    return groups


def cushion_contacts(
    samples: Samples,
    ball: Ball,
    geometry: TableGeometry,
    tol: Tolerances,
    cuts_s: Sequence[float] = (),
) -> list[ScoredEvent]:
    """Every contact of ``ball`` with a cushion, with sub-frame times, sorted by time.

    ``cuts_s`` are times of the ball's other contacts (ball-ball): no fit spans one.
    """
    out: list[ScoredEvent] = []
    tol = replace(tol, dt_s=samples.dt_s)
    cuts = np.sort(np.asarray(cuts_s, np.float64))
    for cushion in NORMALS:
        gap = normal_gap(samples.xy_mm, cushion, geometry)
        first = 0  # fit nothing from before the previous touch
        last = 0
        for minima in valley_starts(gap, samples.t_s, tol.hysteresis_mm):
            # A slow ball that ends up running along (or resting on) the cushion has its
            # minimum long after the touch: the samples already at the nose come first.
            # Only this valley's samples: a run along the cushion that ended before it
            # belongs to the previous valley (taking it here hid this valley's touch).
            above = np.nonzero(gap[last : minima[0]] > tol.hysteresis_mm)[0]
            start = last + int(above[-1]) + 1 if len(above) else last
            entry = [j for j in range(start, minima[0]) if gap[j] <= 0.5 * tol.touch_mm]
            last = minima[-1] + 1
            for i0 in entry[:6] + minima[:4]:  # noise dips may come before the touch
                found = _contact(samples, (ball, cushion), geometry, gap, (first, i0), cuts, tol)
                if found is not None:
                    out.append(found)
                    first = i0 + 1
                    break
    return sorted(out, key=lambda e: e.event.t_s)


def _window(s: Samples, cuts: F64, pre_end: int, first: int) -> tuple[int, int]:
    """Samples around ``pre_end`` that cross no cut (another contact of the ball)."""
    k = int(np.searchsorted(cuts, s.t_s[pre_end], side="right"))
    lo = first if k == 0 else max(first, s.index_before(float(cuts[k - 1])) + 1)
    hi = len(s) - 1 if k >= len(cuts) else s.index_before(float(cuts[k]))
    return lo, hi


def _gap_fit(fit: PathFit, t_s: F64, cushion: Cushion, geometry: TableGeometry) -> F64:
    return normal_gap(fit.at(t_s), cushion, geometry)


def _root(
    fit: PathFit,
    cushion: Cushion,
    geometry: TableGeometry,
    window: tuple[float, float],
    level_mm: float = 0.0,
) -> float | None:
    """When the fitted gap first comes down to ``level_mm`` in (start, length) s."""
    grid = np.linspace(window[0], window[0] + window[1], 161)
    return first_crossing(_gap_fit(fit, grid, cushion, geometry) - level_mm, grid)


def _nose_level(gap: F64, pre_end: int, hi: int, tol: Tolerances) -> float:
    """The gap (mm) a ball keeps once it runs along the nose, if it does; else 0.

    A ball arriving at a grazing angle ends up rolling along the cushion: its measured
    gap then stays level, off zero by the centre bias at the nose (``_NOSE_BIAS_MM``).
    Its approach is timed to that level, not to a zero it never shows. When the ball's
    next contact (sample ``hi`` is the last before it) leaves fewer than four samples,
    the ones left must show the approach had stopped: the first of them where the
    last one on the way in was.
    """
    after = gap[pre_end + 1 : min(pre_end + 9, hi + 1)]
    if len(after) == 0 or float(np.ptp(after)) > 2.0 * tol.noise_mm + 1.0:
        return 0.0
    stopped = abs(float(after[0]) - float(gap[pre_end])) <= tol.noise_mm
    if len(after) < 4 and (hi >= pre_end + 8 or not stopped):
        return 0.0
    level = float(np.median(after))
    return level if 0.0 < level <= _NOSE_BIAS_MM else 0.0


def _apex(
    pre: PathFit,
    post: PathFit,
    cushion: Cushion,
    geometry: TableGeometry,
    span: tuple[float, float],
) -> float:
    """Where the approach and the way back meet (s) in ``span``; its end if they do not."""
    grid = np.linspace(span[0], span[1], 81)
    meet = first_crossing(
        _gap_fit(pre, grid, cushion, geometry) - _gap_fit(post, grid, cushion, geometry), grid
    )
    return span[1] if meet is None else meet


def _contact(
    s: Samples,
    what: tuple[Ball, Cushion],
    geometry: TableGeometry,
    gap: F64,
    at: tuple[int, int],
    cuts: F64,
    tol: Tolerances,
) -> ScoredEvent | None:
    """Check the valley at sample ``at[1]`` and time it, or None.

    The last approach sample is ``i0 - 1`` (usual), ``i0`` (the minimum was still on
    the way in) or ``i0 - 2`` (the minimum came after the bounce); fits use no sample
    before ``at[0]`` and cross no cut.
    """
    first, i0 = at
    # A turn short of the nose (its centre bias) only when no fit reaches the nose.
    for bias_mm, k in itertools.product((0.0, _NOSE_BIAS_MM), (3, 7, 15)):
        for pre_end in (i0 - 1, i0, i0 - 2):  # a slow, grazing approach needs k = 15
            if pre_end < first or pre_end + 1 >= len(s):
                continue
            lo, hi = _window(s, cuts, pre_end, first)
            found = _contact_k(s, what, geometry, gap, (lo, pre_end, hi), tol, (k, bias_mm))
            if found is not None:
                return found
    return None


def _contact_k(
    s: Samples,
    what: tuple[Ball, Cushion],
    geometry: TableGeometry,
    gap: F64,
    span: tuple[int, int, int],
    tol: Tolerances,
    k_bias: tuple[int, float],
) -> ScoredEvent | None:
    lo, pre_end, hi = span
    k, bias_mm = k_bias
    cushion = what[1]
    normal = np.array(NORMALS[cushion])
    pre = s.fit_before(pre_end, k, lo_min=lo)
    if pre is None or pre.n < 2:
        return None
    step = float(s.t_s[pre_end + 1] - s.t_s[pre_end])  # sparse samples: a longer step
    level = _nose_level(gap, pre_end, hi, tol)
    window = (float(s.t_s[pre_end]), max(3, k) * s.dt_s + step)
    t_c = _root(pre, cushion, geometry, window, level)
    vn_pre = float(pre.velocity(s.t_s[pre_end]) @ normal)
    speed = tol.speed_for(pre.n)
    if t_c is None or vn_pre > -speed or t_c > s.t_s[pre_end + 1] + 0.5 * s.dt_s:
        return None
    post = s.fit_after(pre_end + 1, k, hi_max=hi)
    if post is None:
        return None  # the ball vanished: leaving_events decides
    vn_post = float(post.velocity(post.t_lo_s) @ normal)
    post_gap = float(_gap_fit(post, np.array([t_c]), cushion, geometry)[0])
    reach = min(abs(post_gap), float(gap[pre_end + 1]))
    post_speed = tol.speed_for(post.n)
    lever = 0.1 * (abs(vn_pre) * s.dt_s + abs(vn_post) * (post.t_lo_s - t_c))
    # Only a contact turns a ball's normal speed round; a clear turn may stop short of
    # the nose by the centre bias of a ball there (the cushion hides its outer rim).
    turned = vn_post > 2.0 * post_speed and vn_post - vn_pre > 4.0 * max(speed, post_speed)
    bias = bias_mm if turned else 0.0
    if reach > tol.touch_mm + lever + bias:  # the post fit is extrapolated back: allow
        return None
    if reach > tol.touch_mm + lever:  # turned short of the nose: time it at the turn
        t_c = _apex(pre, post, cushion, geometry, (float(s.t_s[pre_end]), t_c))
    if post.n < 2:  # one sample before the ball's next contact: it must be at the nose
        if float(gap[pre_end + 1]) > tol.touch_mm:
            return None
    elif vn_post - vn_pre < max(speed, post_speed) or vn_post < -post_speed:
        return None  # no turn, or still approaching: not there yet
    slow = abs(vn_pre) * s.dt_s < 2.0 * tol.noise_mm + 1.0
    if abs(vn_post) < post_speed and slow:
        t_c = _settle_time(s, gap, pre_end, t_c, tol)
    spread_s = 0.0
    if slow and post.n < 2 and not turned:
        seen = (-tol.noise_mm, min(float(gap[pre_end + 1]) + tol.noise_mm, _NOSE_BIAS_MM))
        t_c, spread_s = _cut_arrival(pre, (cushion, geometry), window, t_c, seen)
    fit = (vn_pre, vn_post, reach, speed)
    return _score(s, what, t_c, pre_end, fit, gap, tol, spread_s)


def _cut_arrival(
    pre: PathFit,
    where: tuple[Cushion, TableGeometry],
    window: tuple[float, float],
    t_c: float,
    levels_mm: tuple[float, float],
) -> tuple[float, float]:
    """A slow arrival cut short by the ball's next contact: its time and half its range (s).

    One sample lies between the approach and the next contact, so the level this
    ball's centre keeps at the nose (short of it: the cushion hides part of its rim) is
    unknown, and at a few mm a frame one noisy sample cannot show it. The ball touched
    between the approach fit reaching the gap that one sample shows and its reaching
    the nose, each widened by the noise (``levels_mm``: the nose less the noise, the
    sample's gap plus it); the middle, with half the range as its error. Timed at the
    nose alone, a ball at 50 mm/s whose centre reads 0.5 mm short came 10 ms late,
    after a ball contact it had preceded by 11 ms (``hard_three_cushion``, 19.55 s).
    ``t_c`` stays when the fit reaches neither level in ``window``.
    """
    cushion, geometry = where
    late = _root(pre, cushion, geometry, window, levels_mm[0])
    early = _root(pre, cushion, geometry, window, levels_mm[1])
    if late is None or early is None or early >= late:
        return t_c, 0.0
    return 0.5 * (early + late), 0.5 * (late - early)


def _settle_time(s: Samples, gap: F64, pre_end: int, t_c: float, tol: Tolerances) -> float:
    """A slow arrival that stays on the cushion: when the samples reach the nose.

    At a few mm a frame the fitted normal speed is mostly noise and the fit's root
    (``t_c``) comes early; where the gap comes within noise of the level it then keeps
    (a biased centre keeps a gap off zero) times it better.
    Never earlier than ``t_c`` and at most two steps later.
    """
    hi = min(len(s), pre_end + 8)
    level = float(np.median(gap[pre_end + 1 : hi])) + 2.0 * tol.noise_mm  # on the nose
    cross = first_crossing(gap[pre_end:hi] - level, s.t_s[pre_end:hi])
    if cross is None or cross <= t_c:
        return t_c
    return min(cross, t_c + 2.0 * s.dt_s)


def _score(
    s: Samples,
    what: tuple[Ball, Cushion],
    t_c: float,
    pre_end: int,
    fit: tuple[float, float, float, float],
    gap: F64,
    tol: Tolerances,
    spread_s: float = 0.0,
) -> ScoredEvent:
    """The contact with its confidence, evidence and time error (at least ``spread_s``)."""
    vn_pre, vn_post, reach, speed = fit
    ball, cushion = what
    near = s.seen[max(pre_end - 1, 0) : pre_end + 3]
    seen = float(np.mean(near)) if len(near) else 0.0
    strength = min(1.0, (vn_post - vn_pre) / (4.0 * speed))
    closeness = 1.0 - min(1.0, reach / (2.0 * tol.touch_mm + 0.1 * abs(vn_pre) * s.dt_s))
    confidence = float(np.clip(0.55 + 0.45 * min(strength, 0.5 + closeness), 0.0, 1.0))
    if vn_post == 0.0:  # one sample after it (another contact follows): no turn seen
        confidence = min(confidence, 0.7)
    doubt = None
    if seen < 1.0:  # the contact lies in or next to a stretch the ball was not seen
        confidence = min(confidence, 0.2 + 0.25 * seen)
        doubt = "ball hidden at the contact"
    elif confidence < 0.5:
        doubt = "weak bounce, may not have touched"
    along = _along_s(s, gap, pre_end + 1, tol)
    kind = f"ran along {along:.2f} s" if along > 0.0 else "bounce"
    evidence = f"{kind}, v_n {vn_pre:.0f} -> {vn_post:.0f} mm/s, gap {reach:.1f} mm"
    step = float(s.t_s[pre_end + 1] - s.t_s[pre_end])  # long if hidden or sparse
    t_err = float(np.hypot(tol.noise_mm / abs(vn_pre), 0.05 * max(step, s.dt_s)))
    t_err = max(t_err, spread_s)
    event = CushionContact(t_s=t_c, ball=ball, cushion=cushion, doubt=doubt, t_err_s=t_err)
    return ScoredEvent(event, round(confidence, 3), evidence)


def _along_s(s: Samples, gap: F64, start: int, tol: Tolerances) -> float:
    """How long the ball stayed on the cushion after sample ``start`` (0 if it bounced)."""
    away = np.nonzero(gap[start:] > tol.hysteresis_mm)[0]
    end = start + int(away[0]) if len(away) else len(gap)
    if end - start < 4:
        return 0.0
    return float(s.t_s[end - 1] - s.t_s[start])
