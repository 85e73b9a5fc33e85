"""Where the networks run: the provider decision on provider lists, real onnxruntime sessions.

The decision (:func:`choose_providers`, :func:`settle`) is fed the provider lists that
onnxruntime and onnxruntime-gpu give; the sessions are real onnxruntime sessions of the
shipped models on this machine's providers (no GPU here: the CPU, and the line that
says so when CUDA is asked for).
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort  # type: ignore[import-untyped]
import pytest

from vision._types import VisionError
from vision.detect import (
    MODEL_PATH,
    ONNX_DEVICE_ENV,
    BallModel,
    choose_providers,
    device_setting,
    inference_device,
    open_session,
    settle,
)
from vision.pins import PINS_MODEL_PATH, PinModel

CUDA, CPU, AZURE = "CUDAExecutionProvider", "CPUExecutionProvider", "AzureExecutionProvider"
PLAIN = [AZURE, CPU]  # what the onnxruntime package offers
GPU = ["TensorrtExecutionProvider", CUDA, CPU]  # what onnxruntime-gpu offers
HAS_CUDA = CUDA in ort.get_available_providers()


def test_auto_takes_cuda_where_offered_with_the_cpu_behind_it() -> None:
    choice = choose_providers(GPU, "auto")
    assert choice.providers == (CUDA, CPU)
    assert choice.note is None


def test_auto_takes_the_cpu_alone_without_cuda_and_says_nothing() -> None:
    choice = choose_providers(PLAIN, "auto")
    assert choice.providers == (CPU,)
    assert choice.note is None


def test_cpu_forces_the_cpu_even_with_cuda_offered() -> None:
    assert choose_providers(GPU, "cpu").providers == (CPU,)


def test_cuda_asked_for_but_not_offered_runs_on_the_cpu_with_one_line() -> None:
    choice = choose_providers(PLAIN, "cuda")
    assert choice.providers == (CPU,)
    assert choice.note is not None
    assert f"{ONNX_DEVICE_ENV}=cuda" in choice.note
    assert "onnxruntime-gpu" in choice.note
    assert "CPU" in choice.note
    assert "\n" not in choice.note


def test_a_bad_setting_names_the_choices() -> None:
    with pytest.raises(VisionError, match="auto, cpu, cuda"):
        choose_providers(PLAIN, "gpu")


def test_settle_reports_cuda_offered_but_not_used() -> None:
    # onnxruntime-gpu without a GPU (or without CUDA's libraries): the session falls
    # back to the CPU, and the device says so.
    device = settle(choose_providers(GPU, "auto"), [CPU])
    assert device.device == "cpu"
    assert device.note is not None
    assert "could not use it" in device.note
    assert f"{ONNX_DEVICE_ENV}=cpu" in device.note


def test_settle_on_a_session_that_uses_cuda() -> None:
    device = settle(choose_providers(GPU, "auto"), [CUDA, CPU])
    assert device.device == "cuda"
    assert device.note is None
    assert device.describe().startswith("onnxruntime on the GPU (CUDAExecutionProvider")


def test_the_setting_comes_from_the_environment() -> None:
    assert device_setting({}) == "auto"
    assert device_setting({ONNX_DEVICE_ENV: " CPU "}) == "cpu"
    assert device_setting({ONNX_DEVICE_ENV: "cuda"}) == "cuda"
    with pytest.raises(VisionError, match=ONNX_DEVICE_ENV):
        device_setting({ONNX_DEVICE_ENV: "tpu"})


def test_a_real_session_on_this_machine_runs_the_ball_network() -> None:
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session, device = open_session(MODEL_PATH, options, "auto")
    assert device.providers == tuple(session.get_providers())
    assert device.device == ("cuda" if HAS_CUDA else "cpu")
    assert device.note is None
    out = session.run(None, {"crops": np.zeros((2, 3, 32, 32), np.float32)})[0]
    assert out.shape == (2, 8, 8, 8)
    assert inference_device() == device
    assert device.describe() == (
        f"onnxruntime on the {'GPU' if HAS_CUDA else 'CPU'} "
        f"({device.providers[0]}; {ONNX_DEVICE_ENV}=auto)"
    )


@pytest.mark.skipif(HAS_CUDA, reason="this onnxruntime has CUDA")
def test_cuda_asked_for_on_this_machine_runs_on_the_cpu_and_says_so() -> None:
    session, device = open_session(MODEL_PATH, ort.SessionOptions(), "cuda")
    assert session.get_providers() == [CPU]
    assert device.device == "cpu"
    assert device.note is not None
    assert "no CUDA" in device.note


def test_the_models_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ONNX_DEVICE_ENV, "cpu")
    balls, pins = BallModel(MODEL_PATH), PinModel(PINS_MODEL_PATH)
    assert balls.device.providers == (CPU,)
    assert pins.device.providers == (CPU,)
    assert balls.session.get_providers() == [CPU]
    assert balls.device.setting == pins.device.setting == "cpu"


def test_a_bad_environment_value_stops_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ONNX_DEVICE_ENV, "gpu0")
    with pytest.raises(VisionError, match=r"CAROM_ONNX_DEVICE='gpu0': use one of auto, cpu"):
        BallModel(MODEL_PATH)
