"""Multi-ball tracking: per-frame detections in pixels -> one path per ball in table mm.

Theory of operation. Each frame the detections are mapped to table mm at ball-centre
height (:class:`calibration.PxToMm`) and every known ball is predicted to the frame
time (:class:`vision.track._ball_filter.BallFilter`: rolling, slowing, bouncing, or at rest). Where
two predicted straight paths meet inside the frame the balls must have collided (they
cannot pass through each other): both predictions become an elastic collision's outcome.
The detections then go to the balls by the cheapest joint assignment over all choices,
"not seen" included (a few balls: exhaustive). A pair costs the squared Mahalanobis
distance to the prediction, plus a colour-mismatch cost (the detector may call the
yellow white in dim light; cheaper right on the prediction), plus a little for a low
score. A detection outside the gate is only taken at once where another ball just
passed close (an unforeseen collision). Any other jump (a cue strike, a ball found
after the player's arm, a ball put back by hand) needs consecutive sightings at
consistent places within a gate that grows with the time unseen: two when the new
motion starts where the ball was, three when not (that one is flagged); the sightings
are then written back into the history. Two balls of one colour class (white and
dotted white; the 7-pin game's white1 and white2, both reported as white) are told
apart by continuity alone, named from ``start_mm`` (the nearest start) if given.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration, PxToMm
from referee import Ball
from vision._types import UNSEEN, BallTrack, Detections, TrackFlag, VisionError
from vision.track._assignment import best_two, differs, passed_near, same_classes, swapped
from vision.track._ball_filter import XY, BallFilter, collision
from vision.track._measure import Measurement, measure
from vision.track._steps import TrackStep, reported_xy

__all__ = ["Tracker"]

F64 = NDArray[np.float64]
B1 = NDArray[np.bool_]

MAX_SPEED_MM_S = 10_000.0  # faster than any carom stroke: bounds every jump gate
GATE = 25.0  # squared Mahalanobis distance of a normal match (5 sigma)
MISS_COST = 30.0  # cost of "not seen this frame"
MISLABEL_COST = 20.0  # detection's colour class differs from the ball's ...
MISLABEL_ON_SPOT_COST = 8.0  # ... down to this when it sits right on the prediction
CONTACT_COST = 25.0  # a jump next to a moving ball (collision), taken at once
SWAP_MARGIN = 6.0  # an assignment with two balls exchanged this close in cost: ambiguous
FAR_MM = 120.0  # re-acquired this far from where its new motion started: flagged
NEW_TRACK_MM = 4000.0  # a ball never seen, start unknown: costs as if this far away
POCKET_GONE_S = 0.1  # unseen this long after running into a pocket's reach: pocketed

Sighting = tuple[int, float, XY]  # frame_idx, t_s, xy_mm


@dataclass(slots=True)
class _Track:
    ball: Ball
    filt: BallFilter | None = None
    t_seen: float = -math.inf
    xy_seen: XY | None = None
    pending: list[Sighting] = field(default_factory=list)  # unconfirmed jump, in order
    before: XY | None = None  # position at the previous frame (for contact tests)
    v_before: XY = (0.0, 0.0)  # velocity at the previous frame
    far: bool = False  # the last re-acquisition was far from where the ball had been
    speed_seen: float = 0.0  # filter speed when last seen, mm/s
    frames: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    xys: list[tuple[float, float]] = field(default_factory=list)
    seens: list[bool] = field(default_factory=list)
    flags: list[int] = field(default_factory=list)  # TrackFlag bits of each sample


class Tracker:
    """Keeps one identity per ball over a whole video (see the module docstring).

    Args:
        calibration: Maps detection pixels to table mm (ball-centre plane).
        balls: The balls on the table.
        fps: Frame rate; sets the rest window.
        sigma_px: Detector centre noise in pixels.
        start_mm: Known start positions, to name two balls of one colour class.
        grid_px: Pixel grid step of the pixel -> mm map (0: exact, slow).
    """

    def __init__(
        self,
        calibration: Calibration,
        balls: Sequence[Ball] = (Ball.WHITE, Ball.YELLOW, Ball.RED),
        *,
        fps: float,
        sigma_px: float = 0.5,
        start_mm: Mapping[Ball, tuple[float, float]] | None = None,
        grid_px: int = 8,
    ) -> None:
        if not balls or len(set(balls)) != len(balls) or len(balls) > 5:
            raise VisionError(f"balls: expected 1 to 5 distinct balls, got {list(balls)}")
        if not all(isinstance(b, Ball) for b in balls):
            raise VisionError(f"balls: expected Ball members, got {list(balls)}")
        if not (math.isfinite(fps) and fps > 0):
            raise VisionError(f"fps must be a positive number, got {fps!r}")
        geo = calibration.geometry
        self.radius_mm = geo.radius_mm
        r = self.radius_mm
        self._bounds = (r, r, geo.length_mm - r, geo.width_mm - r)
        self._map = PxToMm(calibration, r, grid_px)
        self._window = max(8, round(0.4 * fps))
        self._sigma_px = sigma_px
        self._start = dict(start_mm or {})
        self._tracks = [_Track(b) for b in balls]
        self._same = same_classes(tuple(balls))
        self._pockets = list(geo.pockets_mm().values())
        self._last: tuple[int, float] | None = None

    @property
    def balls(self) -> tuple[Ball, ...]:
        """The tracked balls, in order."""
        return tuple(t.ball for t in self._tracks)

    def update(self, frame_idx: int, t_s: float, detections: Detections) -> TrackStep:
        """Take one frame's detections; returns every ball's state at ``t_s``.

        Raises:
            VisionError: times do not increase (frames out of order).
        """
        if self._last is not None and not t_s > self._last[1]:
            raise VisionError(
                f"frame {frame_idx} at {t_s:.6f} s is not after frame {self._last[0]}; "
                "feed frames in order"
            )
        dt = math.inf if self._last is None else t_s - self._last[1]
        self._last = (frame_idx, t_s)
        meas = self._measure(detections)
        for tr in self._tracks:
            tr.before = None if tr.filt is None else tr.filt.xy_mm
            if tr.filt is not None:
                s = tr.filt.state
                tr.v_before = (0.0, 0.0) if tr.filt.at_rest else (s[2], s[3])
                tr.filt.predict(t_s)
        if dt < 0.25:  # frames in a row: predict the collisions they would show
            self._collide(dt)
        seen = [False] * len(self._tracks)
        ambiguous = [False] * len(self._tracks)
        used = self._match(frame_idx, t_s, meas, seen, ambiguous)
        self._reacquire(frame_idx, t_s, meas, used, seen, ambiguous)
        self._pocketed(t_s)
        return self._record(frame_idx, t_s, seen, ambiguous)

    # --- measurements ---
    def _measure(self, det: Detections) -> list[Measurement]:
        """Detections -> table mm with noise; detections off the table are dropped."""
        return measure(det, self._map, self._bounds, self.radius_mm, self._sigma_px)

    def _class_cost(self, ball: Ball, label: Ball) -> float:
        return 0.0 if label == ball or label in self._same.get(ball, ()) else MISLABEL_COST

    # --- stage 1: continuity ---

    def _match(
        self, frame_idx: int, t_s: float, meas: list[Measurement], seen: list[bool], amb: list[bool]
    ) -> set[int]:
        options: list[list[tuple[float, int]]] = []
        contacts: set[tuple[int, int]] = set()  # (track, det) taken as a collision jump
        near = self._contacts()
        two_r = 2 * self.radius_mm
        for i, tr in enumerate(self._tracks):
            opts: list[tuple[float, int]] = [(MISS_COST, -1)]
            options.append(opts)
            if tr.filt is None:
                continue
            wide = two_r + MAX_SPEED_MM_S * (t_s - tr.t_seen)
            here = tr.filt.xy_mm
            for k, z in enumerate(meas):
                d = math.dist(z.xy_mm, here)
                cls = self._class_cost(tr.ball, z.label)
                if d > wide or (cls and d > two_r):
                    continue  # a colour mismatch is believed only right at the ball
                m = tr.filt.gate(z.xy_mm, z.noise_mm2)
                if cls:  # a wrong colour right on the prediction is likely a misread
                    cls = min(cls, MISLABEL_ON_SPOT_COST + 3.0 * m)
                extra = cls + 3.0 * (1.0 - z.score)
                if m < GATE:
                    opts.append((m + extra, k))
                elif near[i] and not cls:
                    opts.append((CONTACT_COST + extra + d / 200.0, k))
                    contacts.add((i, k))
        best, second = best_two(options)
        used: set[int] = set()
        for i, k in enumerate(best[1]):
            if k >= 0:
                seen[i] = self._accept(i, frame_idx, t_s, meas[k], (i, k) in contacts)
                used.add(k)
        if second is not None and second[0] - best[0] < SWAP_MARGIN:
            for i in swapped(best[1], second[1]):
                amb[i] = True
        return used

    def _accept(self, i: int, frame_idx: int, t_s: float, z: Measurement, contact: bool) -> bool:
        """Give a matched measurement to a ball; False if it stays a doubtful sighting."""
        tr = self._tracks[i]
        assert tr.filt is not None
        if contact:  # a collision: the old velocity means nothing now
            tr.filt.start_moving(z.xy_mm)
        was_at_rest = tr.filt.at_rest
        if not tr.filt.update(z.xy_mm, z.noise_mm2, t_s, z.blur_mm):
            tr.pending = [(frame_idx, t_s, z.xy_mm)]  # a ball at rest may start here
            return False
        if was_at_rest and not tr.filt.at_rest and tr.filt.released > 1:
            # it did start: its first steps were real, not the rest mean
            self._backfill_times(tr, list(tr.filt.recent)[-tr.filt.released : -1])
        tr.t_seen, tr.xy_seen, tr.pending = t_s, z.xy_mm, []
        tr.speed_seen = tr.filt.speed_mm_s
        return True

    def _pocketed(self, t_s: float) -> None:
        """A ball that ran into a pocket's reach and stayed unseen is gone: no filter.

        It is no longer predicted (it would roll on to a stop beside the pocket and
        could take a look-alike's detection there); found again, it is a new sighting,
        first looked for at its start (a pocketed 7-pin white is put back there).
        """
        for tr in self._tracks:
            if tr.filt is None or tr.xy_seen is None or t_s - tr.t_seen < POCKET_GONE_S:
                continue
            reach = 4.0 * self.radius_mm + tr.speed_seen * POCKET_GONE_S
            if tr.speed_seen > 100.0 and any(
                math.dist(tr.xy_seen, p) < reach for p in self._pockets
            ):
                tr.filt, tr.pending = None, []

    def _collide(self, dt: float) -> None:
        """Where two balls' straight paths meet within the frame, they collided.

        Balls cannot pass through each other, so the no-collision prediction is wrong
        there: replace both with an elastic collision of equal balls along the line of
        centres at contact (spin and throw are left to the wider spread).
        """
        done: set[int] = set()
        for i, j in itertools.combinations(range(len(self._tracks)), 2):
            a, b = self._tracks[i], self._tracks[j]
            if {i, j} & done or a.filt is None or b.filt is None:
                continue
            if a.before is None or b.before is None:
                continue
            hit = collision(a.before, a.v_before, b.before, b.v_before, 2 * self.radius_mm, dt)
            if hit is None:
                continue
            (pa, va), (pb, vb), rest = hit
            a.filt.set_motion((pa[0] + va[0] * rest, pa[1] + va[1] * rest), va, 10.0, 500.0)
            b.filt.set_motion((pb[0] + vb[0] * rest, pb[1] + vb[1] * rest), vb, 10.0, 500.0)
            done |= {i, j}

    def _contacts(self) -> list[bool]:
        """Per ball: did another ball's last move pass near it (it may have been hit)?"""
        moves = [
            None if t.filt is None or t.before is None else (t.before, t.filt.xy_mm, t.filt.at_rest)
            for t in self._tracks
        ]
        return passed_near(moves, 2 * self.radius_mm + 30.0)

    # --- stage 2: confirmed jumps, first sight ---

    def _reacquire(
        self, frame_idx: int, t_s: float, meas: list[Measurement], used: set[int],
        seen: list[bool], amb: list[bool],
    ) -> None:  # fmt: skip
        free = [k for k in range(len(meas)) if k not in used]
        lost = [i for i, tr in enumerate(self._tracks) if not seen[i]]
        if not lost:
            return
        options: list[list[tuple[float, int]]] = []
        for i in lost:
            tr = self._tracks[i]
            opts: list[tuple[float, int]] = [(10.0, -1)]
            wide = 2 * self.radius_mm + MAX_SPEED_MM_S * (t_s - tr.t_seen)
            near = tr.filt.xy_mm if tr.filt is not None else self._start.get(tr.ball)
            for k in free:
                d = NEW_TRACK_MM if near is None else math.dist(meas[k].xy_mm, near)
                if d <= wide and not self._class_cost(tr.ball, meas[k].label):
                    # nearer first; among equals (a first sighting) the likelier ball
                    opts.append((d / 1000.0 + 0.2 * (1.0 - meas[k].score), k))
            options.append(opts)
        best, second = best_two(options)
        for i, k in zip(lost, best[1], strict=True):
            tr = self._tracks[i]
            if k < 0:
                if tr.pending and frame_idx - tr.pending[-1][0] > 2:
                    tr.pending = []
                continue
            if second is not None and second[0] - best[0] < 0.05 and differs(best, second, k):
                amb[i] = True  # e.g. two whites first seen: nothing tells them apart
            if self._confirm(tr, frame_idx, t_s, meas[k]):
                seen[i] = True
                amb[i] = amb[i] or tr.far

    def _confirm(self, tr: _Track, frame_idx: int, t_s: float, z: Measurement) -> bool:
        """Consistent sightings in a row -> a new filter there (sets ``tr.far``).

        Two confirm a jump that starts where the ball was (a cue strike); three one that
        does not (a ball put back by hand, found after the arm), which a pair of chalk
        blobs or wrong detections will rarely fake.
        """
        last = tr.pending[-1] if tr.pending else None
        reach = 2 * self.radius_mm + MAX_SPEED_MM_S * (t_s - last[1]) if last else 0.0
        if last is None or frame_idx - last[0] > 2 or math.dist(z.xy_mm, last[2]) > reach:
            tr.pending = [(frame_idx, t_s, z.xy_mm)]
            return False
        tr.pending.append((frame_idx, t_s, z.xy_mm))
        (_, t0, p0), (_, t1, p1) = tr.pending[0], tr.pending[1]
        v = ((p1[0] - p0[0]) / (t1 - t0), (p1[1] - p0[1]) / (t1 - t0))
        tr.far = False
        if tr.xy_seen is not None:  # where the new motion started vs where the ball was
            back = t0 - tr.t_seen
            start = (p0[0] - v[0] * back, p0[1] - v[1] * back)
            tr.far = math.dist(start, tr.xy_seen) > FAR_MM
        if len(tr.pending) < (3 if tr.far else 2):
            return False
        (_, ta, pa), (_, tb, pb) = tr.pending[-2], tr.pending[-1]
        v = ((pb[0] - pa[0]) / (tb - ta), (pb[1] - pa[1]) / (tb - ta))
        tr.filt = BallFilter(z.xy_mm, t_s, self._bounds, self._window, v)
        tr.filt.update(z.xy_mm, z.noise_mm2, t_s, z.blur_mm)
        self._backfill(tr, tr.pending[:-1])
        tr.pending, tr.t_seen, tr.xy_seen = [], t_s, z.xy_mm
        tr.speed_seen = tr.filt.speed_mm_s
        return True

    @staticmethod
    def _backfill(tr: _Track, sightings: list[Sighting]) -> None:
        """The confirming sightings join the history as seen."""
        for frame_idx, _, xy in sightings:
            i = len(tr.frames) - 1
            while i >= 0 and tr.frames[i] > frame_idx:
                i -= 1
            if i >= 0 and tr.frames[i] == frame_idx:
                tr.xys[i], tr.seens[i], tr.flags[i] = xy, True, 0

    @staticmethod
    def _backfill_times(tr: _Track, measured: list[tuple[float, float, float]]) -> None:
        """Measurements ``(t_s, x, y)`` replace the recorded (rest mean) positions."""
        for t_s, x, y in measured:
            i = bisect.bisect_left(tr.times, t_s)
            if i < len(tr.times) and tr.times[i] == t_s:
                tr.xys[i], tr.seens[i], tr.flags[i] = (x, y), True, 0

    # --- history ---

    def _record(self, frame_idx: int, t_s: float, seen: list[bool], amb: list[bool]) -> TrackStep:
        k = len(self._tracks)
        xys: list[XY] = []
        speed, rest = [0.0] * k, [False] * k
        for i, tr in enumerate(self._tracks):
            xy = (math.nan, math.nan)
            if tr.filt is not None:
                xy, speed[i], rest[i] = tr.filt.xy_mm, tr.filt.speed_mm_s, tr.filt.at_rest
                if seen[i] and not rest[i] and tr.t_seen == t_s:
                    xy = reported_xy(xy, tr.xy_seen)
            xys.append(xy)
            tr.frames.append(frame_idx)
            tr.times.append(t_s)
            tr.xys.append(xy)
            tr.seens.append(seen[i])
            tr.flags.append(self._flags(tr, frame_idx, seen[i]))
        return TrackStep(
            frame_idx, t_s, self.balls, np.array(xys), np.array(seen), np.array(speed),
            np.array(rest), np.array(amb),
        )  # fmt: skip

    @staticmethod
    def _flags(tr: _Track, frame_idx: int, seen: bool) -> int:
        """The sample's :class:`TrackFlag` bits: a sighting held as doubtful is no occlusion."""
        if seen:
            return 0
        held = bool(tr.pending) and tr.pending[-1][0] == frame_idx
        return int(TrackFlag.PREDICTED) if held else int(UNSEEN)

    def tracks(self, since_s: float | None = None) -> dict[Ball, BallTrack]:
        """Every ball's path from ``since_s`` (inclusive; None: all that is kept)."""
        out: dict[Ball, BallTrack] = {}
        for tr in self._tracks:
            a = 0 if since_s is None else bisect.bisect_left(tr.times, since_s)
            out[tr.ball] = BallTrack(
                np.array(tr.times[a:], dtype=np.float64),
                np.array(tr.xys[a:], dtype=np.float64).reshape(-1, 2),
                np.array(tr.seens[a:], dtype=bool),
                np.array(tr.frames[a:], dtype=np.int64),
                np.array(tr.flags[a:], dtype=np.uint8),
            )
        return out

    def drop_before(self, t_s: float) -> None:
        """Forget the history before ``t_s`` (the filters keep their state)."""
        for tr in self._tracks:
            a = bisect.bisect_left(tr.times, t_s)
            del tr.frames[:a], tr.times[:a], tr.xys[:a], tr.seens[:a], tr.flags[:a]
