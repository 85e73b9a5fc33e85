"""Measurements shared by real recordings and simulations sampled like them.

The measurements take sampled tracks (times, centres in table mm), so the same
code runs on a real recording and on a simulation sampled like one
(:func:`sample_tracks`). That is the point: real and simulated numbers in
``docs/physics.md`` come out of one pipeline.

* :func:`cushion_hits`: rebounds found from the trajectory alone. A contact is a
  local minimum of the distance to a cushion line (``R`` inside the cushion)
  where the normal velocity turns from approaching to leaving and where lines
  through the two samples on each side meet the line within 2 mm plus one
  sampling step of travel; it is measured by straight-line fits of up to 5
  samples on each side, at least 3 mm from the cushion, away from other contacts
  and from other balls.
* :func:`rolling_decelerations`: deceleration along the path of a ball running
  straight between contacts, from a quadratic fit of its positions, skipping the
  sliding time after each contact.
* :func:`motion_end_s`: when the last ball's speed falls below 5 cm/s.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from referee import MATCH_TABLE, Ball, Cushion, Table
from synth._realdata import Track, line_fit

__all__ = [
    "CushionHit",
    "all_contacts",
    "cushion_hits",
    "motion_end_s",
    "rolling_decelerations",
    "sample_tracks",
]

F64 = NDArray[np.float64]

#: Cushion -> (axis, is the high side).
_SIDES = {
    Cushion.HEAD: (0, False),
    Cushion.FOOT: (0, True),
    Cushion.LEFT: (1, False),
    Cushion.RIGHT: (1, True),
}


@dataclass(frozen=True, slots=True)
class CushionHit:
    """One rebound measured from a trajectory.

    Angles are to the cushion normal in degrees (0: square on); the outgoing angle
    is negative when the ball came back against its incoming direction along the
    cushion. Speeds in m/s from straight-line fits on each side. ``late_speed_mps``
    is the speed 0.4-0.6 s after the contact (the ball has mostly stopped sliding:
    the energy the rebound really kept), None if another contact came first.
    """

    ball: Ball
    cushion: Cushion
    t_s: float
    in_angle_deg: float
    out_angle_deg: float
    in_speed_mps: float
    out_speed_mps: float
    late_speed_mps: float | None = None

    @property
    def speed_ratio(self) -> float:
        """Outgoing over incoming speed, just after the contact."""
        return self.out_speed_mps / self.in_speed_mps

    @property
    def late_ratio(self) -> float | None:
        """Speed 0.4-0.6 s after the contact over the incoming speed."""
        return None if self.late_speed_mps is None else self.late_speed_mps / self.in_speed_mps


def _gap_mm(xy: F64, cushion: Cushion, table: Table) -> F64:
    axis, high = _SIDES[cushion]
    size = table.length_mm if axis == 0 else table.width_mm
    coord = xy[:, axis]
    gap: F64 = (size - table.radius_mm - coord) if high else (coord - table.radius_mm)
    return gap


def _contact_times(tr: Track, cushion: Cushion, table: Table) -> list[tuple[float, int, int]]:
    """Cushion contacts as (time, last index before, first index after)."""
    gap = _gap_mm(tr.xy_mm, cushion, table)
    found: list[tuple[float, int, int]] = []
    i = 1
    while i < gap.size - 1:
        j = i
        while j + 1 < gap.size and abs(gap[j + 1] - gap[i]) <= 0.5:  # a clamped plateau
            j += 1
        if gap[i - 1] > gap[i] and j + 1 < gap.size and gap[j + 1] > gap[j]:
            hit = _check_contact(tr, gap, i, j)
            if hit is not None:
                found.append((hit, i - 1, j + 1))
        i = j + 1
    return found


def _check_contact(tr: Track, gap: F64, i: int, j: int) -> float | None:
    """The contact time if lines through the samples on each side meet the cushion."""
    t = tr.t_s
    if i < 2 or j + 2 >= gap.size:
        return None
    s_in = (gap[i - 1] - gap[i - 2]) / (t[i - 1] - t[i - 2])
    s_out = (gap[j + 2] - gap[j + 1]) / (t[j + 2] - t[j + 1])
    if s_in > -20.0 or s_out < 20.0:  # mm/s: a real reversal of the normal velocity
        return None
    t_in = t[i - 1] - gap[i - 1] / s_in
    t_out = t[j + 1] - gap[j + 1] / s_out
    step = max(t[i] - t[i - 1], t[j + 1] - t[j])
    reach = 2.0 + min(abs(s_in), s_out) * step
    if (
        gap[i] > reach
        or gap[j] > reach
        or t_out - t_in < -step
        or t_out - t_in > 3 * step + (t[j] - t[i])
    ):
        return None
    return float(0.5 * (max(t_in, t[i - 1]) + min(t_out, t[j + 1])))


def _far_from_balls(
    t: F64, xy: F64, others: list[Track], table: Table, margin_mm: float = 15.0
) -> bool:
    for other in others:
        q = np.column_stack(
            (np.interp(t, other.t_s, other.xy_mm[:, 0]), np.interp(t, other.t_s, other.xy_mm[:, 1]))
        )
        if np.min(np.hypot(*(xy - q).T)) < table.ball_diameter_mm + margin_mm:
            return False
    return True


def all_contacts(tracks: Mapping[Ball, Track], ball: Ball, table: Table) -> list[float]:
    """Times of ``ball``'s cushion contacts and close approaches to other balls."""
    tr = tracks[ball]
    times = [c[0] for cushion in Cushion for c in _contact_times(tr, cushion, table)]
    for other, otr in tracks.items():
        if other == ball:
            continue
        q = np.column_stack(
            (
                np.interp(tr.t_s, otr.t_s, otr.xy_mm[:, 0]),
                np.interp(tr.t_s, otr.t_s, otr.xy_mm[:, 1]),
            )
        )
        near = np.hypot(*(tr.xy_mm - q).T) < table.ball_diameter_mm + 10.0
        times += [float(x) for x in tr.t_s[near]]
    return sorted(times)


