"""The renderer against its own truth, the video it writes, and its determinism."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import Camera, Distortion
from referee import (
    MATCH_TABLE,
    Ball,
    BallContact,
    Cushion,
    CushionContact,
    Discipline,
    Event,
    Pin,
    PinDown,
    RuleOptions,
    Spot,
    parse_event,
)
from synth._clip import render_clip
from synth._props import ScoreGraphic
from synth._render import Renderer, RenderSettings
from synth._scenarios import five_pins_layout
from synth._scene import PlayerStroke, RenderError, Scene, TableLook
from synth._settings import RenderedFrame
from synth._sprites import Spin
from synth._truth import event_json, frame_json, truth_json, write_truth

R_MM = 30.75


class Motion:
    """Stand-in motion: each ball from ``start`` at constant velocity (mm, mm/s)."""

    def __init__(
        self,
        start: dict[Ball, tuple[float, float]],
        velocity: dict[Ball, tuple[float, float]] | None = None,
        gone_after_s: float = np.inf,
    ) -> None:
        self.start = {b: np.array(p, dtype=float) for b, p in start.items()}
        velocity = velocity or {}
        self.velocity = {b: np.array(velocity.get(b, (0.0, 0.0)), dtype=float) for b in start}
        self.gone_after_s = gone_after_s

    def positions_mm(self, t_s: np.ndarray) -> dict[Ball, np.ndarray]:
        t = np.asarray(t_s, dtype=float)[:, None]
        out = {b: self.start[b] + self.velocity[b] * t for b in self.start}
        for xy in out.values():
            xy[t[:, 0] > self.gone_after_s] = np.nan
        return out


class WithPins(Motion):
    def pins_mm(self, t_s: float) -> dict[Pin, tuple[float, float, bool]]:
        return {Pin.CENTER: (1420.0, 710.0, True), Pin.LEFT: (1420.0, 600.0, t_s < 0.5)}


def cam(width: int = 960, height: int = 540, lens: Distortion | None = None) -> Camera:
    return Camera.overhead(
        width_px=width, height_px=height, hfov_deg=70.0, height_mm=2500.0,
        tilt_deg=6.0, roll_deg=3.0, yaw_deg=2.0, distortion=lens,
    )  # fmt: skip


def still_frame(renderer: Renderer, balls: dict[Ball, tuple[float, float]]) -> np.ndarray:
    return next(iter(renderer.frames(Motion(balls), 1))).image


# --- (b) a ball drawn at a known place is found there ------------------------------


def centroid_by_colour(image: np.ndarray, uv: tuple[float, float], r_px: float) -> np.ndarray:
    """The plain reference measurement: the centroid (u, v) of the ball's pixels.

    Pixels are classed by chromaticity (colour without brightness) against the cloth
    around the ball, so the contact shadow (darker cloth, same chromaticity) and the
    ball's own shading do not move the boundary; the blob holding the centre is
    filled (highlights) and its pixels averaged.
    """
    half = round(1.7 * r_px)
    u0, v0 = round(uv[0]) - half, round(uv[1]) - half
    roi = image[v0 : v0 + 2 * half + 1, u0 : u0 + 2 * half + 1].astype(float) + 1.0
    chroma = roi / roi.sum(axis=2, keepdims=True)
    yy, xx = np.mgrid[: roi.shape[0], : roi.shape[1]]
    dist = np.hypot(xx - half, yy - half)
    cloth = np.median(chroma[(dist > 1.35 * r_px) & (dist < 1.65 * r_px)], axis=0)
    ball = np.median(chroma[dist < 0.4 * r_px], axis=0)
    axis = ball - cloth
    mask = (((chroma - cloth) @ axis) / (axis @ axis) > 0.5).astype(np.uint8)
    _, labels = cv2.connectedComponents(mask)
    blob = (labels == labels[half, half]).astype(np.uint8)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(blob)
    cv2.drawContours(filled, contours, -1, 1, -1)
    ys, xs = np.nonzero(filled)
    return np.array([xs.mean() + u0, ys.mean() + v0])


def silhouette_centre(camera: Camera, centre_mm: np.ndarray) -> np.ndarray:
    """Centre (normalized, undistorted) of the ellipse a sphere images to.

    A sphere seen off the optical axis images to an ellipse whose centre lies slightly
    further out than the projection of the sphere's centre: along the radial
    direction the ellipse spans tan(theta - alpha) .. tan(theta + alpha), theta the
    angle of the centre off the axis, alpha = asin(R / D) the sphere's angular radius.
    From 2.5 m that bias reaches about 0.06 px at the table's corners at 960 px.
    """
    pc = camera.to_camera(centre_mm[None])[0]
    dist = float(np.linalg.norm(pc))
    theta, alpha = np.arccos(pc[2] / dist), np.arcsin(R_MM / dist)
    radial = (np.tan(theta + alpha) + np.tan(theta - alpha)) / 2.0
    out: np.ndarray = pc[:2] / max(float(np.hypot(*pc[:2])), 1e-300) * radial
    return out


POSITIONS = [
    (1420.0, 710.0),  # centre
    (40.0, 40.0),  # head-left corner, near both cushions
    (2800.0, 1380.0),  # foot-right corner
    (31.0, 700.0),  # frozen to the head cushion
    (1420.0, 1389.0),  # frozen to the right cushion
    (2000.0, 300.0),
]


@pytest.fixture(scope="module")
def clean_renderers() -> dict[str, Renderer]:
    lenses = {"pinhole": None, "barrel": Distortion(-0.25, 0.08, 0.002, -0.001, 0.0)}
    return {k: Renderer(cam(lens=v), settings=RenderSettings.clean()) for k, v in lenses.items()}


@pytest.mark.parametrize("lens", ["pinhole", "barrel"])
@pytest.mark.parametrize("ball", [Ball.WHITE, Ball.YELLOW, Ball.RED])
def test_ball_is_found_where_the_truth_says(
    clean_renderers: dict[str, Renderer], lens: str, ball: Ball
) -> None:
    renderer = clean_renderers[lens]
    camera = renderer.camera
    k = camera.intrinsics
    for xy in POSITIONS:
        frame = next(iter(renderer.frames(Motion({ball: xy}), 1)))
        truth_px = frame.balls_px[ball]
        assert truth_px is not None
        centre = np.array([xy[0], xy[1], R_MM])
        r_px = R_MM / float(np.linalg.norm(centre - camera.position_mm)) * k.fx_px
        found = centroid_by_colour(frame.image, truth_px, r_px)
        undist = cv2.undistortPoints(
            found.reshape(1, 1, 2), k.matrix(), camera.distortion.coeffs(), P=k.matrix()
        ).reshape(2)
        cam_xyz = camera.to_camera(centre[None])[0]
        truth_undist = np.array([k.fx_px, k.fy_px]) * cam_xyz[:2] / cam_xyz[2] + [k.cx_px, k.cy_px]
        assert np.abs(undist - truth_undist).max() < 0.5, (xy, undist - truth_undist)
        # The silhouette bias accounted for, the renderer is exact to the measurement.
        bias = (silhouette_centre(camera, centre) - cam_xyz[:2] / cam_xyz[2]) * [k.fx_px, k.fy_px]
        assert np.abs(undist - truth_undist - bias).max() < 0.25, (xy, undist - truth_undist)
        # Mapped to the table at ball-centre height and back: the truth's pixel.
        on_table = camera.unproject(found.reshape(1, 2), R_MM)
        assert np.abs(on_table[0, :2] - xy).max() < 1.5  # mm
        assert np.abs(camera.project(on_table)[0] - truth_px).max() < 0.5


def test_truth_pixels_are_the_camera_projection_at_ball_height() -> None:
    renderer = Renderer(cam(320, 180), settings=RenderSettings.clean())
    frame = next(iter(renderer.frames(Motion({Ball.RED: (500.0, 900.0)}), 1)))
    expected = renderer.camera.project(np.array([[500.0, 900.0, R_MM]]))[0]
    assert frame.balls_px[Ball.RED] == pytest.approx(tuple(expected))
    assert frame.balls_mm[Ball.RED] == (500.0, 900.0)


# --- motion blur, balls leaving, pins, players, flicker ------------------------------


def test_motion_blur_streak_is_centred_on_the_mid_exposure_position() -> None:
    settings = RenderSettings(fps=30.0, exposure_s=1 / 60, read_noise_dn=0.0, shot_noise_dn=0.0,
                              flicker=0.0, players=False, optics_blur_px=0.0)  # fmt: skip
    renderer = Renderer(cam(640, 360), settings=settings)
    motion = Motion({Ball.WHITE: (1000.0, 710.0)}, {Ball.WHITE: (3000.0, 0.0)})
    frame = list(renderer.frames(motion, 2))[1]
    empty = still_frame(renderer, {})
    diff = np.abs(frame.image.astype(float) - empty).sum(axis=2)
    u, v = frame.balls_px[Ball.WHITE]  # type: ignore[misc]
    rows = diff[round(v) - 3 : round(v) + 4]
    cols = np.nonzero(rows.max(axis=0) > 40)[0]
    weights = rows.sum(axis=0)
    centroid = (weights * np.arange(len(weights))).sum() / weights.sum()
    r_px = R_MM * renderer.camera.intrinsics.fx_px / 2500.0
    streak = 3000.0 / 60.0 * renderer.camera.intrinsics.fx_px / 2470.0
    assert abs(centroid - u) < 0.5
    assert cols.max() - cols.min() == pytest.approx(2 * r_px + streak, abs=3.0)


def test_a_rolling_ball_turns_its_top_forwards() -> None:
    spin = Spin(seed=4, radius_mm=R_MM)
    start = spin.advance(Ball.DOTTED, np.array([[500.0, 700.0]]))
    top_in_body = start.T @ np.array([0.0, 0.0, 1.0])
    quarter = np.pi / 2.0 * R_MM  # rolled a quarter turn towards +x
    path = np.c_[np.linspace(500.0, 500.0 + quarter, 50), np.full(50, 700.0)]
    after = spin.advance(Ball.DOTTED, path)
    assert after @ top_in_body == pytest.approx([1.0, 0.0, 0.0], abs=1e-9)


def test_dots_of_the_dotted_ball_move_as_it_rolls() -> None:
    renderer = Renderer(cam(640, 360), settings=RenderSettings.clean(fps=10.0))
    motion = Motion({Ball.DOTTED: (1000.0, 700.0)}, {Ball.DOTTED: (300.0, 0.0)})
    frames = list(renderer.frames(motion, 6))
    shifts = []
    for frame in frames:
        u, v = frame.balls_px[Ball.DOTTED]  # type: ignore[misc]
        roi = frame.image[round(v) - 9 : round(v) + 10, round(u) - 9 : round(u) + 10].astype(int)
        shifts.append(int(((roi[..., 2] - roi[..., 1]) > 80).sum()))  # red dot pixels
    assert len(set(shifts)) > 1  # the dots turn in and out of view


def test_a_ball_off_the_table_is_not_drawn_and_its_truth_is_none() -> None:
    renderer = Renderer(cam(320, 180), settings=RenderSettings.clean())
    motion = Motion({Ball.YELLOW: (1400.0, 700.0)}, gone_after_s=0.05)
    first, later = list(renderer.frames(motion, 3))[::2]
    assert first.balls_px[Ball.YELLOW] is not None
    assert later.balls_mm[Ball.YELLOW] is None and later.balls_px[Ball.YELLOW] is None
    assert np.array_equal(later.image, still_frame(renderer, {}))


def test_pins_stand_then_lie() -> None:
    renderer = Renderer(cam(640, 360), settings=RenderSettings.clean(fps=2.0))
    frames = list(renderer.frames(WithPins({}), 2))
    empty = still_frame(renderer, {}).astype(float)
    standing = np.abs(frames[0].image - empty).sum(axis=2) > 30
    lying = np.abs(frames[1].image - empty).sum(axis=2) > 30
    assert standing.sum() > 4 and lying.sum() > 4 and not np.array_equal(standing, lying)
    assert frames[1].pins[Pin.LEFT][2] is False and frames[0].pins[Pin.LEFT][2] is True


def test_player_appears_around_the_stroke_and_hides_the_cue_ball() -> None:
    settings = RenderSettings(fps=10.0, seed=3, read_noise_dn=0.0, shot_noise_dn=0.0)
    renderer = Renderer(cam(480, 270), settings=settings)
    motion = Motion({Ball.WHITE: (700.0, 400.0), Ball.RED: (2400.0, 1100.0)})
    frames = list(renderer.frames(motion, 40, strokes=[PlayerStroke(2.5, Ball.WHITE)]))
    empty = list(Renderer(cam(480, 270), settings=settings).frames(motion, 40))
    pairs = zip(frames, empty, strict=True)
    changed = [np.abs(f.image.astype(int) - e.image).max() > 60 for f, e in pairs]
    assert not any(changed[:2]) and all(changed[6:35]) and not any(changed[39:])
    assert any(Ball.WHITE in f.covered for f in frames)


def test_flicker_changes_brightness_from_frame_to_frame() -> None:
    def settings(flicker: float) -> RenderSettings:
        return RenderSettings(flicker=flicker, read_noise_dn=0.0, shot_noise_dn=0.0, players=False)

    flick = Renderer(cam(160, 90), settings=settings(0.1))
    steady = Renderer(cam(160, 90), settings=settings(0.0))
    level = [f.image.mean() for f in flick.frames(Motion({}), 6)]
    flat = [f.image.mean() for f in steady.frames(Motion({}), 6)]
    assert np.ptp(level) > 1.0 and np.ptp(flat) == 0.0


# --- chalk marks of the disciplines ------------------------------------------------------


def render_look(look: TableLook, width: int = 960, height: int = 540) -> np.ndarray:
    renderer = Renderer(cam(width, height), Scene(look=look), RenderSettings.clean())
    return still_frame(renderer, {}).astype(float)


@functools.cache
def plain_look() -> np.ndarray:
    """``render_look(TableLook())``, which every chalk test compares with: rendered once."""
    image = render_look(TableLook())
    image.flags.writeable = False
    return image


def brightness_at(image: np.ndarray, camera: Camera, xy_mm: np.ndarray) -> np.ndarray:
    """Sum of B, G, R (n,) at the pixels where cloth points ``xy_mm`` (n, 2) appear."""
    uv = np.rint(camera.project(np.c_[xy_mm, np.zeros(len(xy_mm))])).astype(int)
    out: np.ndarray = image[uv[:, 1], uv[:, 0]].sum(axis=1)
    return out


def test_balkline_chalk_is_drawn_on_the_lines_and_nowhere_else() -> None:
    look = TableLook(discipline=Discipline.BALKLINE_47_2)
    image, plain = render_look(look), plain_look()
    camera = cam()
    ys = np.linspace(300.0, 1100.0, 41)
    on_line = brightness_at(image, camera, np.c_[np.full_like(ys, 470.0), ys])
    for beside in (440.0, 500.0):
        cloth = brightness_at(image, camera, np.c_[np.full_like(ys, beside), ys])
        assert (on_line - cloth).min() > 40.0
    # No chalk on a line-free stretch (x = 1000 mm, between the two long balklines).
    free = np.c_[np.full(21, 1000.0), np.linspace(520.0, 900.0, 21)]
    assert np.array_equal(brightness_at(image, camera, free), brightness_at(plain, camera, free))
    # Every changed pixel lies on a chalk line (within a pixel and a half of one).
    v, u = np.nonzero(np.abs(image - plain).max(axis=2) > 1.0)
    assert len(u) > 1000
    xy = camera.unproject(np.c_[u, v].astype(float), 0.0)[:, :2]
    gap = np.full(len(xy), np.inf)
    for x0, y0, x1, y1 in look.chalk_lines_mm():
        a, ab = np.array([x0, y0]), np.array([x1 - x0, y1 - y0])
        t = np.clip((xy - a) @ ab / (ab @ ab), 0.0, 1.0)
        gap = np.minimum(gap, np.hypot(*(xy - a - t[:, None] * ab).T))
    assert gap.max() < look.chalk_width_mm / 2.0 + 1.5 * 3.7  # 3.7 mm per pixel here


def test_balklines_of_one_axis_merge_and_anchor_squares_follow_the_rules() -> None:
    lines = TableLook(discipline=Discipline.BALKLINE_71_2).chalk_lines_mm()
    across = lines[(lines[:, 0] == 0.0) & (lines[:, 2] == MATCH_TABLE.length_mm)]
    assert across.tolist() == [[0.0, 710.0, 2840.0, 710.0]]  # 1420 - 2 x 710 < a ball
    no_anchors = TableLook(
        discipline=Discipline.BALKLINE_71_2, options=RuleOptions(anchor_squares=False)
    )
    assert len(no_anchors.chalk_lines_mm()) == 3
    # 8 anchor squares of 178 mm at 47 cm, three chalk sides each, plus 4 balklines.
    assert len(TableLook(discipline=Discipline.BALKLINE_47_2).chalk_lines_mm()) == 4 + 8 * 3


def test_straight_rail_corner_lines_only_when_corner_zones_are_asked() -> None:
    assert len(TableLook(discipline=Discipline.STRAIGHT_RAIL).chalk_lines_mm()) == 0
    assert len(TableLook().chalk_lines_mm()) == 0
    corners = TableLook(
        discipline=Discipline.STRAIGHT_RAIL, options=RuleOptions(corner_zone_limit=2)
    )
    lines = corners.chalk_lines_mm()
    assert len(lines) == 4
    assert [355.0, 0.0, 0.0, 355.0] in lines.tolist()
    image, plain = render_look(corners), plain_look()
    mid = np.array([[177.5, 177.5], [2662.5, 1242.5]])  # the middles of two diagonals
    assert (brightness_at(image, cam(), mid) - brightness_at(plain, cam(), mid)).min() > 40.0


def test_five_pins_spots_are_drawn() -> None:
    look = TableLook(discipline=Discipline.FIVE_PINS)
    spots = look.spots_mm()
    pins = np.array(list(five_pins_layout(MATCH_TABLE).values()))
    named = np.array([MATCH_TABLE.spot(s) for s in (Spot.TOP, Spot.RED_FIVE_PINS, Spot.LAG_LINE)])
    expected = np.unique(np.r_[TableLook().spots_mm(), pins, named], axis=0)
    assert np.array_equal(np.unique(spots, axis=0), expected)
    assert len(spots) == len(expected) == 8
    # 960x540 (3.7 mm a pixel): a spot is several pixels across, as bright as at 1920x1080.
    image, plain = render_look(look), plain_look()
    camera = cam()
    new = np.r_[pins[1:], named[:1]]  # side pins and the top spot: not on a plain table
    assert (brightness_at(image, camera, new) - brightness_at(plain, camera, new)).min() > 100.0
    assert len(look.chalk_lines_mm()) == 0


def test_chalk_settings_are_checked() -> None:
    with pytest.raises(RenderError, match=r"chalk_width_mm must be 1\.\.20, got 0\.2"):
        TableLook(chalk_width_mm=0.2)
    with pytest.raises(RenderError, match=r"chalk_opacity must be 0\.\.1, got 1\.5"):
        TableLook(chalk_opacity=1.5)


# --- (d) determinism --------------------------------------------------------------------


def test_same_seed_same_frames_other_seed_other_noise() -> None:
    motion = Motion({Ball.WHITE: (700.0, 400.0), Ball.DOTTED: (2000.0, 900.0)},
                    {Ball.WHITE: (1500.0, 500.0)})  # fmt: skip
    strokes = [PlayerStroke(0.2, Ball.DOTTED)]

    def frames(seed: int) -> list[np.ndarray]:
        renderer = Renderer(cam(320, 180), settings=RenderSettings(seed=seed, fps=30.0))
        return [f.image for f in renderer.frames(motion, 8, strokes)]

    a, b, c = frames(7), frames(7), frames(8)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])


# --- (c) the video and the truth file ------------------------------------------------------


@pytest.mark.parametrize("codec", ["h264", "mp4v"])
def test_video_is_readable_with_the_right_frames_size_and_fps(tmp_path: Path, codec: str) -> None:
    if codec == "h264":
        pytest.importorskip("av")
    motion = Motion({Ball.WHITE: (700.0, 400.0), Ball.RED: (2000.0, 900.0)},
                    {Ball.WHITE: (800.0, 300.0)})  # fmt: skip
    events: list[Event] = [
        CushionContact(t_s=0.31, ball=Ball.WHITE, cushion=Cushion.FOOT),
        BallContact(t_s=0.12, balls=(Ball.WHITE, Ball.RED)),
    ]
    settings = RenderSettings(fps=50.0, seed=1, score=ScoreGraphic(("A", "B"), ((0.2, 1, 0),)))
    clip = render_clip(
        motion, cam(320, 180), tmp_path / "clip.mp4", duration_s=0.4, settings=settings,
        events=events, verdicts=[{"shot": 0, "points": 1}], codec=codec,
        strokes=[PlayerStroke(0.1, Ball.WHITE)],
    )  # fmt: skip
    cap = cv2.VideoCapture(str(clip.video_path))
    assert cap.get(cv2.CAP_PROP_FPS) == pytest.approx(50.0)
    assert (cap.get(cv2.CAP_PROP_FRAME_WIDTH), cap.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (320, 180)
    count = 0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        assert image.shape == (180, 320, 3)
        count += 1
    cap.release()
    truth = json.loads(clip.truth_path.read_text())
    assert count == clip.n_frames == 20 == len(truth["frames"]) == truth["video"]["n_frames"]
    assert [f["t_s"] for f in truth["frames"]] == pytest.approx([i / 50.0 for i in range(20)])
    assert [e["t_s"] for e in truth["events"]] == [0.12, 0.31]
    assert truth["verdicts"] == [{"shot": 0, "points": 1}]
    assert Camera.from_dict(truth["camera"]) == cam(320, 180)
    white = truth["frames"][10]["balls"]["white"]
    assert white["xy_mm"] == pytest.approx([700.0 + 800.0 * 0.2, 400.0 + 300.0 * 0.2])
    for frame in truth["frames"]:
        for ball in frame["balls"].values():
            expected = cam(320, 180).project(np.array([[*ball["xy_mm"], R_MM]]))[0]
            assert ball["uv_px"] == pytest.approx(list(expected), abs=0.01)


def test_truth_file_is_rounded_one_frame_per_line_and_parseable(tmp_path: Path) -> None:
    camera = cam(640, 360)
    xy = {Ball.WHITE: (147.0905123, 153.1450987), Ball.RED: (2000.123456, 900.987654)}
    frames = []
    for i in range(5):
        mm: dict[Ball, tuple[float, float] | None] = {b: (x + i / 7, y) for b, (x, y) in xy.items()}
        mm[Ball.YELLOW] = None
        px: dict[Ball, tuple[float, float] | None] = {}
        for ball, p in mm.items():
            uv = None if p is None else camera.project(np.array([[*p, R_MM]]))[0]
            px[ball] = None if uv is None else (float(uv[0]), float(uv[1]))
        pins = {Pin.CENTER: (1420.123456, 710.0, True)}
        image = np.zeros((1, 1, 3), np.uint8)
        frames.append(frame_json(RenderedFrame(i, i / 30.0, image, mm, px, frozenset(), pins)))
    look = TableLook(discipline=Discipline.BALKLINE_71_2)
    truth = truth_json(camera=camera, look=look, settings=RenderSettings(), frames=frames,
                       video={"file": "x.mp4"})  # fmt: skip
    write_truth(tmp_path / "t.json", truth)
    text = (tmp_path / "t.json").read_text()
    doc = json.loads(text)
    assert doc["format"] == "carom-synth-truth/1"
    assert doc["table"]["discipline"] == "balkline-71/2"
    assert len(doc["table"]["chalk_lines_mm"]) == len(look.chalk_lines_mm())
    assert sum(line.startswith('{"frame_idx":') for line in text.splitlines()) == 5
    frame = doc["frames"][1]
    assert frame["t_s"] == 0.033333
    assert frame["balls"]["yellow"] is None
    assert frame["balls"]["white"]["xy_mm"] == [147.23, 153.15]
    assert frame["pins"]["center"] == {"xy_mm": [1420.12, 710.0], "standing": True}
    for name in ("white", "red"):
        entry = frame["balls"][name]
        assert entry["covered"] is False
        assert all(round(v, 3) == v for v in entry["uv_px"])
        expected = camera.project(np.array([[*entry["xy_mm"], R_MM]]))[0]
        assert entry["uv_px"] == pytest.approx(list(expected), abs=0.01)


def test_truth_events_are_shot_log_events() -> None:
    events: list[Event] = [
        BallContact(t_s=0.5, balls=(Ball.WHITE, Ball.RED), doubt="too close", t_err_s=0.01),
        CushionContact(t_s=0.7, ball=Ball.YELLOW, cushion=Cushion.LEFT),
        PinDown(t_s=0.9, pin=Pin.CENTER, ball=None),
    ]
    for i, event in enumerate(events):
        assert parse_event(event_json(event), f"events[{i}]") == event


# --- settings ----------------------------------------------------------------------------


def test_cloth_colour_is_chosen_by_name() -> None:
    green = Renderer(
        cam(160, 90), Scene(look=TableLook.with_cloth("green")), RenderSettings.clean()
    )
    b, g, r = still_frame(green, {})[45, 80]
    assert g > b and g > r
    with pytest.raises(RenderError, match="cloth: unknown colour 'pink'"):
        TableLook.with_cloth("pink")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"fps": 0.0}, "fps must be 1..1000, got 0.0"),
        ({"fps": 30.0, "exposure_s": 0.1}, "exposure_s must be"),
        ({"flicker": 0.9}, "flicker must be 0..0.5, got 0.9"),
        ({"max_subframes": 0}, "max_subframes must be 1..64, got 0"),
    ],
)
def test_bad_settings_name_the_parameter(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(RenderError, match=message.replace(".", r"\.")):
        RenderSettings(**kwargs)  # type: ignore[arg-type]


def test_unknown_codec_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="codec: unknown 'divx'"):
        render_clip(Motion({}), cam(160, 90), tmp_path / "x.mp4", duration_s=0.1, codec="divx")
