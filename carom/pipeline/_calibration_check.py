"""A calibration file checked against the video before a match is judged through it.

The cloth edges found in the frame the table is learned from must lie within
:func:`calibration.tolerance_px` of where the calibration puts them (docs/calibration.md,
"Checked against the video"); over it nothing is judged, and the one line names the
file as the user knows it (:class:`CalibrationOrigin`) with the way out that applies.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from calibration import Calibration, CalibrationError, frame_fit, load_calibration

__all__ = ["WIZARD_URL", "CalibrationFile", "CalibrationOrigin", "check_calibration_fits"]

#: Where ``carom serve`` shows the calibration wizard (its default port).
WIZARD_URL = "http://127.0.0.1:8765/wizard"

Say = Callable[[str], None]
#: A good fit's least confidence (RMS 2 mm, every cushion seen: docs/calibration.md).
_GOOD_CONFIDENCE = 0.8


class CalibrationOrigin(StrEnum):
    """Where a calibration file came from: it names the file and the way out of a misfit."""

    GIVEN = "given"  # --calibration FILE of analyze or live
    CAMERA = "camera"  # the camera's own beside carom live's database (an earlier fit, the wizard)
    SERVER = "server"  # carom serve's file, which its wizard saves


def check_calibration_fits(
    calib: Calibration,
    frame_bgr: Any,
    path: Path,
    say: Say,
    *,
    origin: CalibrationOrigin = CalibrationOrigin.GIVEN,
    source: str = "VIDEO",
    db: Path | None = None,
) -> None:
    """Check a calibration file against one frame of the video before it is used.

    The cloth edges found in ``frame_bgr`` (h, w, 3 BGR) must lie within
    :func:`calibration.tolerance_px` of where ``calib`` (read from ``path``) puts them
    (docs/calibration.md, "Checked against the video"). No table found in the frame:
    ``say`` hears that the check could not be made, and the calibration is used.
    ``origin`` names the file and the way out that applies to it; ``source`` the video
    or camera (in the command of the way out); ``db`` carom live's database, beside
    which a camera's own calibration is kept (its wizard: ``carom serve --db`` it). A
    file fitted with less than a good fit's confidence (a doubtful fit, four marked
    corners alone) is used, and ``say`` hears so.

    Raises:
        CalibrationError: the calibration does not fit (one line: the side, the misfit
            in pixels, the tolerance and the way out).
    """
    given = origin is CalibrationOrigin.GIVEN
    which = f"--calibration {path}" if given else f"the camera's calibration {path}"
    try:
        fit = frame_fit(calib, frame_bgr)
    except CalibrationError as exc:
        say(f"{which}: not checked against the video ({exc}); using it as given")
        return
    if not fit.fits:
        raise _misfit(fit, which, origin, path, source, db)
    confidence = calib.residuals.get("confidence")
    if confidence is not None and confidence < _GOOD_CONFIDENCE:
        say(f"{which}: fitted with confidence {confidence:.2f}, below a good fit's "
            f"{_GOOD_CONFIDENCE:.2f} (its overlay shows where it is off): positions and "
            "cushion contacts may be off by centimetres")  # fmt: skip


def _misfit(
    fit: Any, which: str, origin: CalibrationOrigin, path: Path, source: str, db: Path | None
) -> Exception:
    return CalibrationError(
        f"{which}: does not fit this video: the table's {fit.worst_side} edge in the "
        f"picture lies {fit.worst_px:.1f} px from where the calibration puts it (at most "
        f"{fit.tolerance_px:.1f} px; another camera, lens or table, or corners marked "
        f"off?); {_way_out(origin, path, source, db)}"
    )


def _way_out(origin: CalibrationOrigin, path: Path, source: str, db: Path | None) -> str:
    if origin is CalibrationOrigin.GIVEN:
        command = shlex.join(["carom", "calibrate", source, "--out", str(path)])
        return (f"recalibrate ({command}) or leave out --calibration to fit one from the "
                "video")  # fmt: skip
    if origin is CalibrationOrigin.SERVER:
        return "fit it again in the wizard (/wizard), which saves it there"
    wizard = WIZARD_URL.removeprefix("http://")
    serve = shlex.join(["carom", "serve", "--camera", source, *(["--db", str(db)] if db else [])])
    return (f"fit it again: in the browser wizard ({wizard} of {serve}), or "
            f"delete {path} and the next start fits one")  # fmt: skip


@dataclass(frozen=True, slots=True)
class CalibrationFile:
    """A calibration file and where it came from (:class:`CalibrationOrigin`)."""

    path: Path
    origin: CalibrationOrigin = CalibrationOrigin.GIVEN
    #: The video or camera it is used with (named in the way out of a misfit).
    source: str = "VIDEO"
    #: carom live's database, beside which a camera's own calibration is kept.
    db: Path | None = None

    def load_checked(self, frame_bgr: Any, say: Say) -> Calibration:
        """The calibration, of ``frame_bgr``'s size (h, w, 3) and checked against it.

        Raises:
            CalibrationError: unreadable, of another picture size, or not fitting the
                picture (:func:`check_calibration_fits`).
        """
        h, w = frame_bgr.shape[:2]
        calib = load_calibration(self.path, expect_size_px=(w, h))
        check_calibration_fits(
            calib, frame_bgr, self.path, say, origin=self.origin, source=self.source, db=self.db
        )
        return calib
