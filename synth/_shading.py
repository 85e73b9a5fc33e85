"""Light and surfaces: the static table image, shaded balls and pins, contact shadows.

Every function works on rays: an origin (the camera centre, table mm, z up) and unit
directions (m, 3), one per pixel or sub-pixel, and returns linear light in BGR order
(1.0: a white surface lit like the middle of the table). Balls are intersected
exactly (ray-sphere), so their parallax and the lens distortion baked into the rays
are exact; edges get analytic coverage from the ray's distance to the silhouette.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from synth._scene import BallLook, Scene, TableLook, linear_bgr
from synth._surround import decorate

__all__ = [
    "Lighting",
    "background",
    "contact_shadow",
    "shade_cylinder",
    "shade_sphere",
]

F64 = NDArray[np.float64]
B = NDArray[np.bool_]
RGB = tuple[int, int, int]
_SHININESS = 160.0
_SPECULAR = 0.8
_CEILING = 0.05  # linear radiance of what a ball mirrors above the lamps' level


@dataclass(frozen=True, slots=True)
class Lighting:
    """Lamps as arrays: positions (k, 3) mm, powers (k,), radii (k,).

    ``scale`` makes the lamps' mean irradiance of the playing surface ``1 - ambient``,
    so the cloth shows its own colour on average.
    """

    pos_mm: F64
    power: F64
    radius_mm: F64
    ambient: float
    scale: float

    @classmethod
    def of(cls, scene: Scene) -> Lighting:
        """Lighting of a scene."""
        pos = np.array([[lp.x_mm, lp.y_mm, lp.z_mm] for lp in scene.lamps])
        power = np.array([lp.power for lp in scene.lamps])
        radius = np.array([lp.radius_mm for lp in scene.lamps])
        table = scene.look.table
        gx, gy = np.meshgrid(np.linspace(0, table.length_mm, 15), np.linspace(0, table.width_mm, 8))
        grid = np.c_[gx.ravel(), gy.ravel(), np.zeros(gx.size)]
        raw = cls(pos, power, radius, scene.ambient, 1.0).irradiance(grid, _UP).sum(axis=1)
        return cls(pos, power, radius, scene.ambient, (1.0 - scene.ambient) / float(raw.mean()))

    def irradiance(self, points: F64, normals: F64) -> F64:
        """Per-lamp irradiance (m, k) at points (m, 3) with unit normals (m, 3) or (3,)."""
        to_lamp = self.pos_mm[None, :, :] - points[:, None, :]
        dist2 = np.einsum("mkc,mkc->mk", to_lamp, to_lamp)
        cos = np.einsum("mkc,mc->mk", to_lamp, np.broadcast_to(normals, points.shape))
        out: F64 = self.scale * self.power * np.maximum(cos, 0.0) / dist2**1.5
        return out


_UP = np.array([0.0, 0.0, 1.0])


def _plane_hit(origin: F64, dirs: F64, z_mm: float) -> F64:
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (z_mm - origin[2]) / dirs[:, 2]
    out: F64 = origin + dirs * s[:, None]
    return out


def _inside(xy: F64, lo: float, hi_x: float, hi_y: float) -> B:
    out: B = (xy[:, 0] >= lo) & (xy[:, 0] <= hi_x) & (xy[:, 1] >= lo) & (xy[:, 1] <= hi_y)
    return out


def background(
    origin: F64, dirs: F64, scene: Scene, light: Lighting, px_rad: float = 0.0
) -> tuple[F64, F64]:
    """Shade the static table and floor along rays (m, 3) from ``origin`` (3,).

    Returns linear BGR (m, 3) and the surface point hit by each ray (m, 3) in mm.
    Surfaces: rail top, cushion top, cushion face (vertical, under the nose), cloth,
    table side (apron) and floor, tested from the highest down. ``px_rad`` is the
    angle one ray stands for (a pixel, or a sub-pixel): thin chalk lines are averaged
    over that footprint, so they stay whole lines where they are thinner than a pixel.
    """
    look, table = scene.look, scene.look.table
    length, width = table.length_mm, table.width_mm
    cw, outer = look.cushion_width_mm, look.cushion_width_mm + look.rail_width_mm
    rail = _plane_hit(origin, dirs, look.rail_height_mm)
    cush = _plane_hit(origin, dirs, look.cushion_height_mm)
    cloth = _plane_hit(origin, dirs, 0.0)
    floor = _plane_hit(origin, dirs, -look.floor_depth_mm)
    in_outer = _inside(rail, -outer, length + outer, width + outer)
    is_rail = in_outer & ~_inside(rail, -cw, length + cw, width + cw)
    in_play_top = _inside(cush, 0.0, length, width)
    is_cush = ~is_rail & ~in_play_top & _inside(cush, -cw, length + cw, width + cw)
    is_cloth = ~is_rail & in_play_top & _inside(cloth, 0.0, length, width)
    is_face = ~is_rail & in_play_top & ~is_cloth
    # Between the rail top and the lower cushion top: the rail's inner step face.
    in_cush_top = _inside(rail, -cw, length + cw, width + cw)
    is_step = in_cush_top & ~in_play_top & ~_inside(cush, -cw, length + cw, width + cw)
    is_rail |= is_step
    is_apron = ~(is_rail | is_cush | is_cloth | is_face) & _inside(
        floor, -outer, length + outer, width + outer
    )
    hit = np.where(is_rail[:, None], rail, floor)
    hit = np.where(is_cush[:, None], cush, hit)
    hit = np.where(is_cloth[:, None], cloth, hit)
    hit = np.where(is_face[:, None], _face_point(origin, dirs, cush, look), hit)
    hit = np.where(is_apron[:, None], _apron_point(floor, look), hit)
    footprint_mm = np.linalg.norm(np.nan_to_num(cloth) - origin, axis=1) * px_rad
    albedo = _albedo(hit, look, (is_rail, is_cush, is_cloth, is_face, is_apron), footprint_mm)
    return albedo * _table_light(hit, look, light, is_cloth), hit


def _face_point(origin: F64, dirs: F64, cush: F64, look: TableLook) -> F64:
    # The ray crossed the nose line between z = nose height and z = 0: find where.
    length, width = look.table.length_mm, look.table.width_mm
    s_best = np.full(len(dirs), np.inf)
    for axis, bound in ((0, 0.0), (0, length), (1, 0.0), (1, width)):
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (bound - origin[axis]) / dirs[:, axis]
        z = origin[2] + s * dirs[:, 2]
        ok = (s > 0) & (z <= look.cushion_height_mm) & (z >= 0.0)
        s_best = np.where(ok & (s < s_best), s, s_best)
    s_best[~np.isfinite(s_best)] = 0.0
    out: F64 = np.where(np.isfinite(cush), origin + dirs * s_best[:, None], cush)
    return out


def _apron_point(floor: F64, look: TableLook) -> F64:
    out = floor.copy()
    out[:, 2] = -look.floor_depth_mm / 3.0  # the apron's middle height, for its light
    return out


def _albedo(hit: F64, look: TableLook, masks: tuple[B, ...], footprint_mm: F64) -> F64:
    is_rail, is_cush, is_cloth, is_face, is_apron = masks
    cloth = linear_bgr(look.cloth)
    out = np.broadcast_to(linear_bgr(look.floor), hit.shape).copy()
    out[is_rail] = linear_bgr(look.rail) * _wood_grain(hit[is_rail], look)[:, None]
    out[is_cush] = cloth * 0.62
    out[is_face] = cloth * 0.38
    out[is_cloth] = cloth
    out[is_apron] = linear_bgr(look.apron)
    _marks(out, hit, is_rail, look.diamonds_mm(), look.diamond_radius_mm, look.diamond)
    _chalk_lines(out, hit, is_cloth, footprint_mm, look)
    _marks(out, hit, is_cloth, look.spots_mm(), look.spot_radius_mm, look.spot)
    decorate(out, hit, masks, footprint_mm, look)
    _pockets(out, hit, look)
    return out


def _pockets(out: F64, hit: F64, look: TableLook) -> None:
    """Cut the pocket holes (a pocket table) through every surface of ``out`` (m, 3)."""
    r = look.pocket_radius_mm
    for cx, cy in look.geometry().pockets_mm().values():
        d = np.hypot(hit[:, 0] - cx, hit[:, 1] - cy)
        cover = np.clip(r + 0.5 - d, 0.0, 1.0)[:, None]  # a 1 mm anti-aliasing ramp
        out[:] = out * (1.0 - cover) + linear_bgr(look.pocket) * cover


def _wood_grain(xyz: F64, look: TableLook) -> F64:
    # Grain runs along each rail: long rails along x, short rails along y.
    on_long = (xyz[:, 1] < 0.0) | (xyz[:, 1] > look.table.width_mm)
    across = np.where(on_long, xyz[:, 1], xyz[:, 0])
    along = np.where(on_long, xyz[:, 0], xyz[:, 1])
    grain = np.sin(across * 0.21 + 2.0 * np.sin(along * 0.003)) * np.sin(across * 0.05 + 1.0)
    out: F64 = 1.0 + 0.05 * grain
    return out


def _marks(out: F64, hit: F64, where: B, centres: F64, radius: float, rgb: RGB) -> None:
    """Paint round marks (diamonds, spots) with a thin dark rim onto ``out`` (m, 3).

    A mark reaches ``radius + 1.6`` mm (its rim): only the points in that box around
    each centre are painted (every other point would be left as it is, at the cost of
    a distance to every mark).
    """
    idx = np.flatnonzero(where)
    x, y = hit[idx, 0], hit[idx, 1]
    reach = radius + 1.6
    for cx, cy in centres:
        near = idx[(np.abs(x - cx) <= reach) & (np.abs(y - cy) <= reach)]
        if not len(near):
            continue
        d = np.hypot(hit[near, 0] - cx, hit[near, 1] - cy)
        cover = np.clip(radius + 0.5 - d, 0.0, 1.0)[:, None]
        rim = np.clip(1.0 - np.abs(d - radius - 0.8) / 0.8, 0.0, 1.0)[:, None] * 0.5
        out[near] = out[near] * (1.0 - rim) * (1.0 - cover) + linear_bgr(rgb) * cover


def _chalk_lines(out: F64, hit: F64, where: B, footprint_mm: F64, look: TableLook) -> None:
    """Lay the discipline's chalk lines over ``out`` (m, 3) where the rays hit the cloth.

    Each point stands for a footprint ``footprint_mm`` (m,) wide (at least 1 mm, the
    anti-aliasing ramp of the spots); the line's cover is the share of that footprint
    it fills, so a line thinner than a pixel is drawn faint and whole, not dashed.
    """
    segments = look.chalk_lines_mm()
    if not len(segments):
        return
    idx = np.flatnonzero(where)
    pts, foot = hit[idx, :2], np.maximum(footprint_mm[idx], 1.0)
    half = look.chalk_width_mm / 2.0
    reach = half + float(foot.max(initial=0.0))
    cover = np.zeros(len(idx))
    for x0, y0, x1, y1 in segments:
        # Only the points in the segment's box can be touched: most lines are narrow.
        near = np.flatnonzero(
            (pts[:, 0] >= min(x0, x1) - reach) & (pts[:, 0] <= max(x0, x1) + reach)
            & (pts[:, 1] >= min(y0, y1) - reach) & (pts[:, 1] <= max(y0, y1) + reach)
        )  # fmt: skip
        d = _segment_distance(pts[near], np.array([x0, y0]), np.array([x1, y1]))
        f = foot[near]
        inside = np.minimum(d + f / 2.0, half) - np.maximum(d - f / 2.0, -half)
        cover[near] = np.maximum(cover[near], np.clip(inside / f, 0.0, 1.0))
    alpha = (look.chalk_opacity * cover)[:, None]
    out[idx] = out[idx] * (1.0 - alpha) + linear_bgr(look.chalk) * alpha


def _segment_distance(pts: F64, a: F64, b: F64) -> F64:
    """Distance (m,) from points (m, 2) to the segment from ``a`` (2,) to ``b`` (2,)."""
    ab = b - a
    t = np.clip(((pts - a) @ ab) / float(ab @ ab), 0.0, 1.0)
    out: F64 = np.hypot(*(pts - a - t[:, None] * ab).T)
    return out


def _table_light(hit: F64, look: TableLook, light: Lighting, is_cloth: B) -> F64:
    """Irradiance (m, 1): ambient (dimmed near the cushions) plus the lamps."""
    direct = light.irradiance(np.nan_to_num(hit), _UP).sum(axis=1)
    length, width, h = look.table.length_mm, look.table.width_mm, look.cushion_height_mm
    occ = np.zeros(len(hit))
    for d in (hit[:, 0], length - hit[:, 0], hit[:, 1], width - hit[:, 1]):
        # Cosine-weighted sky hidden by a wall of height h at distance d, halved
        # because the wall hides one side only.
        dd = np.maximum(d, 0.0)
        occ += 0.5 * (1.0 - dd / np.hypot(dd, h))
    ambient = light.ambient * np.where(is_cloth, 1.0 - 0.8 * np.clip(occ, 0.0, 1.0), 1.0)
    out: F64 = (ambient + direct)[:, None]
    return out


def contact_shadow(points: F64, centre: F64, radius: float, light: Lighting) -> F64:
    """Factor (m,) by which a ball at ``centre`` (3,) dims level surface points (m, 3).

    Ambient: 1 minus the sphere's cosine-weighted form factor, (R / D)^3 for a sphere
    resting on the plane. Lamps: each lamp's soft visibility past the sphere, with the
    lamp's direction and irradiance taken at the ball's foot (the shadow is small).
    """
    rel = points - centre
    dist2 = np.einsum("mc,mc->m", rel, rel)
    ambient_vis = 1.0 - np.clip(radius / np.sqrt(np.maximum(dist2, radius * radius)), 0, 1) ** 3
    foot = np.array([[centre[0], centre[1], 0.0]])
    e_lamp = light.irradiance(foot, _UP)[0]  # (k,)
    to_lamp = light.pos_mm - foot
    lamp_dist = np.linalg.norm(to_lamp, axis=1)
    along = -rel @ (to_lamp / lamp_dist[:, None]).T  # (m, k): centre's distance along the ray
    perp = np.sqrt(np.maximum(dist2[:, None] - along**2, 0.0))
    pen = light.radius_mm * np.maximum(along, 0.0) / (lamp_dist - along) + 1.0
    vis = np.where(along > 0.0, np.clip((perp - radius) / (2.0 * pen) + 0.5, 0.0, 1.0), 1.0)
    # Lamp boxes are large: the ball also hides part of each lamp from points near
    # it, hence half of the direct light is dimmed like the ambient light too.
    lit = light.ambient * ambient_vis + (vis * (0.5 + 0.5 * ambient_vis[:, None])) @ e_lamp
    out: F64 = lit / (light.ambient + e_lamp.sum())
    return out


def shade_sphere(
    origin: F64,
    dirs: F64,
    centre: F64,
    radius: float,
    px_mm: float,
    look: BallLook,
    rot: F64,
    light: Lighting,
    cloth: F64,
) -> tuple[F64, F64]:
    """Shade a ball along rays (m, 3): linear BGR (m, 3) and coverage alpha (m,).

    ``px_mm`` is the width of one pixel at the ball's distance (for the edge
    coverage); ``rot`` (3, 3) turns body coordinates of the ball into table ones
    (the dots turn with the ball); ``cloth`` (3,) is the linear cloth colour that the
    ball mirrors at grazing angles.
    """
    oc = origin - centre
    b = dirs @ oc
    c = float(oc @ oc) - radius * radius
    disc = b * b - c
    # Distance from the centre to each ray, minus R, in pixels: negative inside.
    miss_px = (np.sqrt(np.maximum(c + radius * radius - b * b, 0.0)) - radius) / px_mm
    alpha = np.clip(0.5 - miss_px, 0.0, 1.0)
    s = -b - np.sqrt(np.maximum(disc, 0.0))
    normal = (origin + dirs * s[:, None]) - centre
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    albedo = _ball_albedo(normal, look, rot, radius)
    return _sphere_light(normal, -dirs, centre + normal * radius, albedo, light, cloth), alpha


def _ball_albedo(normal: F64, look: BallLook, rot: F64, radius: float) -> F64:
    base = linear_bgr(look.colour)
    out = np.broadcast_to(base, normal.shape).copy()
    if look.dots:
        body = normal @ rot  # rot.T @ each normal: body-frame directions
        axes = _dot_axes(look.dots)
        cos_r = np.cos(look.dot_radius_mm / radius)
        near = (body @ axes.T).max(axis=1)
        edge = np.clip((near - cos_r) / (1.0 - cos_r) * 6.0, 0.0, 1.0)
        out += (linear_bgr(look.dot_colour) - base) * edge[:, None]
    return out


def _dot_axes(n: int) -> F64:
    axes = [(0.0, 0.0, 1.0), (0.0, 0.0, -1.0), (1.0, 0.0, 0.0)]
    return np.array(axes[:n] if n <= 3 else axes)


def _sphere_light(
    normal: F64, view: F64, points: F64, albedo: F64, light: Lighting, cloth: F64
) -> F64:
    e = _wrapped_irradiance(light, points, normal)  # (m, k)
    sky = light.ambient * (0.5 + 0.5 * normal[:, 2])
    bounce = 0.25 * np.maximum(-normal[:, 2], 0.0)
    diffuse = albedo * (sky + e.sum(axis=1))[:, None] + albedo * cloth * bounce[:, None]
    to_lamp = light.pos_mm[None, :, :] - points[:, None, :]
    to_lamp /= np.linalg.norm(to_lamp, axis=2, keepdims=True)
    half = to_lamp + view[:, None, :]
    half /= np.linalg.norm(half, axis=2, keepdims=True)
    n_dot_h = np.maximum(np.einsum("mkc,mc->mk", half, normal), 0.0)
    lamp_level = light.scale * light.power / np.maximum(light.pos_mm[:, 2] - 30.0, 1.0) ** 2
    spec = _SPECULAR * (n_dot_h**_SHININESS * lamp_level).sum(axis=1)
    n_dot_v = np.clip(np.einsum("mc,mc->m", normal, view), 0.0, 1.0)
    fresnel = 0.04 + 0.96 * (1.0 - n_dot_v) ** 5
    reflect_z = 2.0 * n_dot_v * normal[:, 2] - view[:, 2]
    env = np.where(reflect_z[:, None] < 0.0, cloth[None, :] * 0.5, _CEILING)
    glossy = fresnel[:, None] * env
    out: F64 = diffuse * (1.0 - fresnel[:, None]) + glossy + spec[:, None]
    return out


def _wrapped_irradiance(light: Lighting, points: F64, normals: F64, wrap: float = 0.3) -> F64:
    """Lamp irradiance with a wrapped cosine: large lamps light a sphere past 90 degrees."""
    to_lamp = light.pos_mm[None, :, :] - points[:, None, :]
    dist = np.linalg.norm(to_lamp, axis=2)
    cos = np.einsum("mkc,mc->mk", to_lamp, normals) / dist
    out: F64 = light.scale * light.power * np.maximum((cos + wrap) / (1.0 + wrap), 0.0) / dist**2
    return out


def shade_cylinder(
    origin: F64, dirs: F64, base: F64, axis: F64, radius: float, height: float, light: Lighting
) -> tuple[F64, F64]:
    """Shade a pin (a capped cylinder) along rays (m, 3): linear BGR (m, 3), hit (m,).

    The pin is white with a red band between 55% and 75% of its height.
    """
    w = origin - base
    d_ax, w_ax = dirs @ axis, float(w @ axis)
    d_perp = dirs - d_ax[:, None] * axis
    w_perp = w - w_ax * axis
    a, b2 = np.einsum("mc,mc->m", d_perp, d_perp), d_perp @ w_perp
    disc = b2 * b2 - a * (float(w_perp @ w_perp) - radius * radius)
    with np.errstate(divide="ignore", invalid="ignore"):
        s_side = (-b2 - np.sqrt(np.maximum(disc, 0.0))) / a
        s_cap = (height - w_ax) / d_ax
    t_side = w_ax + s_side * d_ax
    side_ok = (disc > 0) & (s_side > 0) & (t_side >= 0) & (t_side <= height)
    cap_pt = w_perp + s_cap[:, None] * d_perp
    cap_ok = (s_cap > 0) & (np.einsum("mc,mc->m", cap_pt, cap_pt) <= radius * radius)
    use_cap = cap_ok & (~side_ok | (s_cap < s_side))
    s = np.where(use_cap, s_cap, s_side)
    hit = (side_ok | cap_ok) & np.isfinite(s)
    pts = origin + dirs * np.nan_to_num(s)[:, None]
    radial = (pts - base) - np.outer((pts - base) @ axis, axis)
    normal = np.where(use_cap[:, None], axis, radial / radius)
    band = (t_side > 0.55 * height) & (t_side < 0.75 * height) & ~use_cap
    albedo = np.where(band[:, None], linear_bgr((190, 20, 30)), linear_bgr((240, 240, 235)))
    e = light.irradiance(pts, normal).sum(axis=1) + light.ambient * (0.6 + 0.4 * normal[:, 2])
    out: F64 = albedo * e[:, None]
    return out, hit.astype(np.float64)
