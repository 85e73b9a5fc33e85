"""A cushion touched in the frame before a ball contact (the "third cushion" race).

When a ball reaches a cushion a few milliseconds before it meets another ball, no
sample lies between the two contacts: the cushion's V shape is cut off by the ball
contact and the cushion finder sees nothing. Here the ball's path before the ball
contact is extrapolated: if it crosses a cushion's line (centre at R from the nose)
before the ball contact time, the ball touched that cushion first. The contact gets
the crossing time, a ``t_err_s`` of a quarter frame and a middling confidence; the
referee then asks for review if the order of the two decides the call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from calibration import TableGeometry
from referee import Ball, BallContact, Cushion, CushionContact
from vision._types import ScoredEvent
from vision.events._cushion_after_kiss import cushion_contact_near
from vision.events._cushion_contacts import NORMALS, normal_gap
from vision.events._path_fit import PathFit, Samples

__all__ = ["cushions_before_kisses"]


def cushions_before_kisses(
    samples: Mapping[Ball, Samples],
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    dt_s: float,
    touch_mm: float = 3.0,
) -> list[ScoredEvent]:
    """Cushion contacts hidden between the last sample and a ball contact.

    A ball within ``touch_mm`` of a cushion and moving towards it when it meets
    another ball gets a doubtful cushion contact: the camera cannot tell the order.
    """
    out: list[ScoredEvent] = []
    for scored in found:
        kiss = scored.event
        if not isinstance(kiss, BallContact):
            continue
        for ball in kiss.balls:
            s = samples.get(ball)
            if s is None:
                continue
            hit = _crossing(s, kiss.t_s, geometry, dt_s)
            if hit is not None and not cushion_contact_near(found, ball, hit[1], hit[0], 0.1):
                t_s, cushion = hit
                ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, t_err_s=dt_s / 4)
                ms = 1000 * (kiss.t_s - t_s)
                why = f"path reached the cushion {ms:.0f} ms before the ball contact"
                out.append(ScoredEvent(ev, 0.6, why))
            elif hit is None:
                out += _grazing(s, ball, kiss.t_s, found, geometry, dt_s, touch_mm)
    return out


def _grazing(
    s: Samples,
    ball: Ball,
    t_kiss: float,
    found: Sequence[ScoredEvent],
    geometry: TableGeometry,
    dt_s: float,
    touch_mm: float,
) -> list[ScoredEvent]:
    """A ball creeping along a cushion, within ``touch_mm`` of it when it meets a ball."""
    idx = s.index_before(t_kiss)
    fit = s.fit_before(idx)
    if fit is None or t_kiss - fit.t_hi_s > 1.5 * dt_s:
        return []
    v = fit.velocity(fit.t_hi_s)
    for cushion, (nx, ny) in NORMALS.items():
        gap = float(normal_gap(s.xy_mm[idx : idx + 1], cushion, geometry)[0])
        towards = -(v[0] * nx + v[1] * ny) > 0.0
        t_s = t_kiss - dt_s / 4
        if gap < touch_mm and towards and not cushion_contact_near(found, ball, cushion, t_s, 0.1):
            doubt = (f"{ball} was {max(gap, 0.0):.1f} mm from the {cushion} cushion when it met "
                     "the other ball: a touch just before cannot be ruled out")  # fmt: skip
            ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, doubt=doubt, t_err_s=dt_s / 2)
            return [ScoredEvent(ev, 0.35, f"grazing the cushion, gap {gap:.1f} mm")]
    return []


def _crossing(
    s: Samples, t_kiss: float, geometry: TableGeometry, dt_s: float
) -> tuple[float, Cushion] | None:
    """Where the straight path before the kiss crosses a cushion line, before the kiss.

    The last sample before the kiss may already be past the cushion (the two contacts
    fall in one frame interval), so the fit ending one sample earlier is tried too.
    """
    idx = s.index_before(t_kiss)
    for end in (idx, idx - 1):
        fit = s.fit_before(end)
        if fit is None or t_kiss - fit.t_hi_s > 2.5 * dt_s:
            continue
        hit = _first_line(fit, t_kiss, geometry)
        if hit is not None:
            return hit
    return None


def _first_line(
    fit: PathFit, t_kiss: float, geometry: TableGeometry
) -> tuple[float, Cushion] | None:
    v = fit.velocity(fit.t_hi_s)
    for cushion, (nx, ny) in NORMALS.items():
        v_in = -(v[0] * nx + v[1] * ny)  # speed towards the cushion, mm/s
        if v_in <= 50.0:
            continue
        gap_last = float(normal_gap(fit.at(fit.t_hi_s), cushion, geometry)[0])
        gap_kiss = float(normal_gap(fit.at(t_kiss), cushion, geometry)[0])
        if gap_last > 0.0 and gap_kiss < 0.0:
            return fit.t_hi_s + gap_last / v_in, cushion
    return None
