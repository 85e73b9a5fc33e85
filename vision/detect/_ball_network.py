"""The shipped ball network, run through onnxruntime (GPU or CPU), and its decoding.

The network (trained by ``python -m train.detector``, see ``vision/models/MODEL_CARD.md``)
takes crops with balls ``BALL_PX`` pixels in radius (:mod:`vision.detect._network_crops`) and
gives, per cell of ``STRIDE`` crop pixels, four class heatmaps, the centre's offset in
the cell and the blur as a doubled-angle vector. Decoding keeps the cells that are the
largest of their 3 x 3 neighbourhood and above a threshold. The two ivory channels
(white, dotted) are decoded together: a dotted white shows its dots only half the time,
so one ivory ball is one peak, called dotted when the dotted channel is high.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from referee import Ball
from vision._types import VisionError
from vision.detect._inference import InferenceDevice, open_session
from vision.detect._network_crops import BALL_PX, CLASSES, STRIDE, Roi

__all__ = ["MODEL_PATH", "BallModel", "ModelError", "Peak", "ort_errors"]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

#: The model file shipped in the package.
MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "balls.onnx"
_DOTTED_ON = 0.35  # dotted-channel heat above which an ivory ball is the dotted one
_OUT_CHANNELS = 8


def ort_errors() -> tuple[type[BaseException], ...]:
    """What onnxruntime raises on a bad model or a failed run, and file errors.

    onnxruntime's own exception classes derive from ``Exception`` only.
    """
    from onnxruntime.capi import onnxruntime_pybind11_state as state  # type: ignore[import-untyped]

    names = ("Fail", "InvalidProtobuf", "InvalidArgument", "NoSuchFile", "NoModel",
             "EngineError", "RuntimeException", "InvalidGraph", "NotImplemented",
             "EPFail")  # fmt: skip
    own = tuple(getattr(state, n) for n in names if hasattr(state, n))
    return (*own, RuntimeError, ValueError, OSError)


class ModelError(VisionError):
    """The learned detector's model file is missing, unreadable or not the expected net."""


@dataclass(frozen=True, slots=True)
class Peak:
    """One ball the network found: class, frame centre (2,), score 0..1, blur half-vector (2,)."""

    ball: Ball
    uv_px: F64
    score: float
    streak_px: F64


class BallModel:
    """An onnxruntime session over the ball network (``threads`` intra-op CPU threads).

    ``device`` says where it runs (:func:`vision.detect.open_session` chose: CUDA where
    onnxruntime-gpu has a GPU, the CPU otherwise or with ``CAROM_ONNX_DEVICE=cpu``).

    Raises:
        ModelError: The file is missing, not an ONNX model, or not this network.
    """

    device: InferenceDevice

    def __init__(self, path: Path = MODEL_PATH, threads: int = 1) -> None:
        import onnxruntime as ort  # type: ignore[import-untyped]  # only this detector needs it

        if not path.is_file():
            raise ModelError(
                f"ball model {path} not found; reinstall carom or use --detector color"
            )
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.log_severity_level = 3
        try:
            self.session, self.device = open_session(path, opts)
            out = self.session.run(None, {"crops": np.zeros((1, 3, 32, 32), np.float32)})[0]
        except ort_errors() as exc:
            first = str(exc).strip().splitlines()[0][:120] if str(exc).strip() else type(exc)
            raise ModelError(
                f"ball model {path} is unreadable ({first}); reinstall carom or use "
                "--detector color"
            ) from exc
        if out.shape != (1, _OUT_CHANNELS, 32 // STRIDE, 32 // STRIDE):
            raise ModelError(
                f"ball model {path} gives outputs {out.shape}, expected "
                f"(1, {_OUT_CHANNELS}, 8, 8); reinstall carom or use --detector color"
            )
        self.path = path

    def run(self, crops: NDArray[np.uint8]) -> F32:
        """Raw outputs (B, 8, n/4, n/4) for crops (B, n, n, 3) BGR uint8, n a multiple of 16."""
        x = (crops.astype(np.float32) * (1.0 / 63.75) - 2.0).transpose(0, 3, 1, 2)
        out: F32 = self.session.run(None, {"crops": np.ascontiguousarray(x)})[0]
        return out

    def peaks(self, rois: list[Roi], threshold: float = 0.3) -> list[list[Peak]]:
        """The balls in each ROI (crops of equal size go through in one batch)."""
        result: list[list[Peak]] = [[] for _ in rois]
        sizes = sorted({r.image.shape[0] for r in rois})
        for size in sizes:
            idx = [i for i, r in enumerate(rois) if r.image.shape[0] == size]
            out = self.run(np.stack([rois[i].image for i in idx]))
            for k, i in enumerate(idx):
                result[i] = decode(out[k], rois[i], threshold)
        return result


def decode(out: F32, roi: Roi, threshold: float) -> list[Peak]:
    """Peaks of one output (8, g, g) above ``threshold``, in frame pixels, best first."""
    ivory = np.maximum(out[0], out[1])
    heat = np.stack([ivory, out[2], out[3]])
    g_v, g_u = heat.shape[1:]
    padded = np.pad(heat, ((0, 0), (1, 1), (1, 1)), constant_values=-1.0)
    local = np.max(
        [padded[:, dv : dv + g_v, du : du + g_u] for dv in range(3) for du in range(3)], axis=0
    )
    peaks = []
    for c, v, u in zip(*np.nonzero((heat >= local) & (heat >= threshold)), strict=True):
        ball = CLASSES[c + 1] if c > 0 else (
            Ball.DOTTED if out[1, v, u] >= _DOTTED_ON else Ball.WHITE
        )  # fmt: skip
        crop = (np.array([u, v], np.float64) + out[4:6, v, u]) * STRIDE - 0.5
        a, b = float(out[6, v, u]), float(out[7, v, u])
        half = math.hypot(a, b) * BALL_PX * roi.step_px
        angle = 0.5 * math.atan2(b, a)
        streak = np.array([math.cos(angle), math.sin(angle)]) * half
        peaks.append(Peak(ball, roi.to_frame(crop[None])[0], float(heat[c, v, u]), streak))
    peaks.sort(key=lambda p: -p.score)
    return peaks
