"""One blob of the colour detector's coarse search -> its balls, at full resolution.

Theory of operation. The blob's gate (its mask on the shrunk image, grown and scaled
back up) selects the full-resolution pixels looked at. Each gets the nearest ball
class and its share of that ball's colour (:class:`ColourModel`). A class with enough
pixels is present; its core (the pixels of its class) and the pixels next to it count
by their share of the ball, so the rim, a highlight or a shaded side nearer another
colour pull the centre as they should, and the pixels of another ball present in the
blob do not. The share image then becomes balls (:func:`ball_or_streak`).

A second pass mends what the first could not know: which pixels of other classes
belong to a ball found. A class present that gives no ball of its own is no other
ball, nor is a ball's colour off that ball's disc (beyond 1.1 radii of its first
centre, or of its streak's axis); such pixels count for a ball found near them, by
their share of its colour, as the rim does:

* a faint colour (nowhere in full colour), within 1.25 radii: in dim light the shaded
  side of a white ball lies nearer the yellow's colour line, a ring 3-5 px wide that,
  left out, put the white's centre up to 2 px (5 mm) towards its lit side, alone or
  with the yellow beside it (then that ring is the yellow's colour off the yellow's
  disc);
* a colour in full, within the ball's disc only (1.0 radius): a highlight. Beyond the
  disc it is another ball cut by the blob's edge (the other of two touching balls,
  found in its own blob): counted, it pulled a touching white 3 px towards the red.

An off-colour class (its mean far from its colour line: a shadow, the cushion) counts
for no ball: counted, a shadow pulled a yellow in a corner 0.6 px.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision._types import U8
from vision.detect._blob_balls import Found, ball_or_streak
from vision.detect._colour_model import ColourModel, ball_share

__all__ = ["balls_in_blob"]

F32 = NDArray[np.float32]
B1 = NDArray[np.bool_]
I64 = NDArray[np.intp]

_PRESENT = 0.25  # a class's pixels, in ball areas, to be present in a blob
_STREAK_PEAK = 0.25  # a streak at least this much
_SHARP_PEAK = 0.65  # a ball in full colour (as in vision.detect._blob_balls)
_FAINT_REACH = 1.25  # faint pixels this many radii from a ball found count for it
_DISC_REACH = 1.0  # a full colour giving no ball counts within this many radii
_OWN_REACH = 1.1  # a ball's colour beyond this many radii from its centre is no longer its
_KERNEL5 = np.ones((5, 5), np.uint8)


@dataclass(frozen=True, slots=True)
class _Blob:
    """A blob's gate (h, w) at full size, its pixels (flat indices, n) and classes."""

    gate: NDArray[Any]
    idx: I64
    origin_px: tuple[int, int]
    radius_px: float
    pixels: F32  # (n, 3) weighted Lab
    label: NDArray[np.int8]  # (n,) nearest class, -1 for none
    alpha: F32  # (n, k) share of each class


def balls_in_blob(
    model: ColourModel, roi: U8, gate: NDArray[Any], origin_px: tuple[int, int], r: float
) -> list[Found]:
    """The balls under ``gate`` (h, w) in ``roi`` (h, w, 3) BGR placed at ``origin_px``.

    ``r`` is the expected ball radius (px) there.
    """
    # Flat indices of the gate's pixels: one-axis gathers and scatters are a third
    # of the cost of (row, column) pairs. Lab of the gate's pixels only is used.
    idx = gate.reshape(-1).nonzero()[0]
    pixels = model.weighted(cv2.cvtColor(roi, cv2.COLOR_BGR2Lab).reshape(-1, 3)[idx])
    label, alpha = model.classify(pixels)
    blob = _Blob(gate, idx, origin_px, r, pixels, label, alpha)
    counts = np.bincount(label + 1, minlength=len(model.balls) + 1)[1:]
    present = counts >= _PRESENT * math.pi * r * r
    found = _measure(model, blob, present, None)
    balls = [f for c in sorted(found) for f in found[c][1]]
    # A class giving no ball: present and on its colour line (an off-colour one is a
    # shadow or the cushion), but no ball of its own here.
    peaks = np.array([found[c][0] if c in found else -1.0 for c in range(len(present))])
    gave_none = np.array([c in found and not found[c][1] for c in range(len(present))])
    empty = present & (peaks >= 0.0) & gave_none
    if not balls or (not empty.any() and len(balls) < 2):
        return balls
    claims = _claims(model, blob, balls, (empty, empty & (peaks >= _SHARP_PEAK)))
    if claims is None:
        return balls
    found = _measure(model, blob, present & ~empty, claims)
    return [f for c in sorted(found) for f in found[c][1]]


