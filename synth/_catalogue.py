"""The registered scenarios and the event shapes they stand for.

Each stroke below was found by :func:`synth.search_stroke` on the
scenario's ``search`` grid with the default physics; ``research(name)`` finds it
again. Set-ups use the match table (2840 x 1420 mm) unless named otherwise; the
shooter plays white against yellow in the carom games.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable

import numpy as np

from referee import (
    Ball,
    BallContact,
    CushionContact,
    Discipline,
    Foul,
    PinDown,
    Pocketed,
    Verdict,
)
from synth._catalogue7 import SEVEN_SHAPES, seven_pin_scenarios
from synth._params import JumpOff, Stroke
from synth._scenarios import (
    PYRAMID_TABLE,
    Expect,
    Scenario,
    Search,
    five_pins_layout,
    pyramid_pockets,
    seven_pins_layout,
)
from synth._trajectory import Simulation

__all__ = ["SHAPES", "catalogue"]

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
THREE = Discipline.THREE_CUSHION


# --- shapes -----------------------------------------------------------------------


def _cue_hits(sim: Simulation) -> list[BallContact]:
    cue = sim.stroke.cue_ball
    return [e for e in sim.events if isinstance(e, BallContact) and e.involves(cue)]


def _second_ball_time(sim: Simulation) -> float | None:
    cue, first = sim.stroke.cue_ball, None
    for hit in _cue_hits(sim):
        other = hit.other(cue)
        if first is None:
            first = other
        elif other != first:
            return hit.t_s
    return None


def _cue_cushion_times(sim: Simulation) -> list[float]:

    cue = sim.stroke.cue_ball
    return [e.t_s for e in sim.events if isinstance(e, CushionContact) and e.ball == cue]


def _clean_point(sim: Simulation, verdict: Verdict) -> bool:
    return verdict.points == 1 and not verdict.fouls and len(_cue_hits(sim)) == 2


def _red_then_yellow(sim: Simulation, verdict: Verdict) -> bool:
    hits = _cue_hits(sim)
    return _clean_point(sim, verdict) and hits[0].other(sim.stroke.cue_ball) == R


def _two_cushion_miss(sim: Simulation, verdict: Verdict) -> bool:
    t2 = _second_ball_time(sim)
    if t2 is None or verdict.points:
        return False
    return sum(t < t2 for t in _cue_cushion_times(sim)) == 2


def _kiss(sim: Simulation, verdict: Verdict) -> bool:
    hits = _cue_hits(sim)
    cue = sim.stroke.cue_ball
    if len(hits) < 3 or hits[0].other(cue) != hits[1].other(cue):
        return False
    return hits[2].other(cue) != hits[0].other(cue) and verdict.points == 1


def _thin_second(sim: Simulation, verdict: Verdict) -> bool:
    t2 = _second_ball_time(sim)
    if t2 is None or verdict.points != 1:
        return False
    hit = next(h for h in _cue_hits(sim) if h.t_s == t2)
    cue = sim.stroke.cue_ball
    n = np.subtract(sim.position_mm(hit.other(cue), t2), sim.position_mm(cue, t2))
    v = np.array(sim.velocity_mps(cue, t2 - 1e-7))
    cos = abs(float(n @ v)) / (float(np.hypot(*n)) * float(np.hypot(*v)))
    return cos < math.cos(math.radians(78.0))


def _third_cushion_close(sim: Simulation, verdict: Verdict) -> bool:
    t2 = _second_ball_time(sim)
    cushions = _cue_cushion_times(sim)
    if t2 is None or len(cushions) < 3:
        return False
    return 0.002 < abs(cushions[2] - t2) < 0.02 and (cushions[1] < t2)


def _along_cushion(sim: Simulation, verdict: Verdict) -> bool:
    cue = sim.stroke.cue_ball
    t = np.arange(0.0, sim.duration_s, 0.005)
    xy = sim.positions_mm(t)[cue]
    r, table = sim.table.radius_mm, sim.table
    gaps = np.column_stack(
        (xy[:, 0] - r, table.length_mm - r - xy[:, 0], xy[:, 1] - r, table.width_mm - r - xy[:, 1])
    )
    touching = np.min(gaps, axis=1) < 0.5
    moving = np.hypot(*np.diff(xy, axis=0).T) > 0.5
    run = touching[1:] & moving
    longest = max((len(list(g)) for k, g in itertools.groupby(run.tolist()) if k), default=0)
    return longest * 0.005 >= 0.25 and bool(_cue_hits(sim))


def _frozen_away(sim: Simulation, verdict: Verdict) -> bool:
    hits = _cue_hits(sim)
    return bool(hits) and hits[0].t_s > 0.05 and verdict.points == 1


def _break_point(sim: Simulation, verdict: Verdict) -> bool:
    return _clean_point(sim, verdict)


def _pins_by_opponent(sim: Simulation, verdict: Verdict) -> bool:

    downs = [e for e in sim.events if isinstance(e, PinDown)]
    return bool(downs) and not verdict.fouls and all(d.ball != sim.stroke.cue_ball for d in downs)


def _pins_first(sim: Simulation, verdict: Verdict) -> bool:
    return Foul.PINS_BEFORE_OPPONENT_BALL in verdict.fouls


def _cue_off(sim: Simulation, verdict: Verdict) -> bool:
    return Foul.CUE_BALL_OFF_TABLE in verdict.fouls and len(_cue_hits(sim)) >= 1


def _white_pocketed(sim: Simulation, verdict: Verdict) -> bool:

    pocketed = [e.ball for e in sim.events if isinstance(e, Pocketed)]
    return bool(pocketed) and not verdict.fouls and Ball.RED not in pocketed


def _headings(centre: float, span: float, step: float) -> tuple[float, ...]:
    n = round(span / step)
    return tuple(round(centre + step * k, 6) for k in range(-n, n + 1))


# --- the registry -----------------------------------------------------------------


@functools.cache
def catalogue() -> dict[str, Scenario]:
    """Every registered scenario by name."""
    scenarios = [
        *_three_cushion(), *_three_cushion_hard(), *_pins_and_pockets(), *seven_pin_scenarios()
    ]  # fmt: skip
    return {s.name: s for s in scenarios}


#: The open-table layout several three-cushion strokes start from.
_OPEN_TABLE = ((W, (700.0, 400.0)), (R, (1500.0, 1000.0)), (Y, (2400.0, 300.0)))


def _three_cushion() -> list[Scenario]:
    return [*_three_cushion_outcomes(), *_three_cushion_set_ups()]


def _three_cushion_outcomes() -> list[Scenario]:
    """A point, a miss and a point after a kiss."""
    return [
        Scenario(
            name="3c-point",
            description="three-cushion point: red, three cushions, yellow; no kiss",
            discipline=THREE,
            positions_mm=_OPEN_TABLE,
            stroke=Stroke(W, 3.0, 18.0, 0.2, -0.3),
            opponent_ball=Y,
            want=_red_then_yellow,
            search=Search(_headings(180.0, 180.0, 1.0), (3.0, 4.0), (0.2, 0.4), (-0.3, 0.3)),
            expect=Expect(points=1),
        ),
        Scenario(
            name="3c-miss-two-cushions",
            description="both balls hit, but only two cushions before the second ball",
            discipline=THREE,
            positions_mm=_OPEN_TABLE,
            stroke=Stroke(W, 2.5, 38.0, 0.4, 0.0),
            opponent_ball=Y,
            want=_two_cushion_miss,
            search=Search(_headings(180.0, 180.0, 1.0), (2.5, 3.5), (0.2, 0.4), (0.0,)),
            expect=Expect(),
        ),
        Scenario(
            name="3c-kiss",
            description="point after a kiss: the first object ball comes back onto the cue ball",
            discipline=THREE,
            positions_mm=((W, (600.0, 300.0)), (R, (1000.0, 500.0)), (Y, (2300.0, 1100.0))),
            stroke=Stroke(W, 3.5, 313.0, 0.3, -0.4),
            opponent_ball=Y,
            want=_kiss,
            search=Search(_headings(180.0, 180.0, 1.0), (2.5, 3.5, 4.5), (-0.3, 0.3), (-0.4, 0.4)),
            expect=Expect(points=1),
        ),
    ]


def _three_cushion_set_ups() -> list[Scenario]:
    """Particular positions: the break, a frozen cue ball, a jump off the table."""
    return [
        Scenario(
            name="3c-break",
            description="the break: red on the foot spot, yellow on the head spot, a point",
            discipline=THREE,
            positions_mm=((W, (710.0, 558.0)), (Y, (710.0, 710.0)), (R, (2130.0, 710.0))),
            stroke=Stroke(W, 4.0, 8.0, 0.4, 0.5),
            opponent_ball=Y,
            want=_clean_point,
            search=Search(_headings(5.0, 10.0, 0.25), (3.0, 3.5, 4.0), (0.2, 0.4), (0.3, 0.5)),
            expect=Expect(points=1),
            is_break=True,
        ),
        Scenario(
            name="3c-frozen",
            description="cue ball frozen to the red, played away from it, scores",
            discipline=THREE,
            positions_mm=((W, (1000.0, 500.0)), (R, (1061.5, 500.0)), (Y, (2200.0, 1100.0))),
            stroke=Stroke(W, 4.0, 244.0, 0.2, 0.4),
            opponent_ball=Y,
            want=_frozen_away,
            search=Search(_headings(180.0, 80.0, 1.0), (3.0, 4.0), (0.2, 0.4), (-0.4, 0.4)),
            expect=Expect(points=1),
        ),
        Scenario(
            name="ball-off-table",
            description="the cue ball jumps off the table at its second cushion: a foul",
            discipline=THREE,
            positions_mm=_OPEN_TABLE,
            stroke=Stroke(W, 3.0, 36.0, 0.2, 0.0),
            opponent_ball=Y,
            want=_cue_off,
            search=Search(_headings(36.0, 10.0, 1.0), (3.0,), (0.2,), (0.0,)),
            expect=Expect(fouls=frozenset({Foul.CUE_BALL_OFF_TABLE})),
            jump_off=(JumpOff(W, 2),),
        ),
    ]


def _three_cushion_hard() -> list[Scenario]:
    return [
        Scenario(
            name="3c-thin-hit",
            description="point with a thin hit on the second ball (cut of 78 degrees or more)",
            discipline=THREE,
            positions_mm=((W, (700.0, 400.0)), (R, (1500.0, 1000.0)), (Y, (2400.0, 300.0))),
            stroke=Stroke(W, 4.0, 355.5, 0.2, 0.3),
            opponent_ball=Y,
            want=_thin_second,
            search=Search(_headings(180.0, 180.0, 0.5), (3.0, 4.0), (0.2, 0.4), (-0.3, 0.3)),
            expect=Expect(points=1),
        ),
        Scenario(
            name="3c-third-cushion-late",
            description="the third cushion 2-20 ms from the second ball (yellow near a cushion)",
            discipline=THREE,
            positions_mm=((W, (700.0, 400.0)), (R, (900.0, 600.0)), (Y, (2400.0, 45.0))),
            stroke=Stroke(W, 3.5, 38.5, 0.0, 0.4),
            opponent_ball=Y,
            want=_third_cushion_close,
            search=Search(
                _headings(45.0, 12.0, 0.1),
                (2.0, 2.5, 3.0, 3.5, 4.0, 5.0),
                (0.0, 0.2, 0.4),
                (-0.4, 0.0, 0.4),
            ),
            expect=Expect(points=1),
        ),
        Scenario(
            name="3c-along-cushion",
            description="the cue ball runs along a cushion for a while, one contact",
            discipline=THREE,
            positions_mm=((W, (300.0, 1380.0)), (R, (2500.0, 1345.0)), (Y, (1500.0, 300.0))),
            stroke=Stroke(W, 3.0, 0.4, 0.4, 0.3),
            opponent_ball=Y,
            want=_along_cushion,
            search=Search(_headings(0.0, 3.0, 0.1), (3.0, 4.0, 5.0), (0.2, 0.4), (-0.3, 0.3)),
            expect=Expect(),
        ),
    ]


def _pins_and_pockets() -> list[Scenario]:
    five = tuple(five_pins_layout().items())
    seven = tuple(seven_pins_layout().items())
    pockets = tuple(pyramid_pockets().items())
    return [
        Scenario(
            name="five-pins-score",
            description="five-pins: cue ball on yellow, yellow knocks pins",
            discipline=Discipline.FIVE_PINS,
            positions_mm=((W, (700.0, 400.0)), (Y, (1100.0, 900.0)), (R, (2300.0, 1100.0))),
            stroke=Stroke(W, 3.0, 48.0, 0.4, 0.0),
            opponent_ball=Y,
            want=_pins_by_opponent,
            search=Search(_headings(51.0, 10.0, 0.5), (1.5, 2.0, 3.0), (0.0, 0.4), (0.0,)),
            expect=Expect(points=12),
            pins_mm=five,
        ),
        Scenario(
            name="five-pins-foul",
            description="five-pins: the cue ball knocks pins before it touches yellow",
            discipline=Discipline.FIVE_PINS,
            positions_mm=((W, (900.0, 700.0)), (Y, (2200.0, 690.0)), (R, (2300.0, 1100.0))),
            stroke=Stroke(W, 2.0, 0.0, 0.2, 0.0),
            opponent_ball=Y,
            want=_pins_first,
            search=Search(_headings(0.0, 2.0, 0.5), (2.0,), (0.2,), (0.0,)),
            expect=Expect(opponent_points=10, fouls=frozenset({Foul.PINS_BEFORE_OPPONENT_BALL})),
            pins_mm=five,
        ),
        Scenario(
            name="7pin-pocket",
            description="7-pin game on a pyramid table: the red sends a white into a pocket",
            discipline=Discipline.PIN_CAROM_7,
            positions_mm=(
                (R, (500.0, 700.0)),
                (Ball.WHITE1, (887.5, 960.0)),
                (Ball.WHITE2, (2662.5, 960.0)),
            ),
            stroke=Stroke(R, 3.5, 44.0, 0.2, 0.0),
            opponent_ball=Ball.WHITE1,
            object_ball=Ball.WHITE2,
            table=PYRAMID_TABLE,
            want=_white_pocketed,
            search=Search(_headings(45.0, 45.0, 0.5), (2.5, 3.5), (0.2, 0.4), (0.0,)),
            expect=Expect(points=5),
            pins_mm=seven,
            pockets_mm=pockets,
            remaining=300,
            start_count=300,
        ),
    ]


#: Named event shapes for sequences (:mod:`synth._sequence`): each takes the
#: simulation and the referee's verdict of one stroke.
SHAPES: dict[str, Callable[[Simulation, Verdict], bool]] = {
    "clean-point": _clean_point,
    "miss-two-cushions": _two_cushion_miss,
    "kiss": _kiss,
    "thin": _thin_second,
    "third-cushion-close": _third_cushion_close,
    "along-cushion": _along_cushion,
    "cue-off": _cue_off,
    "pins-by-opponent": _pins_by_opponent,
    "pins-first": _pins_first,
    **SEVEN_SHAPES,
}
