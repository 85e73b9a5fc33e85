"""The 7-pin game on rendered pixels: two identical whites kept apart, seven pins, pockets.

Frames come from the project's renderer (the pyramid pocket table, its seven pins,
shaded balls, noise), the detector is the real colour detector on those pixels and the
tracker names the whites from their starting places beside spots 1 and 3.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration import PYRAMID_TABLE, Calibration, Camera, TableGeometry
from referee import Ball, Discipline, Pin
from synth import Renderer, RenderSettings, Scene, TableLook
from vision import ColourDetector, Tracker, make_pin_check

FPS = 30.0
GEOMETRY = TableGeometry.pyramid()
START = GEOMETRY.seven_pins_whites_mm()
RED_MM = np.array([500.0, 1400.0])
PASS_MM = np.array([1775.0, 450.0])  # where the two whites pass each other
GAP_MM = 72.0  # centre to centre when they pass: 4 mm between balls of 68 mm
T_REST_S, T_PASS_S = 0.4, 1.2


class Crossing:
    """Both whites rest at their starting places, then roll past each other, close."""

    def __init__(self) -> None:
        self.start = {Ball.WHITE1: np.array(START[Ball.WHITE1]),
                      Ball.WHITE2: np.array(START[Ball.WHITE2])}  # fmt: skip
        meet = {Ball.WHITE1: PASS_MM, Ball.WHITE2: PASS_MM + np.array([0.0, GAP_MM])}
        span = T_PASS_S - T_REST_S
        self.v = {b: (meet[b] - self.start[b]) / span for b in self.start}

    def positions_mm(self, t_s: np.ndarray) -> dict[Ball, np.ndarray]:
        """Centres (n, 2) mm at times (n,)."""
        t = np.maximum(np.asarray(t_s, dtype=float) - T_REST_S, 0.0)[:, None]
        out = {b: self.start[b] + self.v[b] * t for b in self.start}
        out[Ball.RED] = np.broadcast_to(RED_MM, (len(t), 2)).copy()
        return out

    def pins_mm(self, t_s: float) -> dict[Pin, tuple[float, float, bool]]:
        """The seven pins standing; the king down from 0.2 s."""
        pins = GEOMETRY.seven_pins_mm()
        return {p: (x, y, p is not Pin.KING or t_s < 0.2) for p, (x, y) in pins.items()}


@pytest.fixture(scope="module")
def rendered() -> tuple[Calibration, list[np.ndarray]]:
    camera = Camera.overhead(
        width_px=1280, height_px=720, hfov_deg=64.0, height_mm=3200.0,
        aim_mm=(PYRAMID_TABLE.length_mm / 2.0, PYRAMID_TABLE.width_mm / 2.0),
    )  # fmt: skip
    look = TableLook(table=PYRAMID_TABLE, pockets=True, discipline=Discipline.PIN_CAROM_7)
    settings = RenderSettings(fps=FPS, seed=3, players=False)
    renderer = Renderer(camera, Scene(look=look), settings)
    frames = [f.image for f in renderer.frames(Crossing(), round(1.9 * FPS))]
    return Calibration(GEOMETRY, camera, "2026-12-01"), frames


def test_two_whites_named_from_their_places_and_never_swapped(
    rendered: tuple[Calibration, list[np.ndarray]],
) -> None:
    calib, frames = rendered
    balls = (Ball.RED, Ball.WHITE1, Ball.WHITE2)
    detector = ColourDetector.learn(calib, frames[0], balls=balls)
    assert set(detector.model.balls) == {Ball.RED, Ball.WHITE}  # one class for both whites
    tracker = Tracker(calib, balls, fps=FPS, start_mm=START)
    for i, image in enumerate(frames):
        tracker.update(i, i / FPS, detector.detect(image))
    tracks = tracker.tracks()
    truth = Crossing().positions_mm(np.arange(len(frames)) / FPS)
    for ball in balls:
        seen = tracks[ball].seen
        assert seen.mean() > 0.9, ball
        err = np.linalg.norm(tracks[ball].xy_mm[seen] - truth[ball][seen], axis=1)
        # a swap would put white1 ~ 1900 mm from its truth after the pass
        assert err.max() < 15.0, (ball, float(err.max()))
    after = np.arange(len(frames)) / FPS > T_PASS_S + 0.2
    assert tracks[Ball.WHITE1].xy_mm[after, 0].min() > PASS_MM[0] + 200.0  # white1 went on


def test_the_seven_pins_are_checked_and_the_king_seen_down(
    rendered: tuple[Calibration, list[np.ndarray]],
) -> None:
    """The default (auto) check: the network where it is sure, the contrast rule not."""
    calib, frames = rendered
    check = make_pin_check("auto", calib, frames[0], GEOMETRY.seven_pins_mm())
    assert set(check.spots_px) == set(GEOMETRY.seven_pins_mm())
    for i in range(round(0.3 * FPS), round(0.4 * FPS)):  # the whites still at their places
        standing = check.check(frames[i])
        assert standing == {p: p is not Pin.KING for p in GEOMETRY.seven_pins_mm()}, i
