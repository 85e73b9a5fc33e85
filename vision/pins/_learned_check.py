"""The learned pin check: a small network says, per pin spot, standing or down.

The network (trained by ``python -m train.pins``, see ``vision/models/MODEL_CARD.md``)
sees a ``PIN_CROP`` pixel square crop centred on the image of a spot at ``PIN_Z_MM``
above the cloth (mid-height of a pin), resized so a ball is ``PIN_PX`` pixels in
radius (:func:`vision.detect._network_crops.cut_roi`; a pin top is then 1-2 pixels across and a
lying pin a bar of about 10). With it goes the same crop of the frame the check learned
from (the pins standing, like :meth:`PinCheck.learn`): a reference that shows what this
spot looks like with its pin up in this light, through this lens. Each crop's
per-channel median (the cloth) is taken off and the rest scaled (:func:`pin_input`).
Output: per spot, the probability that a pin stands on it.

:class:`LearnedPinCheck` is a :class:`~vision.pins._contrast_check.PinCheck` (same
``check(image_bgr, detections)``, same spots, same rule for pins hidden by a ball: left out) whose
verdict per visible pin comes from the network. :func:`make_pin_check` builds the
check for a detector kind; a missing or corrupt ``pins.onnx`` gives the contrast rule
and a one-line warning, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from calibration import Calibration
from referee import Pin
from vision._types import U8, Detections, VisionError
from vision.detect import (
    BALL_PX,
    InferenceDevice,
    ModelError,
    Pixels,
    ball_radius_px,
    cut_roi,
    open_session,
    ort_errors,
)
from vision.pins._contrast_check import PinCheck

__all__ = [
    "PINS_MODEL_PATH",
    "PIN_CROP",
    "PIN_Z_MM",
    "AutoPinCheck",
    "LearnedPinCheck",
    "PinModel",
    "make_pin_check",
    "pin_crops",
    "pin_input",
]

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

#: The pin model file shipped in the package.
PINS_MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "pins.onnx"
#: Apparent ball radius in pin-crop pixels.
PIN_PX = 12.0
#: Pin crop side, pixels.
PIN_CROP = 32
#: Height above the cloth whose image the crop is centred on, mm.
PIN_Z_MM = 12.0
_STANDING = 0.5  # probability above which a pin stands
#: ``auto``: between these probabilities the network is unsure and the contrast rule
#: decides (a pin lying on its own spot, small in the picture, scores 0.3-0.6).
_UNSURE = (0.3, 0.7)
_KINDS = ("color", "onnx", "auto")


def pin_crops(image_bgr: Pixels, spots_px: F64, radius_px: F64) -> U8:
    """Crops (n, PIN_CROP, PIN_CROP, 3) BGR around spots (n, 2) with ball radii (n,) px."""
    out = np.empty((len(spots_px), PIN_CROP, PIN_CROP, 3), np.uint8)
    for k, (uv, r) in enumerate(zip(spots_px, radius_px, strict=True)):
        out[k] = cut_roi(image_bgr, uv, float(r) * BALL_PX / PIN_PX, PIN_CROP).image
    return out


def _centred(crops: NDArray[np.uint8] | F32) -> F32:
    x = np.asarray(crops, np.float32)
    med = np.median(x.reshape(len(x), x.shape[1] * x.shape[2], 3), axis=1)[:, None, None, :]
    out: F32 = ((x - med) * (1.0 / 64.0)).transpose(0, 3, 1, 2)
    return out


def pin_input(crops: NDArray[np.uint8] | F32, refs: NDArray[np.uint8] | F32) -> F32:
    """Network input (n, 6, s, s) float32 from crops and reference crops (n, s, s, 3) BGR.

    Channels 0-2 the crop, 3-5 the same spot in the reference frame (pins up); each
    less its own per-channel median (the cloth), scaled by 1/64.
    """
    return _joined(crops, _centred(refs))


def _joined(crops: NDArray[np.uint8] | F32, refs_centred: F32) -> F32:
    """:func:`pin_input` with the reference half (n, 3, s, s) already centred."""
    out: F32 = np.ascontiguousarray(np.concatenate([_centred(crops), refs_centred], axis=1))
    return out


class PinModel:
    """An onnxruntime session over the pin network (``threads`` intra-op CPU threads).

    ``device``: where it runs, chosen as for the ball network (:func:`vision.detect.open_session`).

    Raises:
        ModelError: The file is missing, not an ONNX model, or not this network.
    """

    device: InferenceDevice

    def __init__(self, path: Path = PINS_MODEL_PATH, threads: int = 1) -> None:
        import onnxruntime as ort  # type: ignore[import-untyped]  # only the learned check needs it

        way_out = "reinstall carom or use --detector color"
        if not path.is_file():
            raise ModelError(f"pin model {path} not found; {way_out}")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.log_severity_level = 3
        probe = np.zeros((2, 6, PIN_CROP, PIN_CROP), np.float32)
        try:
            self.session, self.device = open_session(path, opts)
            out = self.session.run(None, {"crops": probe})[0]
        except ort_errors() as exc:
            first = str(exc).strip().splitlines()[0][:120] if str(exc).strip() else type(exc)
            raise ModelError(f"pin model {path} is unreadable ({first}); {way_out}") from exc
        if out.shape != (2,):
            raise ModelError(
                f"pin model {path} gives outputs {out.shape}, expected (2,); {way_out}"
            )
        self.path = path

    def standing(self, crops: NDArray[np.uint8], refs: NDArray[np.uint8]) -> F32:
        """Probability (n,) that a pin stands, per crop (n, PIN_CROP, PIN_CROP, 3) BGR.

        ``refs``: the same spots in the reference frame, same shape.
        """
        return self.standing_centred(crops, _centred(refs))

    def standing_centred(self, crops: NDArray[np.uint8], refs_centred: F32) -> F32:
        """:meth:`standing` with the references (n, 3, s, s) centred as the input wants.

        A check's references never change: it centres them once (the same numbers).
        """
        if len(crops) == 0:
            return np.zeros(0, np.float32)
        out: F32 = self.session.run(None, {"crops": _joined(crops, refs_centred)})[0]
        return out


@dataclass(frozen=True, slots=True, eq=False)
class LearnedPinCheck(PinCheck):
    """A :class:`PinCheck` whose verdict on each visible pin is the network's.

    Attributes:
        model: The pin network.
        crop_spots_px: Per pin, the image (u, v) of its spot at ``PIN_Z_MM``.
        crop_radius_px: Per pin, the apparent ball radius there, px.
        ref_crops: Per pin, its crop (PIN_CROP, PIN_CROP, 3) in the learning frame.
        ref_inputs: Per pin, that crop as the network's input wants it (3, PIN_CROP,
            PIN_CROP): less its per-channel median, scaled (made once, not every frame).
        last_p: The last check's probabilities (pin -> 0..1), for diagnostics.
    """

    model: PinModel | None = None
    crop_spots_px: Mapping[Pin, tuple[float, float]] = field(default_factory=dict)
    crop_radius_px: Mapping[Pin, float] = field(default_factory=dict)
    ref_crops: Mapping[Pin, U8] = field(default_factory=dict)
    ref_inputs: Mapping[Pin, F32] = field(default_factory=dict)
    last_p: dict[Pin, float] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        rule: PinCheck,
        model: PinModel,
        calibration: Calibration,
        frame_bgr: U8,
        pins: Mapping[Pin, tuple[float, float]],
    ) -> LearnedPinCheck:
        """The learned check over the spots and hiding rule of ``rule``.

        ``frame_bgr`` (h, w, 3), with the pins standing, gives the reference crops.
        """
        xy = np.array([pins[p] for p in rule.spots_px], np.float64)
        uv = calibration.mm_to_px(xy, PIN_Z_MM)
        radius = ball_radius_px(calibration, uv)
        names = list(rule.spots_px)
        spots = {p: (float(u), float(v)) for p, (u, v) in zip(names, uv, strict=True)}
        radii = {p: float(r) for p, r in zip(names, radius, strict=True)}
        crops = pin_crops(frame_bgr, uv, radius)
        refs = dict(zip(names, crops, strict=True))
        inputs = dict(zip(names, _centred(crops), strict=True))
        return cls(rule.spots_px, rule.reach_px, rule.ring_px, rule.threshold,
                   rule.ball_radius_px, model, spots, radii, refs, inputs)  # fmt: skip

    def check(self, image_bgr: Pixels, detections: Detections | None = None) -> dict[Pin, bool]:
        """Per pin, True if standing; pins hidden by a detected ball are left out."""
        assert self.model is not None
        pins = [p for p in self.spots_px if detections is None or not self._hidden(p, detections)]
        uv = np.array([self.crop_spots_px[p] for p in pins], np.float64).reshape(-1, 2)
        radius = np.array([self.crop_radius_px[p] for p in pins], np.float64)
        crops = pin_crops(image_bgr, uv, radius)
        refs = np.array([self.ref_inputs[p] for p in pins], np.float32)
        prob = self.model.standing_centred(crops, refs.reshape(len(pins), 3, PIN_CROP, PIN_CROP))
        self.last_p.clear()
        self.last_p.update({p: float(q) for p, q in zip(pins, prob, strict=True)})
        return {p: bool(q > _STANDING) for p, q in zip(pins, prob, strict=True)}


@dataclass(frozen=True, slots=True, eq=False)
class AutoPinCheck(LearnedPinCheck):
    """The network where it is sure, the contrast rule where it is not.

    The contrast rule fails in dim light, and then confidently (every standing pin
    below its threshold), where the network is sure; the network hesitates over a pin
    lying across its own spot, where the rule's shape test is clear.
    """

    def check(self, image_bgr: Pixels, detections: Detections | None = None) -> dict[Pin, bool]:
        """Per pin, True if standing; pins hidden by a detected ball are left out."""
        learned = LearnedPinCheck.check(self, image_bgr, detections)
        unsure = [p for p in learned if _UNSURE[0] <= self.last_p[p] <= _UNSURE[1]]
        if not unsure:
            return learned
        rule = PinCheck.check(self, image_bgr, detections)
        return {p: rule.get(p, up) if p in unsure else up for p, up in learned.items()}


def make_pin_check(
    kind: str,
    calibration: Calibration,
    frame_bgr: U8,
    pins: Mapping[Pin, tuple[float, float]],
    *,
    warn: Callable[[str], None] | None = None,
    model_path: Path = PINS_MODEL_PATH,
) -> PinCheck:
    """The pin check for detector ``kind`` (``color``, ``onnx`` or ``auto``).

    ``color``: the contrast rule; ``onnx``: the network; ``auto``: the network where it
    is sure, the rule where it is not (:class:`AutoPinCheck`).

    The contrast rule is learned from ``frame_bgr`` (pins standing) in every case; a
    missing or corrupt model gives it alone and ``warn`` gets the one line.

    Raises:
        VisionError: Unknown ``kind`` or no pins.
    """
    if kind not in _KINDS:
        raise VisionError(f"pin check: unknown kind {kind!r}; use one of {', '.join(_KINDS)}")
    rule = PinCheck.learn(calibration, frame_bgr, pins)
    if kind == "color":
        return rule
    try:
        model = PinModel(model_path)
    except ModelError as exc:
        if warn is not None:
            warn(f"warning: {exc}; using the contrast pin check")
        return rule
    check = AutoPinCheck if kind == "auto" else LearnedPinCheck
    return check.of(rule, model, calibration, frame_bgr, pins)
