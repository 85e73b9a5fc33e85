"""Shot diagrams drawn from the truth of a sample video: SVG geometry and PNG pixels."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration import TableGeometry
from carom.report import (
    BALL_COLOURS,
    clip_tracks,
    diagram_png,
    diagram_svg,
    table_origin,
    verdict_caption,
)
from carom.report._diagram import BADGE_R, DOUBT
from referee import Ball, BallContact, Cushion, CushionContact, Discipline, Event, Verdict
from vision import BallTrack, ScoredEvent

TRUTH = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.json"
SVG = "{http://www.w3.org/2000/svg}"
GEOMETRY = TableGeometry()


@cache
def truth() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TRUTH.read_text())
    return data


def truth_tracks() -> dict[Ball, BallTrack]:
    """Every ball's whole truth path; ``covered`` samples count as not seen."""
    frames = truth()["frames"]
    t = np.array([f["t_s"] for f in frames])
    out = {}
    for name in frames[0]["balls"]:
        xy = np.array([f["balls"][name]["xy_mm"] for f in frames], float)
        seen = np.array([not f["balls"][name]["covered"] for f in frames])
        out[Ball(name)] = BallTrack(t, xy, seen, np.arange(len(t)))
    return out


def truth_event(e: dict[str, Any]) -> Event:
    if e["kind"] == "ball":
        return BallContact(t_s=e["t_s"], balls=(Ball(e["balls"][0]), Ball(e["balls"][1])))
    return CushionContact(t_s=e["t_s"], ball=Ball(e["ball"]), cushion=Cushion(e["cushion"]))


def truth_shot(i: int) -> tuple[dict[Ball, BallTrack], list[ScoredEvent], Verdict, str]:
    """Tracks, events (confidence 1), verdict and player of stroke ``i`` of the truth."""
    stroke, v = truth()["extra"]["strokes"][i], truth()["verdicts"][i]
    lo, hi = stroke["t_s"], stroke["end_s"]
    events = [ScoredEvent(truth_event(e), 1.0) for e in truth()["events"] if lo <= e["t_s"] <= hi]
    verdict = Verdict(inning_ends=v["inning_ends"], reason=v["reason"], points=v["points"],
                      review=v["review"])  # fmt: skip
    return clip_tracks(truth_tracks(), lo, hi), events, verdict, v["player"]


def svg_of(i: int, **kw: Any) -> tuple[ET.Element, dict[Ball, BallTrack], list[ScoredEvent]]:
    tracks, events, verdict, player = truth_shot(i)
    tracks = kw.pop("tracks", tracks)
    events = kw.pop("events", events)
    svg = diagram_svg(GEOMETRY, tracks, events, caption=verdict_caption(player, verdict), **kw)
    return ET.fromstring(svg), tracks, events


def by_class(root: ET.Element, tag: str, word: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if word in e.get("class", "").split()]


def centre(e: ET.Element) -> tuple[float, float]:
    return float(e.get("cx", "nan")), float(e.get("cy", "nan"))


def test_svg_is_xml_with_the_table_to_scale() -> None:
    root, _, _ = svg_of(0)
    assert root.tag == SVG + "svg"
    (cloth,) = by_class(root, "rect", "cloth")
    ox, oy = table_origin(GEOMETRY)
    assert float(cloth.get("x", "")) == ox and float(cloth.get("y", "")) == oy
    assert float(cloth.get("width", "")) == GEOMETRY.length_mm == 2840.0
    assert float(cloth.get("height", "")) == GEOMETRY.width_mm == 1420.0
    assert len(by_class(root, "circle", "diamond")) == 24
    vb = [float(v) for v in root.get("viewBox", "").split()]
    assert vb[2] > GEOMETRY.length_mm + 2 * 200 and vb[3] > GEOMETRY.width_mm + 2 * 200


