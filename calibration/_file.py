"""The calibration file (``carom-calibration/1``) and the :class:`Calibration` it holds.

A calibration file is JSON::

    {"format": "carom-calibration/1",
     "table": {<carom-table/1>},             # TableGeometry.to_dict()
     "camera": {<carom-camera/1>},           # Camera.to_dict()
     "image_size_px": [width, height],       # must equal the camera's
     "residuals": {"rms_px": 0.4, ...},      # name -> number, from the fit or report
     "method": "auto" | "manual" | "checkerboard",
     "created": "2026-11-29T20:11:00+00:00"} # ISO 8601, given by the caller

Loading checks every field and refuses a bad file with one line that names the file, the
problem and the way out. The library reads no clock: whoever saves passes the date.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError, Camera, check_shape
from calibration._file_check import check_camera_fields, check_opencv_block
from calibration._geometry import TableGeometry
from referee import FrozenDict
from referee.jsonbound import DocumentLimits, decode_document
from referee.jsonread import show

__all__ = [
    "CALIBRATION_FORMAT",
    "CALIBRATION_LIMITS",
    "Calibration",
    "CalibrationMethod",
    "load_calibration",
    "save_calibration",
]

F64 = NDArray[np.float64]
CALIBRATION_FORMAT = "carom-calibration/1"
#: A calibration file is about 2 kB; anything over 1 MB is not one.
CALIBRATION_LIMITS = DocumentLimits(max_bytes=1 << 20)
_FIELDS = ("format", "table", "camera", "image_size_px", "residuals", "method", "created")


class CalibrationMethod(StrEnum):
    """How the camera model was fitted."""

    AUTO = "auto"
    MANUAL = "manual"
    CHECKERBOARD = "checkerboard"


@dataclass(frozen=True, slots=True)
class Calibration:
    """A table, the camera over it and how well the fit went.

    Args:
        geometry: The table.
        camera: The fitted camera; its image size is the size of the video it fits.
        created: ISO 8601 date or date-time of the fit, given by the caller.
        method: How the camera was fitted.
        residuals: Fit residuals by name (``rms_px``, ``max_mm`` ...), finite numbers.
    """

    geometry: TableGeometry
    camera: Camera
    created: str
    method: CalibrationMethod = CalibrationMethod.AUTO
    residuals: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_created(self.created, "created")
        object.__setattr__(self, "method", _method(self.method, "method"))
        if not isinstance(self.residuals, Mapping):
            raise CalibrationError(f"residuals: expected a mapping, got {show(self.residuals)}")
        # Read-only, as the frozen value around it (a plain dict could be changed after).
        object.__setattr__(self, "residuals", FrozenDict(self.residuals))
        for key, value in self.residuals.items():
            if not (isinstance(value, int | float) and math.isfinite(value)):
                raise CalibrationError(
                    f"residuals.{key}: expected a finite number, got {show(value)}"
                )

    @property
    def image_size_px(self) -> tuple[int, int]:
        """Image (width, height) in pixels the calibration is for."""
        return self.camera.size_px

    def px_to_mm(self, uv_px: F64, z_mm: float = 0.0) -> F64:
        """Pixels (n, 2) -> table points (n, 2) ``xy_mm`` on the plane ``z = z_mm``.

        Use ``z_mm = geometry.radius_mm`` for ball centres: the viewing ray meets the
        ball-centre plane, not the cloth, which corrects the parallax (over a centimetre
        near the cushions from 2.5 m up). NaN where the ray misses the plane.
        """
        uv = check_shape("uv_px", uv_px, 2)
        out: F64 = self.camera.unproject(uv, _height(z_mm))[:, :2]
        return out

    def mm_to_px(self, xy_mm: F64, z_mm: float = 0.0) -> F64:
        """Table points (n, 2) ``xy_mm`` at height ``z_mm`` -> pixels (n, 2) ``uv_px``.

        ``z_mm = geometry.radius_mm`` gives where a ball centred there is seen.
        """
        xy = check_shape("xy_mm", xy_mm, 2)
        return self.camera.project(np.c_[xy, np.full(len(xy), _height(z_mm))])

    def to_dict(self) -> dict[str, Any]:
        """The ``carom-calibration/1`` JSON document."""
        return {
            "format": CALIBRATION_FORMAT,
            "table": self.geometry.to_dict(),
            "camera": self.camera.to_dict(),
            "image_size_px": list(self.image_size_px),
            "residuals": {k: _number(k, v) for k, v in self.residuals.items()},
            "method": str(self.method),
            "created": self.created,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Calibration:
        """Build from :meth:`to_dict` output; errors name the field (``camera.pose.x_mm``)."""
        if not isinstance(data, dict):
            raise CalibrationError(f"expected a JSON object, got {type(data).__name__}")
        fmt = data.get("format")
        if fmt != CALIBRATION_FORMAT:
            said = "no format" if fmt is None else f"format {fmt!r}"
            raise CalibrationError(f"not a {CALIBRATION_FORMAT} file ({said}); give the file "
                                   "carom calibrate wrote")  # fmt: skip
        for key in _FIELDS:
            if key not in data:
                raise CalibrationError(f"{key}: missing")
        extra = sorted(set(data) - set(_FIELDS))
        if extra:
            raise CalibrationError(f"{extra[0]}: unknown field")
        check_camera_fields(data["camera"], "camera")
        camera = Camera.from_dict(data["camera"], "camera")
        check_opencv_block(camera, data["camera"].get("opencv"), "camera.opencv")
        size = data["image_size_px"]
        if list(camera.size_px) != size:
            raise CalibrationError(
                f"image_size_px {size!r} differs from camera.image_size_px {list(camera.size_px)}"
            )
        residuals = data["residuals"]
        if not isinstance(residuals, dict):
            raise CalibrationError(f"residuals: expected an object, got {residuals!r}")
        for key, value in residuals.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise CalibrationError(f"residuals.{key}: expected a number, got {show(value)}")
        if not isinstance(data["created"], str):
            raise CalibrationError(f"created: expected an ISO date string, got {data['created']!r}")
        geometry = TableGeometry.from_dict(data["table"], "table")
        return cls(geometry, camera, data["created"], _method(data["method"], "method"), residuals)


def _method(value: Any, where: str) -> CalibrationMethod:
    try:
        return CalibrationMethod(value)
    except ValueError:
        names = ", ".join(m.value for m in CalibrationMethod)
        raise CalibrationError(f"{where}: {value!r} is not one of: {names}") from None


def _check_created(value: Any, where: str) -> None:
    if isinstance(value, str):
        for parse in (datetime.fromisoformat, date.fromisoformat):
            try:
                parse(value)
                return
            except ValueError:
                continue
    raise CalibrationError(f"{where}: expected an ISO 8601 date, got {value!r}")


def save_calibration(path: str | Path, calib: Calibration) -> None:
    """Write ``calib`` to ``path`` as indented JSON.

    Raises:
        CalibrationError: the file cannot be written (the message names it).
    """
    text = json.dumps(calib.to_dict(), indent=2) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CalibrationError(f"calibration file {path}: cannot write ({exc.strerror})") from None


def load_calibration(
    path: str | Path, expect_size_px: tuple[int, int] | None = None
) -> Calibration:
    """Read and check a calibration file.

    Args:
        path: The ``carom-calibration/1`` JSON file.
        expect_size_px: The video's (width, height); the file must be for that size.

    Raises:
        CalibrationError: one line naming the file, the problem and the way out.
    """
    if not isinstance(path, str | Path):
        raise CalibrationError(f"calibration file: expected a path, got {type(path).__name__}")
    if expect_size_px is not None and not (
        isinstance(expect_size_px, tuple | list) and len(expect_size_px) == 2
        and all(isinstance(n, int | np.integer) and not isinstance(n, bool) and n > 0
                for n in expect_size_px)
    ):  # fmt: skip
        raise CalibrationError(f"expect_size_px: expected (width, height) in whole pixels, "
                               f"got {show(expect_size_px)}")  # fmt: skip
    where = f"calibration file {path}"
    data = _read(Path(path), where)
    try:
        calib = Calibration.from_dict(data)
    except CalibrationError as exc:
        raise CalibrationError(f"{where}: {exc}") from None
    if expect_size_px is not None and tuple(expect_size_px) != calib.image_size_px:
        have, want = calib.image_size_px, expect_size_px
        raise CalibrationError(
            f"{where}: image size {have[0]}x{have[1]} does not match the video's "
            f"{want[0]}x{want[1]}; re-run carom calibrate on this camera"
        )
    return calib


def _read(path: Path, where: str) -> Any:
    """The decoded file within :data:`CALIBRATION_LIMITS` (size checked before reading)."""
    fix = "run carom calibrate to make a new one"
    try:
        CALIBRATION_LIMITS.check_size(path.stat().st_size, where, CalibrationError, fix)
        with path.open("rb") as f:
            raw = f.read(CALIBRATION_LIMITS.max_bytes + 1)
    except FileNotFoundError:
        raise CalibrationError(f"{where}: not found; run carom calibrate to make one") from None
    except OSError as exc:
        raise CalibrationError(f"{where}: cannot read ({exc.strerror or exc})") from None
    return decode_document(raw, where, CALIBRATION_LIMITS, CalibrationError, fix)


def _number(key: str, value: float) -> float:
    """A residual as the file writes it: the point counts (``*n_points``) whole."""
    return int(value) if key.endswith("n_points") else float(value)


def _height(z_mm: object) -> float:
    """A height above the cloth in mm: a finite number (NaN gave all-NaN points silently)."""
    if isinstance(z_mm, bool) or not isinstance(z_mm, int | float | np.floating | np.integer):
        raise CalibrationError(f"z_mm: expected a finite height in mm, got {show(z_mm)}")
    if not math.isfinite(z_mm):
        raise CalibrationError(f"z_mm: expected a finite height in mm, got {show(z_mm)}")
    return float(z_mm)
