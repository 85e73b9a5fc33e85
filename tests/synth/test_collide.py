"""The contact search's shortcut: a pair or a pin that stays apart is skipped, never a contact.

:func:`synth._collide.pair_contact` and :func:`~synth._collide.circle_contact` skip the
root search when the triangle inequality shows the two cannot come within reach in the
window. The skip must change nothing: for any motion, near or far, grazing or head-on,
they give exactly what the full search of the gap polynomial gives.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from synth._collide import circle_contact, circle_gap, first_contact, pair_contact, pair_gap
from synth._motion import Phase, Segment

R_M = 0.03075
TOL = 4.0 * R_M * 1e-9
coords = st.floats(-3.0, 3.0)
speeds = st.floats(-4.0, 4.0)
decels = st.floats(-3.0, 3.0)
windows = st.floats(0.0, 5.0)


@st.composite
def segments(draw: st.DrawFn) -> Segment:
    zero = np.zeros(2)
    return Segment(
        t0_s=0.0, duration_s=10.0, phase=Phase.ROLLING,
        r0_m=np.array([draw(coords), draw(coords)]),
        v0_mps=np.array([draw(speeds), draw(speeds)]),
        a_mps2=np.array([draw(decels), draw(decels)]),
        w0_radps=zero, dw_radps2=zero, wz_decel_radps2=0.0, radius_m=R_M,
    )  # fmt: skip


@given(segments(), segments(), windows)
def test_a_pair_gets_exactly_what_the_full_search_finds(
    a: Segment, b: Segment, t_max_s: float
) -> None:
    full = first_contact(pair_gap(a, b, 0.0, 2 * R_M), t_max_s, TOL)
    assert pair_contact(a, b, 0.0, 2 * R_M, t_max_s, TOL) == full


@given(segments(), segments(), st.floats(0.01, 5.0), st.floats(-np.pi, np.pi))
def test_a_pair_that_meets_late_in_the_window_is_never_skipped(
    a: Segment, b: Segment, meet_s: float, angle: float
) -> None:
    """``b`` placed to overlap ``a`` at ``meet_s``, the window's end: apart at first, they
    touch by then (a pair already touching is skipped until it opens: not this test's)."""
    overlap = 1.9 * R_M * np.array([np.cos(angle), np.sin(angle)])
    r0 = a.position(meet_s) + overlap - b.v0_mps * meet_s - 0.5 * b.a_mps2 * meet_s**2
    b = dataclasses.replace(b, r0_m=r0)
    assume(float(np.hypot(*(b.r0_m - a.r0_m))) > 2.1 * R_M)  # apart at first
    got = pair_contact(a, b, 0.0, 2 * R_M, meet_s, TOL)
    assert got == first_contact(pair_gap(a, b, 0.0, 2 * R_M), meet_s, TOL)
    assert got is not None and 0.0 <= got <= meet_s


@given(segments(), coords, coords, windows)
def test_a_pin_gets_exactly_what_the_full_search_finds(
    a: Segment, x_m: float, y_m: float, t_max_s: float
) -> None:
    centre = np.array([x_m, y_m])
    full = first_contact(circle_gap(a, centre, 0.0, 0.05), t_max_s, 1e-9)
    assert circle_contact(a, centre, 0.0, 0.05, t_max_s, 1e-9) == full


def test_a_head_on_pair_is_found_and_a_far_one_skipped() -> None:
    """Not vacuous: the search finds the contact the shortcut must leave alone."""
    zero = np.zeros(2)

    def ball(x_m: float, v_mps: float) -> Segment:
        return Segment(0.0, 10.0, Phase.ROLLING, np.array([x_m, 0.7]), np.array([v_mps, 0.0]),
                       zero, zero, zero, 0.0, R_M)  # fmt: skip

    hit = pair_contact(ball(0.5, 1.0), ball(1.5, 0.0), 0.0, 2 * R_M, 2.0, TOL)
    assert hit is not None and abs(hit - (1.0 - 2 * R_M)) < 1e-9
    assert pair_contact(ball(0.5, 0.1), ball(1.5, 0.0), 0.0, 2 * R_M, 2.0, TOL) is None


@given(st.lists(st.floats(-5.0, 5.0), min_size=3, max_size=5), st.floats(0.0, 3.0), windows)
def test_no_contact_means_the_gap_stays_open_through_the_window(
    higher: list[float], f0: float, t_max_s: float
) -> None:
    """Any gap open now (a cushion's quadratic, a pair's quartic) that the search says
    never closes is positive all through the window, checked on a fine grid."""
    coeffs = np.array([*higher[:-1], f0 + 1e-6])
    if first_contact(coeffs, t_max_s, 1e-9) is None:
        grid = np.linspace(0.0, t_max_s, 4001)
        assert np.polyval(coeffs, grid).min() > -1e-9