@pytest.mark.parametrize(
    ("discipline", "geometry", "chalk", "pins", "pockets"),
    [
        (Discipline.THREE_CUSHION, TableGeometry(), 0, 0, 0),
        (Discipline.BALKLINE_47_2, TableGeometry(), 4 + 8 * 3, 0, 0),  # lines, anchor sides
        (Discipline.FIVE_PINS, TableGeometry(), 0, 5, 0),
        (Discipline.PIN_CAROM_7, TableGeometry.pyramid(), 0, 7, 6),
    ],
)
def test_the_table_shows_the_marks_the_verdicts_speak_of(
    discipline: Discipline, geometry: TableGeometry, chalk: int, pins: int, pockets: int
) -> None:
    """Balklines and anchor squares, pins, pockets where they lie (a club official found
    every diagram drawn as a plain carom table: a zone limit could not be checked)."""
    root = ET.fromstring(diagram_svg(geometry, {}, [], discipline=discipline))
    lines = by_class(root, "polyline", "chalk")
    assert len(lines) == chalk
    o = table_origin(geometry)
    want = geometry.chalk_lines_mm(discipline).tolist()
    flat = [[float(v) for v in line.get("points", "").replace(" ", ",").split(",")]
            for line in lines]  # fmt: skip
    got = [[v - o[i % 2] for i, v in enumerate(q)] for q in flat]
    assert np.allclose(sorted(got), sorted(want))
    centres = sorted((float(c.get("cx", "")) - o[0], float(c.get("cy", "")) - o[1])
                     for c in by_class(root, "circle", "pin"))  # fmt: skip
    assert (
        np.allclose(centres, sorted(geometry.pins_mm(discipline).values())) if pins else not centres
    )
    assert len(centres) == pins and len(by_class(root, "circle", "pocket")) == pockets
    plain = ET.fromstring(diagram_svg(geometry, {}, []))  # no discipline: no chalk, no pins
    assert not by_class(plain, "polyline", "chalk") and not by_class(plain, "circle", "pin")


def test_start_end_and_path_points_sit_at_the_ball_positions_in_mm() -> None:
    root, tracks, _ = svg_of(0)
    ox, oy = table_origin(GEOMETRY)
    white = tracks[Ball.WHITE].xy_mm
    starts = {e.get("class", "").split()[1]: centre(e) for e in by_class(root, "circle", "start")}
    assert starts["white"] == pytest.approx((white[0, 0] + ox, white[0, 1] + oy), abs=0.06)
    assert float(by_class(root, "circle", "start")[0].get("r", "")) == pytest.approx(
        30.75, abs=0.06
    )
    ends = [centre(e) for e in by_class(root, "circle", "end") if "white" in e.get("class", "")]
    assert ends[0] == pytest.approx((white[-1, 0] + ox, white[-1, 1] + oy), abs=0.06)
    (path,) = by_class(root, "polyline", "white")
    pts = np.array([p.split(",") for p in path.get("points", "").split()], float) - (ox, oy)
    gap = np.min(np.hypot(*(pts[:, None, :] - white[None, :, :]).transpose(2, 0, 1)), axis=1)
    assert len(pts) > 50 and float(gap.max()) < 0.08  # every point is a truth sample
    assert path.get("stroke") == BALL_COLOURS[Ball.WHITE] and path.get("stroke-dasharray") is None


def test_events_are_numbered_in_time_order_at_their_places() -> None:
    root, tracks, events = svg_of(0)
    ox, oy = table_origin(GEOMETRY)
    numbers = [t.text for t in by_class(root, "text", "event")]
    assert numbers == [str(n) for n in range(1, len(events) + 1)] and len(events) == 9
    cushions = by_class(root, "circle", "mark-cushion")
    kinds = [e.event for e in events if isinstance(e.event, CushionContact)]
    assert len(cushions) == len(kinds) == 7
    for mark, ev in zip(cushions, kinds, strict=True):
        x, y = centre(mark)
        nose = {Cushion.HEAD: (x - ox, 0.0), Cushion.FOOT: (x - ox - 2840.0, 0.0),
                Cushion.LEFT: (y - oy, 0.0), Cushion.RIGHT: (y - oy - 1420.0, 0.0)}  # fmt: skip
        assert nose[ev.cushion][0] == pytest.approx(0.0, abs=1e-6)  # on the cushion nose
    # The white-red contact at 1.878 s: between the two balls where they met.
    first = by_class(root, "circle", "mark-contact")[0]
    t0 = events[0].event.t_s
    at = {b: np.array([np.interp(t0, tr.t_s, tr.xy_mm[:, k]) for k in (0, 1)])
          for b, tr in tracks.items()}  # fmt: skip
    x, y = centre(first)
    mid = (at[Ball.WHITE] + at[Ball.RED]) / 2
    assert (x - ox, y - oy) == pytest.approx(tuple(mid), abs=0.06)
    for ball in (Ball.WHITE, Ball.RED):  # touching balls are R from the middle; frames are
        d = math.dist((x - ox, y - oy), at[ball])  # 83 mm apart, so the chord cuts corners
        assert GEOMETRY.radius_mm - 20 < d < GEOMETRY.radius_mm + 20


