"""Where onnxruntime runs the networks: the GPU (CUDA) where there is one, else the CPU.

Theory of operation. Every onnxruntime session of the program (the ball network, the
pin network) is opened by :func:`open_session`, and one pure function decides its
execution providers: :func:`choose_providers` takes the providers this onnxruntime
offers (``onnxruntime.get_available_providers()``) and the setting of the
``CAROM_ONNX_DEVICE`` environment variable:

* ``auto`` (the default): CUDA when it is offered (the ``onnxruntime-gpu`` package),
  with the CPU behind it; the CPU alone otherwise (the plain ``onnxruntime`` package);
* ``cpu``: the CPU, whatever is installed;
* ``cuda``: CUDA; where it is not offered, the CPU, and a line that says so.

``onnxruntime-gpu`` offers CUDA even on a machine without a GPU or without the CUDA
and cuDNN libraries it needs; the session then falls back to the CPU. So what a
session really runs on is read back from it (``session.get_providers()``) and
:func:`settle` compares it with what was asked: CUDA asked for and not used gives a
note (the line the app shows at start). Nothing here fails for want of a GPU.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision._types import VisionError

__all__ = [
    "CPU",
    "CUDA",
    "DEVICE_SETTINGS",
    "ONNX_DEVICE_ENV",
    "InferenceDevice",
    "ProviderChoice",
    "choose_providers",
    "device_setting",
    "inference_device",
    "open_session",
    "settle",
]

#: The environment variable that picks the device: ``auto`` (default), ``cpu``, ``cuda``.
ONNX_DEVICE_ENV = "CAROM_ONNX_DEVICE"
DEVICE_SETTINGS = ("auto", "cpu", "cuda")
CUDA = "CUDAExecutionProvider"
CPU = "CPUExecutionProvider"

#: The device of the last session opened in this process (:func:`inference_device`).
_LAST: list[InferenceDevice] = []


@dataclass(frozen=True, slots=True)
class ProviderChoice:
    """The providers to ask a session for, best first, and why.

    Attributes:
        providers: Provider names, e.g. ``("CUDAExecutionProvider", "CPUExecutionProvider")``.
        setting: ``auto``, ``cpu`` or ``cuda`` (:data:`ONNX_DEVICE_ENV`).
        note: A line for the user when CUDA was asked for but is not offered, else None.
    """

    providers: tuple[str, ...]
    setting: str
    note: str | None = None

    @property
    def wants_cuda(self) -> bool:
        """True when CUDA is among the providers asked for."""
        return CUDA in self.providers


@dataclass(frozen=True, slots=True)
class InferenceDevice:
    """Where a session runs: ``cuda`` or ``cpu``, with the providers it really uses.

    Attributes:
        device: ``cuda`` (the GPU) or ``cpu``.
        providers: The session's providers, best first (``session.get_providers()``).
        setting: The setting it was chosen by (``auto``, ``cpu``, ``cuda``).
        note: A line for the user when CUDA was wanted but the CPU runs, else None.
    """

    device: str
    providers: tuple[str, ...]
    setting: str
    note: str | None = None

    def describe(self) -> str:
        """One line: ``onnxruntime on the CPU (CPUExecutionProvider; CAROM_ONNX_DEVICE=auto)``."""
        where = "the GPU" if self.device == "cuda" else "the CPU"
        return f"onnxruntime on {where} ({self.providers[0]}; {ONNX_DEVICE_ENV}={self.setting})"

    def as_dict(self) -> dict[str, object]:
        """For JSON summaries: device, providers, setting and note."""
        return {"device": self.device, "providers": list(self.providers),
                "setting": self.setting, "note": self.note}  # fmt: skip


def device_setting(environ: dict[str, str] | None = None) -> str:
    """The setting of :data:`ONNX_DEVICE_ENV` in ``environ`` (default ``os.environ``).

    Raises:
        VisionError: The variable holds something else than ``auto``, ``cpu``, ``cuda``.
    """
    env = os.environ if environ is None else environ
    value = env.get(ONNX_DEVICE_ENV, "").strip().lower() or "auto"
    if value not in DEVICE_SETTINGS:
        raise VisionError(
            f"{ONNX_DEVICE_ENV}={env.get(ONNX_DEVICE_ENV)!r}: use one of "
            f"{', '.join(DEVICE_SETTINGS)} (cpu forces the CPU)"
        )
    return value


def choose_providers(available: Sequence[str], setting: str = "auto") -> ProviderChoice:
    """The providers to ask for, given those onnxruntime offers (``available``).

    ``auto``: CUDA then the CPU when CUDA is offered, else the CPU; ``cpu``: the CPU;
    ``cuda``: as ``auto``, and a note when CUDA is not offered.

    Raises:
        VisionError: ``setting`` is not one of :data:`DEVICE_SETTINGS`.
    """
    if setting not in DEVICE_SETTINGS:
        raise VisionError(f"onnx device {setting!r}: use one of {', '.join(DEVICE_SETTINGS)}")
    if setting == "cpu":
        return ProviderChoice((CPU,), setting)
    if CUDA in available:
        return ProviderChoice((CUDA, CPU), setting)
    note = None
    if setting == "cuda":
        offered = ", ".join(available) or "none"
        note = (
            f"{ONNX_DEVICE_ENV}=cuda, but this onnxruntime offers no CUDA (it offers: "
            f"{offered}); install onnxruntime-gpu for a GPU. The networks run on the CPU"
        )
    return ProviderChoice((CPU,), setting, note)


def settle(choice: ProviderChoice, used: Sequence[str]) -> InferenceDevice:
    """The device a session runs on, from what was asked and what it uses (``used``)."""
    providers = tuple(used) or (CPU,)
    if providers[0] == CUDA:
        return InferenceDevice("cuda", providers, choice.setting)
    note = choice.note
    if choice.wants_cuda:
        note = (
            "onnxruntime offers CUDA but could not use it (no GPU, or its CUDA/cuDNN "
            f"libraries are missing); the networks run on the CPU ({ONNX_DEVICE_ENV}=cpu "
            "silences this)"
        )
    return InferenceDevice("cpu", providers, choice.setting, note)


def open_session(
    path: Path, options: Any, setting: str | None = None
) -> tuple[Any, InferenceDevice]:
    """An ``onnxruntime.InferenceSession`` of ``path`` on the chosen device, and that device.

    ``setting`` None: :func:`device_setting` (the environment). onnxruntime's own
    warning about an unusable provider is replaced by the device's ``note``.

    Raises:
        VisionError: A bad setting. onnxruntime's errors (a bad model) pass through.
    """
    import onnxruntime as ort  # type: ignore[import-untyped]  # only the networks need it

    choice = choose_providers(ort.get_available_providers(), setting or device_setting())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        session = ort.InferenceSession(str(path), options, providers=list(choice.providers))
    device = settle(choice, session.get_providers())
    _LAST[:] = [device]
    return session, device


def inference_device() -> InferenceDevice | None:
    """The device of the last network session opened in this process; None before any.

    For the line a front end shows at start, once the detector is built (the
    ``color`` detector opens none).
    """
    return _LAST[0] if _LAST else None
