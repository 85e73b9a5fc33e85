"""Ball tracks to referee contact events: the entry point of event extraction.

Theory of operation. Each track becomes :class:`~vision.events._path_fit.Samples`
(finite samples, rest-aware). The position noise is measured from the tracks themselves
(second differences of the seen samples, robust to the few kinks), and every threshold
scales with it (:class:`~vision.events._cushion_contacts.Tolerances`). Cushion contacts
come per ball (:mod:`vision.events._cushion_contacts`), ball contacts per pair
(:mod:`vision.events._ball_contacts`), then balls that left the table or dropped into
a pocket. Every event gets a sub-frame time, a ``t_err_s`` and a confidence; below
``min_confidence`` the event carries ``doubt``.

Thresholds were tuned on the simulator and the ``three_cushion_match`` sample clip;
``hard_three_cushion`` and the real match data are held out for reporting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from calibration import TableGeometry
from referee import Ball, BallContact, CushionContact, OffTable
from vision._types import BallTrack, ScoredEvent
from vision.events._ball_contacts import ball_contacts
from vision.events._cushion_after_kiss import cushions_after_kisses
from vision.events._cushion_after_stroke import cushions_after_strokes
from vision.events._cushion_at_kiss import cushions_at_kisses
from vision.events._cushion_before_kiss import cushions_before_kisses
from vision.events._cushion_contacts import NORMALS, Tolerances, cushion_contacts, normal_gap
from vision.events._cushion_in_gap import cushions_in_gaps
from vision.events._leaving import leaving_events
from vision.events._near_misses import near_misses
from vision.events._path_fit import Samples
from vision.events._rebound_kiss import kisses_after_rebounds
from vision.events._set_offs import kisses_behind_set_offs

__all__ = ["estimate_noise_mm", "extract_events"]


def estimate_noise_mm(samples: Mapping[Ball, Samples]) -> float:
    """Position noise (1 sigma, mm) from second differences of seen, moving samples.

    For white noise a second difference has sigma ``sqrt(6)`` times the position
    noise; the median absolute value keeps kinks (contacts) from inflating it.
    """
    parts = []
    for s in samples.values():
        if len(s) < 3:
            continue
        step = np.diff(s.t_s)
        even = np.abs(step[1:] - step[:-1]) < 0.25 * s.dt_s
        seen = s.seen[2:] & s.seen[1:-1] & s.seen[:-2]
        d2 = s.xy_mm[2:] - 2.0 * s.xy_mm[1:-1] + s.xy_mm[:-2]
        parts.append(np.abs(d2[even & seen]).ravel())
    values = np.concatenate(parts) if parts else np.zeros(0)
    if len(values) < 10:
        return 0.5
    return float(max(0.2, 1.4826 * np.median(values) / np.sqrt(6.0)))


def extract_events(
    tracks: Mapping[Ball, BallTrack], geometry: TableGeometry, *, min_confidence: float = 0.5
) -> list[ScoredEvent]:
    """Referee events (ball and cushion contacts, off table, pocketed) of one shot.

    Args:
        tracks: each ball's track, table mm at ball-centre height.
        geometry: the table (its ``radius_mm`` sets contact distances).
        min_confidence: below this the event carries a ``doubt``.

    Returns:
        Events sorted by time, each with a confidence 0..1, evidence and ``t_err_s``.
    """
    own = {ball: Samples(track) for ball, track in tracks.items()}
    own = {ball: s for ball, s in own.items() if len(s) > 0}
    if not own:
        return []
    dt = min(s.dt_s for s in own.values())  # a slow ball may be sampled sparsely
    samples = {ball: Samples(tracks[ball], dt) for ball in own}
    tol = Tolerances(estimate_noise_mm(samples), dt)
    t_end = max(float(s.t_s[-1]) for s in samples.values())
    kisses = ball_contacts(samples, geometry, tol)
    kisses = sorted(kisses + kisses_behind_set_offs(samples, kisses, geometry, tol),
                    key=lambda e: e.event.t_s)  # fmt: skip
    out = kisses + _driven_into_cushion(samples, kisses, geometry, tol)
    for ball, s in samples.items():
        cuts = [e.event.t_s for e in kisses if ball in getattr(e.event, "balls", ())]
        rails = cushion_contacts(s, ball, geometry, tol, cuts)
        leaving = leaving_events(s, ball, geometry, t_end, tol)
        out += rails + leaving + _rail_before_off(s, ball, geometry, leaving + rails)
    out += cushions_before_kisses(samples, out, geometry, dt, tol.touch_mm)
    out += cushions_after_kisses(samples, out, geometry, tol)
    out += cushions_at_kisses(samples, out, geometry, tol)
    out += cushions_after_strokes(samples, out, geometry, tol)
    out += cushions_in_gaps(samples, out, geometry, tol)
    out += kisses_after_rebounds(samples, out, geometry, tol)
    out += near_misses(samples, kisses, geometry.radius_mm, tol.noise_mm, dt)
    out = [_with_doubt(_order_unseen(e, kisses, dt), min_confidence) for e in out]
    return sorted(out, key=lambda e: e.event.t_s)


def _order_unseen(scored: ScoredEvent, kisses: list[ScoredEvent], dt_s: float) -> ScoredEvent:
    """A cushion contact within a frame of a ball contact of the same ball: order unseen.

    No sample lies between the two, so which came first rests on the fits' extrapolation
    alone (off by a few ms in a cluster): the cushion contact's ``t_err_s`` is at least
    a quarter frame, and the referee asks for review when the order decides the call.
    """
    ev = scored.event
    if not isinstance(ev, CushionContact) or ev.t_err_s >= 0.25 * dt_s:
        return scored
    for k in kisses:
        kiss = k.event
        if (
            isinstance(kiss, BallContact)
            and ev.ball in kiss.balls
            and abs(kiss.t_s - ev.t_s) < dt_s
        ):
            return dataclasses.replace(scored, event=dataclasses.replace(ev, t_err_s=0.25 * dt_s))
    return scored


def _rail_before_off(
    s: Samples, ball: Ball, geometry: TableGeometry, found: list[ScoredEvent]
) -> list[ScoredEvent]:
    """A ball that flew off over a rail touched that cushion on the way (its last one).

    ``found`` is the ball's leaving event first, then its cushion contacts.
    """
    if not found or not isinstance(found[0].event, OffTable) or found[0].event.doubt:
        return []
    last = len(s) - 1
    gaps = {c: float(normal_gap(s.xy_mm[last:], c, geometry)[0]) for c in NORMALS}
    cushion = min(gaps, key=gaps.__getitem__)
    fit = s.fit_before(last)
    speed = float(np.linalg.norm(fit.velocity(s.t_s[last]))) if fit else 1.0
    t_s = float(s.t_s[last] + min(gaps[cushion] / max(speed, 1.0), s.dt_s))
    for other in found[1:]:
        seen = other.event
        same = isinstance(seen, CushionContact) and seen.cushion == cushion
        if same and abs(seen.t_s - t_s) < 3.0 * s.dt_s:
            return []  # already seen as a contact
    ev = CushionContact(t_s=t_s, ball=ball, cushion=cushion, t_err_s=0.5 * s.dt_s)
    return [ScoredEvent(ev, 0.6, "vanished over this rail, contact assumed")]


def _driven_into_cushion(
    samples: Mapping[Ball, Samples],
    kisses: list[ScoredEvent],
    geometry: TableGeometry,
    tol: Tolerances,
) -> list[ScoredEvent]:
    """A ball resting against a cushion, struck towards it, touches it at the strike.

    Its gap is zero before and after, so no valley shows; the impulse direction (from
    the striking ball's centre to its centre) pointing into the cushion decides.
    """
    out: list[ScoredEvent] = []
    for scored in kisses:
        kiss = scored.event
        if not isinstance(kiss, BallContact):
            continue
        t = np.array([kiss.t_s - 2.0 * tol.dt_s, kiss.t_s])
        for ball in kiss.balls:
            s = samples[ball]
            fit = s.fit_before(s.index_before(kiss.t_s - 0.5 * tol.dt_s))
            if fit is None or np.linalg.norm(fit.velocity(fit.t_hi_s)) > tol.speed_mm_s:
                continue  # moving: a real bounce would show as a valley
            here = s.at(t)
            there = samples[kiss.other(ball)].at(t[1:])[0]
            axis = (here[1] - there) / max(float(np.linalg.norm(here[1] - there)), 1e-9)
            for cushion, normal in NORMALS.items():
                gap = float(normal_gap(here[:1], cushion, geometry)[0])
                if gap < tol.touch_mm and float(axis @ np.array(normal)) < -0.02:
                    ev = CushionContact(
                        t_s=kiss.t_s, ball=ball, cushion=cushion, t_err_s=kiss.t_err_s
                    )
                    why = "rested on the cushion, struck into it"
                    out.append(ScoredEvent(ev, min(scored.confidence, 0.8), why))
    return out


def _with_doubt(scored: ScoredEvent, min_confidence: float) -> ScoredEvent:
    event = scored.event
    if scored.confidence >= min_confidence or event.doubt:
        return scored
    return dataclasses.replace(
        scored, event=dataclasses.replace(event, doubt=f"low confidence: {scored.evidence}")
    )
