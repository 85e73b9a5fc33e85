"""The learned detector: the shipped ONNX model on rendered frames, and its failures.

Frames come from the synthetic renderer (``synth``) at 640x360, where the truth
centres are exact: three balls at rest, then the white rolling at 2 m/s. The model is
the file shipped in the package, run by onnxruntime; a missing or corrupt copy must
give a one-line error and the colour detector, never a crash.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]
import pytest

from calibration import Calibration, Camera, TableGeometry
from referee import Ball
from synth import Renderer, RenderSettings, Scene
from vision._types import VisionError
from vision.detect import AutoDetector, LearnedDetector, load_or_fallback, make_detector
from vision.detect._ball_network import MODEL_PATH, BallModel, ModelError
from vision.detect._colour_detector import ColourDetector

BALLS = (Ball.WHITE, Ball.YELLOW, Ball.RED)
START = {Ball.WHITE: (700.0, 400.0), Ball.YELLOW: (1500.0, 1000.0), Ball.RED: (2300.0, 350.0)}


class _Rolling:
    """White rolls along +x at ``speed_mm_s`` from t = 0.1 s; the others rest."""

    def __init__(self, speed_mm_s: float) -> None:
        self.speed = speed_mm_s

    def positions_mm(self, t_s: np.ndarray) -> dict[Ball, np.ndarray]:
        t = np.asarray(t_s, np.float64)
        out = {b: np.tile(np.array(xy), (len(t), 1)) for b, xy in START.items()}
        out[Ball.WHITE] = out[Ball.WHITE] + np.c_[self.speed * np.clip(t - 0.1, 0, None), 0 * t]
        return out


@pytest.fixture(scope="module")
def scene() -> tuple[Calibration, list]:
    camera = Camera.overhead(width_px=640, height_px=360, hfov_deg=70.0, height_mm=2800.0)
    calibration = Calibration(TableGeometry(), camera, "2026-11-30")
    renderer = Renderer(camera, Scene(), RenderSettings(fps=30.0, seed=3, players=False))
    frames = list(renderer.frames(_Rolling(2000.0), 6))
    return calibration, frames


@pytest.fixture(scope="module")
def model() -> BallModel:
    return BallModel(MODEL_PATH)


def test_shipped_model_is_small_and_loads(model: BallModel) -> None:
    assert MODEL_PATH.stat().st_size <= 5_000_000
    out = model.run(np.zeros((2, 48, 48, 3), np.uint8))
    assert out.shape == (2, 8, 12, 12)


def test_learned_detector_finds_rendered_centres(scene: tuple, model: BallModel) -> None:
    calibration, frames = scene
    detector = LearnedDetector.learn(model, calibration, BALLS)
    for frame in (frames[0], frames[5]):  # at rest; the white moving at 2 m/s
        truth = np.array([frame.balls_px[b] for b in BALLS])
        near = truth + np.array([[6.0, -4.0], [-5.0, 3.0], [4.0, 5.0]])  # off predictions
        found = detector.detect(frame.image, near, np.full(3, 15.0))
        for ball, uv in zip(BALLS, truth, strict=True):
            mine = [i for i, b in enumerate(found.ball) if b == ball]
            assert mine, f"{ball} not found in frame {frame.frame_idx}"
            err = float(np.hypot(*(found.uv_px[mine[0]] - uv)))
            assert err < 1.0, f"{ball} off by {err:.2f} px (radius ~5 px)"


def test_learned_detector_finds_nothing_on_empty_cloth(scene: tuple, model: BallModel) -> None:
    calibration, frames = scene
    detector = LearnedDetector.learn(model, calibration, BALLS)
    empty = calibration.mm_to_px(np.array([[1000.0, 900.0], [2000.0, 700.0]]), 30.75)
    found = detector.detect(frames[0].image, empty, np.full(2, 15.0))
    assert len(found) == 0


def test_auto_asks_the_model_only_when_unsure(scene: tuple) -> None:
    calibration, frames = scene
    detector = make_detector("auto", calibration, frames[0].image, BALLS)
    assert isinstance(detector, AutoDetector)
    colour = ColourDetector.learn(calibration, frames[0].image, balls=BALLS)
    plain = colour.detect(frames[1].image)
    mine = detector.detect(frames[1].image)
    assert mine.ball == plain.ball and np.allclose(mine.uv_px, plain.uv_px)
    assert detector.calls == 0


def test_auto_finds_a_ball_the_colour_detector_lost(scene: tuple) -> None:
    calibration, frames = scene
    detector = make_detector("auto", calibration, frames[0].image, BALLS)
    assert isinstance(detector, AutoDetector)
    for frame in frames[3:5]:  # the white is seen rolling
        detector.detect(frame.image)
    # Then it goes pale (a hot lamp, a glancing cue): colour share fails, shape stays.
    image = frames[5].image.copy()
    u, v = (round(x) for x in frames[5].balls_px[Ball.WHITE])
    patch = image[v - 8 : v + 9, u - 8 : u + 9].astype(np.float64)
    cloth = np.median(image[v - 20 : v + 20, u + 20 : u + 40].reshape(-1, 3), axis=0)
    image[v - 8 : v + 9, u - 8 : u + 9] = (0.45 * patch + 0.55 * cloth).astype(np.uint8)
    calls = detector.calls
    colour_only = ColourDetector.learn(calibration, frames[0].image, balls=BALLS).detect(image)
    found = detector.detect(image)
    if Ball.WHITE in colour_only.ball:
        pytest.fail("the faded white should defeat the colour detector in this test")
    assert Ball.WHITE in found.ball and detector.calls == calls + 1
    i = found.ball.index(Ball.WHITE)
    assert float(np.hypot(*(found.uv_px[i] - frames[5].balls_px[Ball.WHITE]))) < 1.5


def test_missing_model_falls_back_to_colour(scene: tuple, tmp_path: Path) -> None:
    calibration, frames = scene
    said: list[str] = []
    det = make_detector("auto", calibration, frames[0].image, BALLS,
                        model_path=tmp_path / "none.onnx", warn=said.append)  # fmt: skip
    assert isinstance(det, ColourDetector)
    assert len(said) == 1 and "not found" in said[0] and "\n" not in said[0]


def test_corrupt_model_is_a_clear_error_and_a_fallback(scene: tuple, tmp_path: Path) -> None:
    calibration, frames = scene
    bad = tmp_path / "balls.onnx"
    bad.write_bytes(MODEL_PATH.read_bytes()[:2000])  # a truncated copy
    with pytest.raises(ModelError, match=r"unreadable.*--detector color"):
        BallModel(bad)
    det, warning = load_or_fallback(calibration, frames[0].image, BALLS, model_path=bad)
    assert isinstance(det, ColourDetector)
    assert warning is not None and "unreadable" in warning


def test_unknown_kind_is_refused(scene: tuple) -> None:
    calibration, frames = scene
    with pytest.raises(VisionError, match="unknown kind 'yolo'"):
        make_detector("yolo", calibration, frames[0].image, BALLS)


REAL = Path("/work/shared/realdata/broadcast_frames")
LABELS = Path(__file__).parents[1] / "realdata_labels" / "broadcast_frames.json"


@pytest.mark.skipif(not REAL.exists(), reason="real broadcast frames absent")
def test_network_alone_on_hand_labelled_broadcast_frames(model: BallModel) -> None:
    import json

    import cv2

    labels = json.loads(LABELS.read_text())["balls_px"]
    fixture = json.loads((Path(__file__).parents[1] / "fixtures/broadcast_balls.json").read_text())
    calibration = Calibration.from_dict(fixture["calibration"])
    detector = LearnedDetector.learn(model, calibration, BALLS)
    for name in ("00054.jpg", "00090.jpg"):  # the white at rest, then rolling
        found = detector.detect(np.asarray(cv2.imread(str(REAL / name)), np.uint8))
        assert sorted(found.ball) == sorted(BALLS), f"{name}: found {found.ball}"
        for ball, uv in zip(found.ball, found.uv_px, strict=True):
            err = float(np.hypot(*(uv - labels[name][str(ball)])))
            assert err < 3.0, f"{name} {ball}: {err:.1f} px from the hand label (radius ~14)"


@pytest.mark.skipif(
    "CUDAExecutionProvider" in ort.get_available_providers(), reason="this onnxruntime has CUDA"
)
def test_cuda_asked_for_without_a_gpu_gives_the_network_on_the_cpu_and_one_line(
    scene: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    calibration, frames = scene
    monkeypatch.setenv("CAROM_ONNX_DEVICE", "cuda")
    said: list[str] = []
    det = make_detector("auto", calibration, frames[0].image, BALLS, warn=said.append)
    assert isinstance(det, AutoDetector)
    assert det.device is not None and det.device.device == "cpu"
    assert len(said) == 1 and "CAROM_ONNX_DEVICE=cuda" in said[0] and "\n" not in said[0]
    plain = ColourDetector.learn(calibration, frames[0].image, balls=BALLS).detect(frames[1].image)
    assert det.detect(frames[1].image).ball == plain.ball  # it works as ever


def test_the_detector_says_where_its_network_runs(scene: tuple) -> None:
    calibration, frames = scene
    said: list[str] = []
    det = make_detector("onnx", calibration, frames[0].image, BALLS, warn=said.append)
    assert isinstance(det, LearnedDetector)
    assert det.device.providers[-1] == "CPUExecutionProvider"
    assert said == []  # the default (auto) says nothing where it got what it could