def test_badges_never_overlap_on_a_crowded_shot() -> None:
    for shot in range(4):
        root, _, events = svg_of(shot)
        badges = [centre(e) for e in by_class(root, "circle", "event")]
        assert len(badges) == len(events)
        for a, b in itertools.combinations(badges, 2):
            assert math.dist(a, b) >= 2 * BADGE_R


def test_doubtful_events_and_unseen_stretches_are_drawn_distinctly() -> None:
    tracks, events, _, _ = truth_shot(0)
    white = tracks[Ball.WHITE]
    hidden = (white.t_s > 2.5) & (white.t_s < 3.5)
    tracks[Ball.WHITE] = BallTrack(white.t_s, white.xy_mm, ~hidden, white.frame_idx)
    events[1] = ScoredEvent(events[1].event, 0.3, "blurred")
    long = "hidden by the arm of the player for nine frames"
    events[3] = ScoredEvent(dataclasses.replace(events[3].event, doubt=long), 0.9)
    root, _, _ = svg_of(0, tracks=tracks, events=events)
    paths = by_class(root, "polyline", "white")
    dashed = [p for p in paths if p.get("stroke-dasharray")]
    assert len(paths) == 3 and len(dashed) == 1
    assert float(dashed[0].get("opacity", "1")) < 1.0
    fills = [e.get("fill") for e in by_class(root, "circle", "event")]
    assert fills[1] == fills[3] == DOUBT and fills.count(DOUBT) == 2
    legend = [t.text or "" for t in root.iter(SVG + "text") if " ? " in (t.text or "")]
    assert legend[0] == "2.361 s  white cushion right  ? 0.30"
    # The doubt's words are the events table's (translated there): here they were the
    # English ones, cut to a few letters.
    assert legend[1] == "2.714 s  red cushion foot  ? 0.90"


def test_png_draws_the_same_primitives_as_the_svg() -> None:
    tracks, events, verdict, player = truth_shot(0)
    caption = verdict_caption(player, verdict)
    img = diagram_png(GEOMETRY, tracks, events, caption=caption, width_px=1000)
    root = ET.fromstring(diagram_svg(GEOMETRY, tracks, events, caption=caption))
    vb = [float(v) for v in root.get("viewBox", "").split()]
    k = 1000 / vb[2]
    assert img.shape == (round(vb[3] * k), 1000, 3) and img.dtype == np.uint8
    ox, oy = table_origin(GEOMETRY)
    x, y = tracks[Ball.WHITE].xy_mm[0] + (ox, oy)
    white = img[round(y * k) - 1 : round(y * k) + 2, round(x * k) - 1 : round(x * k) + 2]
    assert np.abs(white.astype(int) - (234, 244, 246)).max() < 12  # #f6f4ea in BGR
    cloth = img[round((oy + 700) * k), round((ox + 100) * k)]  # empty cloth near the head
    assert np.abs(cloth.astype(int) - (75, 122, 44)).max() < 6  # #2c7a4b in BGR


def test_verdict_caption_says_points_reason_and_review() -> None:
    v = Verdict(inning_ends=False, reason="point: red then yellow after 3 cushions", points=1)
    assert verdict_caption("A", v) == "A +1 — point: red then yellow after 3 cushions"
    r = Verdict(inning_ends=True, reason="no point", review="kiss hidden by the arm")
    assert verdict_caption("B", r) == "review: kiss hidden by the arm — B 0 — no point"
    assert verdict_caption("B", None) == "B: no verdict"
