"""What a frame draws from the same numbers as the frame before is kept, not drawn again.

A ball at rest keeps its sprite and shadow; a merged region whose balls are all at rest
(and pins unmoved) keeps its finished pixels (``synth._render``). The frames must be
bit for bit those of a renderer that draws everything afresh in every frame: here the
keys the renderer keeps things by are made unique, so nothing is ever found kept.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from referee import Ball
from synth import CameraSettings, LookSettings, motion_for
from synth._make import _strokes
from synth._render import Renderer
from synth._sprites import BallDraw


def _renderer(name: str) -> tuple[Renderer, Any]:
    """A 426x240, 30 fps renderer of clip ``name``'s table, and its motion."""
    motion = motion_for(name)
    table, discipline = motion.spec.table, motion.spec.discipline
    look = LookSettings()
    renderer = Renderer(
        CameraSettings(width_px=426, height_px=240, fps=30).camera(table),
        look.scene(table, discipline),
        look.settings(30, 7, None),
    )
    return renderer, motion


def _frames(name: str, n_frames: int) -> list[np.ndarray]:
    renderer, motion = _renderer(name)
    return [f.image for f in renderer.frames(motion, n_frames, _strokes(motion))]


class _Counted:
    """Counts the sprites, shadows and regions actually drawn."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drawn: dict[str, int] = {"sprite": 0, "shadow": 0, "region": 0}
        for cls, attr, kind in (
            (BallDraw, "sprite", "sprite"),
            (BallDraw, "shadow", "shadow"),
            (Renderer, "_cluster_pixels", "region"),
        ):
            monkeypatch.setattr(cls, attr, self._counting(getattr(cls, attr), kind))

    def _counting(self, draw: Any, kind: str) -> Any:
        def counted(*args: Any) -> Any:
            self.drawn[kind] += 1
            return draw(*args)

        return counted


def _afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every key unique from now on: nothing is ever found kept."""
    fresh = itertools.count()
    monkeypatch.setattr(BallDraw, "sprite_inputs", lambda self: str(next(fresh)).encode())
    monkeypatch.setattr(BallDraw, "shadow_inputs", lambda self: str(next(fresh)).encode())


@pytest.mark.parametrize(("name", "n_frames"), [("3c-kiss", 75), ("7pin-cue-pin", 60)])
def test_kept_sprites_and_regions_give_the_frames_drawn_afresh(
    monkeypatch: pytest.MonkeyPatch, name: str, n_frames: int
) -> None:
    counted = _Counted(monkeypatch)
    kept = _frames(name, n_frames)
    kept_drawn = dict(counted.drawn)
    with monkeypatch.context() as fresh_patch:
        _afresh(fresh_patch)
        counted.drawn = dict.fromkeys(counted.drawn, 0)
        fresh = _frames(name, n_frames)
    assert all(np.array_equal(a, b) for a, b in zip(kept, fresh, strict=True))
    # The clip holds balls at rest (before the stroke, the others while one rolls):
    # kept, far fewer are drawn.
    for kind in ("sprite", "shadow", "region"):
        assert kept_drawn[kind] < 0.8 * counted.drawn[kind], (kind, kept_drawn, counted.drawn)
    assert counted.drawn["sprite"] >= 2 * n_frames


def test_kept_sprites_are_read_only() -> None:
    renderer, motion = _renderer("3c-kiss")
    list(renderer.frames(motion, 3, _strokes(motion)))
    parts = [part for _, part in renderer._ball_parts.values() if part is not None]
    assert {Ball.WHITE, Ball.YELLOW, Ball.RED} <= {ball for ball, _ in renderer._ball_parts}
    for _, pixels in parts:
        with pytest.raises(ValueError, match="read-only"):
            pixels[0, 0, 0] = 0.0
