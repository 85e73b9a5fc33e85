"""The lens from checkerboard pictures: intrinsics and distortion fixed once per camera.

Theory of operation. A printed checkerboard held at several angles in front of the
camera gives, in each picture, a grid of inner corners whose table-free positions are
known (``square_mm`` apart). ``cv2.findChessboardCorners`` finds the grid,
``cv2.cornerSubPix`` places each corner to a fraction of a pixel (in a window sized to
the squares' spacing in the picture), and ``cv2.calibrateCamera`` fits the focal
lengths, principal point and distortion (k1, k2, p1, p2; k3 is held at 0, which a
handful of boards cannot pin down) to all of them. The table fit can then keep that
lens and fit only the pose (``fit_camera(..., lens=...)``), so the table's edges no
longer have to tell the lens's bend from its tilt.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError, Distortion, Intrinsics

__all__ = ["MIN_BOARDS", "find_checkerboard", "fit_lens_from_checkerboards"]

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
F32 = NDArray[np.float32]

#: Fewest pictures with the whole pattern found that :func:`fit_lens_from_checkerboards` uses.
MIN_BOARDS = 5
_SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 50, 1e-4)


def find_checkerboard(image: U8, pattern: tuple[int, int]) -> F32 | None:
    """Inner corners (n, 2) ``uv_px`` of a checkerboard in a BGR or grey picture, or None.

    Args:
        image: Picture (h, w, 3) BGR or (h, w) grey.
        pattern: Inner corners per row and per column, e.g. (9, 6).

    Returns:
        The ``pattern[0] * pattern[1]`` corners to a fraction of a pixel, in OpenCV's
        row order, or None when the whole pattern is not found.
    """
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    found, corners = cv2.findChessboardCorners(grey, pattern, flags=flags)
    if not found:
        return None
    pts = np.asarray(corners, dtype=np.float32).reshape(-1, 2)
    # Half-window: under half the nearest corner spacing, so one window holds one corner.
    spacing = float(np.min(np.hypot(*np.diff(pts[: pattern[0]], axis=0).T)))
    half = int(np.clip(0.4 * spacing, 2, 11))
    refined = cv2.cornerSubPix(
        grey, pts.reshape(-1, 1, 2), (half, half), (-1, -1), _SUBPIX_CRITERIA
    )
    return np.asarray(refined, dtype=np.float32).reshape(-1, 2)


def fit_lens_from_checkerboards(
    images: Sequence[U8],
    pattern: tuple[int, int],
    square_mm: float,
    *,
    min_boards: int = MIN_BOARDS,
) -> tuple[Intrinsics, Distortion, float]:
    """Fit the lens (intrinsics and distortion) to checkerboard pictures.

    Args:
        images: Pictures (h, w, 3) BGR or (h, w) grey, all the same size, each showing
            the whole board at a different angle or place (corners of the picture too:
            that is where the distortion shows).
        pattern: Inner corners per row and per column, e.g. (9, 6) for a 10 x 7 board.
        square_mm: Side of one square, mm.
        min_boards: Fewest pictures with the whole pattern found.

    Returns:
        (intrinsics, distortion, rms_px): the lens and the RMS reprojection error of
        all corners, pixels.

    Raises:
        CalibrationError: Bad arguments, pictures of different sizes, too few boards
            found, or a lens outside the camera model's range.
    """
    size = _check(images, pattern, square_mm)
    grid = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    grid[:, :2] = np.mgrid[0 : pattern[0], 0 : pattern[1]].T.reshape(-1, 2) * square_mm
    found = [c for c in (find_checkerboard(im, pattern) for im in images) if c is not None]
    if len(found) < min_boards:
        raise CalibrationError(
            f"checkerboard: the {pattern[0]}x{pattern[1]} pattern was found in {len(found)} "
            f"of {len(images)} pictures, need at least {min_boards}; check --pattern (inner "
            "corners) and take more pictures with the whole board in view"
        )
    flags = cv2.CALIB_FIX_K3
    rms, k, dist, _, _ = cv2.calibrateCamera(
        [grid] * len(found), [c.reshape(-1, 1, 2) for c in found], size, None, None, flags=flags
    )
    k1, k2, p1, p2 = (float(v) for v in np.asarray(dist).ravel()[:4])
    intr = Intrinsics(
        size[0], size[1], float(k[0, 0]), float(k[1, 1]), float(k[0, 2]), float(k[1, 2])
    )
    return intr, Distortion(k1, k2, p1, p2), float(rms)


def _check(images: Sequence[U8], pattern: tuple[int, int], square_mm: float) -> tuple[int, int]:
    """The pictures' common (width, height); raises on bad arguments."""
    if len(pattern) != 2 or min(pattern) < 2:
        raise CalibrationError(f"checkerboard pattern: expected 2 numbers >= 2, got {pattern}")
    if not square_mm > 0.0:
        raise CalibrationError(f"checkerboard square_mm must be > 0, got {square_mm}")
    if not len(images):
        raise CalibrationError("checkerboard: no pictures given; give a folder or glob of them")
    sizes = {(int(im.shape[1]), int(im.shape[0])) for im in images}
    if len(sizes) != 1:
        raise CalibrationError(
            f"checkerboard: pictures of different sizes {sorted(sizes)}; use one camera mode"
        )
    return sizes.pop()
