"""The bundled sample clips: their sequences, cameras and looks, made from seeds.

``carom synth --samples sample_videos/`` regenerates every clip; the same code and
seeds give the same files. Each sequence is a short match fragment judged by the
referee; each clip sets a camera and a look (see ``sample_videos/README.md``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from referee import Ball, Discipline
from synth._catalogue7 import START_MM
from synth._lag import lag_scenario
from synth._make import CameraSettings, LookSettings
from synth._scenarios import PYRAMID_TABLE, Search, scenario
from synth._sequence import Beat, Sequence, SequenceSpec, play_sequence

__all__ = ["SAMPLES", "Sample", "sequence", "sequence_names"]

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
_OPEN = ((W, (700.0, 400.0)), (R, (1500.0, 1000.0)), (Y, (2400.0, 300.0)))
MAX_BYTES = 3_000_000


def _grid(
    seed: int,
    step: float,
    speeds: tuple[float, ...],
    follows: tuple[float, ...] = (0.2, 0.4),
    sides: tuple[float, ...] = (-0.3, 0.0, 0.3),
) -> Search:
    headings = tuple(round(k * step, 3) for k in range(round(360.0 / step)))
    return Search(headings, speeds, follows, sides, seed)


def _from_scenario(name: str, shape: str) -> Beat:
    """A beat that sets up a catalogue scenario's layout and searches its grid."""
    sc = scenario(name)
    roles = {sc.stroke.cue_ball: "cue", sc.opponent_ball: "opp", sc.object_ball: "obj"}
    setup = tuple((roles[b], xy) for b, xy in sc.positions_mm)
    return Beat(shape, sc.search, setup=setup)


#: A stroke played with the opponent's ball under the player's bridge arm (occlusion:
#: found by rendering candidate layouts with this clip's camera and seed and reading
#: the truth's ``covered`` flags; a test checks the committed clip has covered frames).
_ARM_SETUP = (("cue", (1000.0, 700.0)), ("opp", (674.6, 712.0)), ("obj", (1800.0, 1000.0)))
_ARM_GRID = Search(
    tuple(round(-12.0 + 0.5 * k, 2) for k in range(49)),
    (2.5, 3.0, 3.5, 4.0), (0.2, 0.4), (-0.4, -0.2, 0.0, 0.2, 0.4), 7,
)  # fmt: skip


def _specs() -> dict[str, SequenceSpec]:
    specs = [*_plain_specs(), *_special_specs()]
    return {s.name: s for s in specs}


def _plain_specs() -> list[SequenceSpec]:
    """Match fragments played from a layout with a searched grid per stroke."""
    return [
        SequenceSpec(
            name="three-cushion-match",
            description="three-cushion: a point, a miss, a point after a kiss, a thin-hit point",
            discipline=Discipline.THREE_CUSHION, start_mm=_OPEN,
            beats=(Beat("clean-point", _grid(1, 2.0, (2.5, 3.5))),
                   Beat("miss", _grid(3, 2.0, (2.5, 3.5))),
                   _from_scenario("3c-kiss", "kiss"),
                   _from_scenario("3c-thin-hit", "thin")),
        ),
        SequenceSpec(
            name="five-pins-match",
            description="five-pins: an opening stroke that scores (not from the break "
                        "position), a ricochet with a pin, a legal no-score stroke, a missed "
                        "opponent ball (foul, ball in hand)",
            discipline=Discipline.FIVE_PINS,
            start_mm=((W, (700.0, 400.0)), (Y, (1100.0, 900.0)), (R, (2300.0, 1100.0))),
            beats=(Beat("pins-by-opponent", _grid(1, 2.0, (2.0, 3.0), sides=(0.0,))),
                   Beat("pins-by-opponent", _grid(2, 2.0, (2.0, 3.0), sides=(0.0,))),
                   Beat("miss", _grid(3, 2.0, (1.5, 2.5), (0.2,), (0.0,))),
                   Beat("foul", _grid(4, 2.0, (1.5, 2.5), (0.2,), (0.0,)))),
        ),
        SequenceSpec(
            name="balkline-47-2",
            description="balkline 47/2: a carom with both object balls in a zone, a second "
                        "carom there that leaves them in (zone limit), then one that "
                        "drives them out",
            discipline=Discipline.BALKLINE_47_2, paths_hz=50.0,
            start_mm=((W, (600.0, 250.0)), (R, (300.0, 200.0)), (Y, (250.0, 330.0))),
            beats=(Beat("zone-point", _grid(1, 1.0, (0.4, 0.6, 0.9))),
                   Beat("zone-limit", _grid(3, 1.0, (0.4, 0.6, 0.9))),
                   Beat("point", _grid(2, 1.0, (0.6, 1.2, 2.0)))),
        ),
    ]  # fmt: skip


