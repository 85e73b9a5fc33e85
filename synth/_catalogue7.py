"""The 7-pin game's scenarios (pocket table) and the event shapes they stand for.

Set-ups use the Russian pyramid table (3550 x 1775 mm, 68 mm balls) with the seven
pins standing and the six pockets open; the red is the cue ball, white1 starts beside
spot 1 and white2 beside spot 3 [rules.md §7]. Every stroke was found by
:func:`synth.search_stroke` on the scenario's ``search`` grid (``research``
finds it again). None is a break: each is judged as a stroke in the middle of a game,
300 still to go.
"""

from __future__ import annotations

from calibration import TableGeometry
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
from synth._params import Stroke
from synth._scenarios import (
    PYRAMID_TABLE,
    Expect,
    Scenario,
    Search,
    Want,
    pyramid_pockets,
    seven_pins_layout,
)
from synth._trajectory import Simulation

__all__ = ["SEVEN_SHAPES", "START_MM", "seven_pin_scenarios"]

R, W1, W2 = Ball.RED, Ball.WHITE1, Ball.WHITE2
XY = tuple[float, float]


#: The whites' starting places: on the long axis beside the spot pins, toward the
#: short cushions (the referee's re-spot places too) [rules.md §7].
START_MM: dict[Ball, XY] = TableGeometry(PYRAMID_TABLE).seven_pins_whites_mm()


# --- shapes -----------------------------------------------------------------------


def _downs(sim: Simulation) -> list[PinDown]:
    return [e for e in sim.events if isinstance(e, PinDown)]


def _pocketed(sim: Simulation) -> list[Ball]:
    return [e.ball for e in sim.events if isinstance(e, Pocketed)]


def _whites_hit(sim: Simulation) -> set[Ball]:
    hits = [e for e in sim.events if isinstance(e, BallContact) and e.involves(R)]
    return {h.other(R) for h in hits}


def _clean(verdict: Verdict) -> bool:
    return not verdict.fouls and verdict.review is None


def _white_pins(sim: Simulation, verdict: Verdict) -> bool:
    """Pins knocked by a white after its cushion: they score; nothing pocketed."""
    downs = _downs(sim)
    if not downs or _pocketed(sim) or not _clean(verdict) or verdict.points < 5:
        return False
    first = downs[0]
    cushions = [e.t_s for e in sim.events if isinstance(e, CushionContact) and e.ball == first.ball]
    return first.ball in (W1, W2) and bool(cushions) and cushions[0] < first.t_s


def _cue_pin(sim: Simulation, verdict: Verdict) -> bool:
    """The red knocks a pin: the one foul, its points go on the shooter's count."""
    return tuple(verdict.fouls) == (Foul.CUE_BALL_PIN,) and not _pocketed(sim)


def _carom7(sim: Simulation, verdict: Verdict) -> bool:
    """The red reaches both whites; no pin, no pocket: the carom's 5."""
    quiet = not _downs(sim) and not _pocketed(sim)
    return quiet and _whites_hit(sim) == {W1, W2} and _clean(verdict) and verdict.points == 5


def _miss7(sim: Simulation, verdict: Verdict) -> bool:
    """A white touched, nothing made: no score, no foul."""
    quiet = not _downs(sim) and not _pocketed(sim)
    return quiet and bool(_whites_hit(sim)) and _clean(verdict) and verdict.points == 0


def _white_pocketed(sim: Simulation, verdict: Verdict) -> bool:
    """A white (not the red) pocketed, no pin, no foul: 5 points."""
    pocketed = _pocketed(sim)
    return bool(pocketed) and R not in pocketed and not _downs(sim) and _clean(verdict)


def _break7(sim: Simulation, verdict: Verdict) -> bool:
    """A legal break [§7]: the far white hit directly, nothing pocketed."""
    return _clean(verdict) and not _pocketed(sim)


#: Named shapes for 7-pin sequences (:mod:`synth._sequence`).
SEVEN_SHAPES: dict[str, Want] = {
    "white-pins": _white_pins,
    "cue-pin": _cue_pin,
    "carom7": _carom7,
    "miss7": _miss7,
    "white-pocketed": _white_pocketed,
    "break7": _break7,
}


# --- the scenarios ----------------------------------------------------------------


def _scenario(
    name: str, description: str, red_mm: XY, stroke: Stroke, want: Want, search: Search,
    expect: Expect,
) -> Scenario:  # fmt: skip
    return Scenario(
        name=name, description=description, discipline=Discipline.PIN_CAROM_7,
        positions_mm=((R, red_mm), (W1, START_MM[W1]), (W2, START_MM[W2])),
        stroke=stroke, opponent_ball=W1, object_ball=W2, table=PYRAMID_TABLE, want=want,
        search=search, expect=expect, pins_mm=tuple(seven_pins_layout().items()),
        pockets_mm=tuple(pyramid_pockets().items()), remaining=300, start_count=300,
    )  # fmt: skip


def _all(step: float, speeds: tuple[float, ...], seed: int) -> Search:
    headings = tuple(round(k * step, 3) for k in range(round(360.0 / step)))
    return Search(headings, speeds, (0.2, 0.4), (-0.3, 0.0, 0.3), seed)


def seven_pin_scenarios() -> list[Scenario]:
    """The 7-pin single strokes: white pins, cue-ball pin, carom, miss."""
    return [
        _scenario(
            "7pin-white-pins",
            "7-pin game: a white knocks pins after a cushion (they score)",
            (1300.0, 400.0),
            Stroke(R, 3.5, 332.0, 0.4, 0.0),
            _white_pins,
            _all(1.0, (2.5, 3.5), 1),
            Expect(points=35),
        ),
        _scenario(
            "7pin-cue-pin",
            "7-pin game: the red knocks a pin, a penalty on the shooter's count",
            (1300.0, 400.0),
            Stroke(R, 2.5, 308.0, 0.2, -0.3),
            _cue_pin,
            _all(1.0, (1.5, 2.5), 2),
            Expect(penalty=35, fouls=frozenset({Foul.CUE_BALL_PIN})),
        ),
        _scenario(
            "7pin-carom",
            "7-pin game: the red reaches both whites, no pin (a carom, 5)",
            (1300.0, 400.0),
            Stroke(R, 2.0, 10.0, 0.4, 0.0),
            _carom7,
            _all(1.0, (2.0, 3.0), 3),
            Expect(points=5),
        ),
        _scenario(
            "7pin-miss",
            "7-pin game: the red touches a white, nothing made",
            (1300.0, 400.0),
            Stroke(R, 2.0, 17.0, 0.4, 0.3),
            _miss7,
            _all(1.0, (1.5, 2.0), 4),
            Expect(),
        ),
    ]
