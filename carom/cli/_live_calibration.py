"""carom live's calibration: the one given, the camera's saved one, or one fitted now.

A video file's calibration is checked on the frame the live loop learns the table from
before the match database is opened: a misfit leaves no empty match behind (a camera's
is checked on its first frames by the loop, as before).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from carom.console import say

__all__ = ["calibration_file", "live_calibration"]

#: The frame the live loop learns the table from (its 30th), checked before a match.
_LEARN_FRAME = 29


def live_calibration(args: argparse.Namespace, config: Any) -> Path:
    """``--calibration``, else the camera's saved one, else one fitted now and saved.

    A video file's calibration is then checked on it (:func:`_check_on_the_video`).

    A fit from a camera waits for a clear view of the table (and says so); a doubtful
    fit goes on with one line; a failed one raises
    :class:`calibration.CalibrationFailed` (exit 4) with the way to mark the corners.
    """
    from calibration import load_calibration
    from carom.cli._calibrate import progress_say
    from carom.pipeline import camera_calibration_path, check_calibration_table, fit_calibration
    from carom.progress import Progress

    if args.calibration is not None:
        path = Path(args.calibration)
        check_calibration_table(load_calibration(path), config.table, path)
        _check_on_the_video(args, path)
        return path
    path = camera_calibration_path(args.db, args.camera)
    if path.exists():
        # A damaged file, or one of another table, fails now, in one line.
        saved = saved_calibration(path, args.camera)
        check_calibration_table(saved, config.table, path, "the saved calibration")
        _check_on_the_video(args, path)
        _say(f"using the calibration saved for {args.camera}: {path}")
        return path
    _say(f"no calibration for {args.camera} yet: fitting one from it")
    bar = Progress.for_terminal()
    bar.stage(f"calibrating from {args.camera}")
    try:
        fit_calibration(args.camera, config.table, config.discipline, path.parent,
                        say=progress_say(bar, "live"), name=path.stem,
                        wizard_db=args.db)  # fmt: skip
    finally:
        bar.clear()
    _say(f"calibrated: {path} (the wizard and later runs use it; delete it to refit)")
    return path


def _check_on_the_video(args: argparse.Namespace, path: Path) -> None:
    """A video file's calibration checked now, on the frame the table is learned from.

    A misfit fails before the database is touched (no empty match left behind); a camera
    is checked on its first frames, as before.
    """
    from hardware import is_camera_spec
    from referee import CaromError
    from vision import read_frame

    if is_camera_spec(args.camera) or not Path(args.camera).is_file():
        return
    for idx in (_LEARN_FRAME, 0):
        try:
            frame = read_frame(args.camera, idx)
        except CaromError:
            continue  # a short video: its first frame; none: the run says why
        calibration_file(args, path).load_checked(frame, lambda _text: None)
        return


def calibration_file(args: argparse.Namespace, path: Path) -> Any:
    """``--calibration``'s file, else the camera's own beside the database."""
    from carom.pipeline import CalibrationFile, CalibrationOrigin

    given = args.calibration is not None
    origin = CalibrationOrigin.GIVEN if given else CalibrationOrigin.CAMERA
    return CalibrationFile(path, origin, source=str(args.camera), db=None if given else args.db)


def saved_calibration(path: Path, camera: str) -> Any:
    """The calibration saved for ``camera`` at ``path``, read.

    Raises:
        CalibrationError: it cannot be used (damaged, another camera's size): one line
            that says to delete it, so the next start fits a new one, the file being the
            program's own, not one a person gave.
    """
    from calibration import CalibrationError, load_calibration

    try:
        return load_calibration(path)
    except CalibrationError as exc:
        raise CalibrationError(f"{exc} (it is the calibration saved for {camera}: delete it "
                               "and the next start fits a new one, or pass --calibration "
                               "FILE)") from None  # fmt: skip


def _say(text: str) -> None:
    say("live", text)
