"""The static table is traced once per camera and table, the sensor noise made once per
frame size and seed, and frames do not depend on either being kept.

A renderer made after another of the same camera and table look takes its tracing
(``synth._static_table``); its frames must be the very frames of a renderer that
traced afresh, whatever the first renderer drew over its own copy of the background.
Likewise the noise banks of a frame size and seed (``synth._render._noise_banks``).
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration import Camera
from referee import Ball
from synth._render import Renderer, RenderSettings, _noise_banks
from synth._scene import PlayerStroke, Scene, TableLook
from synth._static_table import KEPT, static_table
from tests.synth.test_render import Motion, cam

_MOTION = Motion({Ball.WHITE: (700.0, 400.0), Ball.RED: (2000.0, 900.0)},
                 {Ball.WHITE: (1500.0, 500.0)})  # fmt: skip
_STROKES = [PlayerStroke(0.2, Ball.WHITE)]


def _frames(camera: Camera, scene: Scene, settings: RenderSettings) -> list[np.ndarray]:
    renderer = Renderer(camera, scene, settings)
    return [f.image for f in renderer.frames(_MOTION, 6, _STROKES)]


def test_a_kept_tracing_gives_the_frames_of_a_fresh_one() -> None:
    camera, scene = cam(320, 180), Scene()
    static_table.cache_clear()
    fresh = _frames(camera, scene, RenderSettings(seed=3, fps=30.0, players=True))
    # Another renderer of the same camera and table (other seed, no players) takes the
    # kept tracing and draws its balls over its own background ...
    _frames(camera, scene, RenderSettings(seed=4, fps=30.0, players=False))
    assert static_table.cache_info().hits == 1
    # ... and the first settings again draw the same frames from the kept tracing.
    kept = _frames(camera, scene, RenderSettings(seed=3, fps=30.0, players=True))
    assert static_table.cache_info().hits == 2
    assert all(np.array_equal(a, b) for a, b in zip(fresh, kept, strict=True))


def test_another_camera_or_table_look_is_traced_anew_and_only_the_last_are_kept() -> None:
    static_table.cache_clear()
    scene = Scene()
    looks = [scene, Scene(look=TableLook(cloth=(30, 90, 160)))]
    cameras = [cam(320, 180), cam(322, 180)]
    for camera in cameras:
        for look in looks:
            Renderer(camera, look, RenderSettings(fps=30.0))
    info = static_table.cache_info()
    assert (info.hits, info.misses, info.currsize) == (0, 4, KEPT)


def test_the_kept_arrays_are_read_only() -> None:
    camera, scene = cam(320, 180), Scene()
    kept = static_table(camera, scene.look, scene.lamps, scene.ambient)
    for array in (kept.rays, kept.cos_axis, kept.lin, kept.hit):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0.0


def test_kept_noise_banks_give_the_frames_of_fresh_ones() -> None:
    camera, scene = cam(320, 180), Scene()
    _noise_banks.cache_clear()
    fresh = _frames(camera, scene, RenderSettings(seed=3, fps=30.0, players=True))
    _frames(camera, scene, RenderSettings(seed=3, fps=30.0, players=False))  # the same banks
    _frames(camera, scene, RenderSettings(seed=4, fps=30.0))  # another seed: made anew
    info = _noise_banks.cache_info()
    assert (info.hits, info.misses) == (1, 2)
    _noise_banks.cache_clear()
    _frames(camera, scene, RenderSettings(seed=3, fps=30.0, players=False))
    kept = _frames(camera, scene, RenderSettings(seed=3, fps=30.0, players=True))
    assert _noise_banks.cache_info().hits == 1
    assert all(np.array_equal(a, b) for a, b in zip(fresh, kept, strict=True))
    with pytest.raises(ValueError, match="read-only"):
        _noise_banks((320, 180), 3)[0][0, 0, 0] = 0.0