def _claims(
    model: ColourModel, blob: _Blob, balls: list[Found], empty: tuple[B1, B1]
) -> tuple[B1, dict[int, B1]] | None:
    """Pixels no class keeps, and for each class of ``balls`` those it takes, if any.

    Not kept: those of a class giving no ball (``empty[0]``, (k,)), and those of a
    ball's class off that ball's disc. A class takes those within reach of one of its
    balls: 1.25 radii, or its disc for a class in full colour (``empty[1]``): that is
    a highlight, while beyond the disc it is another ball cut by the blob's edge.
    """
    label, r = blob.label, blob.radius_px
    classes = [model.balls.index(f.ball) for f in balls]
    dist = _distances(blob, balls)
    own = np.zeros(len(label), np.bool_)
    for c, d in zip(classes, dist, strict=True):
        own |= (label == c) & (d <= _OWN_REACH * r)
    found_class = np.zeros(len(empty[0]), np.bool_)
    found_class[classes] = True
    at = np.maximum(label, 0)
    claimed = (empty[0] | found_class)[at] & ~own & (label >= 0)
    reach = dist <= np.where(empty[1][at], _DISC_REACH, _FAINT_REACH) * r
    taken = {c: claimed & reach[[k for k, b in enumerate(classes) if b == c]].any(0)
             for c in set(classes)}  # fmt: skip
    return (claimed, taken) if any(m.any() for m in taken.values()) else None


def _measure(
    model: ColourModel, blob: _Blob, present: B1, claims: tuple[B1, dict[int, B1]] | None
) -> dict[int, tuple[float, list[Found]]]:
    """Each class ``present``: its peak share and balls.

    ``claims``: pixels no class keeps, and for each class those of them it takes.
    """
    label, alpha, idx = blob.label, blob.alpha, blob.idx
    classes = [c for c, here in enumerate(present.tolist()) if here]
    # With one class present no pixel belongs to another: every pixel near the core
    # counts (the same pixels the general rule below gives, without its passes).
    in_present = present[np.maximum(label, 0)] & (label >= 0) if len(classes) > 1 else None
    out: dict[int, tuple[float, list[Found]]] = {}
    for c in classes:
        core = label == c
        peak = model.peak_share(blob.pixels[core], alpha[core, c], int(c))
        if peak < _STREAK_PEAK:
            out[c] = (peak, [])
            continue
        # Pixels next to the core count by their share of this ball: the rim (too
        # faint to be foreground), a highlight or a shaded side nearer another
        # colour; not those of another ball present in the blob.
        mine = core
        if claims is not None:
            claimed, taken = claims
            extra = taken.get(c, np.zeros(len(label), np.bool_))
            mine = (core & ~claimed) | extra
        core2d = np.zeros(blob.gate.shape, np.uint8)
        core2d.reshape(-1)[idx[mine]] = 1
        near = cv2.dilate(core2d, _KERNEL5).reshape(-1)[idx] > 0
        if in_present is not None:
            near &= mine | ~in_present
        if claims is not None:
            near &= mine | ~claims[0]  # a pixel no class keeps counts where taken
        # The shares as an image: OpenCV's moments then cost one call, not ten.
        mass = np.zeros(blob.gate.shape, np.float32)
        mass.reshape(-1)[idx] = ball_share(alpha[:, c]) * near
        balls = ball_or_streak(mass, blob.origin_px, model.balls[c], blob.radius_px, peak)
        out[c] = (peak, balls)
    return out


def _distances(blob: _Blob, balls: list[Found]) -> NDArray[np.float64]:
    """Each pixel's distance (k, n) from each ball's centre, or its streak's axis (px)."""
    rows, cols = np.divmod(blob.idx, blob.gate.shape[1])
    u0, v0 = blob.origin_px
    out = np.empty((len(balls), len(blob.idx)))
    for k, f in enumerate(balls):
        du, dv = cols + u0 - f.uv_px[0], rows + v0 - f.uv_px[1]
        half = float(np.hypot(*f.streak_px))
        if half > 0.0:
            along = (du * f.streak_px[0] + dv * f.streak_px[1]) / half
            du = du - np.clip(along, -half, half) * f.streak_px[0] / half
            dv = dv - np.clip(along, -half, half) * f.streak_px[1] / half
        out[k] = np.hypot(du, dv)
    return out
