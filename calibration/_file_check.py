"""The checks of a calibration file's camera block beyond what :class:`Camera` builds from.

:meth:`Camera.from_dict` reads ``intrinsics``, ``distortion`` and ``pose``; the file also
holds an ``opencv`` block (values derived from them for OpenCV users: the camera matrix,
the distortion vector, the Rodrigues rotation and the translation). Nothing of ours reads
it, but others may: a block that is malformed, not finite or disagrees with the fields it
is derived from (a hand edit of one place only) is refused, naming the entry. An unknown
field of the camera block is refused too (a misspelt ``distorsion`` would otherwise be
silently ignored).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from calibration._camera import CalibrationError, Camera

__all__ = ["CAMERA_FIELDS", "OPENCV_FIELDS", "check_camera_fields", "check_opencv_block"]

CAMERA_FIELDS = frozenset({"format", "image_size_px", "intrinsics", "distortion", "pose", "opencv"})
OPENCV_FIELDS = frozenset({"object_points", "camera_matrix", "dist_coeffs", "rvec", "tvec_mm"})
_OBJECT_POINTS = "table (x, y, -z) mm"
# Relative agreement asked of a derived value (JSON keeps floats exactly: only a hand
# edit differs), with an absolute floor for values near zero.
_RTOL, _ATOL = 1e-6, 1e-6


def check_camera_fields(data: Any, where: str) -> None:
    """Refuse an unknown field in the camera block ``data`` (an object)."""
    if isinstance(data, dict):
        extra = sorted(set(data) - CAMERA_FIELDS)
        if extra:
            allowed = ", ".join(sorted(CAMERA_FIELDS))
            raise CalibrationError(f"{where}.{extra[0]}: unknown field (allowed: {allowed})")


def check_opencv_block(camera: Camera, block: Any, where: str) -> None:
    """Check ``block`` (the camera's ``opencv`` entry, may be absent: None) against ``camera``.

    Raises:
        CalibrationError: naming the entry (``camera.opencv.dist_coeffs[0]``): not an
            object, an unknown or missing entry, a wrong shape, a number not finite,
            or a value that differs from the one derived from the camera.
    """
    if block is None:
        return
    if not isinstance(block, dict):
        raise CalibrationError(f"{where}: expected an object, got {type(block).__name__}")
    extra = sorted(set(block) - OPENCV_FIELDS)
    missing = sorted(OPENCV_FIELDS - set(block))
    if extra or missing:
        what = f"{extra[0]}: unknown entry" if extra else f"{missing[0]}: missing"
        raise CalibrationError(f"{where}.{what}")
    if block["object_points"] != _OBJECT_POINTS:
        raise CalibrationError(f"{where}.object_points: expected {_OBJECT_POINTS!r}")
    rvec, tvec = camera.rvec_tvec()
    derived = {
        "camera_matrix": camera.intrinsics.matrix(),
        "dist_coeffs": camera.distortion.coeffs(),
        "rvec": rvec,
        "tvec_mm": tvec,
    }
    for key, want in derived.items():
        got = _numbers(block[key], want.shape, f"{where}.{key}")
        if not np.allclose(got, want, rtol=_RTOL, atol=_ATOL):
            i = np.unravel_index(int(np.argmax(np.abs(got - want))), want.shape)
            at = "".join(f"[{j}]" for j in i)
            raise CalibrationError(
                f"{where}.{key}{at}: {got[i]:g} disagrees with {want[i]:g} derived from the "
                "camera's intrinsics, distortion and pose; fix one or remove the opencv block"
            )


def _numbers(value: Any, shape: tuple[int, ...], where: str) -> np.ndarray[Any, Any]:
    """``value`` as a float array of ``shape``, every entry a finite number (not a bool)."""
    flat: list[float] = []
    rows = value if len(shape) == 2 else [value]
    width = shape[-1]
    n_rows = shape[0] if len(shape) == 2 else 1
    want = "x".join(str(n) for n in shape)
    if not (isinstance(rows, list) and len(rows) == n_rows):
        raise CalibrationError(f"{where}: expected a {want} list of numbers")
    for row in rows:
        if not (isinstance(row, list) and len(row) == width):
            raise CalibrationError(f"{where}: expected a {want} list of numbers")
        for x in row:
            if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
                raise CalibrationError(f"{where}: expected finite numbers, got {x!r}")
            flat.append(float(x))
    return np.array(flat).reshape(shape)
