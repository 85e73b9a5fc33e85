"""The annotated video's labels: placed on no ball and no other label, light on dark.

Placement is greedy and deterministic: labels are placed in priority order (the fixed
corners first, then event labels, then ball names); each tries positions around its
anchor (right, left, above, below, the four diagonals, then the same ring farther out)
and takes the first that stays in the frame and overlaps nothing placed or no ball. A
label keeps last frame's position while it is free (``prefer``), so names do not jump.
A label with no free place is left out: a missing name is better than a covered ball.

Contrast: the plate is near-black at 85 % opacity, the text near-white; the label's
colour (the ball's) is a bar on the plate's left edge, never the text (red on grey reads
badly on a phone). Over the brightest cloth the plate is still under luminance 0.04,
text on it over 12:1 (WCAG asks 4.5:1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from carom.report._annotate_glyphs import Glyphs, HersheyGlyphs

__all__ = [
    "PLATE_BGR",
    "TEXT_BGR",
    "Box",
    "draw_label",
    "label_size",
    "overlaps",
    "place_label",
]

U8 = NDArray[np.uint8]
#: An axis-aligned box ``(x0, y0, x1, y1)`` in output pixels, x0 < x1, y0 < y1.
Box = tuple[float, float, float, float]
BGR = tuple[int, int, int]

PLATE_BGR: BGR = (18, 18, 18)
TEXT_BGR: BGR = (245, 245, 245)
_PLATE_ALPHA = 0.85
_HERSHEY = HersheyGlyphs()
#: Directions tried around the anchor: right, left, above, below, then the diagonals.
_DIRECTIONS = ((1, 0), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (-1, -1), (-1, 1))
_RINGS = (1.0, 3.0, 6.0)  # gaps from the anchor, in units of ``gap``


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes share any area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _candidates(size: tuple[float, float], anchor: Box, gap: float) -> list[Box]:
    """Boxes of ``size`` (w, h) around ``anchor``, nearest ring first."""
    w, h = size
    cx, cy = (anchor[0] + anchor[2]) / 2, (anchor[1] + anchor[3]) / 2
    out = []
    for ring in _RINGS:
        d = gap * ring
        for dx, dy in _DIRECTIONS:
            x0 = anchor[2] + d if dx > 0 else anchor[0] - d - w if dx < 0 else cx - w / 2
            y0 = anchor[3] + d if dy > 0 else anchor[1] - d - h if dy < 0 else cy - h / 2
            out.append((x0, y0, x0 + w, y0 + h))
    return out


def place_label(
    size: tuple[float, float],
    anchor: Box,
    taken: Sequence[Box],
    frame_px: tuple[int, int],
    *,
    gap: float = 4.0,
    prefer: int | None = None,
) -> tuple[Box, int] | None:
    """A free place for a label of ``size`` (w, h) px next to ``anchor``.

    Args:
        size: The label's (width, height), output pixels.
        anchor: What it names (a ball's box, an event's ring), output pixels.
        taken: Boxes it must not overlap (balls, labels already placed).
        frame_px: The frame's (width, height): the label stays inside it.
        gap: Space between the anchor and the nearest ring of places, pixels.
        prefer: The candidate index to try first (the one used last frame).

    Returns:
        The box and its candidate index, or None when every candidate is blocked.
    """
    boxes = _candidates(size, anchor, gap)
    order = list(range(len(boxes)))
    if prefer is not None and 0 <= prefer < len(boxes):
        order.remove(prefer)
        order.insert(0, prefer)
    fw, fh = frame_px
    for k in order:
        b = boxes[k]
        if b[0] < 0 or b[1] < 0 or b[2] > fw or b[3] > fh:
            continue
        if not any(overlaps(b, t) for t in taken):
            return b, k
    return None


def _metrics(lines: Sequence[str], scale: float, glyphs: Glyphs) -> tuple[int, int, int]:
    """(text width, line step, padding) of ``lines`` at ``scale``, pixels."""
    sizes = [glyphs.size(t, scale) for t in lines]
    step = round(max(h for _, h in sizes) * 1.7)
    return max(w for w, _ in sizes), step, max(3, step // 3)


def label_size(
    lines: Sequence[str], scale: float, glyphs: Glyphs = _HERSHEY
) -> tuple[float, float]:
    """The (width, height) in pixels :func:`draw_label` takes for ``lines`` at ``scale``."""
    text_w, step, pad = _metrics(lines, scale, glyphs)
    bar = max(3, pad)
    return float(bar + 2 * pad + text_w), float(step * len(lines) + pad)


def draw_label(
    img: U8, box: Box, lines: Sequence[str], accent: BGR, scale: float,
    glyphs: Glyphs = _HERSHEY,
) -> None:  # fmt: skip
    """Light ``lines`` on a dark plate filling ``box``; an ``accent`` bar at its left.

    ``img`` (h, w, 3) BGR is drawn on in place; ``box`` comes from :func:`label_size`
    (with the same ``glyphs``) placed by :func:`place_label`, in ``img``'s pixels.
    """
    _, step, pad = _metrics(lines, scale, glyphs)
    h, w = img.shape[:2]
    x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x1, y1 = min(w, math.ceil(box[2])), min(h, math.ceil(box[3]))
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    plate = np.empty_like(roi)
    plate[:] = PLATE_BGR
    roi[:] = cv2.addWeighted(plate, _PLATE_ALPHA, roi, 1.0 - _PLATE_ALPHA, 0.0)
    bar = max(3, pad)
    roi[:, :bar] = accent
    for i, text in enumerate(lines):
        at = (x0 + bar + pad, y0 + step * (i + 1) - pad // 2)
        glyphs.draw(img, at, text, scale, TEXT_BGR)
