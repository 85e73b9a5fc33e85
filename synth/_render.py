"""The renderer: frames an overhead camera would record of a moving scene.

Theory of operation. Per camera, once: the viewing ray of every pixel (lens
distortion included), the static table traced along those rays (kept for the next
renderer of the same camera and table: ``synth._static_table``), lit, vignetted and
encoded to display values (BGR float32, 0..255), kept sharp and blurred by the optics,
and banks of sensor noise (kept for the next renderer of the same frame size and
seed). Per frame: the frame starts as the blurred static image;
each ball and pin is drawn in a small region of interest (ROI) only: the unblurred
background of the ROI gets the contact shadows, then the balls are ray-traced at
several sub-times across the exposure and averaged (motion blur), the ROI is blurred
like the optics and pasted back without its margin. Overlapping ROIs (touching balls)
are merged and drawn together. Then the players and cue, the lamps' flicker, shot and
read noise, quantization and an optional score graphic. A frame's time ``t_s`` is the
middle of its exposure; everything is deterministic given the seed.

What a frame draws again from the same numbers is kept from the frame before: each
ball's sprite and shadow (a ball at rest), and each merged ROI's finished pixels (every
ball in it at rest, its pins unmoved). The frames are bit for bit those drawn afresh
(``tests/synth/test_kept_sprites.py``); drawing the frames of the clips measured took
about a quarter less CPU (24-30 %).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Mapping, Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Camera
from referee import Ball, Pin
from synth._props import PlayerPose, draw_players, draw_score, player_pose
from synth._scene import MotionSource, PinSource, PlayerStroke, Scene
from synth._settings import RenderedFrame, RenderSettings
from synth._shading import Lighting
from synth._sprites import (
    GAMMA,
    BallDraw,
    PinDraw,
    Spin,
    Stage,
    encode,
    merge_boxes,
    paste,
)
from synth._static_table import StaticTable, static_table

__all__ = ["RenderSettings", "RenderedFrame", "Renderer"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive), pixels
_PAD = 32  # noise bank margin for random offsets
_SHARPEN_PX = 1.5


class Renderer:
    """Renders frames of one camera over one scene; the static parts are made once.

    Args:
        camera: The camera (its image size is the frame size).
        scene: Table look, lamps and ball looks.
        settings: Timing, optics, sensor and extras.
    """

    def __init__(
        self, camera: Camera, scene: Scene | None = None, settings: RenderSettings | None = None
    ) -> None:
        self.camera = camera
        self.scene = scene or Scene()
        self.settings = settings or RenderSettings()
        self.light = Lighting.of(self.scene)
        look, lamps = self.scene.look, self.scene.lamps
        static = static_table(camera, look, lamps, self.scene.ambient)  # kept: shared
        self._rays = static.rays
        vignette = 1.0 - self.settings.vignetting * (1.0 - static.cos_axis**4)
        self._vignette: F32 = vignette.reshape(self._rays.shape[:2]).astype(np.float32)
        self._bg = self._make_background(static)
        s = self.settings
        self._bg_blur: F32 = _optics(self._bg, s.optics_blur_px, s.sharpen)
        reach = 3.0 * s.optics_blur_px + (3.0 * _SHARPEN_PX if s.sharpen > 0 else 0.0)
        self._margin = math.ceil(reach) + 1 if reach > 0 else 0
        self._noise = self._make_noise()
        self._pin_sprites: dict[tuple[float, ...], tuple[Box, F32] | None] = {}
        # Per ball and kind, the last sprite or shadow and what it was drawn from.
        self._ball_parts: dict[tuple[Ball, str], tuple[bytes, tuple[Box, F32] | None]] = {}
        # The clusters' pixels of this frame and of the one before, by what made them.
        self._clusters: dict[bytes, F32] = {}
        self._last_clusters: dict[bytes, F32] = {}

    @property
    def stage(self) -> Stage:
        """What the sprites need of this camera and scene."""
        return self._stage

    @property
    def size_px(self) -> tuple[int, int]:
        """Frame (width, height) in pixels."""
        return self.camera.size_px

    def time_s(self, frame_idx: int) -> float:
        """Middle of the exposure of frame ``frame_idx``, seconds."""
        return frame_idx / self.settings.fps

    def _make_background(self, static: StaticTable) -> F32:
        """The static image (display BGR float32, h x w x 3); sets up the stage too."""
        w, h = self.size_px
        rng = np.random.default_rng([self.settings.seed, 1])
        grain = 1.0 + self.settings.cloth_grain * rng.standard_normal(len(static.lin))
        lin = static.lin * grain[:, None] * self._vignette.reshape(-1, 1)
        bg = encode(lin).reshape(h, w, 3).astype(np.float32)
        self._stage = Stage(self.camera, self.scene, self.light, self._rays, static.hit,
                            self._vignette, bg)  # fmt: skip
        return bg

    def _make_noise(self) -> tuple[F32, ...]:
        s = self.settings
        if s.read_noise_dn == 0.0 and s.shot_noise_dn == 0.0:
            return ()
        return _noise_banks(self.size_px, s.seed)

    def frames(
        self, motion: MotionSource, n_frames: int, strokes: Sequence[PlayerStroke] = ()
    ) -> Iterator[RenderedFrame]:
        """Render frames 0 .. n_frames - 1 of ``motion`` in order (the balls roll on)."""
        radius = self.scene.look.radius_mm
        look = self.scene.look
        poses = [(s, player_pose(motion, s, look, self.settings.seed)) for s in strokes]
        spin = Spin(self.settings.seed, radius)
        pins = motion if isinstance(motion, PinSource) else None
        for i in range(n_frames):
            yield self._frame(i, motion, pins, spin, poses if self.settings.players else [])

    def _sub_times(self, motion: MotionSource, t: float) -> F64:
        """Sample times over the exposure: enough that no ball jumps over half a pixel."""
        s = self.settings
        if s.max_subframes == 1:
            return np.array([t])
        ends = motion.positions_mm(np.array([t - s.exposure / 2.0, t + s.exposure / 2.0]))
        radius, moved = self.scene.look.radius_mm, 0.0
        for xy in ends.values():
            if np.all(np.isfinite(xy)):
                uv = self.camera.project(np.c_[xy, np.full(2, radius)])
                moved = max(moved, float(np.nan_to_num(np.hypot(*(uv[1] - uv[0])))))
        n = int(min(max(math.ceil(moved / 0.5), 1), s.max_subframes))
        out: F64 = t + s.exposure * ((np.arange(n) + 0.5) / n - 0.5)
        return out

    def _frame(
        self,
        i: int,
        motion: MotionSource,
        pins: PinSource | None,
        spin: Spin,
        poses: list[tuple[PlayerStroke, PlayerPose]],
    ) -> RenderedFrame:
        t = self.time_s(i)
        times = self._sub_times(motion, t)
        pos = motion.positions_mm(np.append(times, t))
        draws = []
        for ball, xy in sorted(pos.items()):
            rot = spin.advance(ball, xy[:-1])
            draw = BallDraw.make(self.stage, ball, xy[:-1], xy[-1], rot)
            if draw is not None:
                draws.append(draw)
        pin_now = dict(pins.pins_mm(t)) if pins is not None else {}
        pin_draws = [PinDraw.make(self.stage, *state) for _, state in sorted(pin_now.items())]
        image = self._bg_blur.copy()
        self._last_clusters, self._clusters = self._clusters, {}
        for box, balls, pin_list in self._group(draws, pin_draws):
            self._draw_cluster(image, box, balls, pin_list)
        player = None
        if poses:
            # The cue moves fast only around the strike: blur it there, else one pose.
            striking = any(abs(t - stroke.t_s) < 0.3 for stroke, _ in poses)
            exposure = self.settings.exposure * (np.arange(4) / 3.0 - 0.5)
            player_times = t + exposure if striking else np.array([t])
            player = draw_players(image, self.camera, poses, player_times)
        out = self._finish(image, i, t)
        if self.settings.score is not None:
            draw_score(out, self.settings.score, t)
        mid = {b: xy[-1] for b, xy in pos.items()}
        return self._describe(i, t, out, mid, player, pin_now)

    def _describe(
        self,
        i: int,
        t: float,
        image: NDArray[np.uint8],
        mid: Mapping[Ball, F64],
        player: tuple[Box, F32] | None,
        pins: Mapping[Pin, tuple[float, float, bool]],
    ) -> RenderedFrame:
        balls_mm: dict[Ball, tuple[float, float] | None] = {}
        balls_px: dict[Ball, tuple[float, float] | None] = {}
        covered = set()
        for ball, xy in sorted(mid.items()):
            if not np.all(np.isfinite(xy)):
                balls_mm[ball] = balls_px[ball] = None
                continue
            uv = self.camera.project(np.array([[xy[0], xy[1], self.scene.look.radius_mm]]))[0]
            balls_mm[ball] = (float(xy[0]), float(xy[1]))
            balls_px[ball] = (float(uv[0]), float(uv[1])) if np.all(np.isfinite(uv)) else None
            if player is not None and _hidden(player, uv):
                covered.add(ball)
        return RenderedFrame(i, t, image, balls_mm, balls_px, frozenset(covered), dict(pins))

    def _group(
        self, balls: list[BallDraw], pins: list[PinDraw]
    ) -> list[tuple[Box, list[BallDraw], list[PinDraw]]]:
        """Group the things to draw whose regions (with the blur margin) overlap."""
        items: list[BallDraw | PinDraw] = [*balls, *pins]
        boxes = [b.extent() for b in balls] + [p.extent(self.stage) for p in pins]
        out = []
        for box, members in merge_boxes(boxes, self._margin):
            clipped = self.stage.clip(box)
            if clipped is not None:
                group = [items[k] for k in members]
                out.append((
                    clipped,
                    [g for g in group if isinstance(g, BallDraw)],
                    [g for g in group if isinstance(g, PinDraw)],
                ))  # fmt: skip
        return out

    def _draw_cluster(
        self, image: F32, box: Box, balls: list[BallDraw], pins: list[PinDraw]
    ) -> None:
        """The cluster's pixels into ``image``; the last frame's again if drawn alike.

        A cluster drawn from the same numbers as in the frame before (balls at rest,
        standing pins) has the same pixels: they are kept for one frame and reused.
        """
        made_of = b"".join(
            [np.array(box, np.int64).tobytes()]
            + [d.ball.encode() + d.sprite_inputs() + d.offsets_px.tobytes() for d in balls]
            + [np.array(p.key()).tobytes() for p in pins]
        )
        roi = self._last_clusters.get(made_of)
        if roi is None:
            roi = self._cluster_pixels(box, balls, pins)
        self._clusters[made_of] = roi
        x0, y0, x1, y1 = box
        w, h = self.size_px
        m = self._margin
        ix0, iy0 = (x0 + m if x0 > 0 else 0), (y0 + m if y0 > 0 else 0)
        ix1, iy1 = (x1 - m if x1 < w else w), (y1 - m if y1 < h else h)
        image[iy0:iy1, ix0:ix1] = roi[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0]

    def _cluster_pixels(self, box: Box, balls: list[BallDraw], pins: list[PinDraw]) -> F32:
        """Shadows, balls (far first) and pins on the sharp background, then the optics."""
        x0, y0, x1, y1 = box
        roi = self._bg[y0:y1, x0:x1].copy()
        if self.settings.shadows:
            light = np.ones((*roi.shape[:2], 1), np.float32)
            for draw in balls:
                part = self._ball_part(draw, "shadow")
                if part is not None:
                    light *= 1.0 - draw.smear(part, box)
            roi *= np.clip(light, 0.0, 1.0) ** np.float32(GAMMA)
        for draw in sorted(balls, key=lambda d: -d.depth_mm):
            part = self._ball_part(draw, "sprite")
            if part is not None:
                acc = draw.smear(part, box)
                roi *= 1.0 - acc[..., 3:]
                roi += acc[..., :3]
        for pin in pins:
            key = pin.key()
            if key not in self._pin_sprites:
                self._pin_sprites[key] = pin.sprite(self.stage)
            part = self._pin_sprites[key]
            if part is not None:
                paste(roi, box, part)
        out: F32 = _optics(roi, self.settings.optics_blur_px, self.settings.sharpen)
        out.flags.writeable = False
        return out

    def _ball_part(self, draw: BallDraw, kind: str) -> tuple[Box, F32] | None:
        """``draw``'s sprite or shadow; the last one again if drawn from the same numbers.

        A ball at rest is shaded from the same centre, box and rotation frame after
        frame: its sprite and shadow are kept (read-only) instead of shaded anew, the
        very same pixels.
        """
        made_of = draw.sprite_inputs() if kind == "sprite" else draw.shadow_inputs()
        kept = self._ball_parts.get((draw.ball, kind))
        if kept is not None and kept[0] == made_of:
            return kept[1]
        part = draw.sprite(self.stage) if kind == "sprite" else draw.shadow(self.stage)
        if part is not None:
            part[1].flags.writeable = False
        self._ball_parts[draw.ball, kind] = (made_of, part)
        return part

    def _finish(self, image: F32, i: int, t: float) -> NDArray[np.uint8]:
        """Flicker, sensor noise and quantization: display float32 -> uint8 BGR."""
        s = self.settings
        if s.flicker > 0.0:
            # Lamps pulse at twice the mains frequency; the exposure averages the pulse
            # over its length: mean of cos over [t - T/2, t + T/2] = cos(w t) sinc(f T).
            f_light = 2.0 * s.mains_hz
            phase = float(np.random.default_rng([s.seed, 4]).uniform(0.0, 2.0 * math.pi))
            wave = math.cos(2.0 * math.pi * f_light * t + phase) * np.sinc(f_light * s.exposure)
            image *= np.float32((1.0 + s.flicker * wave) ** GAMMA)
        if self._noise:
            rng = np.random.default_rng([s.seed, 3, i])
            bank = self._noise[int(rng.integers(len(self._noise)))]
            dy, dx = (int(k) for k in rng.integers(0, _PAD, 2))
            w, h = self.size_px
            sigma = image * np.float32(s.shot_noise_dn)
            sigma += np.float32(s.read_noise_dn**2)
            np.sqrt(sigma, out=sigma)
            sigma *= bank[dy : dy + h, dx : dx + w]
            image += sigma
        image += np.float32(0.5)
        np.clip(image, 0.0, 255.0, out=image)
        return image.astype(np.uint8)


@functools.lru_cache(maxsize=2)
def _noise_banks(size_px: tuple[int, int], seed: int) -> tuple[F32, ...]:
    """Three banks of unit sensor noise (h + pad, w + pad, 3), read-only.

    They depend on the frame size and the seed only, so the last two are kept: a
    renderer of the same size and seed (the same scene with players and without, as
    the tests make) skips the 0.2-0.3 s a 1080p set takes.
    """
    w, h = size_px
    rng = np.random.default_rng([seed, 2])
    banks: list[F32] = []
    for _ in range(3):
        common = rng.standard_normal((h + _PAD, w + _PAD, 1), dtype=np.float32)
        own = rng.standard_normal((h + _PAD, w + _PAD, 3), dtype=np.float32)
        bank = np.asarray(cv2.GaussianBlur(0.6 * common + 0.8 * own, (0, 0), 0.6), np.float32)
        bank /= bank.std()
        bank.flags.writeable = False
        banks.append(bank)
    return tuple(banks)


def _hidden(player: tuple[Box, F32], uv: F64) -> bool:
    """True if the players hide at least half of the pixel at ``uv`` (2,)."""
    (x0, y0, x1, y1), alpha = player
    if not np.all(np.isfinite(uv)):
        return False
    u, v = round(float(uv[0])), round(float(uv[1]))
    return x0 <= u < x1 and y0 <= v < y1 and float(alpha[v - y0, u - x0]) >= 0.5


def _optics(image: F32, sigma: float, sharpen: float) -> F32:
    """Lens and sensor blur (Gaussian, ``sigma`` px), then the camera's sharpening.

    Sharpening is an unsharp mask of radius ``_SHARPEN_PX``: it puts the dark and
    bright halos around edges that broadcast and IP cameras show.
    """
    out = cv2.GaussianBlur(image, (0, 0), sigma) if sigma > 0 else image
    if sharpen > 0:
        out = cv2.addWeighted(out, 1.0 + sharpen, cv2.GaussianBlur(out, (0, 0), _SHARPEN_PX),
                              -sharpen, 0.0)  # fmt: skip
    return np.asarray(out, dtype=np.float32)
