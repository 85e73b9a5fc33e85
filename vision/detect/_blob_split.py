"""A blob too big to be balls (an arm with its cue, a hand) -> the ball-sized pieces on it.

Theory of operation. A ball touched by something that is not cloth (the player's cue
lying across it, a hand beside it) makes one blob with it, and that blob is dropped
by the colour detector as a hand or an arm: the ball goes unseen for as long as the
cue lies there (tuning pt0485 of the independent set: the tan cue across the resting
yellow from the first frame, the yellow never seen before its kiss). Eroding the
blob by a disc of half a ball radius cuts what joins a ball to the rest through a
neck narrower than a ball radius (the cue is about half a radius wide); a piece left
of about one or two eroded balls is grown back by the same disc, within the blob, and
returned for the detector to check and refine as a blob of its own. What is wider than a ball
stays joined and is dropped as before.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision._types import U8

__all__ = ["ball_pieces"]

_MIN_PIECE = 0.3  # a piece's area, in eroded ball areas
_MAX_PIECE = 2.5  # two touching balls, eroded, with the neck between them
_FREE = 0.5  # share of a piece's outline with cloth seen round it
_RING = np.ones((3, 3), np.uint8)


def ball_pieces(blob: U8, searched: U8, radius: float) -> list[U8]:
    """Masks (h, w) uint8 0/1 of the ball-sized pieces of ``blob`` (h, w) uint8 0/1.

    Args:
        blob: One blob's mask on the detector's shrunk image.
        searched: (h, w) uint8 0/1 where the detector looks for balls there: a piece
            must have cloth seen round at least ``_FREE`` of its outline.
        radius: The expected ball radius there, in shrunk pixels.
    """
    half = max(round(0.5 * radius), 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * half + 1, 2 * half + 1))
    core = cv2.erode(blob, kernel)
    contours, _ = cv2.findContours(core, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    core_area = math.pi * max(radius - half, 1.0) ** 2
    pieces: list[U8] = []
    for contour in contours:
        _, _, w, h = cv2.boundingRect(contour)
        if w * h > 4.0 * _MAX_PIECE * core_area:
            continue  # the arm, the hand: still too big
        one = np.zeros_like(blob)
        cv2.drawContours(one, [contour], 0, 1, cv2.FILLED)
        if not _MIN_PIECE * core_area <= cv2.countNonZero(one) <= _MAX_PIECE * core_area:
            continue
        piece = np.asarray(cv2.dilate(one, kernel), np.uint8) & blob
        if _free(piece, blob, searched) >= _FREE:
            pieces.append(piece)
    return pieces


def _free(piece: U8, blob: U8, searched: U8) -> float:
    """Share of the pixels round ``piece`` that are cloth seen (searched, not in the blob).

    A ball under the cue or beside a hand is free nearly all round; a chunk of a sleeve
    cut off at the wrist, or a hand over the rail, is not (tuning pt0037, pt4582).
    """
    ring = np.asarray(cv2.dilate(piece, _RING), np.uint8) & (1 - piece)
    n = cv2.countNonZero(ring)
    return cv2.countNonZero(ring & (1 - blob) & searched) / n if n else 0.0
