"""The annotated video's labels: placed off the balls and each other (on boxes, and on a
rendered frame with the balls close together), light text on a dark plate (WCAG ratio
measured on the pixels)."""

from __future__ import annotations

import itertools
from pathlib import Path

import av
import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carom.report import AnnotatedWriter, VideoWords, pick_glyphs
from carom.report._annotate_labels import Box, overlaps, place_label
from referee import Ball, BallContact
from tests.carom.report.test_annotate import calibration
from tests.fuzz_scale import examples
from vision import Frame, ScoredEvent

FRAME = (400, 300)
SIZE = (60.0, 20.0)


def test_a_free_label_goes_right_of_its_anchor() -> None:
    spot = place_label(SIZE, (100, 100, 120, 120), [], FRAME, gap=4)
    assert spot == ((124, 100, 184, 120), 0)


def test_a_blocked_side_is_skipped_for_the_next_free_one() -> None:
    ball = (122, 95, 150, 125)  # a ball just right of the anchor
    box, k = place_label(SIZE, (100, 100, 120, 120), [ball], FRAME, gap=4) or ((0,) * 4, -1)
    assert k == 1 and box == (36, 100, 96, 120)  # left
    edge = place_label(SIZE, (340, 100, 360, 120), [], FRAME, gap=4)
    assert edge is not None and edge[1] == 1  # no room on the right: the frame ends


def test_a_crowded_anchor_uses_the_farther_ring() -> None:
    anchor: Box = (100, 100, 120, 120)
    near: list[Box] = []
    for k in range(8):  # every place of the nearest ring, taken
        spot = place_label(SIZE, anchor, [], FRAME, gap=4, prefer=k)
        assert spot is not None and spot[1] == k
        near.append(spot[0])
    far = place_label(SIZE, anchor, near, FRAME, gap=4)
    assert far is not None and far[1] >= 8
    assert not any(overlaps(far[0], b) for b in near)


def test_last_frame_s_place_is_kept_while_free() -> None:
    anchor: Box = (100, 100, 120, 120)
    assert place_label(SIZE, anchor, [], FRAME, prefer=3) == ((80, 124, 140, 144), 3)
    blocked = place_label(SIZE, anchor, [(80, 130, 90, 140)], FRAME, prefer=3)
    assert blocked is not None and blocked[1] == 0


def test_no_free_place_leaves_the_label_out() -> None:
    assert place_label(SIZE, (100, 100, 120, 120), [(0, 0, 400, 300)], FRAME) is None


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.tuples(st.floats(150, 250), st.floats(100, 200)), min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(20, 90), st.integers(10, 30)), min_size=1, max_size=8),
)
def test_greedy_placement_never_overlaps_a_ball_or_a_label(
    centres: list[tuple[float, float]], sizes: list[tuple[int, int]]
) -> None:
    """Balls packed in a 100 px square, labels named after them placed one by one."""
    balls: list[Box] = [(u - 12, v - 12, u + 12, v + 12) for u, v in centres]
    taken, placed = list(balls), []
    for i, (w, h) in enumerate(sizes):
        spot = place_label((w, h), balls[i % len(balls)], taken, FRAME)
        if spot is not None:
            taken.append(spot[0])
            placed.append(spot[0])
    for a, b in itertools.combinations(placed, 2):
        assert not overlaps(a, b)
    for box in placed:
        assert not any(overlaps(box, ball) for ball in balls)
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= FRAME[0] and box[3] <= FRAME[1]
    assert placed  # the first label always finds a place in so empty a frame


# --- a rendered frame ---

CLUSTER = {Ball.WHITE: (640.0, 360.0), Ball.RED: (662.0, 366.0), Ball.YELLOW: (650.0, 338.0)}
BACKGROUNDS = {"cloth": (200, 140, 40), "light": (235, 235, 235), "red": (60, 40, 220)}


def _luminance(bgr: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of sRGB pixels (..., 3) BGR uint8."""
    c = bgr[..., ::-1].astype(float) / 255
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    out: np.ndarray = lin @ np.array([0.2126, 0.7152, 0.0722])
    return out


def _render(path: Path, background: tuple[int, int, int], lang: str = "en") -> np.ndarray:
    """Frame 1 of a two-frame clip: three touching balls, a white-red contact just now.

    ``lang``: the words' language (Korean: a player 김민수, drawn with a system font).
    """
    score = "Ana 0 : 0 Ben" if lang == "en" else "김민수 0 : 0 Ben"
    words = VideoWords(lang)
    glyphs, missing = pick_glyphs([score, *words.texts()])
    assert not missing, missing
    img = np.empty((720, 1280, 3), np.uint8)
    img[:] = background
    for ball, (u, v) in CLUSTER.items():
        colour = {Ball.WHITE: (234, 244, 246), Ball.RED: (60, 40, 224), Ball.YELLOW: (24, 197, 245)}
        cv2.circle(img, (round(u), round(v)), 10, colour[ball], -1, cv2.LINE_AA)
    balls = {b: (uv, True) for b, uv in CLUSTER.items()}
    contact = ScoredEvent(BallContact(t_s=1 / 30 - 0.001, balls=(Ball.WHITE, Ball.RED)), 1.0)
    with AnnotatedWriter(path, (1280, 720), 30.0, calibration(), bitrate_bps=20_000_000,
                         words=words, glyphs=glyphs) as w:  # fmt: skip
        w.write(Frame(0, 0.0, img), balls, (), score)
        w.write(Frame(1, 1 / 30, img), balls, (contact,), score)
    with av.open(str(path)) as video:
        return [f.to_ndarray(format="bgr24") for f in video.decode(video=0)][1]


def _plates(img: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the dark, solid regions: the label plates."""
    dark = (img.max(axis=2) < 70).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    out = []
    for k in range(1, n):
        x, y, w, h, area = stats[k]
        if area > 150 and area > 0.4 * w * h:  # not a ring's thin dark edge
            out.append((int(x), int(y), int(x + w), int(y + h)))
    return out


@pytest.mark.parametrize(("background", "lang"), [*((b, "en") for b in BACKGROUNDS),
                                                  ("cloth", "ko"), ("light", "ko")])  # fmt: skip
def test_labels_of_close_balls_cover_no_ball_and_no_label_and_read_well(
    tmp_path: Path, background: str, lang: str
) -> None:
    """The same in Korean, drawn with a system font: the labels keep their plates."""
    img = _render(tmp_path / "cluster.mp4", BACKGROUNDS[background], lang)
    plates = _plates(img)
    # The score, the contact and the three balls' names: five plates, none merged.
    assert len(plates) == 5, plates
    for a, b in itertools.combinations(plates, 2):
        assert not overlaps(a, b), (a, b)
    vv, uu = np.mgrid[:720, :1280]
    for u, v in CLUSTER.values():
        disc = np.hypot(uu - u, vv - v) <= 11
        for x0, y0, x1, y1 in plates:
            assert not disc[y0:y1, x0:x1].any(), ((u, v), (x0, y0, x1, y1))
    for x0, y0, x1, y1 in plates:
        patch = img[y0:y1, x0:x1].reshape(-1, 3)
        lum = _luminance(patch)
        text = patch[lum >= np.quantile(lum, 0.97)]
        ratio = (_luminance(text).mean() + 0.05) / (np.median(lum) + 0.05)
        assert ratio >= 4.5, (background, (x0, y0), ratio)
        spread = text.astype(int).max(axis=1) - text.astype(int).min(axis=1)
        assert spread.mean() < 30  # light grey text, never red on grey
