"""Automatic calibration accuracy on rendered frames with known cameras.

Prints a Markdown table for docs/calibration.md: per camera the RMS and maximum
error in mm of ball centres (z = R) over a 100 mm grid of the playing surface, the
edge-fit residual in px and the detect + fit time in ms.

    PYTHONPATH=. .venv/bin/python bench/calibration_accuracy.py
"""

from __future__ import annotations

import time

import numpy as np

from calibration import fit_camera
from tests.calibration.test_fit import make_camera, render, surface_errors_mm

CASES = [  # height_m, tilt_deg, k1, cloth, players, score graphic
    (2.2, 15.0, -0.3, "blue", True, False),
    (2.2, 0.0, -0.3, "green", True, False),
    (2.5, 10.0, -0.2, "green", True, False),
    (2.8, 8.0, -0.15, "blue", False, False),
    (2.8, 0.0, 0.0, "blue", True, False),
    (3.0, 0.0, -0.15, "blue", True, True),
    (3.2, 12.0, -0.05, "green", True, True),
    (3.5, 5.0, -0.1, "green", True, False),
    (3.5, 15.0, 0.0, "blue", True, False),
]


def main() -> None:
    """Render each case, fit it and print one table row."""
    print(
        "| height m | tilt deg | k1 | cloth | player | score box | RMS mm | max mm "
        "| fitted height mm | edge RMS px | fit ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for height_m, tilt_deg, k1, cloth, players, graphic in CASES:
        camera = make_camera(height_m, tilt_deg, k1)
        image = render(camera, cloth, players, graphic)
        t0 = time.perf_counter()
        fit = fit_camera(image)
        ms = 1000.0 * (time.perf_counter() - t0)
        err = surface_errors_mm(camera, fit.camera)
        print(
            f"| {height_m:.1f} | {tilt_deg:.0f} | {k1:g} | {cloth} | {'yes' if players else 'no'} "
            f"| {'yes' if graphic else 'no'} | {np.sqrt(np.mean(err**2)):.2f} | {err.max():.2f} "
            f"| {fit.camera.pose.height_mm:.0f} | {fit.rms_px:.3f} | {ms:.0f} |"
        )


if __name__ == "__main__":
    main()
