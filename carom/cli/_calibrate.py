"""The ``carom calibrate`` command line."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from referee import Table


__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom calibrate``."""
    p = sub.add_parser(
        "calibrate",
        help="fit the camera to the table from one frame",
        description="Find the table in a frame of SOURCE (a video file, an image or a camera "
        "index), fit the camera model, write the calibration file and an overlay image, and "
        "print the quality report.",
    )
    p.add_argument("source", help="video file, image file or camera index (0, 1, ...)")
    p.add_argument("--out", type=Path, default=Path("calibration.json"), help="calibration file")
    p.add_argument("--overlay", type=Path, help="overlay image (default: OUT with _overlay.png)")
    p.add_argument("--frame", type=int, default=0, help="frame index in a video (0)")
    p.add_argument("--table", default="2840x1420",
                   help="playing surface LENGTHxWIDTH in mm, or a preset: match, small, large, "
                   "pyramid (the 7-pin pocket table, 3550x1775)")  # fmt: skip
    p.add_argument("--discipline", help="draw this discipline's lines on the overlay")
    p.add_argument("--corners", help="marked corners 'u,v;u,v;u,v;u,v' px, for tables auto misses")
    p.add_argument(
        "--diamonds", help="marked diamonds 'i:u,v;j:u,v' (index 0..23, px), with --corners"
    )
    p.add_argument("--interactive", action="store_true", help="click the corners in a window")
    p.add_argument(
        "--checkerboard", metavar="DIR_OR_GLOB",
        help="checkerboard pictures from this camera: fit the lens from them, then the pose only",
    )  # fmt: skip
    p.add_argument("--pattern", default="9x6", help="checkerboard inner corners COLSxROWS (9x6)")
    p.add_argument(
        "--square-mm", type=float, default=25.0, help="checkerboard square side in mm (25)"
    )


def _table(text: str) -> Table:
    from carom.cli._analyze import parse_table

    return parse_table(text)  # a preset (match, pyramid, ...) or LENGTHxWIDTH


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom calibrate``; raises CaromError on bad input."""
    from calibration import calibrate_frame, save_result
    from carom.cli._calibrate_args import (
        lens_from_checkerboards,
        parse_corners,
        parse_diamonds,
        parse_pattern,
    )
    from referee import Discipline
    from vision import read_frame

    table = _table(args.table)
    discipline = Discipline(args.discipline) if args.discipline else None
    diamonds = parse_diamonds(args.diamonds) if args.diamonds else None
    lens = None
    if args.checkerboard:
        pattern = parse_pattern(args.pattern)
        lens = lens_from_checkerboards(args.checkerboard, pattern, args.square_mm)
        print(f"lens from checkerboards: fx {lens[0].fx_px:.1f} px, k1 {lens[1].k1:.4f}, "
              f"rms {lens[2]:.3f} px")  # fmt: skip
    frame = read_frame(args.source, args.frame)
    corners = parse_corners(args.corners) if args.corners else None
    if args.interactive:
        corners = _click_corners(frame)
    result = calibrate_frame(
        frame, table, corners=corners, diamonds=diamonds, lens=lens, discipline=discipline
    )
    overlay = args.overlay or args.out.with_name(args.out.stem + "_overlay.png")
    save_result(result, args.out, overlay)
    print(result.report.text())
    print(f"wrote {args.out} and {overlay}")
    if result.report.verdict != "good":
        print("carom: the fit is not good: look at the overlay; mark the corners with --corners "
              "or --interactive", file=sys.stderr)  # fmt: skip
    return 0


def _click_corners(frame: NDArray[np.uint8]) -> list[list[float]]:
    """Let a person click the four playing-surface corners in an OpenCV window."""
    import cv2

    from calibration import CalibrationError

    if not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform != "linux"
    ):
        raise CalibrationError("--interactive needs a display; use --corners 'u,v;...' instead")
    points: list[list[float]] = []
    try:
        cv2.namedWindow("carom calibrate: click the 4 corners, q to quit")
    except cv2.error:
        raise CalibrationError(
            "--interactive needs OpenCV with windows (pip install opencv-python); "
            "use --corners 'u,v;u,v;u,v;u,v' instead"
        ) from None
    title = "carom calibrate: click the 4 corners, q to quit"
    cv2.setMouseCallback(
        title, lambda ev, x, y, *_: points.append([x, y]) if ev == cv2.EVENT_LBUTTONDOWN else None
    )
    while len(points) < 4:
        cv2.imshow(title, frame)
        if cv2.waitKey(30) & 0xFF == ord("q"):
            break
    cv2.destroyAllWindows()
    if len(points) < 4:
        raise CalibrationError("--interactive: fewer than 4 corners clicked; nothing written")
    return points
