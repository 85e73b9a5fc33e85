"""Ball trajectories per shot, as the ``carom-trajectories/1`` files hold them.

A :class:`Trajectories` is the table and one :class:`ShotTrack` per shot of the shot
log (same ``index``). A shot's samples share one timeline: the frames from the one at
the shot's ``start_s`` to the one at its ``end_s``, each with its frame number and its
time on the shot log's clock (seconds of the recording). Every ball has one sample per
frame (:class:`BallPath`): the centre in table mm at ball-centre height (``None``: the
tracker has no position) and its :class:`vision.TrackFlag` bits. docs/trajectories.md
describes the format.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass

from referee import Ball, CaromError, Table

__all__ = [
    "FLAG_NAMES",
    "FORMAT",
    "BallPath",
    "ShotTrack",
    "Trajectories",
    "TrajectoriesError",
    "flag_text",
]

#: The format name and version a trajectories file states.
FORMAT = "carom-trajectories/1"

#: The flags' names in the files, with their bits (the JSON's ``flags`` legend): the
#: bits of ``vision.TrackFlag`` (written out so that reading the files loads no vision).
FLAG_NAMES: Mapping[str, int] = {"predicted": 1, "occluded": 2, "interpolated": 4}
_ALL = sum(FLAG_NAMES.values())


class TrajectoriesError(CaromError):
    """A trajectories document or value is malformed (the message names the field)."""


def flag_text(flags: int) -> str:
    """A sample's flags as the CSV writes them: names joined by ``+`` (``""``: measured)."""
    return "+".join(name for name, bit in FLAG_NAMES.items() if flags & bit)


def _check_flags(flags: int, has_position: bool) -> str | None:
    """Why a sample's flags are impossible, or None.

    ``occluded`` comes with ``predicted`` (an unseen ball was not measured);
    ``interpolated`` with neither (the frame was not analysed at all); a measured
    sample (no flag) has a position.
    """
    if not 0 <= flags <= _ALL:
        return f"flags {flags}: expected 0 to {_ALL}"
    p, o, i = (bool(flags & FLAG_NAMES[n]) for n in ("predicted", "occluded", "interpolated"))
    if o and not p:
        return f"flags {flags}: occluded without predicted"
    if i and (p or o):
        return f"flags {flags}: interpolated with predicted or occluded"
    if flags == 0 and not has_position:
        return "a measured sample (flags 0) without a position"
    return None


@dataclass(frozen=True, slots=True)
class BallPath:
    """One ball's n samples in a shot, one per frame of the shot's timeline.

    Args:
        x_mm: (n,) centre x in table mm (head cushion 0 -> foot cushion), ``None``
            where the tracker has no position.
        y_mm: (n,) centre y in table mm (left cushion 0 -> right cushion), ``None``
            exactly where ``x_mm`` is.
        flags: (n,) :data:`FLAG_NAMES` bits of each sample (0: measured in that frame).
    """

    x_mm: tuple[float | None, ...]
    y_mm: tuple[float | None, ...]
    flags: tuple[int, ...]

    def __post_init__(self) -> None:
        n = len(self.x_mm)
        if len(self.y_mm) != n or len(self.flags) != n:
            raise TrajectoriesError(
                f"expected as many y_mm and flags as x_mm ({n}), got {len(self.y_mm)} "
                f"and {len(self.flags)}"
            )
        known = [x is not None for x in self.x_mm]
        if known != [y is not None for y in self.y_mm]:
            k = next(k for k, y in enumerate(self.y_mm) if known[k] != (y is not None))
            raise TrajectoriesError(f"sample {k}: x_mm and y_mm must both be null or not")
        values = [v for v in (*self.x_mm, *self.y_mm) if v is not None]
        if not all(math.isfinite(v) for v in values):
            raise TrajectoriesError("expected finite mm")
        for flags in set(self.flags):  # a few distinct values: each checked once
            k = self.flags.index(flags)
            if (why := _check_flags(flags, True)) is not None:
                raise TrajectoriesError(f"sample {k}: {why}")
        if 0 in self.flags and not all(known[k] for k, f in enumerate(self.flags) if f == 0):
            k = next(k for k, f in enumerate(self.flags) if f == 0 and not known[k])
            raise TrajectoriesError(f"sample {k}: {_check_flags(0, False)}")

    def __len__(self) -> int:
        return len(self.flags)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotTrack:
    """The balls' samples of one shot over its n frames.

    Args:
        index: The shot's ``index`` in the shot log.
        cue_ball: The shot log's ``cue_ball``.
        start_s: The shot log's ``start_s`` (``None``: unknown).
        end_s: The shot log's ``end_s`` (``None``: unknown).
        frame_idx: (n,) increasing frame numbers of the recording (``None``: the
            sample is not from a numbered frame).
        t_s: (n,) strictly increasing times, seconds on the shot log's clock.
        balls: Every tracked ball's :class:`BallPath`, each of n samples.
    """

    index: int
    cue_ball: Ball
    start_s: float | None
    end_s: float | None
    frame_idx: tuple[int | None, ...]
    t_s: tuple[float, ...]
    balls: Mapping[Ball, BallPath]

    def __post_init__(self) -> None:
        n = len(self.t_s)
        if self.index < 0:
            raise TrajectoriesError(f"index: expected 0 or more, got {self.index}")
        if len(self.frame_idx) != n:
            raise TrajectoriesError(f"frame_idx: expected {n} values (one per t_s), got "
                                    f"{len(self.frame_idx)}")  # fmt: skip
        if not all(math.isfinite(t) for t in self.t_s):
            raise TrajectoriesError("t_s: expected finite times")
        if any(b <= a for a, b in zip(self.t_s, self.t_s[1:], strict=False)):
            raise TrajectoriesError("t_s: expected strictly increasing times")
        known = [f for f in self.frame_idx if f is not None]
        if any(f < 0 for f in known) or any(b <= a for a, b in itertools.pairwise(known)):
            raise TrajectoriesError("frame_idx: expected increasing frame numbers from 0")
        for ball, path in self.balls.items():
            if len(path) != n:
                raise TrajectoriesError(f"balls.{ball}: expected {n} samples, got {len(path)}")

    def __len__(self) -> int:
        return len(self.t_s)


@dataclass(frozen=True, slots=True, kw_only=True)
class Trajectories:
    """The table and one :class:`ShotTrack` per shot, in the shot log's order.

    Shot indexes increase; a shot without tracks (a live journal entry written before
    tracks were kept) is left out.
    """

    table: Table
    shots: tuple[ShotTrack, ...]

    def __post_init__(self) -> None:
        indexes = [s.index for s in self.shots]
        if any(b <= a for a, b in itertools.pairwise(indexes)):
            raise TrajectoriesError(f"shots: expected increasing shot indexes, got {indexes}")

    @property
    def n_samples(self) -> int:
        """Samples of every ball in every shot (rows of the CSV)."""
        return sum(len(s) * len(s.balls) for s in self.shots)
