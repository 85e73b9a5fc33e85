"""The detector on real broadcast frames (``../shared/realdata/broadcast_frames``).

The frames are real television pictures of a three-cushion match; the ball centres in
``fixtures/broadcast_balls.json`` were checked by eye (see its ``method``), and the
fixture carries the calibration fitted automatically on one of the frames.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from calibration import Calibration
from referee import Ball
from vision.detect._colour_detector import ColourDetector

ROOT = Path(__file__).resolve().parents[3]
BROADCAST = ROOT.parent / "shared" / "realdata" / "broadcast_frames"
FIXTURE = Path(__file__).parents[1] / "fixtures" / "broadcast_balls.json"
BALLS = (Ball.WHITE, Ball.YELLOW, Ball.RED)

pytestmark = pytest.mark.skipif(
    not BROADCAST.exists(), reason="real broadcast frames not present (../shared/realdata)"
)


@pytest.fixture(scope="module")
def fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def test_broadcast_frames_balls_found_with_correct_colours(fixture: dict[str, Any]) -> None:
    calib = Calibration.from_dict(fixture["calibration"])
    names = sorted(fixture["frames"])
    assert len(names) == 37
    detector = None
    frames_with_extra = 0
    for name in names:
        image = cv2.imread(str(BROADCAST / name))
        assert image is not None
        detector = detector or ColourDetector.learn(calib, image)
        found = detector.detect(image)
        frames_with_extra += len(found) > 3
        for ball in BALLS:
            want = fixture["frames"][name][ball.value]
            if want is None:
                continue
            assert ball in found.ball, f"{name}: {ball} not found"
            uv = found.uv_px[found.ball.index(ball)]
            assert np.hypot(*(uv - want)) < 3.0, f"{name}: {ball} at {uv}, expected {want}"
    assert frames_with_extra == 0
