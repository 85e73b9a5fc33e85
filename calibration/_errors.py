"""The calibration error and the argument checks that raise it, naming the value.

:class:`CalibrationError` is a :class:`referee.CaromError`; its message names the
argument or file field and its limit ("fx_px must be 64..64000, got 10.0") or the
expected and actual shape ("uv_px: expected (n, 2), got (3,)").
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from referee import CaromError

__all__ = ["CalibrationError", "CalibrationFailed", "check_range", "check_shape"]

F64 = NDArray[np.float64]


class CalibrationError(CaromError):
    """A camera model or table geometry value is invalid; the message names it."""


class CalibrationFailed(CalibrationError):
    """No usable calibration: the automatic fit failed (the ``failed`` outcome).

    Raised by the app where it must stop rather than go on without a camera model;
    the message says why and how to mark the corners instead, ``reason`` only why (for
    a caller that gives its own way out). The command line exits with its own code for
    it (docs/calibration.md, "Outcomes").
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


def check_shape(name: str, array: Any, cols: int) -> F64:
    """Return ``array`` as float64 of shape (n, cols), or raise naming expected vs got."""
    try:
        out = np.asarray(array, dtype=np.float64)
    except (TypeError, ValueError):  # a string, ragged rows, None
        raise CalibrationError(f"{name}: expected (n, {cols}) numbers, got {array!r:.60}") from None
    if out.ndim != 2 or out.shape[1] != cols:
        raise CalibrationError(f"{name}: expected (n, {cols}), got {out.shape}")
    return out


def check_range(name: str, value: float, lo: float, hi: float) -> None:
    """Raise unless ``value`` is finite and within ``lo..hi``, naming it and the limits."""
    if not (math.isfinite(value) and lo <= value <= hi):
        raise CalibrationError(f"{name} must be {lo:g}..{hi:g}, got {value!r}")
