"""The camera model: agrees with OpenCV, inverts itself, refuses bad values by name."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from calibration import (
    CalibrationError,
    Camera,
    Distortion,
    Intrinsics,
    Pose,
    to_cv_points,
)

PROPS = settings(max_examples=60, deadline=None)


@st.composite
def cameras(draw: st.DrawFn) -> Camera:
    """Club-like cameras: 2.2-3.5 m up, tilted up to 15 degrees, moderate lenses."""
    width = draw(st.sampled_from([640, 1280, 1920]))
    height = draw(st.sampled_from([360, 720, 1080]))
    lens = Distortion(
        k1=draw(st.floats(-0.3, 0.1)),
        k2=draw(st.floats(-0.05, 0.1)),
        p1=draw(st.floats(-0.003, 0.003)),
        p2=draw(st.floats(-0.003, 0.003)),
        k3=draw(st.floats(-0.02, 0.02)),
    )
    return Camera.overhead(
        width_px=width,
        height_px=height,
        hfov_deg=draw(st.floats(50.0, 80.0)),
        height_mm=draw(st.floats(2200.0, 3500.0)),
        aim_mm=(draw(st.floats(1200.0, 1600.0)), draw(st.floats(600.0, 800.0))),
        yaw_deg=draw(st.floats(-180.0, 180.0)),
        tilt_deg=draw(st.floats(-15.0, 15.0)),
        roll_deg=draw(st.floats(-5.0, 5.0)),
        distortion=lens,
    )


def table_points(seed: int, n: int = 50) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out: np.ndarray = np.c_[
        rng.uniform(-200, 3040, n), rng.uniform(-200, 1620, n), rng.uniform(0, 100, n)
    ]
    return out


def in_image(camera: Camera, uv: np.ndarray) -> np.ndarray:
    w, h = camera.size_px
    inside = (uv[:, 0] >= 0) & (uv[:, 0] <= w - 1) & (uv[:, 1] >= 0) & (uv[:, 1] <= h - 1)
    out: np.ndarray = np.isfinite(uv).all(axis=1) & inside
    return out


@PROPS
@given(cameras(), st.integers(0, 10_000))
def test_project_equals_opencv_project_points(camera: Camera, seed: int) -> None:
    pts = table_points(seed)
    rvec, tvec = camera.rvec_tvec()
    expected, _ = cv2.projectPoints(
        to_cv_points(pts), rvec, tvec, camera.intrinsics.matrix(), camera.distortion.coeffs()
    )
    got = camera.project(pts)
    shown = np.isfinite(got).all(axis=1)
    assert np.abs(got[shown] - expected.reshape(-1, 2)[shown]).max(initial=0.0) < 1e-6
    # Only points past the fold of the lens model are left out.
    cam_xyz = camera.to_camera(pts[~shown])
    radius = np.hypot(cam_xyz[:, 0], cam_xyz[:, 1]) / cam_xyz[:, 2]
    assert np.all(radius >= camera.distortion.fold_radius())


@PROPS
@given(cameras(), st.integers(0, 10_000))
def test_unproject_inverts_project_at_the_points_height(camera: Camera, seed: int) -> None:
    pts = table_points(seed)
    uv = camera.project(pts)
    keep = in_image(camera, uv)
    back = camera.unproject(uv[keep], pts[keep, 2])
    assert np.abs(back - pts[keep]).max(initial=0.0) < 1e-6


@PROPS
@given(cameras(), st.integers(0, 10_000))
def test_pixel_to_table_to_pixel_round_trip(camera: Camera, seed: int) -> None:
    w, h = camera.size_px
    corners = np.array([[0.0, 0.0], [w - 1.0, 0.0], [0.0, h - 1.0], [w - 1.0, h - 1.0]])
    # A lens model that folds over inside the picture (r_d(r) past its maximum) has no
    # inverse there: no real lens does that, so such draws are skipped.
    assume(np.isfinite(camera.rays(corners)).all())
    rng = np.random.default_rng(seed)
    uv = np.c_[rng.uniform(0, w - 1, 40), rng.uniform(0, h - 1, 40)]
    z = rng.uniform(0.0, 61.5, 40)
    back = camera.project(camera.unproject(uv, z))
    assert np.abs(back - uv).max() < 1e-6


def test_a_strong_lens_nearly_flat_at_the_edge_still_inverts() -> None:
    """Found by the round trip above: OpenCV's fixed-point start ran off across the nearly
    flat edge of this lens (the radial map's slope falls to 0.03) and 30 Newton steps did
    not come back, so a pixel near the right edge had no table point (NaN)."""
    lens = Distortion(k1=-0.263671875, k2=-0.0014241660890724275, p1=0.001953125, p2=0.0,
                      k3=0.011019709768769398)  # fmt: skip
    camera = Camera(Intrinsics(640, 360, 417.0321193091858, 417.0321193091858, 319.5, 179.5),
                    lens, Pose(1200.0, 600.0, 2200.0, 0.0, 0.0, 0.0))  # fmt: skip
    uv = np.array([[637.21714897, 71.62604438], [639.0, 0.0], [320.0, 180.0]])
    back = camera.project(camera.unproject(uv, np.array([27.2, 0.0, 61.5])))
    assert np.abs(back - uv).max() < 1e-6


@pytest.mark.parametrize("roll_deg", [0.0, 1e-5, 0.3, 179.0, 180.0])
def test_rvec_turns_back_into_the_rotation(roll_deg: float) -> None:
    cam = Camera.overhead(roll_deg=roll_deg, yaw_deg=-roll_deg / 2.0)
    rvec, _ = cam.rvec_tvec()
    back, _ = cv2.Rodrigues(rvec)
    assert np.abs(back - cam.pose.rotation()).max() < 1e-12


def test_overhead_aims_the_optical_axis_at_the_aim_point() -> None:
    cam = Camera.overhead(width_px=1280, height_px=720, aim_mm=(1000.0, 600.0), tilt_deg=12.0)
    uv = cam.project(np.array([[1000.0, 600.0, 0.0]]))[0]
    assert uv == pytest.approx([cam.intrinsics.cx_px, cam.intrinsics.cy_px], abs=1e-9)
    assert cam.pose.height_mm == pytest.approx(2600.0)


def test_unturned_camera_shows_x_rightwards_and_y_downwards() -> None:
    # Non-square image: an x/y swap would move the points off their expected axes.
    cam = Camera.overhead(width_px=1280, height_px=720)
    centre, plus_x, plus_y = cam.project(
        np.array([[1420.0, 710.0, 0.0], [1520.0, 710.0, 0.0], [1420.0, 810.0, 0.0]])
    )
    assert plus_x[0] > centre[0] and plus_x[1] == pytest.approx(centre[1])
    assert plus_y[1] > centre[1] and plus_y[0] == pytest.approx(centre[0])


def test_yaw_90_turns_the_long_axis_downwards() -> None:
    cam = Camera.overhead(width_px=720, height_px=1280, yaw_deg=90.0)
    centre, plus_x = cam.project(np.array([[1420.0, 710.0, 0.0], [1520.0, 710.0, 0.0]]))
    assert plus_x[1] > centre[1] and plus_x[0] == pytest.approx(centre[0])


def test_a_ball_centre_shows_parallax_away_from_the_optical_axis() -> None:
    # A ball near a cushion seen from 2.5 m: its centre (30.75 mm up) appears
    # further out than the cloth point under it, by R * d / (H - R) on the table.
    cam = Camera.overhead(width_px=1280, height_px=720, height_mm=2500.0)
    on_cloth = cam.unproject(cam.project(np.array([[100.0, 710.0, 30.75]])), 0.0)[0]
    assert on_cloth[0] == pytest.approx(1420.0 - 1320.0 * 2500.0 / (2500.0 - 30.75))


def test_fold_radius_of_a_barrel_lens() -> None:
    # r (1 + k1 r^2) stops growing where 1 + 3 k1 r^2 = 0.
    assert Distortion(k1=-0.25).fold_radius() == pytest.approx(math.sqrt(1.0 / 0.75))
    assert Distortion(k1=0.1).fold_radius() == math.inf


def test_points_behind_the_camera_project_to_nan() -> None:
    cam = Camera.overhead(height_mm=2600.0)
    uv = cam.project(np.array([[1420.0, 710.0, 3000.0]]))
    assert np.isnan(uv).all()


def test_unproject_gives_nan_for_rays_that_miss_the_plane() -> None:
    cam = Camera.overhead(height_mm=2600.0)
    # The plane z = 3000 lies above the camera: no viewing ray meets it below.
    assert np.isnan(cam.unproject(np.array([[640.0, 360.0]]), 3000.0)).all()


def test_json_round_trip() -> None:
    cam = Camera.overhead(tilt_deg=7.0, roll_deg=-2.0, distortion=Distortion(-0.2, 0.05))
    data = json.loads(json.dumps(cam.to_dict()))
    assert data["format"] == "carom-camera/1"
    assert Camera.from_dict(data) == cam


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["pose"].pop("height_mm"), "camera.pose.height_mm: missing"),
        (lambda d: d["pose"].update(height_mm=50.0), "camera.pose: height_mm must be 300..10000"),
        (lambda d: d["pose"].update(tilt_deg="x"), "camera.pose.tilt_deg: expected a number"),
        (lambda d: d["distortion"].update(k9=0.1), "camera.distortion.k9: unknown field"),
        (lambda d: d["distortion"].update(k1=3.0), "camera.distortion: k1 must be -1..1"),
        (lambda d: d.update(image_size_px=[640]), "camera.image_size_px: expected [width"),
        (lambda d: d.update(format="x"), "camera.format: expected 'carom-camera/1'"),
        (lambda d: d["intrinsics"].update(cx_px=5000.0), "camera.intrinsics: cx_px must be"),
    ],
)
def test_from_dict_names_the_bad_field(mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    data = Camera.overhead().to_dict()
    mutate(data)
    with pytest.raises(CalibrationError, match=message.replace("[", r"\[").replace(".", r"\.")):
        Camera.from_dict(data)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Pose(0.0, 0.0, 100.0), "height_mm must be 300..10000, got 100.0"),
        (lambda: Pose(0.0, 0.0, 2500.0, tilt_deg=80.0), "tilt_deg must be -60..60, got 80.0"),
        (lambda: Distortion(p1=0.5), "p1 must be -0.1..0.1, got 0.5"),
        (lambda: Intrinsics(640, 480, -1.0, 500.0, 320.0, 240.0), "fx_px must be"),
        (lambda: Intrinsics.from_fov(640, 480, 200.0), "hfov_deg must be 10..150, got 200.0"),
        (lambda: Pose(math.nan, 0.0, 2500.0), "x_mm must be -20000..20000, got nan"),
    ],
)
def test_bad_values_name_the_parameter_and_its_range(build, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CalibrationError, match=message.replace(".", r"\.")):
        build()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda c: c.project(np.zeros(3)), r"xyz_mm: expected \(n, 3\), got \(3,\)"),
        (lambda c: c.project(np.zeros((4, 2))), r"xyz_mm: expected \(n, 3\), got \(4, 2\)"),
        (lambda c: c.unproject(np.zeros((2, 3))), r"uv_px: expected \(n, 2\), got \(2, 3\)"),
    ],
)
def test_wrong_shapes_say_expected_and_got(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CalibrationError, match=message):
        call(Camera.overhead())


def test_calibration_error_is_a_carom_error() -> None:
    from referee import CaromError

    assert issubclass(CalibrationError, CaromError)
