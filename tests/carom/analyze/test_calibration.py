"""``carom analyze`` without ``--calibration``: which frames the self-calibration uses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from carom.analyze import AnalyzeOptions, calibration_for
from referee import MATCH_TABLE
from vision import open_source

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


@pytest.fixture(scope="module")
def frame_30_bgr() -> np.ndarray:
    source = open_source(str(SAMPLE))
    try:
        return next(f.image_bgr for f in source if f.frame_idx == 30)
    finally:
        source.close()


@pytest.fixture(scope="module")
def decoded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The fit from the file's own frames (both tests compare with it: fitted once)."""
    return _fit(tmp_path_factory.mktemp("decoded"), None)


def _fit(tmp: Path, frame_30: np.ndarray | None) -> dict[str, object]:
    opts = AnalyzeOptions(video=SAMPLE, out=tmp, table=MATCH_TABLE)
    calib = calibration_for(opts, (1280, 720), frame_30)
    doc = json.loads((tmp / "calibration.json").read_text())
    doc.pop("created", None)
    return {"file": doc, "centre_px": calib.mm_to_px(np.array([[1420.0, 710.0]]), 0.0).tolist()}


def test_a_decoded_frame_30_gives_the_same_calibration(
    frame_30_bgr: np.ndarray, decoded: dict[str, object], tmp_path: Path
) -> None:
    """The analysis hands over its own frame 30: the fit is the one from the file's."""
    assert frame_30_bgr.shape[:2] == (720, 1280)
    reused = _fit(tmp_path / "reused", frame_30_bgr)
    assert reused == decoded


def test_an_unusable_frame_30_falls_back_to_the_videos_other_frames(
    decoded: dict[str, object], tmp_path: Path
) -> None:
    """A frame with no table in it (a black one) is tried, then later frames are."""
    black = np.zeros((720, 1280, 3), np.uint8)
    fallback = _fit(tmp_path / "black", black)
    # Another frame's fit: the table's centre lands on the same pixel within a tenth.
    assert fallback["file"]["image_size_px"] == [1280, 720]
    assert np.allclose(fallback["centre_px"], decoded["centre_px"], atol=0.1)
