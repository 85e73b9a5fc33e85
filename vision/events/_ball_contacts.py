"""Ball-ball contacts from two balls' samples, with sub-frame times.

Theory of operation. For each pair the surface gap ``D(t) = |p_a - p_b| - 2R`` is
sampled on the union of both balls' sample times (a resting ball holds still between
rare samples). Valleys of ``D`` that may reach zero between samples are candidates
(:func:`vision.events._cushion_contacts.valley_starts`, same hysteresis as cushions), and
so are approaches cut short within a frame (:mod:`vision.events._cut_short`). The contact
time is where the two pre-contact fits (straight lines, reflected at a cushion nose
so a cushion just before the kiss does not spoil them) come ``2R`` apart. A candidate
is a contact only if the balls exchanged an impulse along their line of centres: the
velocity change of either ball, projected on that line, must exceed the noise. A ball
that was at rest gives a second time: where its post-contact path leaves its rest
position (it is the sharpest evidence of a thin kiss); the two are weighed by the
squares of the closing speed and the set-off speed; when both were at rest (a third
ball set one off an instant before), the later start alone; when the resting ball stood
on for frames after the approach paths met closing at under 100 mm/s (a pass a hair
apart, then back off a cushion into it), its set-off alone
(:mod:`vision.events._late_set_off`). In a slow push the gap reaches zero long before
its minimum, so the first samples at the touch are tried first; samples that already
show a ball struck from rest are tried last (:func:`_solve`).
A contact read off a path that an earlier contact of the same ball (with a third ball,
or with the same one over a frame before) had bent is timed again from the paths
after, or dropped when those never meet (:func:`_without_stale`).

Thresholds were tuned on the simulator, the ``three_cushion_match`` clip and the
tuning part of the independent set only (``docs/independent-events.md``).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from referee import Ball, BallContact
from vision._types import ScoredEvent
from vision.events._cushion_contacts import Tolerances, valley_starts
from vision.events._cut_short import cut_short
from vision.events._late_set_off import late_set_off, struck_at
from vision.events._path_fit import PathFit, Samples, first_crossing

__all__ = ["CUSHION_E", "ball_contacts", "reflect_at_noses"]

F64 = NDArray[np.float64]

#: Normal restitution used to reflect an extrapolated path at a cushion.
CUSHION_E = 0.9

#: Closing speed (mm/s) along the line of centres below which a pass is a graze.
_GRAZE_MM_S = 100.0


def ball_contacts(
    samples: dict[Ball, Samples], geometry: TableGeometry, tol: Tolerances
) -> list[ScoredEvent]:
    """Every ball-ball contact among ``samples`` (two or more balls), sorted by time."""
    out: list[ScoredEvent] = []
    for a, b in combinations(sorted(samples), 2):
        out += _pair(samples[a], samples[b], (a, b), geometry, tol)
    return _without_stale(sorted(out, key=lambda e: e.event.t_s), samples, geometry, tol)


def _without_stale(
    found: list[ScoredEvent], samples: dict[Ball, Samples], geometry: TableGeometry, tol: Tolerances
) -> list[ScoredEvent]:
    """``found``, each contact read off a path an earlier contact had bent timed anew or dropped.

    The pair-wise finder extrapolates each ball's path before the contact from its last
    three samples. When the ball met a third ball among or after those samples (a ball
    at rest a few mm from the one struck), or the same ball over a frame before (a
    full hit cut short, the striker following on: tuning pt0167), that path is no
    longer where the ball went: it may run on into a ball the struck one set off, and
    a contact it does meet is mistimed. The paths after a real contact, traced
    back, come ``2R`` apart at it: the contact is timed there, after the bending one;
    a contact whose paths after never meet is dropped, and the set-off it seemed to
    explain is traced to its striker by :mod:`vision.events._set_offs`.
    """
    kept: list[ScoredEvent] = []
    for scored in found:
        ev = scored.event
        assert isinstance(ev, BallContact)
        bent = [_bent_at(samples[b], b, ev, kept) for b in ev.balls]
        t_bent = max((t for t in bent if t is not None), default=None)
        if t_bent is None:
            kept.append(scored)
        elif (t_s := _met_after(samples, ev, t_bent, geometry, tol)) is not None:
            kept.append(_retimed(scored, ev, t_s, tol))
    return sorted(kept, key=lambda e: e.event.t_s)


def _bent_at(s: Samples, ball: Ball, ev: BallContact, kept: list[ScoredEvent]) -> float | None:
    """When ``ball`` last met a ball within the samples its path before ``ev`` spans."""
    t_first = float(s.t_s[max(s.index_before(ev.t_s) - 2, 0)])
    times = [
        k.event.t_s
        for k in kept
        if isinstance(k.event, BallContact)
        and ball in k.event.balls
        and (set(k.event.balls) != set(ev.balls) or ev.t_s - k.event.t_s > s.dt_s)
        and t_first < k.event.t_s < ev.t_s
    ]
    return max(times, default=None)


def _met_after(
    samples: dict[Ball, Samples],
    ev: BallContact,
    t_from: float,
    geometry: TableGeometry,
    tol: Tolerances,
) -> float | None:
    """When the two balls' first paths after ``ev``, traced back to ``t_from``, touch.

    The latest time they are ``2R`` apart (or, when they never are, where they come
    closest, if within the fits' error); None when they stay apart.
    """
    paths, speed = [], 0.0
    t_hi = np.inf
    for ball in ev.balls:
        s = samples[ball]
        post = s.fit_after(s.index_before(ev.t_s) + 1, 2)  # two samples: least likely to bend
        if post is None:
            return ev.t_s  # nothing to tell: as found
        paths.append(post)
        t_hi = min(t_hi, post.t_lo_s)
        speed = max(speed, float(np.linalg.norm(post.velocity(post.t_lo_s))))
    span = np.linspace(t_from, max(t_hi, t_from), 241)
    xy = [reflect_at_noses(p.at(span), geometry, 1.0 / CUSHION_E) for p in paths]
    gap = np.linalg.norm(xy[0] - xy[1], axis=1) - 2.0 * geometry.radius_mm
    touching = np.nonzero(gap <= 0.0)[0]
    if len(touching):
        return float(span[touching[-1]])
    k = int(np.argmin(gap))
    return float(span[k]) if gap[k] < max(3.0 * tol.touch_mm, 0.3 * speed * tol.dt_s) else None


def _retimed(scored: ScoredEvent, ev: BallContact, t_s: float, tol: Tolerances) -> ScoredEvent:
    """``scored`` at ``t_s``: a quarter frame of ``t_err_s`` at least, confidence 0.8 at most."""
    if abs(t_s - ev.t_s) < 0.25 * tol.dt_s:
        return scored
    moved = replace(ev, t_s=t_s, t_err_s=max(ev.t_err_s, 0.25 * tol.dt_s))
    why = f"{scored.evidence}; timed from the paths after (a contact just before bent them)"
    return replace(scored, event=moved, confidence=min(scored.confidence, 0.8), evidence=why)


def reflect_at_noses(xy: F64, geometry: TableGeometry, restitution: float = CUSHION_E) -> F64:
    """Fold extrapolated centres (m, 2) back inside the cushions.

    Forward in time the depth past a nose comes back times the ``restitution``;
    traced back in time (a path after a bounce, to where the ball was before it), pass
    ``1 / CUSHION_E``.
    """
    out = xy.copy()
    r = geometry.radius_mm
    for axis, size in ((0, geometry.length_mm), (1, geometry.width_mm)):
        lo, hi = r, size - r
        c = out[:, axis]
        c[:] = np.where(c < lo, lo + restitution * (lo - c), c)
        c[:] = np.where(c > hi, hi - restitution * (c - hi), c)
    return out


def _union_grid(sa: Samples, sb: Samples) -> F64:
    t = np.union1d(sa.t_s, sb.t_s)
    lo, hi = max(sa.t_s[0], sb.t_s[0]), min(sa.t_s[-1], sb.t_s[-1])
    grid: F64 = t[(t >= lo) & (t <= hi)]
    return grid


def _pair(
    sa: Samples, sb: Samples, balls: tuple[Ball, Ball], geometry: TableGeometry, tol: Tolerances
) -> list[ScoredEvent]:
    if len(sa) < 2 or len(sb) < 2:
        return []
    tol = replace(tol, dt_s=min(sa.dt_s, sb.dt_s))
    grid = _union_grid(sa, sb)
    xy_a, xy_b = sa.at(grid), sb.at(grid)
    gap = np.linalg.norm(xy_a - xy_b, axis=1) - 2.0 * geometry.radius_mm
    out: list[ScoredEvent] = []
    last = 0
    valleys = valley_starts(gap, grid, tol.hysteresis_mm)
    stalls = cut_short(xy_a, xy_b, grid, geometry.radius_mm, tol.touch_mm, valleys)
    for minima in sorted([*valleys, *([i] for i in stalls)]):
        # A slow approach (a push, or two balls the detector pulls together) reaches the
        # touch long before the valley's minimum: the first samples there are tried first.
        entry = [j for j in range(last, minima[0]) if gap[j] <= 0.5 * tol.touch_mm][:2]
        last = minima[-1] + 1
        if minima[0] == 0:
            continue  # touching from the start: a frozen pair, not a contact
        found = None
        for i0 in [*entry, minima[0]]:
            strict = i0 != minima[0]  # before the minimum: the fits must really touch
            found = _contact(sa, sb, balls, geometry, grid, gap, i0, tol, strict)
            if found is not None:
                break
        if found is not None:
            if out and found.event.t_s - out[-1].event.t_s < 0.03:
                if found.confidence <= out[-1].confidence:
                    continue
                out.pop()
            out.append(found)
    return out


def _pre_fits(sa: Samples, sb: Samples, t_s: float) -> tuple[PathFit, PathFit] | None:
    fa = sa.fit_before(sa.index_before(t_s))
    fb = sb.fit_before(sb.index_before(t_s))
    return None if fa is None or fb is None else (fa, fb)


def _pre_gap(fits: tuple[PathFit, PathFit], t_s: F64, geometry: TableGeometry) -> F64:
    pa = reflect_at_noses(fits[0].at(t_s), geometry)
    pb = reflect_at_noses(fits[1].at(t_s), geometry)
    out: F64 = np.linalg.norm(pa - pb, axis=1) - 2.0 * geometry.radius_mm
    return out


def _solve(
    sa: Samples, sb: Samples, geometry: TableGeometry, grid: F64, gap: F64, i0: int, tol: Tolerances
) -> tuple[float, float, tuple[PathFit, PathFit]] | None:
    """Contact time and fitted gap there from the pre-contact fits, or None.

    The last sample before the contact is ``i0 - 1`` (usual), ``i0`` (the closest
    sample was still on the way in) or ``i0 - 2`` (it came after the contact): the
    first whose fits reach ``2R`` strictly after it and by the next sample is used;
    samples that already show one ball struck from rest come last (tuning pt0226: a cue
    ball off a cushion a frame before, its fit through ``i0`` bent; pt0338: the struck
    ball's first moved sample at ``i0 - 1``, the contact timed after it).
    """
    fallback = None
    m = struck_at((sa, sb), grid, i0, tol)  # samples from m on came after the contact
    order = (i0 - 1, i0, i0 - 2)
    for j in [j for j in order if j < m] + [j for j in order if j >= m]:
        if j < 0 or j + 1 >= len(grid) or (j == i0 and gap[i0] <= tol.touch_mm):
            continue
        fits = _pre_fits(sa, sb, float(grid[j]))
        if fits is None:
            continue
        t_next = float(grid[j + 1])
        span = np.linspace(float(grid[j]), t_next + 0.5 * (t_next - grid[j]), 241)
        d = _pre_gap(fits, span, geometry)
        t_c = first_crossing(d, span)
        if t_c is not None and t_c > span[0]:
            return t_c, 0.0, fits
        if fallback is None and t_c is None:
            k = int(np.argmin(d))
            fallback = (float(span[k]), float(d[k]), fits)
    return fallback


def _contact(
    sa: Samples,
    sb: Samples,
    balls: tuple[Ball, Ball],
    geometry: TableGeometry,
    grid: F64,
    gap: F64,
    i0: int,
    tol: Tolerances,
    strict: bool = False,
) -> ScoredEvent | None:
    solved = _solve(sa, sb, geometry, grid, gap, i0, tol) if i0 > 0 else None
    if solved is None or (strict and solved[1] > 0.0):
        return None
    t_c, reach, fits = solved
    reach = min(reach, float(gap[i0]))
    post_a = sa.fit_after(sa.index_before(t_c) + 1)
    post_b = sb.fit_after(sb.index_before(t_c) + 1)
    if post_a is None or post_b is None or reach > tol.touch_mm:
        return None
    if _stays_put(sa, t_c, tol) or _stays_put(sb, t_c, tol):
        return None  # a ball at rest that a contact did not move was not touched
    pa, pb = fits[0].at(t_c)[0], fits[1].at(t_c)[0]
    axis = (pb - pa) / max(float(np.linalg.norm(pb - pa)), 1e-9)
    push = _push(sa, sb, t_c, axis, tol)
    if push is None:
        return None
    v_rel = abs(float((fits[1].velocity(t_c) - fits[0].velocity(t_c)) @ axis))
    late = (
        None if v_rel >= _GRAZE_MM_S else late_set_off((sa, sb), fits, t_c, geometry.radius_mm, tol)
    )
    if late is not None and (push_late := _push(sa, sb, late.t_s, late.axis, tol)) is not None:
        v_off = float(np.linalg.norm(late.post.velocity(late.post.t_lo_s)))
        return _score(sa, sb, balls, (late.t_s,) * 3, (push_late, late.gap_mm, v_off), tol)
    # A ball at rest before gives a second time, where it started. Both at rest before:
    # one was set off by a third ball first and then struck the other, which starts at
    # the contact: the later start is the contact.
    starts = []
    for f, p in ((fits[0], post_a), (fits[1], post_b)):
        t_start = _start_time(f, p, tol)
        if t_start is not None and abs(t_start - t_c) < 2 * sa.dt_s:
            starts.append((t_start, p))
    if len(starts) == 2:  # the approach fits stood still: the start alone times it
        t_rest, p = max(starts, key=lambda tp: tp[0])
        v_off = float(np.linalg.norm(p.velocity(p.t_lo_s)))
        return _score(sa, sb, balls, (t_rest, t_rest, t_rest), (push, reach, v_off), tol)
    if starts:
        t_rest, p = starts[0]
        # Two estimates, each off by (position error) / (the speed it rests on):
        # weigh them by the squares of the closing speed and the set-off speed.
        w_c, w_r = v_rel**2, float(p.velocity(p.t_lo_s) @ p.velocity(p.t_lo_s))
        t_s = (w_c * t_c + w_r * t_rest) / max(w_c + w_r, 1e-9)
        return _score(sa, sb, balls, (t_s, t_c, t_rest), (push, reach, v_rel), tol)
    return _score(sa, sb, balls, (t_c, t_c, None), (push, reach, v_rel), tol)


def _stays_put(s: Samples, t_c: float, tol: Tolerances, k: int = 8) -> bool:
    """True if the ball stood before ``t_c`` and its next ``k`` samples stay where it stood.

    A ball at rest that another ball touches moves off (only the thinnest graze sets
    it off slower than a couple of mm in ``k`` frames); a path fitted across a cushion
    bounce can sweep past a resting ball 100 mm away and look like a touch.
    """
    i = s.index_before(t_c)
    pre = s.fit_before(i)
    if i < 0 or pre is None or i + 1 >= len(s):
        return False
    if not s.rests_after(i) and float(np.linalg.norm(pre.velocity(pre.t_hi_s))) > tol.speed_mm_s:
        return False
    after = s.xy_mm[i + 1 : i + 1 + k]
    return bool(np.all(np.linalg.norm(after - s.xy_mm[i], axis=1) < max(2.0, 6.0 * tol.noise_mm)))


def _push(sa: Samples, sb: Samples, t_c: float, axis: F64, tol: Tolerances) -> float | None:
    """Impulse evidence at ``t_c`` as a multiple of its noise (None if there is none).

    The velocity change of each ball along the line of centres (``axis`` from a to b)
    from 3- then 8-sample fits; a ball at rest before also counts by how far it went.
    """
    best = 0.0
    for k in (3, 8):
        for s, sign in ((sa, -1.0), (sb, 1.0)):
            i = s.index_before(t_c)
            pre, post = s.fit_before(i, k), s.fit_after(i + 1, k)
            if pre is None or post is None:
                continue
            still = s.rests_after(i)  # sampled rarely at rest: velocity exactly 0
            v_pre = np.zeros(2) if still else pre.velocity(pre.t_hi_s)
            dv = post.velocity(post.t_lo_s) - v_pre
            speed = tol.speed_for(post.n if still else min(pre.n, post.n))
            best = max(best, sign * float(dv @ axis) / speed)
            moved = _rest_moved(pre, post, still, tol)
            best = max(best, sign * float(moved @ axis) / max(1.0, 4.0 * tol.noise_mm))
    return None if best < 1.0 else best


def _rest_moved(pre: PathFit, post: PathFit, still: bool, tol: Tolerances) -> F64:
    """How far (2,) mm a ball at rest before the contact went by the end of ``post``."""
    moving = float(np.linalg.norm(pre.velocity(pre.t_hi_s))) > tol.speed_for(pre.n)
    if not still and (pre.n < 3 or moving):
        return np.zeros(2)
    out: F64 = post.at(post.t_hi_s)[0] - pre.at(pre.t_hi_s)[0]
    return out


def _start_time(pre: PathFit, post: PathFit, tol: Tolerances) -> float | None:
    """When a ball at rest before started on its post-contact path (None if it moved)."""
    if float(np.linalg.norm(pre.velocity(pre.t_hi_s))) > tol.speed_mm_s:
        return None
    v = post.velocity(post.t_lo_s)
    speed2 = float(v @ v)
    if speed2 < tol.speed_mm_s**2:
        return None
    rest = pre.at(pre.t_hi_s)[0]
    start = post.at(post.t_lo_s)[0]
    return float(post.t_lo_s - ((start - rest) @ v) / speed2)


def _score(
    sa: Samples,
    sb: Samples,
    balls: tuple[Ball, Ball],
    times: tuple[float, float, float | None],
    fit: tuple[float, float, float],
    tol: Tolerances,
) -> ScoredEvent:
    t_s, t_c, t_rest = times  # the contact time; from the approach; from the set-off
    push, reach, v_rel = fit
    seen = [_seen_near(s, t_s) for s in (sa, sb)]
    strength = min(1.0, push / 4.0)
    confidence = 0.5 + 0.5 * strength * (1.0 - 0.5 * min(abs(reach) / tol.touch_mm, 1.0))
    doubt = None
    if min(seen) < 1.0:  # the contact lies in or next to a stretch a ball was not seen
        confidence = min(confidence, 0.2 + 0.25 * min(seen))
        doubt = "ball hidden at the contact"
    elif confidence < 0.6 or (t_rest is None and _graze(push, reach, v_rel, tol)):
        # A graze that set nothing off and hardly bent a path: nothing in the tracks
        # tells a touch from a pass a hair apart.
        confidence = min(confidence, 0.45)
        doubt = "balls too close to tell"
    spread = 0.0 if t_rest is None else abs(t_c - t_rest)
    t_err = float(np.hypot(tol.noise_mm / max(v_rel, 50.0), max(0.5 * spread, 0.05 * sa.dt_s)))
    rest = "" if t_rest is None else ", a ball at rest set off"
    evidence = f"impulse {push:.1f}x noise, gap {reach:.1f} mm{rest}"
    ev = BallContact(t_s=t_s, balls=balls, doubt=doubt, t_err_s=t_err)
    return ScoredEvent(ev, round(float(confidence), 3), evidence)


def _graze(push: float, reach: float, v_rel: float, tol: Tolerances) -> bool:
    """Closing slower than ``_GRAZE_MM_S``, and the gap never closed or the paths hardly bent."""
    return v_rel < _GRAZE_MM_S and (reach > 0.5 * tol.touch_mm or push < 10.0)


def _seen_near(s: Samples, t_s: float) -> float:
    i = s.index_before(t_s)
    near = s.seen[max(i - 1, 0) : i + 3]
    return float(np.mean(near)) if len(near) else 0.0
