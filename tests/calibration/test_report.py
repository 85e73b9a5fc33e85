"""Quality report: residuals by region, verdict thresholds, the overlay image."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import numpy as np
import pytest

from calibration import (
    CUSHIONS,
    Calibration,
    CalibrationError,
    Camera,
    Distortion,
    Outcome,
    SideResiduals,
    TableGeometry,
    confidence_of,
    draw_overlay,
    outcome_of,
    quality_report,
    side_residuals,
)
from calibration._outcome import (
    AGREE_PX,
    COVERAGE_BINS,
    FAILED_COVERAGE,
    FAILED_MAX_MM,
    FAILED_RMS_MM,
    GOOD_COVERAGE,
    GOOD_MAX_MM,
    GOOD_RMS_MM,
)
from calibration._report import CUSHION_BGR, region_of
from referee import Ball, Cushion, Discipline
from synth import Renderer, RenderSettings


class NoBalls:
    """A motion source with an empty table."""

    def positions_mm(self, t_s: np.ndarray) -> Mapping[Ball, np.ndarray]:
        return {}


def known_calibration() -> Calibration:
    cam = Camera.overhead(width_px=640, height_px=360, hfov_deg=70.0, height_mm=2500.0,
                          tilt_deg=6.0, roll_deg=3.0, yaw_deg=2.0,
                          distortion=Distortion(-0.2, 0.05))  # fmt: skip
    return Calibration(TableGeometry(), cam, "2026-11-29")


CAL = known_calibration()


@cache
def rendered_frame() -> np.ndarray:
    renderer = Renderer(CAL.camera, settings=RenderSettings.clean())
    image: np.ndarray = next(iter(renderer.frames(NoBalls(), 1))).image
    image.flags.writeable = False
    return image


def cloth_points() -> np.ndarray:
    """Corners, cushion points and a centre grid on the cloth (z = 0), (n, 3) mm."""
    geo = CAL.geometry
    pts = [geo.corners_xyz_mm(0.0)]
    pts += [geo.cushion_points_xyz_mm(c, 7, z_mm=0.0)[2:-2] for c in CUSHIONS]
    gx, gy = np.meshgrid([710.0, 1420.0, 2130.0], [473.0, 946.0])
    pts.append(np.c_[gx.ravel(), gy.ravel(), np.zeros(gx.size)])
    return np.concatenate(pts)


def observed(points: np.ndarray, offsets_mm: np.ndarray) -> np.ndarray:
    """Pixels where ``points`` would be seen if each were ``offsets_mm`` (n, 2) off."""
    return CAL.mm_to_px(points[:, :2] + offsets_mm, 0.0)


def test_regions() -> None:
    names = region_of(CAL, cloth_points()[:, :2])
    assert names[:4] == ["corners"] * 4
    assert set(names[4:16]) == {"cushions"} and set(names[16:]) == {"centre"}


def test_perfect_fit_is_good() -> None:
    pts = cloth_points()
    report = quality_report(CAL, CAL.camera.project(pts), pts)
    assert report.verdict == "good"
    assert report.overall.max_px < 1e-6 and report.overall.max_mm < 1e-6
    assert [g.n for g in report.groups] == [4, 12, 6]


def test_mm_residuals_are_table_distances() -> None:
    pts = cloth_points()
    report = quality_report(CAL, observed(pts, np.tile([1.9, 0.0], (len(pts), 1))), pts)
    assert report.overall.rms_mm == pytest.approx(1.9, abs=1e-6)
    assert report.verdict == "good"
    assert 0.2 < report.overall.rms_px < 2.0


@pytest.mark.parametrize(
    ("index", "error_mm", "verdict", "advice"),
    [
        (0, GOOD_MAX_MM - 0.1, Outcome.GOOD, ""),
        (0, GOOD_MAX_MM + 0.1, Outcome.DOUBTFUL, "check corners"),
        (6, GOOD_MAX_MM + 0.1, Outcome.DOUBTFUL, "refit lens"),  # a cushion point
        (20, GOOD_MAX_MM + 0.1, Outcome.DOUBTFUL, "refit lens"),  # a centre point
        (20, FAILED_MAX_MM + 0.1, Outcome.FAILED, "refit lens"),
    ],
)
def test_verdict_on_one_bad_point(index: int, error_mm: float, verdict: str, advice: str) -> None:
    pts = cloth_points()
    offsets = np.zeros((len(pts), 2))
    offsets[index] = [0.0, error_mm]
    report = quality_report(CAL, observed(pts, offsets), pts)
    assert (report.verdict, report.advice) == (verdict, advice)


def test_verdict_on_rms() -> None:
    pts = cloth_points()
    just_over = np.tile([0.0, GOOD_RMS_MM + 0.05], (len(pts), 1))
    report = quality_report(CAL, observed(pts, just_over), pts)
    assert report.overall.max_mm < GOOD_MAX_MM and report.verdict is Outcome.DOUBTFUL
    far = np.tile([0.0, FAILED_RMS_MM + 0.5], (len(pts), 1))
    assert quality_report(CAL, observed(pts, far), pts).verdict is Outcome.FAILED


def sides_seen(coverage: list[float]) -> tuple[SideResiduals, ...]:
    return tuple(
        SideResiduals(c, 100, 0.3, 1.0, f) for c, f in zip(CUSHIONS, coverage, strict=True)
    )


@pytest.mark.parametrize(
    ("least", "verdict"),
    [(GOOD_COVERAGE, Outcome.GOOD), (GOOD_COVERAGE - 0.01, Outcome.DOUBTFUL),
     (FAILED_COVERAGE - 0.01, Outcome.FAILED)],
)  # fmt: skip
def test_a_cushion_seen_too_little_is_doubtful_then_failed(least: float, verdict: str) -> None:
    pts = cloth_points()
    sides = sides_seen([0.95, 0.95, least, 0.95])
    report = quality_report(CAL, CAL.camera.project(pts), pts, sides=sides)
    assert report.verdict == verdict
    if verdict != Outcome.GOOD:
        assert report.advice == f"the left cushion is seen over {least:.0%} of its length"
    assert report.confidence == pytest.approx(min(least / GOOD_COVERAGE, 1.0), abs=1e-3)


def test_confidence_falls_with_the_residuals_and_the_least_seen_side() -> None:
    seen = sides_seen([0.95] * 4)
    assert confidence_of(0.0, seen) == 1.0
    assert confidence_of(GOOD_RMS_MM, seen) == pytest.approx(0.8)
    assert confidence_of(FAILED_RMS_MM, seen) < 0.2
    assert confidence_of(1.0, sides_seen([0.95, 0.2, 0.95, 0.95])) < confidence_of(1.0, seen)
    assert confidence_of(float("inf"), seen) == 0.0
    assert outcome_of(float("nan"), 1.0, seen) is Outcome.FAILED


def test_coverage_counts_agreeing_points_off_the_picture_border() -> None:
    n = 400
    t = np.linspace(0.0, 1.0, n)
    side = np.zeros(n, dtype=np.int64)
    uv = np.c_[100.0 + 400.0 * t, np.full(n, 50.0)]
    err = np.full(n, 0.5)
    err[t > 0.75] = AGREE_PX + 1.0  # the last quarter disagrees
    uv[t < 0.25, 1] = 0.0  # the first quarter lies on the picture's top border
    head = side_residuals(side, t, err, uv, (640, 360))[0]
    assert head.cushion is Cushion.HEAD and head.n == n
    assert head.coverage == pytest.approx(0.5, abs=1.0 / COVERAGE_BINS)
    assert head.max_px == pytest.approx(AGREE_PX + 1.0)
    others = side_residuals(side, t, err, uv, (640, 360))[1:]
    assert all(s.n == 0 and s.coverage == 0.0 for s in others)


def test_text_and_file_numbers() -> None:
    pts = cloth_points()
    report = quality_report(CAL, observed(pts, np.tile([1.0, 0.0], (len(pts), 1))), pts)
    text = report.text()
    assert text.splitlines()[0].split()[:2] == ["where", "points"]
    assert "corners" in text and "centre" in text and text.endswith(")")
    assert "verdict: good" in text
    numbers = report.residuals()
    assert numbers["rms_mm"] == pytest.approx(1.0) and numbers["corners_n_points"] == 4.0
    assert numbers["confidence"] == report.confidence
    sides = sides_seen([0.9, 0.8, 0.7, 0.6])
    pts = cloth_points()
    with_sides = quality_report(CAL, CAL.camera.project(pts), pts, sides=sides)
    assert with_sides.residuals()["right_coverage"] == pytest.approx(0.6)
    assert "right" in with_sides.text() and "60%" in with_sides.text()


def test_bad_input_is_refused() -> None:
    with pytest.raises(CalibrationError, match="as many observed px as points"):
        quality_report(CAL, np.zeros((3, 2)), np.zeros((4, 3)))


def test_overlay_draws_the_cushion_lines_where_the_model_puts_them() -> None:
    frame = rendered_frame()
    out = draw_overlay(frame, CAL, discipline=Discipline.BALKLINE_47_2, legend=False)
    assert out.shape == frame.shape and not np.array_equal(out, frame)
    v, u = np.nonzero(np.all(out == CUSHION_BGR, axis=2) & np.any(out != frame, axis=2))
    drawn = np.c_[u, v].astype(float)
    lines = [CAL.camera.project(CAL.geometry.cushion_points_xyz_mm(c, 500)) for c in CUSHIONS]
    line = np.concatenate(lines)
    dist = np.min(np.linalg.norm(drawn[:, None, :] - line[None], axis=2), axis=1)
    perimeter_px = sum(float(np.hypot(*np.diff(one, axis=0).T).sum()) for one in lines)
    assert len(drawn) > 0.6 * perimeter_px  # the whole of every nose is drawn
    assert dist.max() < 1.0


def test_overlay_legend_and_input_checks() -> None:
    frame = rendered_frame()
    with_legend = draw_overlay(frame, CAL)
    without = draw_overlay(frame, CAL, legend=False)
    h, w = frame.shape[:2]
    assert any(not np.array_equal(with_legend[r, c], without[r, c])
               for r, c in _corner_boxes(h, w).values())  # fmt: skip
    with pytest.raises(CalibrationError, match="expected"):
        draw_overlay(frame[..., 0].copy(), CAL)


def _corner_boxes(h: int, w: int) -> dict[str, tuple[slice, slice]]:
    rows = {"top": slice(4, 60), "bottom": slice(h - 60, h - 4)}
    cols = {"left": slice(4, 100), "right": slice(w - 100, w - 4)}
    return {f"{r}-{c}": (rows[r], cols[c]) for r in rows for c in cols}


def test_the_legend_hides_least_of_the_table_and_the_diamonds_are_numbered() -> None:
    """On a small picture the legend (always top-left) covered a corner the message
    says to check, and nothing said which diamond was which index for --diamonds
    (found by a review as an installer)."""
    import cv2

    frame = rendered_frame()
    h, w = frame.shape[:2]
    bare = draw_overlay(frame, CAL, legend=False)
    with_legend = draw_overlay(frame, CAL)
    boxes = _corner_boxes(h, w)
    drawn = [k for k, (r, c) in boxes.items() if not np.array_equal(with_legend[r, c], bare[r, c])]
    assert len(drawn) == 1, drawn
    mask = np.zeros((h, w), np.uint8)
    quad = np.round(CAL.camera.project(CAL.geometry.corners_xyz_mm())).astype(np.int32)
    cv2.fillConvexPoly(mask, quad, 255)
    covered = {k: int(np.count_nonzero(mask[r, c])) for k, (r, c) in boxes.items()}
    assert covered[drawn[0]] == min(covered.values()), covered
    # Numbers beside the diamonds: more pixels change near each than its dot alone.
    dots_only = bare.copy()
    for u, v in CAL.camera.project(CAL.geometry.diamonds_xyz_mm()).tolist():
        r0, c0 = int(v), int(u)
        near = (slice(max(r0 - 25, 0), r0 + 25), slice(max(c0 - 25, 0), c0 + 25))
        changed = int(np.any(dots_only[near] != frame[near], axis=2).sum())
        assert changed > 40, (u, v, changed)  # the dot alone changes about 25 pixels
