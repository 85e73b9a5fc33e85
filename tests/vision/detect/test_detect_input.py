"""What a detector is given must be a frame of its camera: 8-bit BGR of its size (a
16-bit frame was a raw OpenCV error, a float one found no ball at all, without a word)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration import Calibration, Camera, TableGeometry
from referee import Table
from vision import ColourDetector, VisionError, read_frame

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


@pytest.fixture(scope="module")
def learned() -> tuple[ColourDetector, np.ndarray]:
    truth = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    cal = Calibration(TableGeometry(Table()), Camera.from_dict(truth["camera"]), "2026-12-07")
    frame = read_frame(SAMPLE, 10)
    return ColourDetector.learn(cal, frame), frame


@pytest.mark.parametrize("dtype", [np.uint16, np.float32, np.float64, np.int32])
def test_a_frame_that_is_not_8_bit_is_refused_by_name(
    learned: tuple[ColourDetector, np.ndarray], dtype: type
) -> None:
    detector, frame = learned
    with pytest.raises(VisionError, match=f"frame is {np.dtype(dtype)}, expected uint8"):
        detector.detect(frame.astype(dtype))


def test_no_frame_at_all_is_refused_and_the_right_one_is_read(
    learned: tuple[ColourDetector, np.ndarray],
) -> None:
    detector, frame = learned
    with pytest.raises(VisionError, match=r"expected a \(720, 1280, 3\) uint8 frame, got NoneType"):
        detector.detect(None)  # type: ignore[arg-type]
    assert set(detector.detect(frame).ball) == {"white", "yellow", "red"}  # the sample's three