def cushion_hits(
    tracks: Mapping[Ball, Track], ball: Ball, table: Table = MATCH_TABLE
) -> list[CushionHit]:
    """Rebounds of ``ball`` found and measured from the tracks alone."""
    tr = tracks[ball]
    others = [t for b, t in tracks.items() if b != ball]
    contacts = all_contacts(tracks, ball, table)
    hits = []
    for cushion in Cushion:
        gap = _gap_mm(tr.xy_mm, cushion, table)
        for t_hit, before, after in _contact_times(tr, cushion, table):
            hit = _measure(tr, gap, cushion, ball, t_hit, (before, after), others, contacts, table)
            if hit is not None:
                hits.append(hit)
    return sorted(hits, key=lambda h: h.t_s)


def _window(tr: Track, gap: F64, start: int, step: int, t_hit: float) -> NDArray[np.intp]:
    idx: list[int] = []
    i = start
    while 0 <= i < gap.size and len(idx) < 5 and abs(tr.t_s[i] - t_hit) <= 0.25:
        if gap[i] > 3.0:
            idx.append(i)
        i += step
    return np.array(sorted(idx), dtype=np.intp)


def _clean_windows(
    tr: Track,
    gap: F64,
    t_hit: float,
    ends: tuple[int, int],
    others: list[Track],
    contacts: list[float],
    table: Table,
) -> tuple[NDArray[np.intp], NDArray[np.intp]] | None:
    """Sample indices before and after the contact, or None if anything else is near."""
    w_in, w_out = _window(tr, gap, ends[0], -1, t_hit), _window(tr, gap, ends[1], 1, t_hit)
    if w_in.size < 3 or w_out.size < 3:
        return None
    t0, t1 = float(tr.t_s[w_in[0]]), float(tr.t_s[w_out[-1]])
    if any(t0 - 0.02 <= c <= t1 + 0.02 and abs(c - t_hit) > 0.03 for c in contacts):
        return None
    both = np.concatenate((w_in, w_out))
    if not _far_from_balls(tr.t_s[both], tr.xy_mm[both], others, table):
        return None
    return w_in, w_out


def _measure(
    tr: Track,
    gap: F64,
    cushion: Cushion,
    ball: Ball,
    t_hit: float,
    ends: tuple[int, int],
    others: list[Track],
    contacts: list[float],
    table: Table,
) -> CushionHit | None:
    windows = _clean_windows(tr, gap, t_hit, ends, others, contacts, table)
    if windows is None:
        return None
    _, v_in = line_fit(tr.t_s[windows[0]], tr.xy_mm[windows[0]])
    _, v_out = line_fit(tr.t_s[windows[1]], tr.xy_mm[windows[1]])
    axis = _SIDES[cushion][0]
    n_in, t_in = abs(v_in[axis]), v_in[1 - axis]
    n_out, t_out = abs(v_out[axis]), v_out[1 - axis]
    if n_in < 50.0 or n_out < 20.0:
        return None
    out_angle = math.degrees(math.atan2(abs(t_out), n_out))
    return CushionHit(
        ball,
        cushion,
        t_hit,
        math.degrees(math.atan2(abs(t_in), n_in)),
        out_angle if t_in * t_out >= 0.0 else -out_angle,
        float(np.hypot(*v_in)) / 1000.0,
        float(np.hypot(*v_out)) / 1000.0,
        _late_speed(tr, t_hit, contacts),
    )


