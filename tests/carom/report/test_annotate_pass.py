"""``carom analyze --annotate`` on a short clip: every frame, near the source's size, the
score from the first frame (the start score of a match joined in progress)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import av
import cv2
import numpy as np
import pytest

from carom.analyze import AnalyzeOptions, AnalyzeRun, analyze_video, match_config
from carom.analyze._annotate_pass import _score_lines, source_bitrate, target_bitrate
from carom.report._annotate import SCORE_SCALE
from carom.report._annotate_labels import label_size
from referee import Match, StartState, Table

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"
SECONDS, RATE_BPS = 4.0, 300_000  # the sample's own rate is about 0.3 Mbit/s


def _cut(dst: Path) -> Path:
    """The sample's first ``SECONDS`` as H.264 at about ``RATE_BPS`` (a camera's rate)."""
    with av.open(str(SAMPLE)) as inp, av.open(str(dst), "w") as out:
        stream = out.add_stream("libx264", rate=30)
        stream.width, stream.height, stream.pix_fmt = 1280, 720, "yuv420p"
        stream.bit_rate, stream.options = RATE_BPS, {"preset": "veryfast"}
        for i, frame in enumerate(inp.decode(video=0)):
            if i >= SECONDS * 30:
                break
            frame.pts, frame.time_base = i, Fraction(1, 30)
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    return dst


def _frames(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as video:
        return [f.to_ndarray(format="bgr24") for f in video.decode(video=0)]


def _ink(text: str, scale: float) -> tuple[int, int]:
    """The (width, height) of ``text``'s strokes drawn alone, as the score is drawn."""
    img = np.zeros((200, 800), np.uint8)
    cv2.putText(img, text, (10, 100), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 2, cv2.LINE_AA)
    vs, us = np.nonzero(img > 100)
    return int(us.max() - us.min() + 1), int(vs.max() - vs.min() + 1)


@pytest.fixture(scope="module")
def annotated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("annotate_pass")
    clip = _cut(root / "clip.mp4")
    opts = AnalyzeOptions(video=clip, out=root / "out", table=Table(), players=("Ana", "Ben"),
                          annotate=True, trajectories=False)  # fmt: skip
    run = analyze_video(opts)
    assert run.error is None and not [n for n in run.notes if "annotated" in n]
    return clip, root / "out" / "annotated.mp4"


def test_every_frame_is_written_at_about_the_source_s_size(annotated: tuple[Path, Path]) -> None:
    clip, out = annotated
    source, written = _frames(clip), _frames(out)
    assert len(written) == len(source) == SECONDS * 30
    assert written[0].shape == source[0].shape
    ratio = out.stat().st_size / clip.stat().st_size
    assert 0.5 <= ratio <= 2.0, ratio  # it was 13x before the rate followed the source


def test_the_score_shows_from_the_first_frame(annotated: tuple[Path, Path]) -> None:
    """Frame 0 has a dark plate in the top-left corner, with light text exactly as wide
    and high as ``Ana 0 : 0 Ben`` drawn alone."""
    _, out = annotated
    img = _frames(out)[0].astype(int)
    scale = SCORE_SCALE  # the clip is 720 px high
    width, height = label_size(["Ana 0 : 0 Ben"], scale)
    region = img[12 : round(10 + height) - 2, : round(10 + width) - 2]
    light = region.min(axis=2) > 150  # under the plate the source is darkened below 60
    light[:, light.mean(axis=0) > 0.9] = False  # the plate's bar: light from top to bottom
    assert np.median(region[:, 30:].max(axis=2)) < 60  # the plate
    vs, us = np.nonzero(light)
    assert len(us) > 300  # the score's strokes
    w, h = _ink("Ana 0 : 0 Ben", scale)
    assert abs((us.max() - us.min() + 1) - w) <= 4, (us.max() - us.min() + 1, w)
    assert abs((vs.max() - vs.min() + 1) - h) <= 4, (vs.max() - vs.min() + 1, h)


def test_a_match_joined_in_progress_starts_from_its_score(tmp_path: Path) -> None:
    opts = AnalyzeOptions(video=SAMPLE, out=tmp_path, table=Table(), players=("Ana", "Ben"))
    start = StartState(board={"Ana": 12, "Ben": 7}, shooter="Ben")
    run = AnalyzeRun(options=opts, match=Match(dataclasses.replace(match_config(opts),
                                                                   start=start)))  # fmt: skip
    assert _score_lines(run) == [(0.0, "Ana 12 : 7 Ben")]
    three = dataclasses.replace(opts, players=("A", "B", "C"))
    run = AnalyzeRun(options=three, match=Match(match_config(three)))
    assert _score_lines(run) == [(0.0, "A 0  B 0  C 0")]


def test_the_target_rate_follows_the_source(tmp_path: Path) -> None:
    video = tmp_path / "v.mp4"
    video.write_bytes(b"\0" * 375_000)  # 3 Mbit over 10 s
    assert source_bitrate(video, 300, 30.0) == 300_000
    assert target_bitrate(video, 300, 30.0) == 360_000  # 1.2x: the overlays add detail
    assert target_bitrate(video, 0, 30.0) is None  # a stream of unknown length
    assert target_bitrate(tmp_path / "gone.mp4", 300, 30.0) is None
    video.write_bytes(b"\0" * 100)
    assert target_bitrate(video, 300, 30.0) == 100_000  # a floor for a tiny file


def test_the_score_changes_when_each_judged_shot_ends(tmp_path: Path) -> None:
    """Only the fields the score line reads: the shot's end and the score after it."""
    opts = AnalyzeOptions(video=SAMPLE, out=tmp_path, table=Table(), players=("Ana", "Ben"))
    run = AnalyzeRun(options=opts, match=Match(match_config(opts)))

    def shot(end_s: float) -> Any:
        return SimpleNamespace(shot=SimpleNamespace(end_s=end_s))

    run.shots = [
        (shot(13.4), SimpleNamespace(score_after={"Ana": 1, "Ben": 0})),
        (shot(20.0), None),  # not judged: the score stays
        (shot(31.2), SimpleNamespace(score_after={"Ana": 1, "Ben": 1})),
    ]
    assert _score_lines(run) == [(0.0, "Ana 0 : 0 Ben"), (13.4, "Ana 1 : 0 Ben"),
                                 (31.2, "Ana 1 : 1 Ben")]  # fmt: skip
