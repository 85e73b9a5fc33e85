"""The independent simulator's shots for the event tests: the data, its noise, its tuning part.

``bench/data/pooltool_shots.json.gz`` (``docs/independent-events.md``), loaded once per
test process. The event tests sample its motion as a camera would, with
``NOISE_MM`` of noise, and look only at the tuning part: the held-out part is never
looked at here.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from synth import IndependentReplay, IndependentSet, load_independent_shots

DATA = Path(__file__).parents[3] / "bench" / "data" / "pooltool_shots.json.gz"
#: Sensor noise of a tracked centre (mm, one sigma per axis).
NOISE_MM = 0.3


@cache
def independent_set() -> IndependentSet:
    """The shots and their table."""
    return load_independent_shots(DATA)


def tuning_replays(n_shots: int) -> Iterator[IndependentReplay]:
    """The first ``n_shots`` shots of the tuning part, ready to sample."""
    data = independent_set()
    for shot in [s for s in data.shots if s.split != "held-out"][:n_shots]:
        yield IndependentReplay(shot, data.table)