def _late_speed(tr: Track, t_hit: float, contacts: list[float]) -> float | None:
    """Speed in m/s over 0.4-0.6 s after ``t_hit``, if no contact came in between."""
    if any(t_hit + 0.05 < c < t_hit + 0.65 for c in contacts):
        return None
    sel = (tr.t_s >= t_hit + 0.4) & (tr.t_s <= t_hit + 0.6)
    if np.count_nonzero(sel) < 4:
        return None
    _, v = line_fit(tr.t_s[sel], tr.xy_mm[sel])
    return float(np.hypot(*v)) / 1000.0


def rolling_decelerations(
    tracks: Mapping[Ball, Track],
    ball: Ball,
    table: Table = MATCH_TABLE,
    *,
    after_contact_s: float = 0.7,
    before_contact_s: float = 0.1,
    min_span_s: float = 0.6,
) -> list[float]:
    """Decelerations in m/s^2 of ``ball`` on straight runs between contacts.

    A run starts ``after_contact_s`` after a contact (the stroke counts as one, at
    the first sample), so the sliding is over, and ends ``before_contact_s``
    before the next one. Runs shorter than ``min_span_s``, slower than 0.1 m/s at
    their end, with fewer than 8 samples or not straight (fit residual over 3 mm)
    are skipped. Value: minus the fitted acceleration along the direction of motion.
    """
    tr = tracks[ball]
    moving = np.flatnonzero(np.hypot(*np.diff(tr.xy_mm, axis=0).T) > 1.0)
    if moving.size == 0:
        return []
    t_start = float(tr.t_s[moving[0]])
    bounds = [t_start, *all_contacts(tracks, ball, table), float(tr.t_s[moving[-1] + 1])]
    out = []
    for a, b in itertools.pairwise(bounds):
        lo, hi = a + after_contact_s, b - before_contact_s
        if hi - lo >= min_span_s:
            decel = _fit_decel(tr, lo, hi)
            if decel is not None:
                out.append(decel)
    return out


def _fit_decel(tr: Track, lo: float, hi: float) -> float | None:
    sel = (tr.t_s >= lo) & (tr.t_s <= hi)
    if np.count_nonzero(sel) < 8:
        return None
    t = tr.t_s[sel] - tr.t_s[sel].mean()
    xy = tr.xy_mm[sel]
    design = np.column_stack((np.ones_like(t), t, 0.5 * t * t))
    coef, *_ = np.linalg.lstsq(design, xy, rcond=None)
    residual = xy - design @ coef
    v_end = coef[1] + coef[2] * t[-1]
    speed_mid = float(np.hypot(*coef[1]))
    if np.sqrt(np.mean(np.sum(residual**2, axis=1))) > 3.0 or np.hypot(*v_end) < 100.0:
        return None
    return float(-(coef[2] @ coef[1]) / speed_mid / 1000.0)


def motion_end_s(tracks: Mapping[Ball, Track], stop_mps: float = 0.05) -> float:
    """When the last ball's speed (over 0.2 s) fell below ``stop_mps``."""
    end = 0.0
    for tr in tracks.values():
        t = np.arange(float(tr.t_s[0]), float(tr.t_s[-1]) + 1e-9, 0.1)
        if t.size < 3:
            continue
        xy = np.column_stack(
            (np.interp(t, tr.t_s, tr.xy_mm[:, 0]), np.interp(t, tr.t_s, tr.xy_mm[:, 1]))
        )
        speed = np.hypot(*(xy[2:] - xy[:-2]).T) / 0.2 / 1000.0
        fast = np.flatnonzero(speed > stop_mps)
        if fast.size:
            end = max(end, float(t[fast[-1] + 1]))
    return end


class _Motion(Protocol):
    @property
    def duration_s(self) -> float: ...

    def positions_mm(self, t_s: ArrayLike) -> Mapping[Ball, F64]: ...


def sample_tracks(
    motion: _Motion, rate_hz: float = 50.0, *, t0_s: float = 0.0, tail_s: float = 0.5
) -> dict[Ball, Track]:
    """Sample a motion (a :class:`Simulation`, say) like a recording, times + ``t0_s``.

    Samples run from 0 to ``duration_s + tail_s`` at ``rate_hz``; a ball's samples
    stop where it left the table.
    """
    t = np.arange(0.0, motion.duration_s + tail_s, 1.0 / rate_hz)
    out = {}
    for ball, xy in motion.positions_mm(t).items():
        ok = np.all(np.isfinite(xy), axis=1)
        if np.any(ok):
            out[ball] = Track(t[ok] + t0_s, xy[ok])
    return out
