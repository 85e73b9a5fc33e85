"""Drawing the moving things (balls, their shadows, pins) in small regions of interest.

A ball is ray-traced once per frame, at its position in the middle of the exposure,
into a sprite (premultiplied BGR + alpha) over the pixels its silhouette covers; its
contact shadow likewise into a darkness sprite. Motion blur is the average of the
sprite shifted (bilinear) to the ball's projected position at each sub-time of the
exposure: exact for the path, including a bounce inside the exposure, and cheap. With
one sub-time the sprite is pasted unshifted, so a still frame is the exact ray trace.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Camera
from referee import Ball
from synth._scene import Scene, linear_bgr
from synth._shading import Lighting, contact_shadow, shade_cylinder, shade_sphere

__all__ = ["BallDraw", "PinDraw", "Spin", "Stage", "merge_boxes", "paste"]

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive), pixels
GAMMA = 1.0 / 2.2
_SHADOW_REACH = 1.5  # shadow sprite half-size beyond the silhouette, in ball radii


def encode(lin: F64) -> F64:
    """Linear light -> display values 0..255 (gamma 2.2, clipped)."""
    out: F64 = 255.0 * np.clip(lin, 0.0, 1.0) ** GAMMA
    return out


@dataclass(frozen=True, slots=True, eq=False)
class Stage:
    """Per-camera data the sprites need: rays, surface points, vignetting, background.

    Arrays are (h, w, ...) float32: ``rays`` unit directions in the table frame,
    ``hit`` the static surface point of each pixel (mm), ``vignette`` the lens falloff,
    ``bg`` the unblurred static image in display values (BGR).
    """

    camera: Camera
    scene: Scene
    light: Lighting
    rays: F32
    hit: F32
    vignette: F32
    bg: F32

    @property
    def origin(self) -> F64:
        """Camera centre (3,), table mm."""
        return self.camera.position_mm

    def clip(self, box: F64) -> Box | None:
        """Integer pixel box covering ``box`` (4,) inside the image, or None if empty."""
        h, w = self.bg.shape[:2]
        x0, y0 = max(math.floor(box[0]), 0), max(math.floor(box[1]), 0)
        x1, y1 = min(math.ceil(box[2]) + 1, w), min(math.ceil(box[3]) + 1, h)
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


@dataclass(frozen=True, slots=True, eq=False)
class BallDraw:
    """One ball in one frame: where it is mid-exposure and where it goes during it."""

    ball: Ball
    centre: F64  # (3,) mm, mid-exposure (or the nearest sub-time on the table)
    rot: F64  # (3, 3) body -> table
    offsets_px: F64  # (n, 2) sub-time positions minus the reference projection; NaN: gone
    box: F64  # (4,) silhouette box at the reference, px
    mm_per_px: float
    depth_mm: float

    @classmethod
    def make(cls, stage: Stage, ball: Ball, xy: F64, ref: F64, rot: F64) -> BallDraw | None:
        """From sub-time centres ``xy`` (n, 2) mm and the reference ``ref`` (2,) mm."""
        radius = stage.scene.look.radius_mm
        if not np.all(np.isfinite(ref)):
            finite = xy[np.all(np.isfinite(xy), axis=1)]
            if not len(finite):
                return None
            ref = finite[len(finite) // 2]
        centre = np.array([ref[0], ref[1], radius])
        view = centre - stage.origin
        depth = float(np.linalg.norm(view))
        e1 = np.cross(view / depth, [0.0, 1.0, 0.0])
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(view / depth, e1)
        ang = np.linspace(0.0, 2.0 * math.pi, 8, endpoint=False)[:, None]
        ring = centre + radius * (np.cos(ang) * e1 + np.sin(ang) * e2)
        subs = np.c_[xy, np.full(len(xy), radius)]
        uv = stage.camera.project(np.vstack([centre, ring, subs]))
        if not np.all(np.isfinite(uv[:9])):
            return None
        r_px = float(np.hypot(*(uv[1:9] - uv[0]).T).max())
        reach = 1.1 * r_px + 2.0
        box = np.r_[uv[0] - reach, uv[0] + reach]
        return cls(ball, centre, rot, uv[9:] - uv[0], box, radius / r_px, depth)

    def extent(self) -> F64:
        """Pixel box (4,) of everything this ball draws, shadow included."""
        off = self.offsets_px[np.all(np.isfinite(self.offsets_px), axis=1)]
        off = off if len(off) else np.zeros((1, 2))
        grow = _SHADOW_REACH * (self.box[2] - self.box[0]) / 2.2
        lo = self.box[:2] + off.min(axis=0) - grow
        out: F64 = np.r_[lo, self.box[2:] + off.max(axis=0) + grow]
        return out

    def sprite_inputs(self) -> bytes:
        """What :meth:`sprite` is made of besides the stage (equal bytes, equal sprite)."""
        return b"".join(
            (self.centre.tobytes(), self.rot.tobytes(), self.box.tobytes(),
             np.float64(self.mm_per_px).tobytes())
        )  # fmt: skip

    def shadow_inputs(self) -> bytes:
        """What :meth:`shadow` is made of besides the stage (equal bytes, equal shadow)."""
        return self.centre.tobytes() + self.box.tobytes()

    def sprite(self, stage: Stage) -> tuple[Box, F32] | None:
        """Premultiplied display BGR + alpha (h, w, 4) of the ball at the reference."""
        box = stage.clip(self.box)
        if box is None:
            return None
        x0, y0, x1, y1 = box
        rays = stage.rays[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64)
        lin, alpha = shade_sphere(
            stage.origin, rays, self.centre, stage.scene.look.radius_mm, self.mm_per_px,
            stage.scene.balls[self.ball], self.rot, stage.light, linear_bgr(stage.scene.look.cloth),
        )  # fmt: skip
        disp = encode(lin * stage.vignette[y0:y1, x0:x1].reshape(-1, 1))
        out = np.concatenate([disp * alpha[:, None], alpha[:, None]], axis=1)
        return box, out.reshape(y1 - y0, x1 - x0, 4).astype(np.float32)

    def shadow(self, stage: Stage) -> tuple[Box, F32] | None:
        """Darkness (h, w, 1): 1 minus the factor the contact shadow dims the table by."""
        grow = _SHADOW_REACH * (self.box[2] - self.box[0]) / 2.2
        box = stage.clip(self.box + np.array([-grow, -grow, grow, grow]))
        if box is None:
            return None
        x0, y0, x1, y1 = box
        pts = stage.hit[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64)
        factor = contact_shadow(pts, self.centre, stage.scene.look.radius_mm, stage.light)
        return box, (1.0 - factor).reshape(y1 - y0, x1 - x0, 1).astype(np.float32)

    def smear(self, part: tuple[Box, F32], roi: Box) -> F32:
        """The sprite averaged over the sub-time offsets, placed in the ROI (h, w, c)."""
        (x0, y0, x1, y1), sprite = part
        rw, rh = roi[2] - roi[0], roi[3] - roi[1]
        ox, oy = x0 - roi[0], y0 - roi[1]
        off = self.offsets_px
        valid = np.all(np.isfinite(off), axis=1)
        out = np.zeros((rh, rw, sprite.shape[2]), np.float32)
        if valid.all() and np.abs(off).max(initial=0.0) < 1e-6:
            out[oy : oy + y1 - y0, ox : ox + x1 - x0] = sprite
            return out
        for dx, dy in off[valid]:
            m = np.array([[1.0, 0.0, ox + dx], [0.0, 1.0, oy + dy]])
            warped = cv2.warpAffine(sprite, m, (rw, rh), flags=cv2.INTER_LINEAR)
            out += warped.reshape(rh, rw, -1)
        out /= len(off)
        return out


@dataclass(frozen=True, slots=True, eq=False)
class PinDraw:
    """A pin: base point (3,) mm and unit axis (3,) (up when standing)."""

    base: F64
    axis: F64

    @classmethod
    def make(cls, stage: Stage, x_mm: float, y_mm: float, standing: bool) -> PinDraw:
        """A standing pin, or one lying on the cloth in a direction fixed by its spot."""
        if standing:
            return cls(np.array([x_mm, y_mm, 0.0]), np.array([0.0, 0.0, 1.0]))
        angle = (x_mm * 12.9898 + y_mm * 78.233) % (2.0 * math.pi)
        axis = np.array([math.cos(angle), math.sin(angle), 0.0])
        return cls(np.array([x_mm, y_mm, stage.scene.look.pin_radius_mm]), axis)

    def extent(self, stage: Stage) -> F64:
        """Pixel box (4,) around the pin."""
        look = stage.scene.look
        ends = np.array([self.base, self.base + self.axis * look.pin_height_mm])
        uv = np.nan_to_num(stage.camera.project(ends), nan=-1e4)
        depth = float(stage.camera.to_camera(ends)[:, 2].min())
        reach = 1.5 * look.pin_radius_mm * stage.camera.intrinsics.fx_px / max(depth, 1.0) + 3.0
        out: F64 = np.r_[uv.min(axis=0) - reach, uv.max(axis=0) + reach]
        return out

    def key(self) -> tuple[float, ...]:
        """Identity for caching: a pin that does not move looks the same every frame."""
        return (*self.base.tolist(), *self.axis.tolist())

    def sprite(self, stage: Stage) -> tuple[Box, F32] | None:
        """Premultiplied display BGR + alpha (h, w, 4), ray-traced with 2x2 samples."""
        box = stage.clip(self.extent(stage))
        if box is None:
            return None
        x0, y0, x1, y1 = box
        look = stage.scene.look
        u, v = np.meshgrid(np.arange(x0, x1, dtype=np.float64), np.arange(y0, y1, dtype=np.float64))
        uv = np.stack([u.ravel(), v.ravel()], axis=1)
        acc = np.zeros((len(uv), 4))
        vig = stage.vignette[y0:y1, x0:x1].reshape(-1, 1)
        for off in ((-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)):
            rays = np.nan_to_num(stage.camera.rays(uv + np.array(off)))
            lin, hit = shade_cylinder(
                stage.origin, rays, self.base, self.axis, look.pin_radius_mm,
                look.pin_height_mm, stage.light,
            )  # fmt: skip
            acc[:, :3] += encode(lin * vig) * hit[:, None] / 4.0
            acc[:, 3] += hit / 4.0
        return box, acc.reshape(y1 - y0, x1 - x0, 4).astype(np.float32)


def paste(roi: F32, roi_box: Box, part: tuple[Box, F32]) -> None:
    """Composite a premultiplied sprite (h, w, 4) onto ``roi`` (in place), clipped."""
    (x0, y0, x1, y1), sprite = part
    ax0, ay0 = max(x0, roi_box[0]), max(y0, roi_box[1])
    ax1, ay1 = min(x1, roi_box[2]), min(y1, roi_box[3])
    if ax1 <= ax0 or ay1 <= ay0:
        return
    src = sprite[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0]
    dst = roi[ay0 - roi_box[1] : ay1 - roi_box[1], ax0 - roi_box[0] : ax1 - roi_box[0]]
    dst *= 1.0 - src[..., 3:]
    dst += src[..., :3]


def merge_boxes(boxes: list[F64], margin: float) -> list[tuple[F64, list[int]]]:
    """Merge overlapping pixel boxes (4,), each grown by ``margin``; members by index."""
    grow = np.array([-margin, -margin, margin, margin])
    groups: list[tuple[F64, list[int]]] = [(b + grow, [k]) for k, b in enumerate(boxes)]
    merged = True
    while merged:
        merged = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                (a, ma), (b, mb) = groups[i], groups[j]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    both = np.r_[np.minimum(a[:2], b[:2]), np.maximum(a[2:], b[2:])]
                    groups[i] = (both, sorted(ma + mb))
                    del groups[j]
                    merged = True
                    break
            if merged:
                break
    return groups


class Spin:
    """Each ball's orientation, rolled on from its path (rolling without slipping)."""

    def __init__(self, seed: int, radius_mm: float) -> None:
        self.seed, self.radius = seed, radius_mm
        self.state: dict[Ball, tuple[F64, F64]] = {}

    def advance(self, ball: Ball, xy: F64) -> F64:
        """Roll ``ball`` along the path points (n, 2) mm; its orientation (3, 3) after."""
        last, rot = self.state.get(ball, (np.full(2, np.nan), self._initial(ball)))
        for p in xy:
            step = p - last
            dist = float(np.hypot(*step))
            if np.isfinite(dist) and dist > 1e-9:
                rot = _roll(step / dist, dist / self.radius) @ rot
            if np.all(np.isfinite(p)):
                last = p
        self.state[ball] = (last, rot)
        out: F64 = rot
        return out

    def _initial(self, ball: Ball) -> F64:
        rng = np.random.default_rng([self.seed, 5, list(Ball).index(ball)])
        q, r = np.linalg.qr(rng.standard_normal((3, 3)))
        out: F64 = q * np.sign(np.diag(r))
        return out


def _roll(direction: F64, angle: float) -> F64:
    # Rodrigues' formula about the axis (-dy, dx, 0): with it the top of the ball moves
    # along ``direction`` and the contact point stays put (rolling).
    ax, ay = -direction[1], direction[0]
    k = np.array([[0.0, 0.0, ay], [0.0, 0.0, -ax], [-ay, ax, 0.0]])
    out: F64 = np.eye(3) + math.sin(angle) * k + (1.0 - math.cos(angle)) * (k @ k)
    return out
