"""Calibration's rendered test set: every category renders, with true corners in frame."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from calibration import PYRAMID_TABLE
from referee import MATCH_TABLE, Discipline
from synth import (
    CALIBRATION_CATEGORIES,
    CLOTH_COLOURS,
    CalibrationScene,
    FloorPatch,
    Renderer,
    RenderError,
    RenderSettings,
    Scene,
    Sticker,
    TableLook,
    calibration_scene,
)
from synth._calib_plans import plan_for

SIZE = (960, 540)


@lru_cache(maxsize=16)
def scene(category: str, seed: int) -> CalibrationScene:
    return calibration_scene(category, seed, SIZE)


@pytest.mark.parametrize("category", CALIBRATION_CATEGORIES)
def test_each_category_renders_with_its_true_corners_in_the_frame(category: str) -> None:
    s = scene(category, 1)
    assert s.image_bgr.shape == (540, 960, 3)
    assert s.image_bgr.dtype == np.uint8
    assert s.category == category
    assert s.seed == 1
    assert s.corners_px.shape == (4, 2)
    u, v = s.corners_px.T
    assert np.all((u > 5) & (u < 955) & (v > 5) & (v < 535)), s.corners_px
    # The corners are the true camera's projection of the table points they name.
    xyz = np.c_[s.corners_mm, np.zeros(4)]
    np.testing.assert_allclose(s.camera.project(xyz), s.corners_px)
    # Clockwise on screen (v down: positive shoelace sum), from the smallest u + v.
    assert float(u @ np.roll(v, -1) - v @ np.roll(u, -1)) > 0
    assert int(np.argmin(u + v)) == 0


def test_a_seed_gives_the_same_pixels_and_another_seed_other_ones() -> None:
    again = calibration_scene("match", 1, SIZE)
    np.testing.assert_array_equal(again.image_bgr, scene("match", 1).image_bgr)
    np.testing.assert_array_equal(again.corners_px, scene("match", 1).corners_px)
    assert not np.array_equal(scene("match", 2).corners_px, scene("match", 1).corners_px)


def test_the_cloth_is_the_cloth_colour_at_the_table_centre() -> None:
    s = scene("cloth", 1)  # seed 1 of the cycle green, blue, teal, grey, red
    centre = s.camera.project(np.array([[s.table.length_mm / 2, s.table.width_mm / 2, 0.0]]))
    u, v = (round(c) for c in centre[0])
    patch = s.image_bgr[v - 3 : v + 4, u - 3 : u + 4].reshape(-1, 3).mean(axis=0)
    b, g, r = patch
    assert b > r + 40 and g > r + 40, patch  # blue cloth: (79, 165, 214) sRGB


def test_categories_show_what_they_are_about() -> None:
    pocket = plan_for("pocket", 1, SIZE)
    assert pocket.look.table == PYRAMID_TABLE and pocket.look.pockets
    assert pocket.look.discipline is Discipline.PIN_CAROM_7
    assert pocket.look.pocket_jaw_mm > 0 and pocket.pins_mm
    small = plan_for("small", 1, SIZE)
    assert small.look.table.length_mm < MATCH_TABLE.length_mm and small.look.floor_patches
    assert abs(plan_for("oblique", 1, SIZE).camera.pose.tilt_deg) >= 20.0
    assert plan_for("wide", 1, SIZE).camera.distortion.k1 <= -0.25
    assert 1 <= len(plan_for("people", 1, SIZE).struck) <= 2
    light = plan_for("light", 1, SIZE)
    assert min(lamp.power for lamp in light.lamps) < 0.35 and light.settings.vignetting >= 0.45
    assert {plan_for("cloth", k, SIZE).look.cloth for k in range(5)} == {
        CLOTH_COLOURS[name] for name in ("green", "blue", "teal", "grey", "red")
    }


def test_far_tables_fill_a_fifth_to_a_third_of_the_picture() -> None:
    s = scene("far", 1)
    u, v = s.corners_px.T
    share = 0.5 * abs(float(u @ np.roll(v, -1) - v @ np.roll(u, -1))) / (SIZE[0] * SIZE[1])
    assert 0.17 < share < 0.36, share


def test_an_unknown_category_names_the_known_ones() -> None:
    with pytest.raises(RenderError, match=r"unknown 'snooker' .*match, pocket"):
        calibration_scene("snooker", 0, SIZE)


def test_floor_patches_and_stickers_are_drawn_where_they_lie() -> None:
    camera = plan_for("match", 0, (480, 270)).camera
    settings = RenderSettings.clean()
    plain = TableLook()
    marked = TableLook(
        floor_patches=(FloorPatch(-600.0, 710.0, 600.0, 3000.0, (250, 250, 250)),),
        stickers=(Sticker(1420.0, 710.0, 200.0, (250, 250, 0), ink=(0, 0, 0)),),
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        a = Renderer(camera, Scene(look=plain), settings)._bg
        b = Renderer(camera, Scene(look=marked), settings)._bg
    changed = np.abs(a - b).max(axis=2) > 10
    floor = -TableLook().floor_depth_mm
    for x, y, z in (
        (1420.0, 710.0, 0.0),
        (1420.0 + 70.0, 710.0 - 5.0, 0.0),
        (-700.0, 710.0, floor),
    ):
        u, v = camera.project(np.array([[x, y, z]]))[0]
        assert 0 <= u < 480 and 0 <= v < 270
        assert changed[round(v), round(u)]
    assert changed.sum() < 0.2 * changed.size  # only there
