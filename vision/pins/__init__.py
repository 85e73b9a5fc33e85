"""Pins (five-pins, the 7-pin game): which pins stand, and the ``PinDown`` events.

Every frame a pin check says, per spot, whether its pin stands: the contrast rule
(:class:`PinCheck`), the network (:class:`LearnedPinCheck`) or both
(:class:`AutoPinCheck`); :func:`make_pin_check` builds one by detector kind.
:class:`PinSeries` keeps the answers and :func:`pin_events` turns them into events.
"""

from vision.pins._contrast_check import PinCheck
from vision.pins._learned_check import (
    PIN_CROP,
    PIN_Z_MM,
    PINS_MODEL_PATH,
    AutoPinCheck,
    LearnedPinCheck,
    PinModel,
    make_pin_check,
    pin_crops,
    pin_input,
)
from vision.pins._pin_down import PinSeries, pin_events

__all__ = [
    "PINS_MODEL_PATH",
    "PIN_CROP",
    "PIN_Z_MM",
    "AutoPinCheck",
    "LearnedPinCheck",
    "PinCheck",
    "PinModel",
    "PinSeries",
    "make_pin_check",
    "pin_crops",
    "pin_events",
    "pin_input",
]
