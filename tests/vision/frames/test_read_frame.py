"""``read_frame``: the calibration's one frame, through the project's frame source."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import CalibrationError
from vision import VideoError, read_frame

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


def test_a_video_frame_has_the_pixels_opencv_decodes() -> None:
    """Frame 30 is not a reference frame: the analysis's fast path would differ there."""
    cap = cv2.VideoCapture(str(SAMPLE))
    cap.set(cv2.CAP_PROP_POS_FRAMES, 30)
    ok, expected = cap.read()
    cap.release()
    assert ok
    assert np.array_equal(read_frame(str(SAMPLE), 30), expected)


def test_a_still_image_is_read_as_it_is(tmp_path: Path) -> None:
    image = np.zeros((30, 40, 3), np.uint8)
    image[5, 7] = (1, 2, 3)
    cv2.imwrite(str(tmp_path / "still.png"), image)
    assert np.array_equal(read_frame(str(tmp_path / "still.png"), 5), image)


def test_no_such_file_and_a_broken_image_are_unreadable_media(tmp_path: Path) -> None:
    with pytest.raises(VideoError, match="no such file"):
        read_frame("/no/such.mp4")
    (tmp_path / "broken.png").write_bytes(b"not a picture")
    with pytest.raises(VideoError, match="cannot be read as an image"):
        read_frame(str(tmp_path / "broken.png"))


def test_a_frame_past_the_end_is_a_clear_error(tmp_path: Path) -> None:
    for i in range(2):  # an image folder: a source as a video is, two frames long
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.zeros((30, 40, 3), np.uint8))
    assert read_frame(str(tmp_path), 1).shape == (30, 40, 3)
    with pytest.raises(CalibrationError, match="no frame 2: it has 2 frames; pick one of 0 to 1"):
        read_frame(str(tmp_path), 2)