def _special_specs() -> list[SequenceSpec]:
    """Fragments that need more: close calls and an arm, a lag, a pocket table."""
    return [
        SequenceSpec(
            name="three-cushion-hard",
            description="three-cushion close calls: a ball running along a cushion, a third "
                        "cushion a few milliseconds from the second ball, then a point "
                        "struck with the player's arm over the other cue ball",
            discipline=Discipline.THREE_CUSHION, start_mm=scenario("3c-along-cushion").positions_mm,
            beats=(_from_scenario("3c-along-cushion", "along-cushion"),
                   _from_scenario("3c-third-cushion-late", "third-cushion-close"),
                   Beat("point", _ARM_GRID, setup=_ARM_SETUP)),
        ),
        SequenceSpec(
            name="three-cushion-lag-match",
            description="three-cushion from the lag: yellow (B) wins the lag and breaks "
                        "with a point, then a miss, then white (A) scores",
            discipline=Discipline.THREE_CUSHION, start_mm=_OPEN, lag=lag_scenario("lag-clean"),
            beats=(Beat("clean-point", scenario("3c-break").search),
                   Beat("miss", _grid(3, 2.0, (2.5, 3.5))),
                   Beat("point", _grid(5, 2.0, (2.5, 3.5)))),
        ),
        SequenceSpec(
            name="seven-pins-match",
            description="7-pin game on a pocket table: a direct break on white2, pins knocked "
                        "by a white after a cushion, a carom that pockets a white, the red "
                        "knocking a pin (penalty)",
            discipline=Discipline.PIN_CAROM_7, table=PYRAMID_TABLE,
            start_mm=((R, (500.0, 450.0)), *START_MM.items()),
            beats=(Beat("break7", _grid(1, 0.5, (2.5, 3.5), sides=(0.0,))),
                   Beat("white-pins", _grid(2, 1.0, (2.5, 3.5))),
                   Beat("white-pocketed", _grid(3, 1.0, (2.5, 3.5))),
                   Beat("cue-pin", _grid(4, 1.0, (1.5, 2.5)))),
        ),
    ]  # fmt: skip


def sequence_names() -> tuple[str, ...]:
    """Names of the sample sequences."""
    return tuple(_specs())


def sequence_description(name: str) -> str:
    """The one-line description of the sample sequence ``name`` (KeyError if unknown)."""
    return _specs()[name].description


@functools.cache
def _played(name: str) -> Sequence:
    return play_sequence(_specs()[name])


def sequence(name: str, progress: Callable[[str], None] | None = None) -> Sequence:
    """The sample sequence ``name``, played (cached: playing searches strokes)."""
    if progress is not None:
        progress(f"playing {name}: searching strokes")
    return _played(name)


@dataclass(frozen=True, slots=True)
class Sample:
    """A bundled clip: which sequence, seen by which camera, in which look."""

    sequence: str
    camera: CameraSettings
    look: LookSettings
    seed: int
    what: str


SAMPLES: dict[str, Sample] = {
    "three_cushion_match": Sample(
        "three-cushion-match",
        CameraSettings(height_m=2.8, k1=-0.06, k2=0.01),
        LookSettings(cloth="blue", score_graphic=True),
        11,
        "blue cloth, 2.8 m, mild barrel lens, player and cue, broadcast score box",
    ),
    "five_pins_match": Sample(
        "five-pins-match",
        CameraSettings(height_m=3.0),
        LookSettings(cloth="blue"),
        12,
        "blue cloth, 3.0 m, pins standing and falling, ball in hand after the foul",
    ),
    "balkline_47_2": Sample(
        "balkline-47-2",
        CameraSettings(height_m=2.6, fps=50.0),
        LookSettings(cloth="green"),
        13,
        "green cloth, 2.6 m, 50 fps, slow nursing strokes in a corner zone",
    ),
    "hard_three_cushion": Sample(
        "three-cushion-hard",
        CameraSettings(
            height_m=2.3,
            fps=60.0,
            tilt_deg=6.0,
            roll_deg=3.0,
            k1=-0.3,
            k2=0.09,
            p1=0.002,
            p2=-0.0015,
        ),
        LookSettings(cloth="green", light=0.45, noise=3.0),
        14,
        "hard: green cloth, dim light with sensor gain noise, 2.3 m wide lens with strong "
        "distortion, tilt and roll, 60 fps, the player's arm over the balls",
    ),
    "seven_pins_match": Sample(
        "seven-pins-match",
        CameraSettings(height_m=3.2),
        LookSettings(cloth="blue"),
        15,
        "blue cloth, 3.2 m over the 3.55 m pyramid table, six pockets, seven pins",
    ),
}
