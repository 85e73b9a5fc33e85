"""The annotated MP4: frames of a sample video with truth positions, reopened with PyAV."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest

from calibration import Calibration, Camera, TableGeometry
from carom.report import BALL_COLOURS, AnnotatedWriter, BallPx
from referee import Ball, BallContact
from tests.carom.report.test_diagram import TRUTH, truth, truth_event
from vision import Frame, ScoredEvent, VideoError

VIDEO = TRUTH.with_suffix(".mp4")
FIRST, COUNT = 50, 20  # 1.67 .. 2.30 s: white runs into red at 1.878 s (frame 56.3)


def calibration() -> Calibration:
    return Calibration(TableGeometry(), Camera.from_dict(truth()["camera"]), "2026-11-29")


@cache
def frames() -> tuple[Frame, ...]:
    out = []
    with av.open(str(VIDEO)) as container:
        for i, f in enumerate(container.decode(video=0)):
            if i >= FIRST:
                out.append(Frame(i, i / 30.0, f.to_ndarray(format="bgr24")))
            if len(out) == COUNT:
                break
    return tuple(out)


def balls_at(i: int) -> dict[Ball, BallPx]:
    rows = truth()["frames"][i]["balls"]
    return {Ball(n): ((b["uv_px"][0], b["uv_px"][1]), not b["covered"]) for n, b in rows.items()}


def annotate(path: Path, *, events: bool, size: tuple[int, int] = (1280, 720), **kw: Any) -> None:
    prev = -1.0
    with AnnotatedWriter(path, size, 30.0, calibration(), **kw) as w:
        for f in frames():
            now = [ScoredEvent(truth_event(e), 1.0) for e in truth()["events"]
                   if prev < e["t_s"] <= f.t_s] if events else []  # fmt: skip
            w.write(f, balls_at(f.frame_idx), now, "A 0 : B 0" if events else "")
            prev = f.t_s
        assert w.frames_written == COUNT


def read(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as container:
        return [f.to_ndarray(format="bgr24") for f in container.decode(video=0)]


def ring_hits(img: np.ndarray, uv: tuple[float, float], r: float, bgr: tuple[int, ...]) -> float:
    """Share of 36 directions where a pixel within 1.5 px of radius ``r`` has colour ``bgr``."""
    hits = 0
    for a in np.radians(np.arange(0, 360, 10)):
        best = 999.0
        for rr in np.arange(r - 1.5, r + 1.6, 0.5):
            u, v = round(uv[0] + rr * np.cos(a)), round(uv[1] + rr * np.sin(a))
            best = min(best, float(np.abs(img[v, u].astype(int) - bgr).max()))
        hits += best < 45
    return hits / 36


def apparent_radius_px(xy_mm: list[float]) -> float:
    cam, r = Camera.from_dict(truth()["camera"]), TableGeometry().radius_mm
    pts = cam.project(np.array([[xy_mm[0], xy_mm[1], r], [xy_mm[0] + r, xy_mm[1], r]]))
    return float(np.hypot(*(pts[1] - pts[0])))


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[np.ndarray], list[np.ndarray]]:
    root = tmp_path_factory.mktemp("annotate")
    annotate(root / "with.mp4", events=True)
    annotate(root / "plain.mp4", events=False)
    return read(root / "with.mp4"), read(root / "plain.mp4")


def test_every_frame_is_written_at_the_size(written: Any) -> None:
    out, _ = written
    assert len(out) == COUNT and out[0].shape == (720, 1280, 3)


def test_each_ball_gets_a_ring_in_its_colour(written: Any) -> None:
    out, _ = written
    k = 5  # frame 55: every ball seen, red still at rest
    row = truth()["frames"][FIRST + k]["balls"]
    thick = 3  # 720 / 240
    for name in ("white", "red", "yellow"):
        uv, xy = row[name]["uv_px"], row[name]["xy_mm"]
        colour = BALL_COLOURS[Ball(name)]
        bgr = tuple(int(colour[i : i + 2], 16) for i in (5, 3, 1))
        r = apparent_radius_px(xy) + thick + 1
        assert ring_hits(out[k], uv, r, bgr) > 0.8, name
        assert ring_hits(frames()[k].image_bgr, uv, r, bgr) < 0.2, name  # not in the source


def test_trail_follows_the_white_ball(written: Any) -> None:
    _, out = written  # without events: the contact's growing ring crosses this spot
    last = COUNT - 1  # 2.30 s; white was at frame 60 (2.0 s) 0.3 s before
    u, v = truth()["frames"][FIRST + 10]["balls"]["white"]["uv_px"]
    now = truth()["frames"][FIRST + last]["balls"]["white"]["uv_px"]
    assert np.hypot(u - now[0], v - now[1]) > 60  # the ball itself is far from there
    patch = out[last][round(v) - 1 : round(v) + 2, round(u) - 1 : round(u) + 2].astype(int)
    src = frames()[last].image_bgr[round(v) - 1 : round(v) + 2, round(u) - 1 : round(u) + 2]
    white = np.array([0xEA, 0xF4, 0xF6])  # BGR of the white ball's colour
    assert np.abs(patch.mean(axis=(0, 1)) - white).max() < 45  # the white trail, drawn
    assert np.abs(src.mean(axis=(0, 1)) - white).max() > 120  # over the blue cloth


def test_the_contact_flashes_where_it_happened_and_the_score_shows(written: Any) -> None:
    with_events, plain = written
    k = 57 - FIRST  # first frame after the white-red contact at 1.878 s
    diff = np.abs(with_events[k].astype(int) - plain[k].astype(int)).max(axis=2) > 60
    diff[:150, :400] = False  # the score corner, checked below
    vs, us = np.nonzero(diff)
    white = truth()["frames"][57]["balls"]["white"]["uv_px"]
    red = truth()["frames"][57]["balls"]["red"]["uv_px"]
    mid = ((white[0] + red[0]) / 2, (white[1] + red[1]) / 2)
    assert len(us) > 300
    assert np.hypot(np.median(us) - mid[0], np.median(vs) - mid[1]) < 120  # near the contact
    corner = np.abs(with_events[k][:60, :200].astype(int) - plain[k][:60, :200]).max(axis=2)
    assert (corner > 80).sum() > 100  # the score text
    late = np.abs(with_events[-1].astype(int) - plain[-1].astype(int)).max(axis=2) > 60
    late[:150, :400] = False
    assert late.sum() > 0  # 0.4 s later the flash is fading but still drawn


def test_small_output_mp4v_and_write_after_close(tmp_path: Path) -> None:
    path = tmp_path / "small.mp4"
    w = AnnotatedWriter(path, (640, 360), 30.0, calibration(), codec="mp4v")
    for f in frames()[:5]:
        w.write(f, balls_at(f.frame_idx))
    w.close()
    out = read(path)
    assert len(out) == 5 and out[0].shape == (360, 640, 3)
    with pytest.raises(VideoError, match="after close"):
        w.write(frames()[0], {})


def test_a_predicted_ball_gets_a_dashed_ring(tmp_path: Path) -> None:
    path = tmp_path / "predicted.mp4"
    with AnnotatedWriter(path, (1280, 720), 30.0, calibration(), codec="mp4v") as w:
        for f in frames():
            balls = balls_at(f.frame_idx)
            balls[Ball.WHITE] = (balls[Ball.WHITE][0], f.frame_idx < 60)  # lost from 2.0 s
            w.write(f, balls)
    last = read(path)[-1]
    row = truth()["frames"][FIRST + COUNT - 1]["balls"]
    white = (0xEA, 0xF4, 0xF6)
    r = apparent_radius_px(row["white"]["xy_mm"]) + 3 + 1
    dashed = ring_hits(last, row["white"]["uv_px"], r, white)
    solid = ring_hits(last, row["red"]["uv_px"], apparent_radius_px(row["red"]["xy_mm"]) + 4,
                      (0x3C, 0x28, 0xE0))  # fmt: skip
    assert 0.25 < dashed < 0.8 and solid > 0.8  # half the ring drawn, in dashes


def test_a_contact_ring_grows_and_fades_for_half_a_second(tmp_path: Path) -> None:
    """A red-white contact, then frames without balls: only the flash is drawn."""
    img = np.empty((720, 1280, 3), np.uint8)
    img[:] = (200, 140, 40)  # cloth
    mid = (641, 360)
    balls: dict[Ball, BallPx] = {
        Ball.RED: ((630.0, 360.0), True),
        Ball.WHITE: ((652.0, 360.0), True),
    }
    contact = ScoredEvent(BallContact(t_s=0.0, balls=(Ball.RED, Ball.WHITE)), 1.0)
    path = tmp_path / "flash.mp4"
    with AnnotatedWriter(path, (1280, 720), 30.0, calibration(), bitrate_bps=20_000_000) as w:
        w.write(Frame(0, 0.0, img), balls, (contact,))
        for i in range(1, 18):
            w.write(Frame(i, i / 30, img), {})
    out = read(path)
    red = np.array([0x3C, 0x28, 0xE0])

    def ring(k: int) -> tuple[int, float]:
        """(distance below the contact where the ring is reddest, how red there)."""
        ray = out[k][mid[1] : mid[1] + 60, mid[0]].astype(int)  # straight down
        miss = np.abs(ray - red).max(axis=1)
        d = int(np.argmin(miss))
        return d, float(np.abs(ray[d] - img[0, 0]).max())

    (d3, c3), (d12, c12) = ring(3), ring(12)
    assert 12 <= d3 < d12 - 5  # it grows: 1.7 ball radii after 0.1 s, 2.5 after 0.4 s
    assert c12 < c3  # and fades
    assert np.abs(out[16].astype(int) - img).max() < 30  # gone after 0.5 s
