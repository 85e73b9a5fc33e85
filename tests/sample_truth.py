"""A bundled sample clip's truth file and the exact calibration it was rendered with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from calibration import Calibration, Camera, TableGeometry
from referee import Table

__all__ = ["SAMPLES", "sample_truth"]

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"


def sample_truth(name: str) -> tuple[dict[str, Any], Calibration]:
    """(truth document, calibration) of ``sample_videos/NAME``: the renderer's own camera."""
    truth: dict[str, Any] = json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    t = truth["table"]
    table = Table(
        length_mm=t["length_mm"], width_mm=t["width_mm"], ball_diameter_mm=2 * t["ball_radius_mm"]
    )
    geometry = TableGeometry(
        table,
        cushion_height_mm=t["cushion_height_mm"],
        cushion_width_mm=t["cushion_width_mm"],
        rail_width_mm=t["rail_width_mm"],
        rail_height_mm=t["rail_height_mm"],
    )
    return truth, Calibration(geometry, Camera.from_dict(truth["camera"]), "2026-11-29")
